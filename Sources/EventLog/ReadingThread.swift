import Foundation

/// A thread that reads inputs for ``EventLogReader/forEachEntry(readingAheadOn:_:)``, one
/// input at a time, kept for all the inputs of a run.
///
/// One thread for the run, not one for each input: a thread for each input cost some 0.8 ms
/// an input to start, and left memory with the allocator of every one of them (measured over
/// 240 small files, `scripts/memory-test.sh`'s larger run: 0.53 s → 0.68 s, peak memory up
/// 3 MB). The thread ends when the value is released.
public final class ReadingThread: Sendable {
    private let jobs = Jobs()

    /// Starts the thread.
    public init() {
        let jobs = self.jobs
        let thread = Thread { jobs.runUntilClosed() }
        thread.name = "avt-replay.read"
        thread.start()
    }

    deinit {
        jobs.close()
    }

    /// Runs `job` on the thread, after the jobs before it.
    func run(_ job: @escaping @Sendable () -> Void) {
        jobs.add(job)
    }

    private final class Jobs: @unchecked Sendable {
        // Guarded by `condition`.
        private var waiting: [@Sendable () -> Void] = []
        private var closed = false
        private let condition = NSCondition()

        func add(_ job: @escaping @Sendable () -> Void) {
            condition.withLock {
                waiting.append(job)
                condition.signal()
            }
        }

        func close() {
            condition.withLock {
                closed = true
                condition.signal()
            }
        }

        func runUntilClosed() {
            while true {
                let job: (@Sendable () -> Void)? = condition.withLock {
                    while waiting.isEmpty && !closed { condition.wait() }
                    return waiting.isEmpty ? nil : waiting.removeFirst()
                }
                guard let job else { return }
                job()
            }
        }
    }
}
