import CThreadName
import Foundation

extension Thread {
    /// Starts `body` on a new thread named `name`, a name the system shows too (`top -H`,
    /// `/proc/PID/task/*/comm`, `scripts/measure/thread-cpu.py`): Linux keeps its first 15 bytes.
    static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            avt_name_this_thread(name)
            body()
        }
        thread.start()
    }
}
