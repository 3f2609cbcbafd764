import Foundation
import ProcessFiles
import Testing

@testable import ReplayApp

/// A file written whole or not at all (``ReportWriter``) is made new under its temporary name:
/// a link or a file planted there is removed, never written through.
struct ReportWriterTests {
    @Test func aLinkPlantedAtTheTemporaryNameIsNotWrittenThrough() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avt-writer-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        let target = folder.appendingPathComponent("run.json").path
        let temporary = TemporaryName.of(target, pid: getpid())
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: victim)
        try AtomicFile.write(Array("new\n".utf8), to: target)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        // A plain file left there by a process of the same pid is replaced, not appended to.
        try Data("stale stale stale".utf8).write(to: URL(fileURLWithPath: temporary))
        try AtomicFile.write(Array("newer\n".utf8), to: target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "newer\n")
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }
}
