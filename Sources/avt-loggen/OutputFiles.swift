import Glibc

/// How the records are split into files (`--layout`). The records are the same in every
/// layout, written in the same order; only the file each one goes to differs.
enum Layout: Equatable {
    /// `DIR/avt-YYYYMMDDHH.jsonl`: the file of the hour a record is written in.
    case hourly
    /// `DIR/host-K.jsonl`, K = 1...N: collectors behind a load balancer, each covering the
    /// whole period; every upload of a source goes to one host (see ``OutputFiles``).
    case hosts(Int)
    /// `DIR/app-PREFIX.jsonl`: one file per prefix of the source id (`ios`, ..., `a`, `radio`, `pod`).
    case apps
    /// `DIR/all.jsonl`.
    case single

    /// The most hosts `hosts:N` takes: every host's file stays open while the log is written.
    static let maxHosts = 256

    /// Parses `hourly`, `hosts:N`, `apps` or `single`; `nil` when it is none of them.
    init?(argument: String) {
        switch argument {
        case "hourly": self = .hourly
        case "apps": self = .apps
        case "single": self = .single
        default:
            guard argument.hasPrefix("hosts:"), let count = Int(argument.dropFirst(6)),
                (1...Self.maxHosts).contains(count)
            else { return nil }
            self = .hosts(count)
        }
    }

    var description: String {
        switch self {
        case .hourly: return "hourly"
        case .hosts(let count): return "hosts:\(count)"
        case .apps: return "apps"
        case .single: return "single"
        }
    }
}

/// Which source a record comes from, as much as the layouts need to route it.
struct SourceTag {
    /// Unique per source: its class in the high bits, the 32-bit number of its id below.
    var key: UInt64
    /// Index of its id's prefix in `Generator.sourcePrefixes`.
    var prefix: UInt8
}

/// The output files of one layout, written through one buffer.
///
/// `hourly`: a record goes to the file of the hour it is written in (its timestamp, or for a
/// late record the time it arrived), counted from `--start`; a record written after the last
/// hour goes to the last file. The files are written one after the other.
///
/// `hosts:N`: a source uploads its records in batches, one every 10 to 30 s of its time (the
/// period and its phase are drawn from the source's id), and each upload goes to one host,
/// drawn from the source's id and the upload's number, so a source's records are spread
/// over all hosts. An upload is the run of the source's records written in one period; a
/// late record goes with the upload it is written in (the period of the time it arrived).
///
/// `apps`, `single`: by the prefix of the source id; everything in one file.
///
/// Every file of the layout is created, empty if need be. With `shuffleNames`, every name
/// gets a prefix `xHHHH-` drawn from the seed, so that name order is not the files' order.
final class OutputFiles {
    let directory: String
    let start: Int64
    let layout: Layout
    /// The file names, without the directory.
    let names: [String]
    /// The bytes not yet written to the current file.
    var buffer: [UInt8] = []
    private(set) var bytesWritten: Int64 = 0
    private var current = -1
    /// `hourly`: the current file's descriptor.
    private var descriptor: Int32 = -1
    /// Other layouts: every file's descriptor and its pending bytes (the current file's
    /// are in `buffer`, its entry here is empty).
    private var descriptors: [Int32] = []
    private var buffers: [[UInt8]] = []
    private let flushSize: Int

    var count: Int { names.count }

    init(directory: String, start: Int64, hours: Int, layout: Layout, shuffleNames: Bool, seed: UInt64) {
        self.directory = directory
        self.start = start
        self.layout = layout
        var names: [String]
        switch layout {
        case .hourly:
            names = (0..<hours).map { "avt-" + CivilTime.hourStamp(start + Int64($0) * 3_600_000) + ".jsonl" }
        case .hosts(let count):
            names = (1...count).map { "host-\($0).jsonl" }
        case .apps:
            names = Generator.sourcePrefixes.map { "app-" + $0 + ".jsonl" }
        case .single:
            names = ["all.jsonl"]
        }
        if shuffleNames {
            let tags = Self.nameTags(count: names.count, seed: seed)
            names = names.indices.map { "x" + tags[$0] + "-" + names[$0] }
        }
        self.names = names
        flushSize = layout == .hourly ? 1 << 20 : max(1 << 16, (4 << 20) / names.count)
        buffer.reserveCapacity(layout == .hourly ? 1 << 21 : flushSize * 2)
    }

    func path(of index: Int) -> String {
        directory + "/" + names[index]
    }

    /// Makes the file of a record of `source` written at `time` the current one; the
    /// record is then appended to `buffer`.
    @inline(__always)
    func select(time: Int64, source: SourceTag) throws(GeneratorError) {
        let index: Int
        switch layout {
        case .hourly:
            let hour = time <= start ? 0 : Int((time - start) / 3_600_000)
            index = min(hour, names.count - 1)
        case .hosts(let count):
            index = Self.host(of: source, at: time, hosts: count)
        case .apps:
            index = Int(source.prefix)
        case .single:
            index = 0
        }
        if index != current {
            try switchTo(index)
        } else if buffer.count >= flushSize {
            try flush()
        }
    }

    /// The host (0-based) that receives what `source` uploads at `time`.
    static func host(of source: SourceTag, at time: Int64, hosts: Int) -> Int {
        let identity = SplitMix64.hash(source.key)
        let period = 10_000 + Int64(identity % 20_001)
        let phase = Int64((identity >> 32) % UInt64(period))
        let shifted = time + phase
        let upload = shifted >= 0 ? shifted / period : (shifted - period + 1) / period
        let pick = SplitMix64.hash(identity ^ UInt64(bitPattern: upload) &* 0xD6E8_FEB8_6659_FD93)
        return Int(truncatingIfNeeded: pick.multipliedFullWidth(by: UInt64(hosts)).high)
    }

    /// Writes what is buffered, creates the files not reached and closes them all.
    func finish() throws(GeneratorError) {
        if layout == .hourly {
            try switchTo(names.count - 1)
            try flush()
            close(descriptor)
            descriptor = -1
            return
        }
        try openAll()
        if current >= 0 { try flush() }
        for index in descriptors.indices {
            try write(buffers[index], to: index)
            buffers[index] = []
            close(descriptors[index])
            descriptors[index] = -1
        }
    }

    private func switchTo(_ index: Int) throws(GeneratorError) {
        guard index != current else { return }
        guard layout == .hourly else {
            try openAll()
            if current >= 0 {
                if buffer.count >= flushSize { try flush() }
                swap(&buffer, &buffers[current])
            }
            swap(&buffer, &buffers[index])
            current = index
            return
        }
        try flush()
        if descriptor >= 0 { close(descriptor) }
        var next = current + 1
        while next <= index {
            let fd = try create(next)
            if next < index { close(fd) } else { descriptor = fd }
            next += 1
        }
        current = index
    }

    /// Other layouts: creates every file, once.
    private func openAll() throws(GeneratorError) {
        guard descriptors.isEmpty else { return }
        for index in names.indices {
            descriptors.append(try create(index))
            var pending: [UInt8] = []
            pending.reserveCapacity(flushSize * 2)
            buffers.append(pending)
        }
    }

    private func create(_ index: Int) throws(GeneratorError) -> Int32 {
        let path = path(of: index)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw GeneratorError("cannot create \(path): errno \(errno)") }
        return fd
    }

    private func flush() throws(GeneratorError) {
        guard !buffer.isEmpty else { return }
        try write(buffer, to: current)
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: [UInt8], to index: Int) throws(GeneratorError) {
        guard !bytes.isEmpty else { return }
        let fd = layout == .hourly ? descriptor : descriptors[index]
        let written: Int = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let result = Glibc.write(fd, base + offset, raw.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return -1
                }
                offset += result
            }
            return offset
        }
        guard written >= 0 else { throw GeneratorError("write to \(path(of: index)) failed: errno \(errno)") }
        bytesWritten += Int64(written)
    }

    /// `count` distinct 4-digit hex tags drawn from `seed`, never in increasing order
    /// (when there are two or more), so that sorting the names shuffles the files.
    static func nameTags(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed ^ 0x5_4AF_F1E5_0F_F11E)
        var taken = [Bool](repeating: false, count: 1 << 16)
        var values: [Int] = []
        values.reserveCapacity(count)
        while values.count < count {
            let value = rng.below(1 << 16)
            guard !taken[value] else { continue }
            taken[value] = true
            values.append(value)
        }
        if count >= 2 && zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) {
            values.swapAt(0, 1)
        }
        return values.map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
    }
}

/// A failure the generator reports and exits on.
struct GeneratorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
