import EventModel

/// The numbers of OpenAVT's own actions (their places in `Action.openAVT`), found from an
/// action name's words in a small cache that every life of an engine shares.
///
/// A waiting record keeps its action as a number (``WaitingAVTRecords``). Records come from
/// thousands of instruments in turn, so a table of each life's own would be out of the cache
/// at nearly every record; this one is not. Names that are not OpenAVT's get no number here:
/// each life numbers its own. Used on the engine's thread only, as its lives are.
final class ActionCodes {
    /// A recently seen name: its words, the name itself (so that the words stay its own), and
    /// its number, or `nil` for a name that is not OpenAVT's.
    private struct Entry {
        var words: StringWords
        var name: String
        var code: UInt32?
    }

    private var recent: [Entry?] = Array(repeating: nil, count: ActionCodes.slots)
    private static let slots = 64
    private static let codesByName: [String: UInt32] = Dictionary(
        uniqueKeysWithValues: Action.openAVT.enumerated().map { ($0.element.name, UInt32($0.offset)) })

    /// The number of OpenAVT's action named `name`, or `nil` when it is not one of them.
    func code(of name: String) -> UInt32? {
        let words = StringWords(name)
        let slot = Int(truncatingIfNeeded: words.mixed >> 58)
        if let entry = recent[slot], entry.words == words { return entry.code }
        let code = Self.codesByName[name]
        recent[slot] = Entry(words: words, name: name, code: code)
        return code
    }

    /// OpenAVT's action numbered `code`.
    static func action(_ code: UInt32) -> Action {
        Action.openAVT[Int(code)]
    }

    /// How many numbers OpenAVT's actions take: a life numbers other actions from here on.
    static let count = UInt32(Action.openAVT.count)
}
