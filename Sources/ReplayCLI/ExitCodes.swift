import ArgumentParser
import ReplayApp

extension ExitStatus {
    /// The status as ArgumentParser's exit code.
    var exitCode: ExitCode { ExitCode(rawValue) }

    /// `check` and `diff`: the report sets differ. These commands never skip input silently
    /// (a skipped line is a reject, and rejects are compared), so the code of
    /// ``ExitStatus/inputSkipped`` is free for them.
    static let reportsDiffer = ExitCode(1)
}

extension RejectLimit: ExpressibleByArgument {}
