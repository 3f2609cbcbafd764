import Foundation
import Synchronization
import Testing

@testable import MetricsPush

/// Strings appended from any thread.
final class Recorder: Sendable {
    private let items = Mutex<[String]>([])

    /// Appends; returns how many there are now.
    @discardableResult
    func append(_ item: String) -> Int {
        items.withLock {
            $0.append(item)
            return $0.count
        }
    }

    var all: [String] { items.withLock { $0 } }
}

/// A new empty folder under the system's temporary folder.
func makeTemporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The lines of every file, as a sorted list (a line kept twice shows twice).
func linesOf(_ paths: [String]) -> [String] {
    paths.flatMap { path in
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }.sorted()
}

/// The number just before `marker` in `text`.
func number(before marker: String, in text: String) -> Int? {
    guard let range = text.range(of: marker) else { return nil }
    return Int(String(text[..<range.lowerBound].reversed().prefix { $0.isNumber }.reversed()))
}

struct SpoolTests {
    /// Two spools of one folder keep batches at once: one chooses a name, and before it makes
    /// the file the other keeps three batches, the first under that very name. Each batch gets a
    /// file of its own, none is replaced, and the names still sort in the order kept.
    @Test func twoKeepersAtOnceNeverShareAName() throws {
        let directory = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first = Spool(directory: directory)
        let second = Spool(directory: directory)
        let chosen = Recorder()
        first.beforeCreating = { name in
            guard chosen.append(name) == 1 else { return }
            for index in 0..<3 { _ = try? second.keep(Array("second \(index)\n".utf8), for: "influx") }
        }
        let path = try first.keep(Array("first\n".utf8), for: "influx")
        #expect(chosen.all == ["00000001.influx", "00000002.influx", "00000003.influx", "00000004.influx"])
        #expect((path as NSString).lastPathComponent == "00000004.influx")
        let kept = first.pending(for: "influx").map {
            String(decoding: FileManager.default.contents(atPath: $0) ?? Data(), as: UTF8.self)
        }
        #expect(kept == ["second 0\n", "second 1\n", "second 2\n", "first\n"])
        // Nothing but the batches: no temporary file is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["00000001.influx", "00000002.influx", "00000003.influx", "00000004.influx"])
    }

    /// The same with a real second process: while this one is paused between choosing a name
    /// and making the file, a whole `avt-replay` run keeps its batch into the same spool (the
    /// server refuses connections). Every line of both is in exactly one batch file, and the
    /// run's "kept" count is the number of files it wrote.
    @Test func aRunKeepingIntoTheSameSpoolMeanwhileTakesAnotherName() throws {
        let work = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let folder = (work as NSString).appendingPathComponent("spool")
        let closed = try SilentListener(listening: false)
        let arguments = [
            "--quiet", "--metrics", "events", "--out", (work as NSString).appendingPathComponent("run"),
            "--spool", folder, "--influx", "http://127.0.0.1:\(closed.port)/write?db=x",
        ]
        var spool = Spool(directory: folder)
        let chosen = Recorder()
        let run = Recorder()
        spool.beforeCreating = { name in
            guard chosen.append(name) == 1 else { return }
            guard var other = try? AvtReplay(arguments + AvtReplay.samples) else { return }
            let (status, standardError) = other.finish()
            run.append("\(status)")
            run.append(standardError)
        }
        let mine = [Array("mine,n=1 v=1i 1\nmine,n=2 v=2i 2\n".utf8), Array("mine,n=3 v=3i 3\n".utf8)]
        let paths = try mine.map { try spool.keep($0, for: "influx") }
        try #require(run.all.count == 2)
        #expect(run.all[0] == "5")
        let kept = try #require(number(before: " kept in ", in: run.all[1]))
        #expect(kept >= 1)
        #expect(chosen.all.first == "00000001.influx")
        #expect(paths.map { ($0 as NSString).lastPathComponent } == ["00000002.influx", "00000003.influx"])
        let files = spool.pending(for: "influx")
        #expect(files.count == kept + mine.count)
        let theirs = linesOf([(work as NSString).appendingPathComponent("run/metrics.influx")])
        let ours = mine.flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) }
        #expect(!theirs.isEmpty)
        #expect(linesOf(files) == (theirs + ours).sorted())
    }

    /// Taking the lock removes the temporary files of processes that are gone; those of live
    /// ones (this one included) and of earlier versions stay, and none counts for the numbering.
    @Test func leftoversOfGoneProcessesAreRemoved() throws {
        let directory = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = ".influx.aaaa.tmp-\(gone.processIdentifier)"
        let live = [".influx.bbbb.tmp-\(getpid())", ".graphite.cccc.tmp-1", ".00000007.influx.tmp"]
        for name in [dead] + live {
            #expect(
                FileManager.default.createFile(
                    atPath: (directory as NSString).appendingPathComponent(name), contents: Data("x\n".utf8)))
        }
        let spool = Spool(directory: directory)
        let path = try spool.keep(Array("y\n".utf8), for: "influx")
        #expect((path as NSString).lastPathComponent == "00000001.influx")
        #expect(try SpoolLock(spool: spool).take(creatingFolder: false))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == (live + [".lock", "00000001.influx"]).sorted())
        #expect(Spool.temporaryOwner(of: dead) == gone.processIdentifier)
        #expect(Spool.temporaryOwner(of: ".00000007.influx.tmp") == nil)
        #expect(Spool.temporaryOwner(of: "00000001.influx") == nil)
    }

    /// A second lock on one spool waits, told the holder's pid, until the first lets go; the
    /// lock file stays.
    @Test func aSecondLockWaitsForTheFirstAndIsToldItsHolder() throws {
        let directory = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = Spool(directory: directory)
        let first = SpoolLock(spool: spool)
        #expect(try first.take(creatingFolder: false))
        let holders = Recorder()
        let waiting = DispatchSemaphore(value: 0)
        let taken = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let second = SpoolLock(spool: spool) { holder in
                holders.append(holder.map { "\($0)" } ?? "unknown")
                waiting.signal()
            }
            let took = (try? second.take(creatingFolder: false)) ?? false
            holders.append(took && second.isHeld ? "taken" : "not taken")
            second.release()
            taken.signal()
        }
        waiting.wait()
        #expect(holders.all == ["\(getpid())"])
        first.release()
        taken.wait()
        #expect(holders.all == ["\(getpid())", "taken"])
        #expect(FileManager.default.fileExists(atPath: SpoolLock.path(in: spool)))
    }

    /// Where the spool's folder does not exist, a lock taken at the start of a push makes none.
    @Test func aLockMakesNoFolderUntilABatchIsKept() throws {
        let parent = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let spool = Spool(directory: (parent as NSString).appendingPathComponent("spool"))
        let lock = SpoolLock(spool: spool)
        #expect(try lock.take(creatingFolder: false) == false)
        #expect(!FileManager.default.fileExists(atPath: spool.directory))
        let outcome = Pusher(sink: ScriptedSink([]), spool: spool) { _ in }.push([Array("a\n".utf8)])
        #expect(outcome.delivered == 1)
        #expect(!FileManager.default.fileExists(atPath: spool.directory))
        #expect(try lock.take(creatingFolder: true))
        #expect(FileManager.default.fileExists(atPath: SpoolLock.path(in: spool)))
    }

    /// `avt-replay flush` from a spool whose lock this process holds waits, saying once who
    /// holds it, and sends nothing; once the lock is let go it delivers the batch, once.
    @Test func aFlushWaitsForThePushHoldingTheSpool() throws {
        let directory = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = Spool(directory: directory)
        _ = try spool.keep(Array("m v=1i 1\n".utf8), for: "influx")
        let server = try FakeInflux(answers: [])
        defer { server.stop() }
        let lock = SpoolLock(spool: spool)
        #expect(try lock.take(creatingFolder: false))
        var flush = try AvtReplay([
            "flush", "--quiet", "--spool", directory, "--influx", "http://127.0.0.1:\(server.port)/write?db=x",
        ])
        let told = flush.waitForError(containing: "held by pid \(getpid())")
        #expect(told)
        #expect(server.requests.isEmpty)
        #expect(spool.pending(for: "influx").count == 1)
        lock.release()
        let (status, standardError) = flush.finish()
        #expect(status == 0)
        #expect(server.requests.count == 1)
        #expect(spool.pending(for: "influx").isEmpty)
        #expect(standardError.components(separatedBy: "waiting for the spool \(directory)").count == 2)
    }

    /// Whether a tmpfs can be mounted here (root, allowed to mount).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let folder = try? makeTemporaryFolder() else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard mount("tmpfs", folder, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount2(folder, Int32(MNT_DETACH))
        return true
    }()

    /// A spool on a disk that fills up: the batches that fit are kept, each of the others is
    /// named as lost by its own place in the push and its lines, the counts are the files
    /// really written, and no partial or temporary file is left.
    @Test(.enabled(if: canMountTmpfs, "mounting a 64 KiB tmpfs needs root"))
    func aFullDiskNamesEachLostBatch() throws {
        let disk = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: disk) }
        try #require(mount("tmpfs", disk, "tmpfs", 0, "size=64k") == 0)
        defer { umount2(disk, Int32(MNT_DETACH)) }
        let spool = Spool(directory: (disk as NSString).appendingPathComponent("spool"))
        // Six batches of 20 KB (400 lines of 50 bytes), where 64 KiB holds at most three.
        let batches = (0..<6).map { batch in
            Array(
                (0..<400).map { line in
                    let number = String(batch * 400 + line)
                    return "m,n=" + String(repeating: "0", count: 8 - number.count) + number + " v=1i "
                        + String(repeating: "9", count: 31) + "\n"
                }.joined().utf8)
        }
        #expect(batches.allSatisfy { $0.count == 20_000 })
        var pusher = Pusher(sink: ScriptedSink(Array(repeating: .unreachable("down"), count: 6)), spool: spool) { _ in }
        pusher.attempts = 1
        let outcome = pusher.push(batches, from: "metrics.influx")
        let files = spool.pending(for: "fake")
        #expect(outcome.spooled == files.count)
        #expect(outcome.spooled >= 1)
        #expect(outcome.lost.count == 6 - outcome.spooled)
        #expect(outcome.lost.count >= 3)
        let lostNumbers = outcome.lost.compactMap { number(before: " of this push", in: $0) }
        #expect(lostNumbers == Array((outcome.spooled...6).dropFirst()))
        for (number, loss) in zip(lostNumbers, outcome.lost) {
            let first = (number - 1) * 400 + 1
            #expect(
                loss.hasPrefix(
                    "batch \(number) of this push (lines \(first)–\(first + 399) of metrics.influx): cannot keep a batch in \(spool.directory): "
                ))
            #expect(loss.hasSuffix("No space left on device"))
        }
        let expected = batches.prefix(outcome.spooled).flatMap {
            String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let keptWhole = linesOf(files) == expected.sorted()
        #expect(keptWhole)
        let names = try FileManager.default.contentsOfDirectory(atPath: spool.directory)
        #expect(names.sorted() == ([".lock"] + files.map { ($0 as NSString).lastPathComponent }).sorted())
    }
}
