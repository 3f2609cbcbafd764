// swift-tools-version:6.2
import Foundation
import PackageDescription

/// Whether ISA-L's gzip is built: where its header is present (Debian's `libisal-dev`) and
/// `AVT_REPLAY_ZLIB` is not set (the test command builds the package so once, to check that it
/// compiles without it). zlib's gzip is always built: it is what runs where ISA-L is not, and
/// with `AVT_REPLAY_GZIP=zlib` (docs/testing.md). ISA-L inflates these logs about twice as fast.
let buildsIsal =
    Context.environment["AVT_REPLAY_ZLIB"] == nil
    && ["/usr/include/isa-l.h", "/usr/local/include/isa-l.h", "/opt/homebrew/include/isa-l.h"].contains {
        FileManager.default.fileExists(atPath: $0)
    }
let gzipCodecs: [Target.Dependency] = buildsIsal ? ["CZlib", "CIsal"] : ["CZlib"]
let gzipSettings: [SwiftSetting] = buildsIsal ? [.define("AVT_REPLAY_ISAL")] : []

/// Module layers, each importing only the ones listed before it:
/// TextFormat (numbers and JSON into bytes) → EventModel → OpenAVT, ValueProposition, Marconi → Replay →
/// ReportEncoding;
/// CIsal, CZlib, CSimdjson → EventLog; CIsal, CZlib, CCurl → MetricsPush; ReportDiff on its own; all of them →
/// ReplayApp (a run: reading, merging, replaying, the report set, state, shards, merge) →
/// ReplayCLI (the command line over it, a library so that other packages can build their own
/// replay commands) → the `avt-replay` executable. A target lists every module it imports,
/// the ones it reaches through another included (scripts/checks/import-check.py, in the test
/// command with SwiftPM's `--explicit-target-dependency-import-check error`).
/// Whether SwiftPM reads this manifest as another package's dependency (from its checkouts or
/// repository cache), where it refuses any package whose products have unsafe flags: the speed
/// flags below are then left out, so that the libraries can be used by a tagged version.
let isDependency = ["/checkouts/", "/repositories/", "/SourcePackages/"].contains {
    Context.packageDirectory.contains($0)
}

let package = Package(
    name: "avt-replay",
    products: [
        .executable(name: "avt-replay", targets: ["avt-replay"]),
        // The replay library: the model, the ports of OpenAVT, Tentacles and Marconi, the
        // replay engine, reading event logs and encoding the reports.
        .library(
            name: "Replay",
            targets: ["EventModel", "OpenAVT", "ValueProposition", "Marconi", "Replay", "EventLog", "ReportEncoding"]),
        // The command line, for a replay command of one's own (docs/library.md).
        .library(name: "ReplayCLI", targets: ["ReplayCLI"]),
        // Harnesses and stubs for testing custom hubs, metricalcs and trackers.
        .library(name: "ReplayTestSupport", targets: ["ReplayTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .target(name: "TextFormat"),
        .target(name: "EventModel", dependencies: ["TextFormat"]),
        .target(name: "OpenAVT", dependencies: ["EventModel"]),
        .target(name: "ValueProposition", dependencies: ["EventModel"]),
        .target(name: "Marconi", dependencies: ["EventModel"]),
        .target(
            name: "Replay",
            dependencies: [
                "EventModel", "OpenAVT", "ValueProposition", "Marconi", "CMemoryHints",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .target(
            name: "ReportEncoding",
            dependencies: ["TextFormat", "EventModel", "OpenAVT", "ValueProposition", "Marconi", "Replay"]),
        .systemLibrary(name: "CIsal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libcurl, for InfluxDB's requests with timeouts of their own (MetricsPush/CurlPost.swift).
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .target(
            name: "CSimdjson",
            cxxSettings: isDependency ? [] : [.unsafeFlags(["-O3"])],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .target(
            name: "EventLog", dependencies: ["TextFormat", "EventModel", "CSimdjson"] + gzipCodecs,
            swiftSettings: gzipSettings),
        .target(name: "CMallocTuning"),
        .target(name: "CWriteback"),
        .target(name: "CExchange"),
        .target(name: "ProcessFiles"),
        .target(name: "CMemoryHints"),
        .target(name: "CThreadName"),
        .target(
            name: "MetricsPush", dependencies: ["CCurl", "ProcessFiles"] + gzipCodecs, swiftSettings: gzipSettings),
        .target(name: "ReportDiff"),
        .target(
            name: "ReplayApp",
            dependencies: [
                "TextFormat", "EventModel", "OpenAVT", "ValueProposition", "Replay", "ReportEncoding", "EventLog",
                "CWriteback", "CExchange",
                "CMemoryHints", "CThreadName", "ProcessFiles", "ReportDiff",
                // zlib's CRC-32, the checksums of a state file (ReplayApp/StateChecksum.swift).
                "CZlib",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "ReplayCLI",
            dependencies: [
                "TextFormat", "EventModel", "OpenAVT", "ValueProposition", "Replay", "ReportEncoding", "EventLog",
                "CMallocTuning", "MetricsPush", "ReportDiff", "ReplayApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // jemalloc instead of glibc's malloc (Debian's libjemalloc-dev): measured 8% faster
        // at 1M records and 19% at 5M, peak memory within 2%.
        .executableTarget(
            name: "avt-replay", dependencies: ["ReplayCLI"], linkerSettings: [.linkedLibrary("jemalloc")]),
        .target(name: "ReplayTestSupport", dependencies: ["EventModel", "OpenAVT", "Marconi", "Replay"]),
        // The generator of realistic event logs that the tests, the checks and the benchmark
        // replay (scripts/generate/loggen.sh). Not a product: `swift build` builds it beside avt-replay.
        .executableTarget(
            name: "avt-loggen",
            dependencies: [
                "EventModel", "EventLog", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "EventModelTests", dependencies: ["EventModel"]),
        .testTarget(name: "OpenAVTTests", dependencies: ["EventModel", "OpenAVT", "ReplayTestSupport"]),
        .testTarget(name: "ValuePropositionTests", dependencies: ["EventModel", "ValueProposition"]),
        .testTarget(name: "MarconiTests", dependencies: ["EventModel", "Marconi"]),
        .testTarget(
            name: "ReplayTests",
            dependencies: ["EventModel", "OpenAVT", "ValueProposition", "Marconi", "Replay", "ReplayTestSupport"]),
        .testTarget(
            name: "ReportEncodingTests",
            dependencies: [
                "TextFormat", "EventModel", "OpenAVT", "ValueProposition", "Marconi", "Replay", "ReportEncoding",
                "ReplayTestSupport",
            ]),
        .testTarget(name: "EventLogTests", dependencies: ["EventModel", "EventLog"]),
        .testTarget(name: "MetricsPushTests", dependencies: ["MetricsPush"]),
        .testTarget(name: "ReportDiffTests", dependencies: ["ReportDiff"]),
        .testTarget(name: "EndToEndTests", dependencies: ["EventModel", "ReplayTestSupport"]),
        .testTarget(
            name: "ReplayAppTests", dependencies: ["EventLog", "EventModel", "ProcessFiles", "Replay", "ReplayApp"]),
        .testTarget(name: "CWritebackTests", dependencies: ["CWriteback"]),
        .testTarget(
            name: "ReplayCLITests",
            dependencies: [
                "EventModel", "ReplayCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // Release builds skip the run-time exclusivity checks on class properties (measured: a
    // tenth of a replay's instructions); debug builds, which the tests run, keep them. They
    // optimise across modules too, so that small functions of one module are inlined into
    // another's hot loops (measured: 1.7% fewer instructions).
    if target.type != .test && !isDependency {
        settings.append(
            .unsafeFlags(
                ["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release)))
    }
    target.swiftSettings = settings
}
