/// A part of an instrument: a tracker, hub, metricalc or backend (OpenAVT's `OAVTComponentProtocol`).
///
/// Components are classes: the instrument holds them by reference and hands itself to
/// them, as OpenAVT does. Both lifecycle methods default to doing nothing.
///
/// ### Implementation requirements
/// Components keep no reference to the instrument beyond what they need, and read time
/// only from the events they are given.
///
/// A component that is to be carried from one nightly run to the next (`--state`) implements
/// ``encodeState(to:)`` and ``decodeState(from:)``; the defaults throw ``ComponentStateError``.
public protocol Component: AnyObject {
    /// Called by ``Instrument/ready()`` once the chain is assembled (and again after each change).
    func instrumentReady(_ instrument: Instrument)
    /// Called when the component is removed or replaced, and by ``Instrument/shutdown()``.
    func endOfService()
    /// Writes what the component keeps from one event to the next, for ``Instrument/encodeState(to:)``.
    ///
    /// The state restored by ``decodeState(from:)`` into a component made the same way must
    /// give the same behaviour as the component it was saved from. The encoding must be
    /// deterministic, the same state always the same bytes: never encode a `Dictionary` or a
    /// `Set` (their order changes from process to process), encode their entries sorted. A
    /// stateless component writes nothing. The default throws ``ComponentStateError``.
    func encodeState(to encoder: any Encoder) throws
    /// Restores what ``encodeState(to:)`` wrote, into a component just made by the same
    /// code, after the instrument has its trackers and ``Instrument/ready()`` was called. The
    /// default throws ``ComponentStateError``.
    func decodeState(from decoder: any Decoder) throws
}

extension Component {
    public func instrumentReady(_ instrument: Instrument) {}
    public func endOfService() {}

    public func encodeState(to encoder: any Encoder) throws {
        throw ComponentStateError(cannotKeepStateOf: self)
    }

    public func decodeState(from decoder: any Decoder) throws {
        throw ComponentStateError(cannotKeepStateOf: self)
    }
}

/// A component (or a part of one) whose state cannot be saved for `--state`.
public struct ComponentStateError: Error, CustomStringConvertible, Equatable {
    /// The type name of what cannot keep its state: the component's, or its part's.
    public var component: String
    /// What is wrong and what to do.
    public var message: String

    /// Creates the error.
    public init(component: String, message: String) {
        self.component = component
        self.message = message
    }

    /// The error a component gets when it does not implement ``Component/encodeState(to:)``
    /// and ``Component/decodeState(from:)``.
    public init(cannotKeepStateOf component: any Component) {
        let name = String(describing: type(of: component))
        self.init(
            component: name,
            message: "the \(Self.role(of: component)) \(name) cannot keep its state for --state: implement "
                + "encodeState(to:) and decodeState(from:) (docs/library.md, \"Nightly runs\")")
    }

    public var description: String { message }

    private static func role(of component: any Component) -> String {
        switch component {
        case is any Hub: "hub"
        case is any Metricalc: "metricalc"
        case is any Backend: "backend"
        case is any Tracker: "tracker"
        default: "component"
        }
    }
}
