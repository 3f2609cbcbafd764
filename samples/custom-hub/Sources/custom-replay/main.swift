import Foundation
import Replay
import ReplayCLI

// `avt-replay`, every option and report of it, with two components of our own: `--hub` still
// picks the standard hub, which the counting hub wraps.
var tool = ReplayTool(name: "custom-replay") { hub in
    InstrumentComponents(
        makeHub: { QualityChangeCountingHub(wrapping: hub.makeHub(idGenerator: $0)) },
        makeMetricalc: { TimeBetweenQualityChanges() })
}
// Pushes to a server wait between tries; the library leaves the clock to the program.
tool.pauseBeforeRetry = { duration in
    let (seconds, attoseconds) = duration.components
    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
}
tool.main()
