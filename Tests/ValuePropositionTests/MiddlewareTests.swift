import EventModel
import Foundation
import Testing
import ValueProposition

/// Tentacles' `MiddlewareTests`, ported.
struct MiddlewareTests {
    private func event(name: String = "Test", _ attributes: Attributes) -> ValuePropositionEvent {
        ValuePropositionEvent(
            timestamp: 1, app: "a", name: name, attributes: attributes, sessionID: "a:v1", status: .opened)
    }

    @Test func capitalisedAttributeKeys() {
        let changed = Middleware.capitalisedAttributeKeys.apply(to: event(["status": "status", "trigger": "trigger"]))
        #expect(changed?.attributes == ["Status": "status", "Trigger": "trigger"])
    }

    @Test(arguments: [
        "valuePropositionSessionId", "started_1", "hello-world", "123abc", "a.b c", "ÉCOLE élan",
        "durationOpenedCompleted",
        "opened", "",
    ])
    func capitalisingMatchesFoundation(key: String) {
        let changed = Middleware.capitalisedAttributeKeys.apply(to: event([AttributeKey(key): 1]))
        #expect(changed?.attributes.keys.first?.rawValue == key.capitalized)
    }

    /// Tentacles capitalises with Foundation (`attributes[$0.key.capitalized]`, Middleware.swift
    /// line 64 at aef2fe4). The cases where capitalising by `Character.uppercased()` differed:
    /// apostrophes, `ß`, titlecase digraphs, ligatures, upper-case letters that start a word.
    @Test(arguments: [
        ("x'y", "X'y"), ("o’neill", "O’neill"), ("ß", "Ss"), ("straße", "Straße"), ("ǆemal", "ǅemal"),
        ("Ǆb", "Ǆb"), ("ﬁx", "Fix"), ("ŉ", "ʼN"), ("a1b", "A1B"), ("aªb", "AªB"), ("aⅠb", "AⅠB"),
    ])
    func capitalisingTheCasesThatDiffered(key: String, expected: String) {
        #expect(Middleware.capitalised(key) == expected)
        #expect(key.capitalized == expected)
    }

    /// Every assigned scalar of the Basic Multilingual Plane, between two letters, after an
    /// upper-case letter and at the start: as Foundation capitalises it.
    @Test func capitalisingMatchesFoundationOnTheBasicMultilingualPlane() {
        var differing: [String] = []
        for value in 0x20...0xFFFF {
            guard let scalar = Unicode.Scalar(value),
                ![.unassigned, .privateUse, .surrogate].contains(scalar.properties.generalCategory)
            else { continue }
            for text in ["a\(scalar)b", "A\(scalar)B", "\(scalar)b"]
            where Middleware.capitalised(text) != text.capitalized {
                differing.append(text)
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(20))")
    }

    /// Keys that capitalise alike leave the attribute of the key last in UTF-8 byte order,
    /// whatever the order the dictionary lists them in (Tentacles keeps whichever its
    /// `forEach` over the dictionary met last: Middleware.swift lines 62-65 at aef2fe4).
    @Test func keysThatCapitaliseAlikeKeepTheLastInByteOrder() {
        for _ in 0..<20 {
            let changed = Middleware.capitalisedAttributeKeys.apply(
                to: event(["title": "lower", "Title": "upper", "TITLE": "shout", "other": 1]))
            #expect(changed?.attributes == ["Title": "lower", "Other": 1])
        }
    }

    @Test func skipEventForCategory() {
        let skip = Middleware.skipCategory("valueProposition")
        #expect(skip.apply(to: event(["category": "valueProposition"])) == nil)
        let screen = event(["category": "screen"])
        #expect(skip.apply(to: screen) == screen)
        let none = event([:])
        #expect(skip.apply(to: none) == none)
    }

    @Test func skipEventForName() {
        let skip = Middleware.skipNames(["Test"])
        #expect(skip.apply(to: event(name: "Test", [:])) == nil)
        let other = event(name: "OtherTest", [:])
        #expect(skip.apply(to: other) == other)
    }

    @Test func durationBetweenTwoStatuses() {
        let middleware = Middleware.duration(from: .started, to: .completed)
        let changed = middleware.apply(
            to: event(["category": "valueProposition", "started": 1_234_000, "completed": 1_334_000]))
        #expect(changed?.attributes["durationStartedCompleted"] == 100_000)
        let unchanged = event([:])
        #expect(middleware.apply(to: unchanged) == unchanged)
        let notValueProposition = event(["category": "screen", "started": 1, "completed": 2])
        #expect(middleware.apply(to: notValueProposition) == notValueProposition)
    }

    @Test func aChainAppliesInOrderAndStopsAtASkip() {
        let chain: [Middleware] = [
            .duration(from: .opened, to: .completed), .capitalisedAttributeKeys, .skipNames(["Skipped"]),
        ]
        let changed = chain.apply(to: event(["category": "valueProposition", "opened": 10, "completed": 25]))
        #expect(changed?.attributes["Durationopenedcompleted"] == 15)
        #expect(chain.apply(to: event(name: "Skipped", [:])) == nil)
    }
}

struct DurationKeyTests {
    @Test(arguments: [
        ("durationOpenedCompleted", true), ("Durationopenedcompleted", true), ("durationStartedPaused", true),
        ("duration", false), ("durationOpened", false), ("durationOpenedLater", false), ("videoDuration", false),
        // The shortest and the longest names, one byte more, all capitals, and non-ASCII.
        ("durationOpenedOpened", true), ("durationCompletedCompleted", true), ("durationCompletedCompleteds", false),
        ("DURATIONSTARTEDPAUSED", true), ("dürationStartedPaused", false),
    ])
    func durationKeysAreTheOnesTheMiddlewareAdds(key: String, expected: Bool) {
        #expect(Middleware.isDurationKey(AttributeKey(key)) == expected)
    }
}
