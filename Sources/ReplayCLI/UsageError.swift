import ArgumentParser

/// Usage errors in the order of their causes.
///
/// ArgumentParser checks a command's values (`validate()`) before it reports the options it
/// does not know and the values left over, so a misspelt option is hidden behind what it
/// caused: in `--otu reports FILE`, `reports` is taken as an input, and the first complaint
/// would be that it is neither a file nor a subcommand. When a check fails, the command line
/// is parsed again with the checks off (``checksValues``); if that parse fails, its error
/// (ArgumentParser's own, with its "Did you mean '--out'?") is the one reported.
enum UsageError {
    /// Whether the commands' `validate()` checks the values: each returns at once when not.
    @TaskLocal static var checksValues = true

    /// The error to report for `error`, which parsing `arguments` as `command` threw: the
    /// unknown option or left-over value behind a failed check, or `error` itself.
    static func cause(of error: any Error, parsing arguments: [String], as command: any ParsableCommand.Type)
        -> any Error
    {
        guard command.exitCode(for: error) == .validationFailure else { return error }
        do {
            try $checksValues.withValue(false) { _ = try command.parseAsRoot(arguments) }
            return error
        } catch let cause {
            return cause
        }
    }
}
