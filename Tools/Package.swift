// swift-tools-version:6.2
import PackageDescription

/// The project's tools, apart from the product: `avt-loggen`, the generator of realistic event
/// logs that the tests, the benchmark and the checks replay. The libFuzzer targets are in
/// `Fuzz/`, built by `scripts/fuzz.sh`. Depends on avt-replay's libraries by path.
let package = Package(
    name: "avt-replay-tools",
    dependencies: [
        .package(name: "avt-replay", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "avt-loggen",
            dependencies: [
                .product(name: "Replay", package: "avt-replay"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
