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

    /// Reads the `merge.state` of the merged report folder `folder`.
    static func read(folder: String) throws(RunState.Failure) -> MergeState {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunState.Failure(
                description: "\(path) cannot be read: --previous-merge takes the folder `avt-replay merge` wrote for "
                    + "the night before, from shards run with --state")
        }
        guard let state = try? JSONDecoder().decode(MergeState.self, from: data), state.format == formatName,
            state.version == 1, state.states.count == state.shards
        else {
            throw RunState.Failure(description: "\(path): not a merge.state of this avt-replay")
        }
        return state
    }
}
