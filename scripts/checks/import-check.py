#!/usr/bin/env python3
"""Every module a target imports is one it declares in Package.swift.

SwiftPM's `--explicit-target-dependency-import-check error` (which the test command's build
passes) refuses an import of a package module that is not among a target's dependencies, direct
or transitive. This check is stricter: a target's imports must be its *direct* dependencies, so
that moving a module never leaves another one compiling only by the way of a third. Modules of
the system and the toolchain are allowed anywhere except in EventModel, which uses the standard
library alone (with Synchronization, which ships in it).

Usage: scripts/checks/import-check.py   (from anywhere; reads `swift package dump-package`)
Exit 0 when every import is declared, 1 with one line per undeclared import otherwise.
"""

import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

# What the toolchain and the operating system provide: never a dependency in Package.swift.
SYSTEM = {"Swift", "Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch",
          "Synchronization", "Testing", "XCTest", "_Concurrency"}
# The standard library: all EventModel may import.
STANDARD_LIBRARY = {"Swift", "Synchronization"}

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)")


def declared(target: dict) -> set[str]:
    """The modules a target names as dependencies: targets by name, products by their module."""
    names = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def imports(folder: pathlib.Path) -> list[tuple[pathlib.Path, int, str]]:
    found = []
    for source in sorted(folder.rglob("*.swift")):
        for number, line in enumerate(source.read_text().splitlines(), 1):
            match = IMPORT.match(line)
            if match:
                found.append((source, number, match.group(1)))
    return found


def main() -> int:
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout)
    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        folder = ROOT / (target.get("path") or ("Tests" if target["type"] == "test" else "Sources")
                         + "/" + target["name"])
        allowed = declared(target) | {target["name"]}
        allowed |= STANDARD_LIBRARY if target["name"] == "EventModel" else SYSTEM
        for source, number, module in imports(folder):
            if module not in allowed:
                problems.append(f"{source.relative_to(ROOT)}:{number}: {target['name']} imports {module}, "
                                "which it does not declare in Package.swift")
    for problem in problems:
        print(f"import-check: {problem}", file=sys.stderr)
    print(f"import-check: {len(problems)} undeclared imports", file=sys.stderr if problems else sys.stdout)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
