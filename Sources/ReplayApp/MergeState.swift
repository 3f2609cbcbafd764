import EventModel
import Foundation

/// `merge.state`, written by `merge` beside the merged reports when the shards ran with
/// `--state` (a sharded nightly series): the time from which the night's buckets are open in
/// any shard, and the state each shard left. The next night's shards are given the folder
/// (`--previous-merge DIR`): each re-writes the buckets open from that time, which no shard
/// knows alone, and first checks that the state it goes on from is the one named for it.
///
/// One JSON line, keys sorted:
/// `{"format":"avt-replay merge.state","openFrom":<ms>,"shards":4,"states":["<16 hex>",…],"version":1}`;
/// `states` has one entry per shard (`null` for one `merge --partial` went without).
package struct MergeState: Codable, Equatable, JSONLineFile {
    static let fileName = "merge.state"
    static let formatName = "avt-replay merge.state"

    var format = Self.formatName
    var version = 1
    var shards: Int
    /// The earliest of the shards' `openFrom` (epoch milliseconds).
    var openFrom: Int64?
    /// ``RunState/identity(ofHeaderLine:)`` of the state each shard left, by shard.
    var states: [String?]

    init(shards: Int, openFrom: Int64?, states: [String?]) {
        self.shards = shards
        self.openFrom = openFrom
        self.states = states
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, shards, openFrom, states
    }

    /// Decodes what the synthesized `encode(to:)` writes, its integers as 64-bit integers (one
    /// that is not is refused at its key); ``read(folder:)`` checks the rest.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        shards = Int(try container.decodeStored(.shards, in: Int64(Int32.min)...Int64(Int32.max)))
        openFrom = try container.decodeStoredIfPresent(.openFrom, in: StoredRange.sums)
        states = try container.decode([String?].self, forKey: .states)
    }

    /// Reads the `merge.state` of the merged report folder `folder`.
    static func read(folder: String) throws(RunState.Failure) -> MergeState {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunState.Failure(
                description: "\(path) cannot be read: --previous-merge takes the folder `avt-replay merge` wrote for "
                    + "the night before, from shards run with --state")
        }
        struct Format: Decodable {
            var format: String
            var version: Int
        }
        guard let format = try? JSONDecoder().decode(Format.self, from: data), format.format == formatName,
            format.version == 1
        else {
            throw RunState.Failure(description: "\(path): not a merge.state of this avt-replay")
        }
        let state: MergeState
        do {
            state = try JSONDecoder().decode(MergeState.self, from: data)
        } catch {
            throw RunState.Failure(description: "\(path): \(decodingProblem(error))")
        }
        try state.check(path: path)
        return state
    }

    /// Refuses what no `merge` writes: a number of shards below 1, a time outside years 0 to
    /// 9999, a state per shard that is not one (16 hex digits), naming the field.
    private func check(path: String) throws(RunState.Failure) {
        func refusal(_ field: String, _ problem: String) -> RunState.Failure {
            RunState.Failure(description: "\(path): field \(field): \(problem)")
        }
        guard StoredRange.shardCounts.contains(shards) else {
            throw refusal("shards", "\(shards) is not a number of shards (1 to 1,000,000)")
        }
        if let openFrom, !StoredRange.times.contains(openFrom) {
            throw refusal("openFrom", "the time \(openFrom) ms is not within years 0 to 9999")
        }
        guard states.count == shards else {
            throw refusal("states", "\(states.count) states for \(shards) shards")
        }
        for (index, state) in states.enumerated() {
            guard let state else { continue }
            guard InputIdentity.digest(fromText: state) != nil else {
                throw refusal("states[\(index)]", "\"\(state)\" is not the identity of a state (16 hex digits)")
            }
        }
    }
}
