// swift-tools-version:6.2
import PackageDescription

/// A replay command of its own, built on avt-replay's libraries: `custom-replay` is `avt-replay`
/// with a hub that counts each playback's quality changes and a metricalc that adds
/// `TimeBetweenQualityChanges` to OpenAVT's metrics.
let package = Package(
    name: "custom-hub",
    dependencies: [
        // avt-replay, two folders up. In a package of your own: its path, or its git URL
        // (see "Custom elements" in avt-replay's docs/library.md).
        .package(name: "avt-replay", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "custom-replay",
            dependencies: [
                .product(name: "EventModel", package: "avt-replay"),
                .product(name: "OpenAVT", package: "avt-replay"),
                .product(name: "Replay", package: "avt-replay"),
                .product(name: "ReplayCLI", package: "avt-replay"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
