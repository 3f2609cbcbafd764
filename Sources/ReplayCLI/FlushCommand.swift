import ArgumentParser
import Foundation
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
        guard UsageError.checksValues else { return }
        if !push.isEnabled {
            throw ValidationError("Name the server(s) to send to: --influx URL and/or --graphite HOST:PORT.")
        }
    }

    func run() throws {
        // A spool that does not exist is a mistyped one: there is nothing to send from it.
        let spool = push.spool ?? ReportFolder.defaultSpool(of: "reports")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spool, isDirectory: &isFolder), isFolder.boolValue else {
            printError(
                "avt-replay flush: the spool \(spool) "
                    + (FileManager.default.fileExists(atPath: spool) ? "is not a folder" : "does not exist")
                    + ": nothing was sent; give the spool a run kept its batches in (--spool DIR; a run's is <out>.spool)"
            )
            throw ExitStatus.usage.exitCode
        }
        let status = push.push(fromFolder: nil, quiet: quiet).result.status(after: .success)
        if status != .success { throw status.exitCode }
    }
}
