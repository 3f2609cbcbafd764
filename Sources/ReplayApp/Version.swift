/// The version of avt-replay, as `--version`, `avt-replay version` and `run.json` give it.
package enum AvtReplayVersion {
    /// The release this source is, or will be: `CHANGELOG.md`'s newest heading.
    package static let current = "0.9.0"
}
