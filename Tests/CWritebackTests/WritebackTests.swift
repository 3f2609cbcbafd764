import CWriteback
import Foundation
import Testing

@Suite struct WritebackTests {
    @Test func startsTheWritebackOfAFilesBytes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("writeback-\(getpid())").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        let bytes = [UInt8](repeating: 0x61, count: 10_000)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        #expect(avt_start_writeback(descriptor, 0, Int64(bytes.count)) == 0)
        #expect(fsync(descriptor) == 0)
    }

    @Test func saysWhyWhenTheDescriptorIsNoFile() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(avt_start_writeback(ends[1], 0, 1) == ESPIPE)
        #expect(avt_start_writeback(-1, 0, 1) == EBADF)
    }
}
