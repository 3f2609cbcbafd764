import EventModel
import Testing

/// ``StringWords``: equal words are equal strings; a shared string has the same words; strings
/// made apart may have other words and are still equal (the caller then compares characters).
struct StringWordsTests {
    @Test func aSharedStringHasTheSameWordsAndEqualWordsAreEqualStrings() {
        let long = "durationOpenedCompletedWithAVeryLongName"
        let shared = long
        #expect(StringWords(long) == StringWords(shared))
        // Small strings are stored in their words: equal small strings have equal words.
        #expect(StringWords("Start") == StringWords(String(decoding: Array("Start".utf8), as: UTF8.self)))
        #expect(StringWords("Start") != StringWords("Stop"))
        // A long string made apart has storage of its own: other words, the same string.
        let apart = String(decoding: Array(long.utf8), as: UTF8.self)
        #expect(apart == long)
        #expect(StringWords(apart) != StringWords(long))
    }

    @Test func differentStringsNeverShareWords() {
        let names = (0..<200).map { "attribute-\($0)-" + String(repeating: "x", count: $0 % 20) }
        let words = names.map(StringWords.init)
        #expect(Set(words).count == names.count)
    }
}
