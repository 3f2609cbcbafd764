import EventLog
import Foundation
import Testing

@Suite struct LineReaderTests {
    @Test func plainFileLinesAndNumbers() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("one\ntwo\nthree\n", to: "a.jsonl")
        let result = try readEvents(path)
        #expect(result.error == nil)
        #expect(result.events == [.line(1, "one"), .line(2, "two"), .line(3, "three")])
    }

    @Test func gzipReadsTheSameLinesWhateverTheChunkSizes() throws {
        let directory = try TemporaryDirectory()
        let sample = sampleLog(count: 300)
        let compressed = try gzip(sample.text)
        let path = try directory.write(compressed, to: "a.jsonl.gz")
        let plainPath = try directory.write(sample.text, to: "a.jsonl")
        for readSize in [1, 2, 3, 7, 64, 4096, compressed.count] {
            for fillSize in [1, 13, LineReaderConfiguration.defaultFillSize] {
                let configuration = LineReaderConfiguration(readSize: readSize, fillSize: fillSize)
                let result = try readEvents(path, configuration: configuration)
                #expect(result.error == nil, "readSize \(readSize), fillSize \(fillSize)")
                #expect(result.events == sample.lines, "gzip, readSize \(readSize), fillSize \(fillSize)")
                let plain = try readEvents(plainPath, configuration: configuration)
                #expect(plain.error == nil)
                #expect(plain.events == sample.lines, "plain, readSize \(readSize), fillSize \(fillSize)")
            }
        }
    }

    @Test func concatenatedGzipMembersReadAsOneStream() throws {
        let directory = try TemporaryDirectory()
        var data = try gzip("a\nb\n")
        data.append(try gzip(""))
        data.append(try gzip("c\nd"))
        data.append(try gzip("\ne\n"))
        let path = try directory.write(data, to: "multi.gz")
        for readSize in [1, 5, 4096] {
            let result = try readEvents(path, configuration: LineReaderConfiguration(readSize: readSize))
            #expect(result.error == nil)
            #expect(result.events == [.line(1, "a"), .line(2, "b"), .line(3, "c"), .line(4, "d"), .line(5, "e")])
        }
    }

    @Test func zeroPaddingAfterTheLastMemberIsIgnored() throws {
        let directory = try TemporaryDirectory()
        var data = try gzip("a\nb\n")
        data.append(Data(repeating: 0, count: 512))
        let path = try directory.write(data, to: "padded.gz")
        let result = try readEvents(path, configuration: LineReaderConfiguration(readSize: 100))
        #expect(result.error == nil)
        #expect(result.events == [.line(1, "a"), .line(2, "b")])
    }

    @Test func garbageAfterAMemberIsCorruptData() throws {
        let directory = try TemporaryDirectory()
        var data = try gzip("a\nb\n")
        data.append(Data("not gzip".utf8))
        let path = try directory.write(data, to: "garbage.gz")
        let result = try readEvents(path)
        #expect(result.events == [.line(1, "a"), .line(2, "b")])
        #expect(result.error?.kind == .corruptGzip)
    }

    @Test func aWrongChecksumIsCorruptData() throws {
        let directory = try TemporaryDirectory()
        var data = try gzip("a\nb\n")
        // The trailer is the CRC-32 (4 bytes) then the length: flip a bit of the CRC.
        data[data.count - 8] ^= 0x01
        let path = try directory.write(data, to: "crc.gz")
        let result = try readEvents(path)
        #expect(result.error?.kind == .corruptGzip)
        #expect(result.error?.description.contains("incorrect checksum") == true)
    }

    @Test func truncatedGzipYieldsTheLinesBeforeTheCutThenFails() throws {
        let directory = try TemporaryDirectory()
        let sample = sampleLog(count: 2000)
        let compressed = try gzip(Data(sample.text.utf8), level: 1)
        let path = try directory.write(compressed.prefix(compressed.count / 2), to: "cut.jsonl.gz")
        for readSize in [7, 4096, compressed.count] {
            let result = try readEvents(
                path, configuration: LineReaderConfiguration(readSize: readSize, fillSize: 1000))
            let error = try #require(result.error)
            #expect(error.kind == .truncatedGzip)
            #expect(error.file == path)
            #expect(error.description.hasPrefix("\(path): truncated gzip stream (cut in line "))
            #expect(result.events.count > 100)
            #expect(result.events.count < sample.lines.count)
            #expect(Array(sample.lines.prefix(result.events.count)) == result.events)
        }
    }

    @Test func gzipCutInsideItsHeaderIsTruncated() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(try gzip("a\n").prefix(5), to: "header.gz")
        let result = try readEvents(path)
        #expect(result.events.isEmpty)
        #expect(result.error?.kind == .truncatedGzip)
    }

    @Test func corruptGzipDataReportsZlibsMessage() throws {
        let directory = try TemporaryDirectory()
        var data = try gzip(String(repeating: "{\"ts\":1}\n", count: 100))
        // Keep the 10-byte header; replace the deflate data with invalid block types.
        for index in 10..<(data.count - 8) {
            data[index] = 0xFF
        }
        let path = try directory.write(data, to: "corrupt.gz")
        let result = try readEvents(path)
        let error = try #require(result.error)
        #expect(error.kind == .corruptGzip)
        #expect(error.description.hasPrefix("\(path): corrupt gzip data ("))
    }

    @Test func aNonGzipFileNamedGzIsReadAsPlain() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("{\"ts\":1}\n{\"ts\":2}\n", to: "plain.jsonl.gz")
        let result = try readEvents(path)
        #expect(result.error == nil)
        #expect(result.events == [.line(1, "{\"ts\":1}"), .line(2, "{\"ts\":2}")])
    }

    @Test func oneByteFilesAreReadAsPlain() throws {
        let directory = try TemporaryDirectory()
        let gzipMagicStart = try directory.write(Data([0x1F]), to: "one.gz")
        #expect(try readEvents(gzipMagicStart).events == [.line(1, "\u{1F}")])
        let letter = try directory.write("x", to: "x.jsonl")
        #expect(try readEvents(letter).events == [.line(1, "x")])
    }

    @Test func emptyFilesHaveNoLines() throws {
        let directory = try TemporaryDirectory()
        let plain = try directory.write("", to: "empty.jsonl")
        let plainResult = try readEvents(plain)
        #expect(plainResult.events.isEmpty)
        #expect(plainResult.error == nil)
        let compressed = try directory.write(try gzip(""), to: "empty.jsonl.gz")
        let compressedResult = try readEvents(compressed)
        #expect(compressedResult.events.isEmpty)
        #expect(compressedResult.error == nil)
    }

    @Test func aMissingPathCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing.jsonl.gz")
        let error = #expect(throws: EventLogError.self) { try LineReader(path: path) }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.description == "\(path): cannot open (No such file or directory)")
    }

    @Test func aDirectoryIsRejected() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: EventLogError.self) { try LineReader(path: directory.url.path) }
        #expect(error?.kind == .isDirectory)
        #expect(error?.description == "\(directory.url.path): is a directory")
    }

    @Test func anUnreadableFileCannotBeOpened() throws {
        // root may read anything; the check is meaningful only for other users.
        guard getuid() != 0 else { return }
        let directory = try TemporaryDirectory()
        let path = try directory.write("x\n", to: "secret.jsonl")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        let error = #expect(throws: EventLogError.self) { try LineReader(path: path) }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.message == "cannot open (Permission denied)")
    }

    @Test func standardInputIsShownAsStdin() {
        #expect(LineReader.displayName(for: "-") == "<stdin>")
        #expect(LineReader.displayName(for: "logs/a.jsonl.gz") == "logs/a.jsonl.gz")
    }

    @Test func carriageReturnsBeforeLineFeedsAreDropped() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("a\r\nb\r\nc\r", to: "crlf.jsonl")
        let result = try readEvents(path)
        #expect(result.events == [.line(1, "a"), .line(2, "b"), .line(3, "c")])
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("\na\n\n  \n\t\r\n \tb\n\n", to: "blank.jsonl")
        let result = try readEvents(path, configuration: LineReaderConfiguration(readSize: 3, fillSize: 2))
        #expect(result.events == [.line(2, "a"), .line(6, " \tb")])
    }

    @Test func aLastLineWithoutLineFeedCounts() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("a\nb", to: "last.jsonl")
        let compressed = try directory.write(try gzip("a\nb"), to: "last.jsonl.gz")
        #expect(try readEvents(path).events == [.line(1, "a"), .line(2, "b")])
        #expect(try readEvents(compressed).events == [.line(1, "a"), .line(2, "b")])
    }

    @Test func overLongLinesAreReportedAndReadingResumesAfterThem() throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "x", count: 35)
        let text = "short\n\(long)\n0123456789\n\(long)"
        let plain = try directory.write(text, to: "long.jsonl")
        let compressed = try directory.write(try gzip(text), to: "long.jsonl.gz")
        for path in [plain, compressed] {
            for (readSize, fillSize) in [(1, 1), (3, 4), (7, 64), (4096, 4096)] {
                let configuration = LineReaderConfiguration(maxLineLength: 10, readSize: readSize, fillSize: fillSize)
                let result = try readEvents(path, configuration: configuration)
                #expect(result.error == nil)
                try #require(result.events.count == 4, "readSize \(readSize), fillSize \(fillSize)")
                #expect(result.events[0] == .line(1, "short"))
                #expect(result.events[2] == .line(3, "0123456789"))
                for (index, number) in [(1, 2), (3, 4)] {
                    guard case .tooLong(let reported, let prefix) = result.events[index] else {
                        Issue.record("expected a too-long line at \(number): \(result.events[index])")
                        continue
                    }
                    #expect(reported == number)
                    #expect(prefix.count > 10)
                    #expect(long.hasPrefix(prefix))
                }
            }
        }
    }

    @Test func theDefaultLimitIsOneMebibyte() throws {
        #expect(LineReader.maxLineLength == 1 << 20)
        let directory = try TemporaryDirectory()
        let exact = String(repeating: "a", count: LineReader.maxLineLength)
        let long = String(repeating: "b", count: LineReader.maxLineLength + 1)
        let text = "\(exact)\n\(long)\nnext\n"
        let path = try directory.write(try gzip(text), to: "big.gz")
        let result = try readEvents(path)
        #expect(result.error == nil)
        try #require(result.events.count == 3)
        #expect(result.events[0] == .line(1, exact))
        guard case .tooLong(2, let prefix) = result.events[1] else {
            Issue.record("line 2 should be too long")
            return
        }
        #expect(prefix.count >= RejectedLine.excerptLimit)
        #expect(result.events[2] == .line(3, "next"))
    }

    @Test func theInputIsReadOnce() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("a\n", to: "once.jsonl")
        let reader = try LineReader(path: path)
        var count = 0
        try reader.forEachLine { _ in count += 1 }
        try reader.forEachLine { _ in count += 1 }
        #expect(count == 1)
    }
}
