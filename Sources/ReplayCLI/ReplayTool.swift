import OpenAVT
import Replay
import ReplayApp

/// The `avt-replay` command line, with a name and the OpenAVT components its replays run:
/// the `main` of the `avt-replay` executable, and of any replay command built on it.
///
/// The command is the whole of `avt-replay` (every option, report, exit status and the
/// `flush` subcommand); only the name in its help and the components of each replayed
/// instrument change. `--hub` still chooses the standard hub, which the factory is given.
///
/// ```swift
/// import ReplayCLI
///
/// var tool = ReplayTool(name: "custom-replay") { hub in
///     InstrumentComponents(
///         makeHub: { QualityChangeCountingHub(wrapping: hub.makeHub(idGenerator: $0)) },
///         makeMetricalc: { TimeBetweenQualityChanges() })
/// }
/// tool.pauseBeforeRetry = sleep  // a real sleep, as `avt-replay`'s main.swift passes
/// tool.main()
/// ```
public struct ReplayTool: Sendable {
    /// The command's name in its usage line and help.
    public var name: String
    /// Makes the components of every instrument, given the `--hub` option.
    public var components: @Sendable (_ hub: HubKind) -> InstrumentComponents
    /// Waits before a push to a server is tried again (0.5 s, then twice as long each time).
    /// The executable passes a real sleep, so that the library never reads the clock; without
    /// one, the tries follow each other at once and what is not delivered is kept in the spool.
    public var pauseBeforeRetry: @Sendable (Duration) -> Void = { _ in }

    /// Creates a tool; by default `avt-replay` itself, with OpenAVT's components.
    public init(
        name: String = "avt-replay",
        components: @escaping @Sendable (_ hub: HubKind) -> InstrumentComponents = { InstrumentComponents(hub: $0) }
    ) {
        self.name = name
        self.components = components
    }

    /// The tool whose command is running.
    @TaskLocal static var current = ReplayTool()

    /// Parses the process's arguments, runs the command and exits with its status (see the
    /// README's exit codes); returns only when the command succeeded.
    public func main() {
        // Before any thread starts: every thread then leaves SIGINT and SIGTERM to Interruption's.
        Interruption.install()
        ReplayTool.$current.withValue(self) {
            AvtReplayCommand.main()
        }
    }
}
