// libFuzzer entry point for `RecordDecoder` (simdjson through the CSimdjson shim).
//
// Built by `scripts/checks/fuzz.sh decoder` with `swiftc -sanitize=fuzzer,address -parse-as-library`,
// together with the EventLog sources; not part of the SwiftPM package.
//
// Each input is one line. It is decoded three ways, which must all agree:
// - exactly sized (no byte readable after it: the decoder must copy it into a padded buffer;
//   libFuzzer's buffer is exactly `size` bytes, so AddressSanitizer sees any over-read);
// - in place, followed by `LineReader.padding` readable bytes of garbage taken from the input
//   itself (as in a `LineReader` buffer, where the next lines follow the current one);
// - in place again, by a second decoder, and once more by the first (no state may leak from
//   one decode to the next).
// The line is also decoded followed by more whitespace than the decoder's DOM parser takes
// (`dom_max_capacity` in decoder.cpp), which leaves it to the on-demand walk: both parsers
// must accept the same records, and reject the same lines.
// A record must also obey the contract: tracker in `AVTRecord.trackerRange`, timestamp in
// `RecordDecoder.timestampRange`, required strings non-empty.

import EventModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

nonisolated(unsafe) private var first = RecordDecoder()
nonisolated(unsafe) private var second = RecordDecoder()
nonisolated(unsafe) private var padded: [UInt8] = []
nonisolated(unsafe) private var long: [UInt8] = []
/// More trailing whitespace than the DOM parser takes in a line.
private let longTail = 70_000

private func fail(_ message: String, _ data: UnsafePointer<UInt8>, _ size: Int) -> Never {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let shown = String(decoding: bytes.prefix(400), as: UTF8.self)
    fputs("DecoderFuzz invariant violated: \(message)\ninput (\(size) bytes): \(shown)\n", stderr)
    abort()
}

private func check(_ result: DecodedLine, _ data: UnsafePointer<UInt8>, _ size: Int) {
    switch result {
    case .rejected(let reason):
        if reason.isEmpty { fail("empty rejection reason", data, size) }
    case .record(let record):
        if !RecordDecoder.timestampRange.contains(record.timestamp.milliseconds) {
            fail("timestamp \(record.timestamp.milliseconds) out of range", data, size)
        }
        switch record {
        case .avt(let avt):
            if !AVTRecord.trackerRange.contains(avt.tracker) { fail("tracker \(avt.tracker) out of range", data, size) }
            if avt.instrument.isEmpty || avt.action.isEmpty { fail("empty avt instrument or action", data, size) }
        case .vp(let vp):
            if vp.app.isEmpty || vp.name.isEmpty { fail("empty vp app or name", data, size) }
        case .app(let app):
            if app.app.isEmpty { fail("empty app", data, size) }
        case .marconi(let marconi):
            if marconi.player.isEmpty { fail("empty marconi player", data, size) }
            if let progress = marconi.progress, !progress.isFinite { fail("progress not finite", data, size) }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)

    // 1. Exactly sized: the copy path.
    let exact = first.decode(bytes, readableCount: size)
    check(exact, data, size)

    // 2. In place, with garbage padding: the input repeated, or '}' when it is empty.
    let padding = LineReader.padding
    padded.removeAll(keepingCapacity: true)
    padded.append(contentsOf: bytes)
    for index in 0..<padding {
        padded.append(size > 0 ? data[index % size] : UInt8(ascii: "}"))
    }
    let inPlace = padded.withUnsafeBytes { buffer in
        second.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<size]), readableCount: buffer.count)
    }
    if inPlace != exact {
        fail("in-place decode \(inPlace) differs from copied decode \(exact)", data, size)
    }

    // 3. The same bytes again, by the first decoder, in place.
    let again = padded.withUnsafeBytes { buffer in
        first.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<size]), readableCount: buffer.count)
    }
    if again != exact {
        fail("re-decode \(again) differs from first decode \(exact)", data, size)
    }

    // 4. A record survives a round trip through a fresh decode of its own bytes
    //    (the strings handed out must not point into buffers reused by the next decode).
    if case .record(let record) = exact {
        _ = first.decode(#"{"ts":0,"instrument":"overwrite-the-string-buffer","tracker":1,"action":"x"}"#)
        if first.decode(bytes, readableCount: size) != .record(record) {
            fail("record changed after another decode", data, size)
        }
    }
    // 5. Long enough to be left to the on-demand walk: the same record, or rejected as well.
    long.removeAll(keepingCapacity: true)
    long.append(contentsOf: bytes)
    long.append(contentsOf: repeatElement(UInt8(ascii: " "), count: longTail))
    let walked = long.withUnsafeBytes { first.decode($0, readableCount: $0.count) }
    switch (exact, walked) {
    case (.record, _) where walked != exact:
        fail("the on-demand walk decodes \(walked), the DOM parse \(exact)", data, size)
    case (.rejected, .record(let record)):
        fail("the on-demand walk accepts \(record), the DOM parse rejects it: \(exact)", data, size)
    default:
        break
    }
    return 0
}
