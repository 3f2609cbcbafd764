import EventModel
import Testing

@testable import OpenAVT

@Suite("hub stamps")
struct HubStampTests {
    @Test func eachStampIsItsAttributesSlot() {
        #expect(HubStamp.allCases.count == HubStamp.slots)
        // The stamped names are the first packed names, in slot order, whatever came before
        // (a full table of names: BadInputTests.aFullTableOfNamesGivesTheSameRows).
        #expect(HubStamp.keys.map(\.packedNumber) == Array(1...UInt32(HubStamp.slots)))
        for stamp in HubStamp.allCases {
            #expect(stamp.key.hubStampSlot == stamp.rawValue)
            #expect(stamp.key.rawValue == "\(stamp)")
        }
        #expect(HubStamp.keys[HubStamp.integerSlots - 1] == .countAds)
        #expect(HubStamp.keys[HubStamp.integerSlots] == .inPauseBlock)
        #expect(HubStamp.keys[HubStamp.integerSlots + HubStamp.flagSlots] == .streamId)
        #expect(AttributeKey.position.hubStampSlot == nil)
        #expect(AttributeKey("a-custom-name").hubStampSlot == nil)
        #expect(AttributeKey("a-name-\(String(repeating: "x", count: 100))").hubStampSlot == nil)
    }

    @Test func aStampSetsTheAttributeWhereverItIsKept() {
        // In its slot, or in the list when a value of another type displaced it there.
        var event = Event(action: .start, timestamp: Timestamp(milliseconds: 0), attributes: [.countErrors: "many"])
        event.stamp(.countErrors, .int(2))
        event.stamp(.inAdBlock, .bool(true))
        event.stamp(.playbackId, .string("p-1"))
        #expect(event.attributes == [.countErrors: 2, .inAdBlock: true, .playbackId: "p-1"])
        #expect(event.integer(.countErrors) == 2)
        #expect(
            event
                == Event(
                    action: .start, timestamp: Timestamp(milliseconds: 0),
                    attributes: [.countErrors: 2, .inAdBlock: true, .playbackId: "p-1"]))
    }

    @Test func comparingAStringInPlaceAgreesWithReadingIt() {
        let long = "android-6df183f9:1763596824226:p1"
        var stamped = Event(action: .start, timestamp: Timestamp(milliseconds: 0))
        stamped.stamp(.playbackId, .string(long))
        // A stamp displaced to the list by a value of another type, and attributes in the list.
        var displaced = Event(
            action: .start, timestamp: Timestamp(milliseconds: 0),
            attributes: [.streamId: 7, .title: .string(long), .source: true])
        displaced.stamp(.playbackId, .string("p-2"))
        let events = [stamped, displaced, Event(action: .ping, timestamp: Timestamp(milliseconds: 1))]
        let keys: [AttributeKey] = [.playbackId, .streamId, .title, .source, "absent"]
        for event in events {
            for key in keys {
                for text in [long, "p-2", "", nil] {
                    #expect(
                        event.string(key, equals: text) == (event.string(key) == text),
                        "\(key) \(String(describing: text))")
                }
            }
        }
        #expect(stamped.string(.playbackId, equals: long))
        #expect(!stamped.string(.playbackId, equals: nil))
        #expect(displaced.string(.streamId, equals: nil))
    }

    @Test func eventsStampedWithSharedIdsReadAndChangeThemAsTheirOwn() {
        let ids = HubIDs(streamID: "android-6df183f9:1763596824226:s1", playbackID: "android-6df183f9:1763596824226:p1")
        var first = Event(action: .start, timestamp: Timestamp(milliseconds: 0))
        var second = Event(action: .ping, timestamp: Timestamp(milliseconds: 1))
        first.stamp(ids: ids)
        second.stamp(ids: ids)
        #expect(first.string(.playbackId) == ids.playbackID && first.string(.streamId) == ids.streamID)
        // Changing one event's id leaves the other's, and the other id, as they were.
        first[.playbackId] = "p-9"
        #expect(first.attributes == [.streamId: .string(ids.streamID ?? ""), .playbackId: "p-9"])
        #expect(second.string(.playbackId) == ids.playbackID && second.string(.streamId) == ids.streamID)
        second.stamp(.streamId, .string("s-2"))
        #expect(second.string(.streamId) == "s-2" && second.string(.playbackId) == ids.playbackID)
        #expect(first.string(.streamId) == ids.streamID)
        // Removed, an id is gone whatever the object still holds.
        first[.streamId] = nil
        #expect(first.attributes == [.playbackId: "p-9"])
    }

    @Test func sharedIdsLeaveAnIdTheyLackAndAnIdSetAsAnotherType() {
        // The hub has a playback id but no stream id yet: a stream id set before stays.
        let ids = HubIDs(streamID: nil, playbackID: "p-1")
        var withStream = Event(action: .start, timestamp: Timestamp(milliseconds: 0), attributes: [.streamId: "s-0"])
        withStream.stamp(ids: ids)
        #expect(withStream.attributes == [.streamId: "s-0", .playbackId: "p-1"])
        // An id set as a number is in the event's list: the stamp replaces it there.
        var displaced = Event(action: .start, timestamp: Timestamp(milliseconds: 0), attributes: [.playbackId: 7])
        displaced.stamp(ids: HubIDs(streamID: "s-1", playbackID: "p-1"))
        #expect(displaced.attributes == [.streamId: "s-1", .playbackId: "p-1"])
        #expect(displaced.string(.playbackId) == "p-1")
        // Stamped as one object or one by one, the same event.
        var oneByOne = Event(action: .start, timestamp: Timestamp(milliseconds: 0), attributes: [.playbackId: 7])
        oneByOne.stamp(.streamId, .string("s-1"))
        oneByOne.stamp(.playbackId, .string("p-1"))
        #expect(displaced == oneByOne)
        var none = Event(action: .start, timestamp: Timestamp(milliseconds: 0))
        none.stamp(ids: HubIDs(streamID: nil, playbackID: nil))
        #expect(none.attributes.isEmpty)
    }
}
