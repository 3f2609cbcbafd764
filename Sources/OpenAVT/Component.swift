/// A part of an instrument: a tracker, hub, metricalc or backend (OpenAVT's `OAVTComponentProtocol`).
///
/// Components are classes: the instrument holds them by reference and hands itself to
/// them, as OpenAVT does. Both lifecycle methods default to doing nothing.
///
/// ### Implementation requirements
/// Components keep no reference to the instrument beyond what they need, and read time
/// only from the events they are given.
public protocol Component: AnyObject {
    /// Called by ``Instrument/ready()`` once the chain is assembled (and again after each change).
    func instrumentReady(_ instrument: Instrument)
    /// Called when the component is removed or replaced, and by ``Instrument/shutdown()``.
    func endOfService()
}

extension Component {
    public func instrumentReady(_ instrument: Instrument) {}
    public func endOfService() {}
}
