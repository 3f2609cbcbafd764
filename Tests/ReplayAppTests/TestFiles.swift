import Foundation

/// A temporary directory for one test, removed when the value is deinitialized.
final class TemporaryDirectory {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ReplayAppTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `data` to `name` and returns its path.
    func write(_ data: Data, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }
}

/// Runs `executable` with `arguments` and `input` on its standard input; returns its exit
/// status and standard output.
func runProcess(_ executable: URL, _ arguments: [String], input: Data = Data()) throws -> (status: Int32, output: Data)
{
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let standardInput = Pipe()
    let output = Pipe()
    process.standardInput = standardInput
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Written from another thread, so that a full output pipe cannot block the writer.
    let writer = Thread {
        standardInput.fileHandleForWriting.write(input)
        try? standardInput.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}

/// Compresses `data` with `/bin/gzip` into one gzip member.
func gzip(_ data: Data) throws -> Data {
    let result = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-c", "-n"], input: data)
    guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
    return result.output
}
