import ArgumentParser
import ReplayApp

/// `--threads N`: how many threads decode and replay (the reports are the same for any N).
struct ThreadsOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Threads that decode and replay, from 1 to \(ThreadsOption.maximum) (default: the cores this process may use). 1: one thread reads, one replays, one writes; N: the lives are shared among N replay engines. The reports are the same for every N.",
            valueName: "n"))
    var threads: Int?

    static let maximum = 256

    func validate() throws {
        guard UsageError.checksValues else { return }
        if let threads, !(1...Self.maximum).contains(threads) {
            throw ValidationError("--threads must be from 1 to \(Self.maximum), not \(threads).")
        }
    }

    /// The threads given, or the default.
    var count: Int { threads ?? ReplayRun.defaultThreads }
}
