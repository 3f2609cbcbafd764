// swift-tools-version:6.2
import PackageDescription

/// Module layers, each importing only the ones listed before it:
/// EventModel → OpenAVT, ValueProposition, Marconi → Replay → ReportEncoding;
/// CZlib, CSimdjson → EventLog; all of them → the `avt-replay` command.
let package = Package(
    name: "avt-replay",
    products: [
        .executable(name: "avt-replay", targets: ["avt-replay"]),
        .library(name: "EventModel", targets: ["EventModel"]),
        .library(name: "OpenAVT", targets: ["OpenAVT"]),
        .library(name: "ValueProposition", targets: ["ValueProposition"]),
        .library(name: "Marconi", targets: ["Marconi"]),
        .library(name: "Replay", targets: ["Replay"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "ReportEncoding", targets: ["ReportEncoding"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .target(name: "EventModel"),
        .target(name: "OpenAVT", dependencies: ["EventModel"]),
        .target(name: "ValueProposition", dependencies: ["EventModel"]),
        .target(name: "Marconi", dependencies: ["EventModel"]),
        .target(
            name: "Replay",
            dependencies: [
                "EventModel", "OpenAVT", "ValueProposition", "Marconi",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .target(
            name: "ReportEncoding", dependencies: ["EventModel", "OpenAVT", "ValueProposition", "Marconi", "Replay"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "CSimdjson",
            cxxSettings: [.unsafeFlags(["-O3"])],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .target(name: "EventLog", dependencies: ["EventModel", "CZlib", "CSimdjson"]),
        .target(name: "CMallocTuning"),
        .target(name: "MetricsPush"),
        .executableTarget(
            name: "avt-replay",
            dependencies: [
                "EventModel", "OpenAVT", "ValueProposition", "Replay", "ReportEncoding", "EventLog", "CMallocTuning",
                "MetricsPush",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "avt-loggen",
            dependencies: [
                "EventModel", "EventLog", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "ReplayTestSupport", dependencies: ["EventModel", "OpenAVT", "Marconi", "Replay"]),
        .testTarget(name: "EventModelTests", dependencies: ["EventModel"]),
        .testTarget(name: "OpenAVTTests", dependencies: ["OpenAVT", "ReplayTestSupport"]),
        .testTarget(name: "ValuePropositionTests", dependencies: ["ValueProposition"]),
        .testTarget(name: "MarconiTests", dependencies: ["Marconi"]),
        .testTarget(name: "ReplayTests", dependencies: ["Replay", "ReplayTestSupport"]),
        .testTarget(name: "ReportEncodingTests", dependencies: ["ReportEncoding", "ReplayTestSupport"]),
        .testTarget(name: "EventLogTests", dependencies: ["EventLog"]),
        .testTarget(name: "MetricsPushTests", dependencies: ["MetricsPush"]),
        .testTarget(name: "EndToEndTests", dependencies: ["ReplayTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // Release builds skip the run-time exclusivity checks on class properties (measured: a
    // tenth of a replay's instructions); debug builds, which the tests run, keep them.
    if target.type != .test {
        settings.append(.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)))
    }
    target.swiftSettings = settings
}
