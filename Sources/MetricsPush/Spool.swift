import Foundation

/// Batches that could not be delivered, kept on disk until a server takes them.
///
/// One file per batch, `<sequence>.<sink>` (`00000003.influx`), written whole or not at all
/// (a temporary name, then a rename), sent again in sequence order, and removed only after
/// the server accepted it: nothing is dropped, and nothing is sent twice on purpose.
public struct Spool {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The batches waiting for a sink, oldest first.
    public func pending(for sink: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix("." + sink) }.sorted().map {
            (directory as NSString).appendingPathComponent($0)
        }
    }

    /// Keeps a batch for a sink; returns its file.
    public func keep(_ batch: [UInt8], for sink: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let last = names.compactMap { Int($0.split(separator: ".").first ?? "") }.max() ?? 0
        let name = String(format: "%08d.%@", last + 1, sink)
        let path = (directory as NSString).appendingPathComponent(name)
        let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp")
        try Data(batch).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return path
    }

    /// Forgets a batch the server took.
    public func remove(_ path: String) {
        unlink(path)
    }
}
