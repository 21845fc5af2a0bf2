@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import CGLib
import Synchronization

/// Swift concurrency on GLib: the process's main executor and default (global) executor, installed with
/// the concurrency runtime's executor factory (`_createExecutors(factory:)`, SPI of Swift 6.3's
/// `_Concurrency`), so that ordinary Swift runs where a GLib app expects it, whatever the code writes:
///
/// - main-actor code (`@MainActor` functions, `Task { }` started on the main actor, `MainActor.run`, a
///   continuation's task resumed from any thread, the main actor after `Task.sleep`) runs on the main
///   thread from GLib's default main context: `MainContextExecutor`, one idle source per job;
/// - nonisolated work (`Task.detached`, `async let` and task-group children, nonisolated `async`
///   functions, the hop of a resumed continuation) runs on a GLib thread pool: `GLibTaskPool`;
/// - delays (`Task.sleep`, `ContinuousClock.sleep`) are kept by an idle thread of that pool, which
///   waits until the deadline without a timer of its own and then runs the job that is due.
///
/// libdispatch's thread pool — Swift's default global executor on Linux, whose workqueue monitor wakes the
/// process once a second for the rest of its life once anything ran there — is never started, and an
/// idle process wakes 0 times: GLib's threads block without a timeout while there is nothing to do.
///
/// ``install()`` must run before the first task is started: the toolkit's `Application.init(id:)`,
/// `initializeGtk()` and `MainLoopBridge.install()` call it, so an app built on the toolkit does not.
/// A program that uses concurrency before any of those calls ``install()`` first thing in `main`.
public enum GLibExecutors {
    /// The executors the runtime is given; see ``GLibExecutors``.
    struct Factory: ExecutorFactory {
        static var mainExecutor: any MainExecutor { GLibExecutors.main }
        static var defaultExecutor: any TaskExecutor { GLibExecutors.pool }
    }

    /// The main actor's executor: GLib's default main context, on the main thread.
    static let main = MainContextExecutor()

    /// The default executor: nonisolated work, on GLib threads (as many as the machine has cores, at least 2).
    static let pool = GLibTaskPool(label: "swift-tasks", width: max(2, Int(g_get_num_processors())))

    private static let installed = InstallOnce()

    /// Makes the runtime send main-actor jobs to `main` and every other job to `pool`. Idempotent and
    /// thread-safe; takes effect for jobs enqueued afterwards, so call it before the first `Task`.
    public static func install() {
        installed.run { _createExecutors(factory: Factory.self) }
    }

    /// Whether ``install()`` has run: the runtime's main executor is GLib's. Any thread.
    public static var isInstalled: Bool { MainActor.executor === main }

    /// The name of the default executor's threads ("swift-tasks"), as `top -H` and `/proc` show them.
    public static var poolThreadName: String { pool.label }

    /// How many main-actor jobs have been queued on GLib's main context so far (each is one dispatch of
    /// the main loop): for benchmarks and tests that count what a hop costs. Any thread.
    public static var mainLoopDispatches: Int { main.dispatches.load(ordering: .relaxed) }

}

/// Runs a closure once per process (GLib's `g_once_init_enter`/`g_once_init_leave`).
private final class InstallOnce: @unchecked Sendable {  // guarded by GLib's once
    private let done = UnsafeMutablePointer<gsize>.allocate(capacity: 1)
    init() { done.initialize(to: 0) }
    func run(_ body: () -> Void) {
        if g_once_init_enter(done) != 0 {
            body()
            g_once_init_leave(done, 1)
        }
    }
}

/// The main actor's executor on GLib: each job is an idle source of `G_PRIORITY_DEFAULT` on the default
/// main context (`g_idle_add_full` is thread-safe and wakes the context), so main-actor work runs on the
/// main thread inside `g_application_run`, `g_main_loop_run` or `g_main_context_iteration`, in the order
/// it was enqueued, also in a nested loop. A delayed job is a GLib timeout on the same context (the
/// monotonic clock, rounded up to whole milliseconds).
///
/// Isolation is the main thread: `MainActor.assumeIsolated` holds on the main thread, also outside any
/// job (a GTK signal handler), and traps elsewhere, naming the thread.
final class MainContextExecutor: MainExecutor, SchedulingExecutor, @unchecked Sendable {  // stateless but for the loop run() makes, main thread only
    nonisolated(unsafe) private var loop: OpaquePointer?
    /// Jobs queued so far (``GLibExecutors/mainLoopDispatches``).
    let dispatches = Atomic<Int>(0)

    init() {}

    /// Queues `job` to run on the main thread at the default main context's next iteration. Any thread.
    func enqueue(_ job: consuming ExecutorJob) {
        dispatches.add(1, ordering: .relaxed)
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            unsafeBitCast(data, to: UnownedJob.self).runSynchronously(on: GLibExecutors.main.asUnownedSerialExecutor())
            return 0  // G_SOURCE_REMOVE
        }, unsafeBitCast(UnownedJob(job), to: UnsafeMutableRawPointer.self), nil)
    }

    /// Queues `job` to run on the main thread `delay` from now (a GLib timeout; see `GLibTaskPool` for
    /// the clock). Any thread.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        let milliseconds = GLibTaskPool.milliseconds(delay, clock: clock)
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            unsafeBitCast(data, to: UnownedJob.self).runSynchronously(on: GLibExecutors.main.asUnownedSerialExecutor())
            return 0
        }, unsafeBitCast(UnownedJob(job), to: UnsafeMutableRawPointer.self), nil)
    }

    /// Runs GLib's default main context until ``stop()`` (a `GMainLoop`). Main thread. Does not throw.
    func run() throws {
        let loop = g_main_loop_new(nil, 0)
        self.loop = loop
        g_main_loop_run(loop)
        g_main_loop_unref(loop)
        self.loop = nil
    }

    /// Iterates the default main context, blocking while nothing is ready, until `condition` holds.
    /// Main thread. Does not throw.
    func runUntil(_ condition: () -> Bool) throws {
        while !condition() { g_main_context_iteration(nil, 1) }
    }

    /// Ends ``run()``.
    func stop() {
        if let loop { g_main_loop_quit(loop) }
    }

    /// True: this is the main actor's executor.
    var isMainExecutor: Bool { true }

    /// Traps unless the caller is on the main thread (where the main actor runs), naming where it is.
    func checkIsolated() {
        guard navgtk_is_main_thread() != 0 else {
            let name = threadName()
            fatalError("main-actor code called on the thread \"\(name)\", not the main thread: hand it to the main loop (MainLoopBridge.onMainThread, or a main-actor Task)")
        }
    }

    /// Whether the caller is on the main thread.
    func isIsolatingCurrentContext() -> Bool? {
        navgtk_is_main_thread() != 0
    }

    private func threadName() -> String {
        var name = [CChar](repeating: 0, count: 32)
        let file = fopen("/proc/thread-self/comm", "r")
        defer { if let file { fclose(file) } }
        guard let file, fgets(&name, 32, file) != nil else { return "?" }
        return String(decoding: name.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Swift's default executor on GLib: ``width`` GLib threads (`g_thread_new`, named ``label``, started
/// with the first job) that take jobs first in, first out from one queue behind a `GMutex`, and wait on a
/// `GCond` without a timeout while there is nothing to do: an idle pool wakes 0 times.
///
/// Delays (`Task.sleep`) wait in a queue of their own, ordered by deadline. One idle thread at a time
/// keeps the time: it waits on its `GCond` until the earliest deadline (`g_cond_wait_until`), then runs
/// the job that is due itself, so a sleep costs that one thread's wake-up and no hand-over to another
/// thread. A delay asked for from one of the pool's threads (the sleeping task's own job) is kept by
/// that thread once the job ends, without waking another.
///
/// Delays use GLib's monotonic clock (`CLOCK_MONOTONIC`, which stops while the system is suspended):
/// what Swift's `SuspendingClock` means; a `ContinuousClock` delay across a suspend ends late by the time
/// suspended. Microseconds, rounded up (a sleep never ends early).
final class GLibTaskPool: TaskExecutor, SchedulingExecutor, @unchecked Sendable {  // state behind `mutex`
    /// The most jobs that run at once (the number of threads).
    let width: Int
    /// The threads' name (Linux keeps the first 15 bytes).
    let label: String

    private let mutex = UnsafeMutablePointer<GMutex>.allocate(capacity: 1)
    /// Idle threads that do not keep the time wait here for jobs.
    private let work = UnsafeMutablePointer<GCond>.allocate(capacity: 1)
    /// The time keeper waits here, until the earliest deadline or a job.
    private let keeping = UnsafeMutablePointer<GCond>.allocate(capacity: 1)
    // Behind `mutex`:
    nonisolated(unsafe) private var ready: [UnownedJob] = []
    nonisolated(unsafe) private var readyStart = 0
    nonisolated(unsafe) private var delayed: [(deadline: Int, sequence: UInt64, job: UnownedJob)] = []  // a binary heap
    nonisolated(unsafe) private var sequence: UInt64 = 0
    nonisolated(unsafe) private var started = 0
    nonisolated(unsafe) private var idleWorkers = 0
    nonisolated(unsafe) private var hasKeeper = false
    nonisolated(unsafe) private var keeperIdle = false

    init(label: String, width: Int) {
        self.label = label
        self.width = max(1, width)
        g_mutex_init(mutex)
        g_cond_init(work)
        g_cond_init(keeping)
    }

    /// Queues `job` on the pool. Any thread.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        g_mutex_lock(mutex)
        ready.append(job)
        wakeOneLocked()
        g_mutex_unlock(mutex)
    }

    /// Queues `job` on the pool `delay` from now. Any thread.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        let job = UnownedJob(job)
        let microseconds = Self.microseconds(delay, clock: clock)
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        guard microseconds > 0 else {
            ready.append(job)
            wakeOneLocked()
            return
        }
        sequence += 1
        let deadline = g_get_monotonic_time() + microseconds
        let earliest = delayed.first.map { deadline < $0.deadline } ?? true
        pushDelayed((deadline, sequence, job))
        guard earliest else { return }
        if hasKeeper {
            if keeperIdle { g_cond_signal(keeping) }  // to wait for the new, earlier deadline
        } else if g_private_get(Self.onPoolThread) == nil {
            if idleWorkers > 0 { g_cond_signal(work) } else { startThreadIfAllowedLocked() }  // someone keeps the time
        }
        // From a pool thread: that thread keeps the time once its job (the sleeping task's) ends.
    }

    /// A delay in microseconds, rounded up (0 for none or a negative one).
    static func microseconds<C: Clock>(_ delay: C.Duration, clock: C) -> Int {
        guard let duration = delay as? Duration else { return 0 }
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return 0 }
        let micro = (Double(attoseconds) / 1e12).rounded(.up)
        return seconds >= Int64(Int.max / 4_000_000) ? Int.max / 4 : Int(seconds) * 1_000_000 + Int(micro)
    }

    /// A delay in whole milliseconds, rounded up, for GLib's timeouts (0 for none or a negative one; at
    /// most about 49 days, GLib's `guint` range).
    static func milliseconds<C: Clock>(_ delay: C.Duration, clock: C) -> guint {
        let micro = microseconds(delay, clock: clock)
        return guint(min((micro + 999) / 1000, Int(guint.max - 1)))
    }

    /// Wakes an idle thread for a new job, or starts one. Behind `mutex`.
    private func wakeOneLocked() {
        if idleWorkers > 0 {
            g_cond_signal(work)
        } else if !startThreadIfAllowedLocked(), hasKeeper, keeperIdle {
            g_cond_signal(keeping)  // the time keeper is the only idle thread: it takes the job
        }
    }

    /// Starts another thread while fewer than `width` run. Behind `mutex`.
    @discardableResult
    private func startThreadIfAllowedLocked() -> Bool {
        guard started < width else { return false }
        started += 1
        g_thread_unref(g_thread_new(label, { data in
            let pool = Unmanaged<GLibTaskPool>.fromOpaque(data!).takeUnretainedValue()
            g_private_set(GLibTaskPool.onPoolThread, UnsafeMutableRawPointer(bitPattern: 1))
            pool.workLoop()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque()))  // the pool lives as long as the process
        return true
    }

    /// A pool thread: runs ready jobs; idle, keeps the time if nobody does, else waits for work.
    private func workLoop() {
        g_mutex_lock(mutex)
        while true {
            moveDueLocked()
            if readyStart < ready.count {
                let job = ready[readyStart]
                readyStart += 1
                if readyStart == ready.count { ready.removeAll(keepingCapacity: true); readyStart = 0 }
                if readyStart < ready.count, idleWorkers > 0 { g_cond_signal(work) }  // more to do: another helps
                g_mutex_unlock(mutex)
                job.runSynchronously(on: asUnownedTaskExecutor())
                g_mutex_lock(mutex)
                continue
            }
            if !delayed.isEmpty, !hasKeeper {
                hasKeeper = true
                keeperIdle = true
                _ = g_cond_wait_until(keeping, mutex, delayed[0].deadline)
                keeperIdle = false
                hasKeeper = false
                moveDueLocked()
                // Going to run a job while delays remain: an idle thread takes over the time.
                if readyStart < ready.count, !delayed.isEmpty, idleWorkers > 0 { g_cond_signal(work) }
                continue
            }
            idleWorkers += 1
            g_cond_wait(work, mutex)
            idleWorkers -= 1
        }
    }

    /// Moves the delayed jobs that are due to the ready queue, earliest first. Behind `mutex`.
    private func moveDueLocked() {
        guard !delayed.isEmpty else { return }
        let now = g_get_monotonic_time()
        while let first = delayed.first, first.deadline <= now {
            ready.append(popDelayed())
        }
    }

    private func pushDelayed(_ entry: (deadline: Int, sequence: UInt64, job: UnownedJob)) {
        delayed.append(entry)
        var child = delayed.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.earlier(delayed[child], delayed[parent]) else { break }
            delayed.swapAt(child, parent)
            child = parent
        }
    }

    private func popDelayed() -> UnownedJob {
        let job = delayed[0].job
        delayed.swapAt(0, delayed.count - 1)
        delayed.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < delayed.count, Self.earlier(delayed[left], delayed[first]) { first = left }
            if right < delayed.count, Self.earlier(delayed[right], delayed[first]) { first = right }
            guard first != parent else { break }
            delayed.swapAt(parent, first)
            parent = first
        }
        return job
    }

    private static func earlier(_ a: (deadline: Int, sequence: UInt64, job: UnownedJob),
                                _ b: (deadline: Int, sequence: UInt64, job: UnownedJob)) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    /// Set on the pool's threads (a `GPrivate`, GLib's thread-local slot).
    nonisolated(unsafe) static let onPoolThread: UnsafeMutablePointer<GPrivate> = {  // GPrivate is GLib's thread-safe slot
        let slot = UnsafeMutablePointer<GPrivate>.allocate(capacity: 1)
        slot.initialize(to: GPrivate())
        return slot
    }()
}
