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
}
