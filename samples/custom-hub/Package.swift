// swift-tools-version:6.2
import PackageDescription

/// A replay command of its own, built on avt-replay's libraries: `custom-replay` is `avt-replay`
/// with a hub that counts each playback's quality changes and a metricalc that adds
/// `TimeBetweenQualityChanges` to OpenAVT's metrics. `legacy-replay` has a metricalc written
/// before nightly runs, which cannot keep its state: `--state` refuses it, naming it.
let package = Package(
    name: "custom-hub",
    dependencies: [
        // avt-replay by its version, from a git clone of the working tree that
        // scripts/checks/custom-hub-test.sh makes and tags. In a package of your own:
        // .package(url: "<avt-replay's git URL>", from: "0.9.0") (docs/library.md).
        .package(url: Context.packageDirectory + "/.upstream/avt-replay", from: "0.9.0")
    ],
    targets: [
        .executableTarget(
            name: "custom-replay",
            dependencies: [
                .product(name: "Replay", package: "avt-replay"),
                .product(name: "ReplayCLI", package: "avt-replay"),
            ]
        ),
        .executableTarget(
            name: "legacy-replay",
            dependencies: [
                .product(name: "Replay", package: "avt-replay"),
                .product(name: "ReplayCLI", package: "avt-replay"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
