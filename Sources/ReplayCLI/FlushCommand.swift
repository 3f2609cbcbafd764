import ArgumentParser
import ReplayApp

/// `avt-replay flush`: sends the batches a spool kept, and nothing else.
struct FlushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush",
        abstract: "Send the metrics kept in a spool (after a server was unreachable), and nothing else."
    )

    @OptionGroup var push: PushOptions

    @Flag(name: .shortAndLong, help: "Print nothing but fatal errors.")
    var quiet = false

    func validate() throws {
        if !push.isEnabled {
            throw ValidationError("Name the server(s) to send to: --influx URL and/or --graphite HOST:PORT.")
        }
    }

    func run() throws {
        let status = push.push(fromFolder: nil, quiet: quiet).result.status(after: .success)
        if status != .success { throw status.exitCode }
    }
}
