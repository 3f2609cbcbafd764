import EventModel
import Testing

@testable import OpenAVT

@Suite("hub stamps")
struct HubStampTests {
    @Test func eachStampIsItsAttributesSlot() {
        #expect(HubStamp.allCases.count == AttributeKey.hubStampSlots)
        for stamp in HubStamp.allCases {
            #expect(stamp.key.hubStampSlot == stamp.rawValue)
            #expect(stamp.key.rawValue == "\(stamp)")
        }
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
}
