import Replay
import ReplayCLI

// `avt-replay`, every option and report of it, with two components of our own: `--hub` still
// picks the standard hub, which the counting hub wraps.
ReplayTool(name: "custom-replay") { hub in
    InstrumentComponents(
        makeHub: { QualityChangeCountingHub(wrapping: hub.makeHub(idGenerator: $0)) },
        makeMetricalc: { TimeBetweenQualityChanges() })
}.main()
