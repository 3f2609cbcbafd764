import OpenAVT

/// Writes Graphite plaintext lines: `path value epoch_seconds\n`.
///
/// The caller gives a path as its nodes, never as a dotted string; the encoder joins
/// them with `.` after sanitising each one to carbon's safe set `[A-Za-z0-9_-]`: every
/// other byte, `.`, space, `/` and each byte of a non-ASCII character included, becomes
/// `_`, and an empty node becomes `_`. So `["avt", "ios 7f3a", "a.b"]` is
/// `avt.ios_7f3a.a_b`, and no node can add a level or reach outside the metric's
/// directory in whisper.
///
/// Values: integers as integers, doubles in their shortest round-trip form (`0.1`,
/// `100.0`, `1e-05`, which carbon reads with Python's `float`). A line is never written,
/// and is counted instead, when its value is NaN or infinite, when its path has no
/// node at all, or when it would be longer than ``maxLineBytes`` (16 KiB, newline
/// included: what carbon's line receiver accepts, and a path that long is a bug).
///
/// Graphite keeps one value per path and interval: a second line for the same path in
/// the same retention step overwrites the first, so callers sum per interval first.
package struct GraphiteEncoder: Sendable {
    /// The longest line written, in bytes, `\n` included.
    package static let maxLineBytes = 16_384

    /// The nodes put before every path (from `--prefix`), already sanitised.
    package let prefix: [String]
    /// Lines not written because the value was NaN or infinite.
    package private(set) var skippedNonFinite = 0
    /// Lines not written because they would exceed ``maxLineBytes``.
    package private(set) var skippedTooLong = 0
    /// Lines not written because the path (prefix included) had no node.
    package private(set) var skippedEmptyPath = 0

    /// Creates an encoder that puts `prefix` before every path.
    ///
    /// - Parameter prefix: the leading nodes, each sanitised like any node.
    package init(prefix: [String] = []) {
        self.prefix = prefix.map(Self.sanitizedNode)
    }

    /// Splits a dotted prefix as users type it (`--prefix avt.prod`) into nodes,
    /// dropping empty ones (`"avt..prod."` → `["avt", "prod"]`).
    package static func nodes(fromDotted dotted: String) -> [String] {
        dotted.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Returns `node` sanitised to `[A-Za-z0-9_-]`, one `_` per other byte; `_` if empty.
    package static func sanitizedNode(_ node: String) -> String {
        var bytes: [UInt8] = []
        appendNode(node, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `path value epoch_seconds\n` for an integer value.
    ///
    /// - Returns: whether the line was written.
    @discardableResult
    package mutating func appendLine(path: [String], value: Int64, epochSeconds: Int64, into buffer: inout [UInt8])
        -> Bool
    {
        guard let path = encodedPath(path) else { return false }
        return appendLine(path: path, value: value, epochSeconds: epochSeconds, into: &buffer)
    }

    /// Appends `path value epoch_seconds\n` for a double value; NaN and infinities are
    /// not written.
    ///
    /// - Returns: whether the line was written.
    @discardableResult
    package mutating func appendLine(path: [String], value: Double, epochSeconds: Int64, into buffer: inout [UInt8])
        -> Bool
    {
        guard value.isFinite else {
            skippedNonFinite += 1
            return false
        }
        guard let path = encodedPath(path) else { return false }
        return appendLine(path: path, value: value, epochSeconds: epochSeconds, into: &buffer)
    }

    /// The dotted, sanitised path (prefix first) for lines of `path`, made once for many
    /// lines; `nil` (counted) when the path, prefix included, has no node.
    package mutating func encodedPath(_ path: [String]) -> GraphitePath? {
        if prefix.isEmpty && path.isEmpty {
            skippedEmptyPath += 1
            return nil
        }
        var bytes: [UInt8] = []
        var first = true
        for node in prefix {
            if !first { bytes.append(UInt8(ascii: ".")) }
            bytes.append(contentsOf: node.utf8)
            first = false
        }
        for node in path {
            if !first { bytes.append(UInt8(ascii: ".")) }
            Self.appendNode(node, into: &bytes)
            first = false
        }
        return GraphitePath(bytes: bytes)
    }

    /// Appends to `bytes` the path `path` with one more node, `node`, sanitised: the same bytes
    /// as encoding the nodes of `path` and `node` together.
    package static func append(_ path: GraphitePath, extendedWith node: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: path.bytes)
        bytes.append(UInt8(ascii: "."))
        appendNode(node, into: &bytes)
    }

    /// Appends `path value epoch_seconds\n` for an integer value and a path made by
    /// ``encodedPath(_:)``.
    @discardableResult
    package mutating func appendLine(path: GraphitePath, value: Int64, epochSeconds: Int64, into buffer: inout [UInt8])
        -> Bool
    {
        var writer = ByteWriter(capacity: path.bytes.count + 64)
        let written = appendLine(path: path, value: .int(value), epochSeconds: epochSeconds, into: &writer)
        writer.withBytes(from: 0) { buffer.append(contentsOf: $0) }
        return written
    }

    /// Appends `path value epoch_seconds\n` for a double value and a path made by
    /// ``encodedPath(_:)``; NaN and infinities are not written.
    @discardableResult
    package mutating func appendLine(path: GraphitePath, value: Double, epochSeconds: Int64, into buffer: inout [UInt8])
        -> Bool
    {
        var writer = ByteWriter(capacity: path.bytes.count + 64)
        let written = appendLine(path: path, value: .double(value), epochSeconds: epochSeconds, into: &writer)
        writer.withBytes(from: 0) { buffer.append(contentsOf: $0) }
        return written
    }

    /// Appends `path value epoch_seconds\n` for a path made by ``encodedPath(_:)``, into a
    /// writer, for the encoders of many lines; NaN and infinities are not written.
    @discardableResult
    mutating func appendLine(
        path: GraphitePath, value: Metric.Value, epochSeconds: Int64, into writer: inout ByteWriter
    )
        -> Bool
    {
        path.bytes.withUnsafeBufferPointer { bytes in
            appendLine(pathBytes: bytes, value: value, epochSeconds: epochSeconds, into: &writer)
        }
    }

    /// ``appendLine(path:value:epochSeconds:into:)`` for the bytes of a path made by
    /// ``encodedPath(_:)``, read in place.
    @discardableResult
    mutating func appendLine(
        pathBytes: UnsafeBufferPointer<UInt8>, value: Metric.Value, epochSeconds: Int64, into writer: inout ByteWriter
    )
        -> Bool
    {
        let start = writer.count
        switch value {
        case .int(let number):
            writer.append(pathBytes)
            writer.append(UInt8(ascii: " "))
            writer.appendDecimal(number)
        case .double(let number):
            guard number.isFinite else {
                skippedNonFinite += 1
                return false
            }
            writer.append(pathBytes)
            writer.append(UInt8(ascii: " "))
            writer.append(utf8: number.description)
        }
        writer.append(UInt8(ascii: " "))
        writer.appendDecimal(epochSeconds)
        writer.append(UInt8(ascii: "\n"))
        if writer.count - start > Self.maxLineBytes {
            writer.truncate(to: start)
            skippedTooLong += 1
            return false
        }
        return true
    }

    /// The longest node written, in bytes; longer ones are cut (librato's limit for names and sources).
    package static let maxNodeBytes = 254

    private static func appendNode(_ node: String, into buffer: inout [UInt8]) {
        if node.isEmpty {
            buffer.append(UInt8(ascii: "_"))
            return
        }
        let copied = node.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let kept = UnsafeBufferPointer(rebasing: bytes.prefix(maxNodeBytes))
            guard kept.allSatisfy(isSafe) else { return false }
            buffer.append(contentsOf: kept)
            return true
        }
        if copied == true { return }
        for byte in node.utf8.prefix(maxNodeBytes) {
            buffer.append(isSafe(byte) ? byte : UInt8(ascii: "_"))
        }
    }

    /// Whether carbon takes the byte as it is in a node: `[A-Za-z0-9_-]`.
    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

/// A dotted, sanitised Graphite path, made once by ``GraphiteEncoder/encodedPath(_:)`` for many lines.
package struct GraphitePath: Hashable, Sendable {
    let bytes: [UInt8]
}
