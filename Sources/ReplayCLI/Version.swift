import ArgumentParser
import ReplayApp

/// `avt-replay version`: prints the version (as `--version` does).
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print the version of avt-replay.")

    func run() {
        print("\(ReplayTool.current.name) \(AvtReplayVersion.current)")
    }
}
