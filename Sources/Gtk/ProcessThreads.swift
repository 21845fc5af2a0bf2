import CGtk

/// This process's threads as Linux shows them (`/proc/self/task`): for checking that an idle app stays
/// idle. Any thread; each call reads `/proc` anew (blocking, but `/proc` is in memory).
public enum ProcessThreads {
    /// One thread: its id (the kernel's task id), its name (at most 15 bytes, as `top -H` shows it) and
    /// how many times it has been switched out so far, voluntarily (it slept: each is a wake-up later) or
    /// not (`voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches`).
    public struct Thread: Sendable, Equatable {
        /// The kernel's task id (the process id for the main thread).
        public let id: Int
        /// The thread's name.
        public let name: String
        /// Context switches so far.
        public let switches: Int
        /// "name[id]", one word: spaces in the name become "_" (for `key label count` lines).
        public var label: String { "\(String(name.map { $0 == " " ? "_" : $0 }))[\(id)]" }
    }

    /// Every thread of this process, or of process `pid` (another of this user's), by id; empty when the
    /// process is gone.
    public static func all(ofProcess pid: Int32? = nil) -> [Thread] {
        let process = pid.map { "/proc/\($0)" } ?? "/proc/self"
        guard let tasks = Files.names(inDirectory: FilePath("\(process)/task")) else { return [] }
        return tasks.compactMap { $0.string.flatMap { Int($0) } }.sorted().compactMap { id in
            guard let status = Files.readText(FilePath("\(process)/task/\(id)/status")) else { return nil }
            var name = "?", switches = 0
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let value = String(parts[1].drop { $0 == " " || $0 == "\t" })
                switch parts[0] {
                case "Name": name = value
                case "voluntary_ctxt_switches", "nonvoluntary_ctxt_switches": switches += Int(value) ?? 0
                default: break
                }
            }
            return Thread(id: id, name: name, switches: switches)
        }
    }

    /// The threads of libdispatch's pool in this process — Swift's default global executor on Linux
    /// without `GLibExecutors` (which the toolkit installs), and what `DispatchQueue.global()` runs on;
    /// empty while nothing has run there. libdispatch names its threads after their root queue
    /// ("com.apple.root.default-qos", "….overcommit"), which Linux cuts to their last 15 bytes, so they end
    /// in "-qos" or "qos.overcommit". Once started, the pool's monitor wakes the process every second for
    /// the rest of its life.
    public static func globalExecutorThreads() -> [Thread] {
        all().filter { $0.name.hasSuffix("-qos") || $0.name.hasSuffix("qos.overcommit") }
    }

    /// The wake-ups of each thread between two readings of `all()` (`before`, then `after`): the
    /// threads that woke, with how often, by id; threads that started in between count from 0.
    public static func wakeUps(from before: [Thread], to after: [Thread]) -> [(thread: Thread, count: Int)] {
        let earlier = Dictionary(before.map { ($0.id, $0.switches) }, uniquingKeysWith: { first, _ in first })
        return after.compactMap { thread in
            let count = thread.switches - (earlier[thread.id] ?? 0)
            return count > 0 ? (thread, count) : nil
        }
    }

    /// The wake-ups of an idle window ended by a GLib timeout on the main thread, read in that timeout:
    /// ``wakeUps(from:to:)`` less the main thread's one sleep in `poll` until the timeout (that sleep is
    /// the window itself, not a wake-up from it). Threads left with none are left out.
    public static func idleWakeUps(from before: [Thread], to after: [Thread]) -> [(thread: Thread, count: Int)] {
        let mainThread = Int(getpid())
        return wakeUps(from: before, to: after).compactMap { thread, count in
            let counted = thread.id == mainThread ? count - 1 : count
            return counted > 0 ? (thread, counted) : nil
        }
    }
}
