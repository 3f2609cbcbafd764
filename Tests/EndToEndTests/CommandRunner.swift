import Foundation

/// Runs the built `avt-replay` binary, as a user would.
struct CommandRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of the binaries the tests run: `AVT_REPLAY_BINARIES` when set (the test
    /// command gives its release build's: a debug binary costs some ten times the CPU, 0.2 s
    /// to start alone), else the build folder of the test bundle (`swift build --build-tests`
    /// builds them beside it).
    static let binaries =
        ProcessInfo.processInfo.environment["AVT_REPLAY_BINARIES"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// The replay binary (in ``binaries``).
    static let binary = binaries.appendingPathComponent("avt-replay")

    /// The README's main command's arguments, without the input files.
    static let mainArguments = ["--trace", "--trace-rejected", "--vp-duration", "open:complete"]

    /// The bundled sample logs, by name.
    static var samples: [String] {
        let folder = packageRoot.appendingPathComponent("samples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl.gz") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The log generator (in ``binaries`` too).
    static let loggen = binaries.appendingPathComponent("avt-loggen")

    static func run(
        _ arguments: [String], standardInput: Data? = nil, executable: URL = binary,
        environment: [String: String] = [:],
        in directory: URL? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.currentDirectoryURL = directory ?? packageRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let standardInput { input.fileHandleForWriting.write(standardInput) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    /// A new empty folder under the system's temporary folder.
    static func makeTemporaryFolder() throws -> URL {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("avt-replay-test-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard let path = bytes.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } })
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        return URL(fileURLWithPath: String(cString: path))
    }
}
