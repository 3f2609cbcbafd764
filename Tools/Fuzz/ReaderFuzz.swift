// libFuzzer entry point for `LineReader` (plain and gzip input; the gzip members made with zlib).
//
// Built by `scripts/checks/fuzz.sh reader` with `swiftc -sanitize=fuzzer,address -parse-as-library`,
// together with the EventLog sources; not part of the SwiftPM package.
//
// The input is the content of a log. It is written to a file under /dev/shm and read with
// small buffers (line limit, read size and fill size chosen so that every refill and limit
// is crossed), then:
// - as plain bytes (the file may itself start with the gzip magic bytes: then it is read
//   as gzip and may fail, but only with an `EventLogError`);
// - deflated with zlib into one gzip member, then into two members followed by zero
//   padding: both must read exactly as a reference splitter reads the plain bytes;
// - one gzip member cut short at an offset derived from the input: a prefix of the same
//   lines, then a `.truncatedGzip` error.
// Every line's `readableCount` bytes are touched (AddressSanitizer checks the padding
// promise) and every line is decoded in place with `RecordDecoder`.

import CZlib
import EventModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a reader reported, comparable with the reference.
private enum Event: Equatable {
    case line(Int, [UInt8])
    case tooLong(Int, prefix: [UInt8])
}

private let path = "/dev/shm/avt-replay-reader-fuzz-\(getpid())"
nonisolated(unsafe) private var decoder = RecordDecoder()
/// Where the bytes touched are summed, so that the optimizer keeps the loads.
nonisolated(unsafe) private var sink: UInt8 = 0
nonisolated(unsafe) private var currentInput: (UnsafePointer<UInt8>, Int)?

private func fail(_ message: String) -> Never {
    var shown = ""
    if let (data, size) = currentInput {
        shown = String(decoding: UnsafeBufferPointer(start: data, count: size).prefix(400), as: UTF8.self)
    }
    fputs("ReaderFuzz invariant violated: \(message)\ninput: \(shown)\n", stderr)
    unlink(path)
    abort()
}

/// The lines of `bytes` as the contract reads them: split on LF, a CR before it dropped,
/// blank lines (spaces, tabs, CRs) skipped but counted, lines longer than `maxLineLength`
/// (counting a CR before the LF) reported as too long with their whole bytes.
private func referenceLines(_ bytes: ArraySlice<UInt8>, maxLineLength: Int) -> [Event] {
    var events: [Event] = []
    var number = 0
    var start = bytes.startIndex
    while start < bytes.endIndex {
        let lineEnd = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
        number += 1
        let raw = bytes[start..<lineEnd]
        start = lineEnd == bytes.endIndex ? lineEnd : lineEnd + 1
        if raw.count > maxLineLength {
            events.append(.tooLong(number, prefix: Array(raw)))
            continue
        }
        var content = raw
        if content.last == 0x0D { content = content.dropLast() }
        if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
        events.append(.line(number, Array(content)))
    }
    return events
}

/// Whether `actual` matches `expected` event by event: equal lines, and too-long lines with
/// the same number whose prefix is more than `maxLineLength` bytes of the line.
private func matches(_ actual: Event, _ expected: Event, maxLineLength: Int) -> Bool {
    switch (actual, expected) {
    case (.line, .line):
        return actual == expected
    case (.tooLong(let number, let prefix), .tooLong(let expectedNumber, let line)):
        return number == expectedNumber && prefix.count > maxLineLength && line.starts(with: prefix)
    default:
        return false
    }
}

private func writeFile(_ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("cannot create \(path)") }
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
        guard result > 0 else { fail("cannot write \(path)") }
        written += result
    }
    close(fd)
}

/// Reads `bytes` as a file; returns what was reported and the error that ended reading.
private func read(_ bytes: [UInt8], _ configuration: LineReaderConfiguration) -> ([Event], EventLogError?) {
    writeFile(bytes)
    var events: [Event] = []
    let reader: LineReader
    do {
        reader = try LineReader(path: path, configuration: configuration)
    } catch {
        fail("cannot open \(path): \(error)")
    }
    do {
        try reader.forEachLine { event in
            switch event {
            case .line(let line):
                guard line.bytes.count <= configuration.maxLineLength, let raw = line.bytes.baseAddress,
                    line.readableCount >= line.bytes.count + LineReader.padding
                else {
                    fail("line \(line.number) of \(line.bytes.count) bytes, \(line.readableCount) readable")
                }
                // Every byte promised readable must be: ASan traps otherwise.
                var sum: UInt8 = 0
                for index in stride(from: 0, to: line.readableCount, by: 16) {
                    sum &+= raw.load(fromByteOffset: index, as: UInt8.self)
                }
                sum &+= raw.load(fromByteOffset: line.readableCount - 1, as: UInt8.self)
                sink &+= sum
                _ = decoder.decode(line)
                events.append(.line(line.number, Array(line.bytes)))
            case .tooLong(let number, let prefix):
                events.append(.tooLong(number, prefix: Array(prefix)))
            }
        }
    } catch let error as EventLogError {
        return (events, error)
    } catch {
        fail("forEachLine threw a \(type(of: error)): \(error)")
    }
    return (events, nil)
}

/// Compresses `bytes` into one gzip member with zlib.
private func gzip(_ bytes: ArraySlice<UInt8>, level: Int32) -> [UInt8] {
    var stream = z_stream()
    // deflateInit2 is a macro; 15 + 16: a 32 KiB window with a gzip wrapper.
    let status = deflateInit2_(
        &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
        Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { fail("deflateInit2 failed: \(status)") }
    defer { deflateEnd(&stream) }
    var input = Array(bytes)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
    let produced = input.withUnsafeMutableBufferPointer { inputBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            stream.next_out = outputBuffer.baseAddress
            stream.avail_out = uInt(outputBuffer.count)
            let result = deflate(&stream, Z_FINISH)
            guard result == Z_STREAM_END else { fail("deflate failed: \(result)") }
            return outputBuffer.count - Int(stream.avail_out)
        }
    }
    return Array(output[0..<produced])
}

/// A small number derived from the input, so that each input picks its own cut points.
private func derived(_ bytes: UnsafeBufferPointer<UInt8>, salt: UInt64) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ salt
    for byte in bytes.suffix(16) {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash ^ UInt64(bytes.count)
}

private func expect(
    _ label: String, _ result: ([Event], EventLogError?), _ reference: [Event], maxLineLength: Int,
    prefixOnly: Bool = false
) {
    let (events, _) = result
    let complete = events.count == reference.count
    guard events.count <= reference.count, prefixOnly || complete else {
        fail("\(label): \(events.count) events, expected \(reference.count): \(events) vs \(reference)")
    }
    for (actual, expected) in zip(events, reference) where !matches(actual, expected, maxLineLength: maxLineLength) {
        fail("\(label): got \(actual), expected \(expected)")
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>
) -> CInt {
    // Remove the scratch file when libFuzzer exits (a crash leaves it; the script cleans up).
    atexit { unlink(path) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    currentInput = (data, size)
    defer { currentInput = nil }
    let buffer = UnsafeBufferPointer(start: data, count: size)
    let bytes = Array(buffer)
    let small = LineReaderConfiguration(maxLineLength: 64, readSize: 7, fillSize: 128)
    let seed = derived(buffer, salt: 0)
    // Another shape, same line limit: fill smaller than a line, reads of 1 to 16 bytes.
    let odd = LineReaderConfiguration(
        maxLineLength: 64, readSize: 1 + Int(seed % 16), fillSize: 1 + Int((seed >> 8) % 96))
    let reference = referenceLines(bytes[...], maxLineLength: 64)

    // 1. Plain bytes.
    let plain = read(bytes, small)
    let isGzip = size >= 2 && data[0] == 0x1F && data[1] == 0x8B
    if isGzip {
        if let error = plain.1, error.kind != .truncatedGzip && error.kind != .corruptGzip {
            fail("plain gzip-looking input failed with \(error.kind)")
        }
    } else {
        if let error = plain.1 { fail("plain input failed: \(error)") }
        expect("plain", plain, reference, maxLineLength: 64)
        let oddPlain = read(bytes, odd)
        if let error = oddPlain.1 { fail("plain input (odd sizes) failed: \(error)") }
        expect("plain, odd sizes", oddPlain, reference, maxLineLength: 64)
    }

    // 2. One gzip member.
    let member = gzip(bytes[...], level: Int32(seed % 10))
    let whole = read(member, odd)
    if let error = whole.1 { fail("gzip member failed: \(error)") }
    expect("gzip", whole, reference, maxLineLength: 64)

    // 3. Two members, split at a derived point, then zero padding.
    let split = size == 0 ? 0 : Int((seed >> 16) % UInt64(size + 1))
    let members =
        gzip(bytes[..<split], level: 1) + gzip(bytes[split...], level: 9)
        + [UInt8](repeating: 0, count: Int((seed >> 24) % 40))
    let multi = read(members, small)
    if let error = multi.1 { fail("two gzip members failed: \(error)") }
    expect("two gzip members", multi, reference, maxLineLength: 64)

    // 4. The member cut short: 2 bytes or more of it still sniff as gzip and must be truncated.
    let cut = 2 + Int((seed >> 32) % UInt64(max(1, member.count - 2)))
    if cut < member.count {
        let truncated = read(Array(member[..<cut]), cut % 2 == 0 ? small : odd)
        guard let error = truncated.1, error.kind == .truncatedGzip else {
            fail("gzip cut at \(cut) of \(member.count) bytes: \(String(describing: truncated.1))")
        }
        expect("gzip cut short", truncated, reference, maxLineLength: 64, prefixOnly: true)
    }
    return 0
}
