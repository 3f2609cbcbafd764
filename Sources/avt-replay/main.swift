import Foundation
import ReplayCLI

var tool = ReplayTool()
// The one wait of the program: between tries of a push to a server.
tool.pauseBeforeRetry = { duration in
    let (seconds, attoseconds) = duration.components
    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
}
tool.main()
