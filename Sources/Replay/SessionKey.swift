import EventModel

/// What a replay session belongs to: an instrument (OpenAVT), an app session (value
/// propositions and app lifecycle) or a Marconi player.
public struct SessionKey: DigestHashable, Comparable, Sendable {
    /// The system, which also orders keys: OpenAVT, value propositions, Marconi.
    public var system: MetricSystem
    /// The instrument, app or player id.
    public var id: String

    public init(system: MetricSystem, id: String) {
        self.system = system
        self.id = id
    }

    /// The key of the session a record belongs to.
    public init(of record: borrowing Record) {
        switch record {
        case .avt(let avt): self.init(system: .openavt, id: avt.instrument)
        case .vp(let vp): self.init(system: .vp, id: vp.app)
        case .app(let app): self.init(system: .vp, id: app.app)
        case .marconi(let marconi): self.init(system: .marconi, id: marconi.player)
        }
    }

    /// A word-wise digest of the id's bytes and the system (`DigestHashable`):
    /// every record looks its life up.
    public var hashDigest: UInt64 { wordDigest(id, continuing: UInt64(system.ordinal)) }

    public static func < (lhs: SessionKey, rhs: SessionKey) -> Bool {
        if lhs.system != rhs.system { return lhs.system < rhs.system }
        return lhs.id.precedesInUTF8Order(rhs.id)
    }
}
