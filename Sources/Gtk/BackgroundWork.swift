import CGLib
import CGtk
import Glibc
import Synchronization

/// A Swift `TaskExecutor` that runs jobs on a GLib thread pool of its own (an exclusive `GThreadPool`),
/// for blocking work — decoding, disk I/O, EXIF — so a list of thousands of photos never starts
/// thousands of decodes, the main thread never waits, and libdispatch's thread pool is never started.
///
/// Why not Swift's global executor: on Linux its pool (libdispatch's) starts a *workqueue monitor* on
/// first use that wakes the process once a second for the rest of its life (`_dispatch_workq_init_once`
/// in swift-corelibs-libdispatch's `src/event/workqueue.c`). An exclusive GThreadPool's idle threads
/// block on its queue without a timeout: an idle app wakes 0 times.
///
/// Two ways to use it, both from any thread or actor:
/// - ``run(_:)`` runs one closure on the pool and returns its result to the caller's actor;
/// - as a task executor preference (`withTaskExecutorPreference(queue) { … }`,
///   `Task(executorPreference: queue)`), nonisolated `async` code, `async let` and task-group children
///   inside run on the pool instead of the global executor (SE-0417).
///
/// - The threads run at a lower priority than the main thread (``niceness``, 10 by default), so on a
///   machine with few cores, decoding yields to drawing and input instead of stalling them.
/// - Waiting jobs start newest first (LIFO, GLib's `g_thread_pool_set_sort_function`): what was just
///   scrolled into view loads before what was requested earlier.
/// - A ``run(_:)`` whose task is cancelled before its job starts never runs its closure and throws
///   `CancellationError`. A closure that has started runs to the end (blocking C calls cannot be
///   interrupted); the cancelled caller discards its result.
///
/// The ``width`` threads start with the first job, are named after ``label`` (as `top` and `/proc` show
/// them), and live as long as the process.
public final class ThreadPoolExecutor: TaskExecutor, @unchecked Sendable {  // state behind a Mutex; GThreadPool is thread-safe
    /// The most jobs that run at once (the number of threads).
    public let width: Int
    /// The threads' nice value (0 is normal; higher yields more to other threads).
    public let niceness: Int32
    /// The threads' name (Linux keeps the first 15 bytes).
    public let label: String

    /// One queued job and its place in line.
    private final class Queued {
        let job: UnownedJob?
        let work: (@Sendable () -> Void)?
        let sequence: UInt64
        init(job: UnownedJob?, work: (@Sendable () -> Void)?, sequence: UInt64) {
            self.job = job
            self.work = work
            self.sequence = sequence
        }
    }

    private struct State {
        var pool: UnsafeMutablePointer<GThreadPool>?
        var nextSequence: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates an executor of `width` (≥ 1) threads at nice `niceness` (0…19), named `label`; the threads
    /// start with the first job.
    public init(label: String, width: Int, niceness: Int32 = 10) {
        self.label = label
        self.width = max(1, width)
        self.niceness = min(19, max(0, niceness))
    }

    /// Queues `job` (Swift's concurrency runtime calls this; so does a task preferring this executor).
    public func enqueue(_ job: consuming ExecutorJob) {
        push(job: UnownedJob(job), work: nil)
    }

    /// Runs `body` on one of the pool's threads and returns at once (fire and forget; for C work that
    /// reports nothing, such as `malloc_trim`).
    public func execute(_ body: @escaping @Sendable () -> Void) {
        push(job: nil, work: body)
    }

    /// Runs `work` on one of the pool's threads and returns its result, on the caller's actor (the call
    /// does not leave it before the job is queued: `nonisolated(nonsending)`).
    /// - Throws: `CancellationError` if the calling task is cancelled before the work starts; otherwise
    ///   whatever `work` throws.
    nonisolated(nonsending)
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withTaskExecutorPreference(self) { try await Self.perform(work) }
    }

    /// Runs on the preferred task executor: this pool.
    @concurrent
    private static func perform<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()  // cancelled while it waited: the work never runs
        return try work()
    }

    /// Number of jobs waiting for a thread (for tests and benchmarks).
    public var waitingCount: Int {
        state.withLock { state in state.pool.map { Int(g_thread_pool_unprocessed($0)) } ?? 0 }
    }

    private func push(job: UnownedJob?, work: (@Sendable () -> Void)?) {
        state.withLock { state in
            state.nextSequence += 1
            let queued = Queued(job: job, work: work, sequence: state.nextSequence)
            let pool = state.pool ?? makePool()
            state.pool = pool
            g_thread_pool_push(pool, Unmanaged.passRetained(queued).toOpaque(), nil)
        }
    }

    /// The exclusive pool: its `width` threads start now and wait on its queue (no timeout) for ever.
    private func makePool() -> UnsafeMutablePointer<GThreadPool> {
        let context = Unmanaged.passRetained(self).toOpaque()  // the pool's threads keep the executor alive
        let pool = g_thread_pool_new({ data, context in
            let executor = Unmanaged<ThreadPoolExecutor>.fromOpaque(context!).takeUnretainedValue()
            let queued = Unmanaged<Queued>.fromOpaque(data!).takeRetainedValue()
            executor.prepareThread()
            if let job = queued.job { job.runSynchronously(on: executor.asUnownedTaskExecutor()) }
            queued.work?()
        }, context, gint(width), 1, nil)!
        // Newest first: GLib asks whether a should run before b (negative) or after it.
        g_thread_pool_set_sort_function(pool, { a, b, _ in
            let first = Unmanaged<Queued>.fromOpaque(a!).takeUnretainedValue().sequence
            let second = Unmanaged<Queued>.fromOpaque(b!).takeUnretainedValue().sequence
            return first > second ? -1 : (first < second ? 1 : 0)
        }, nil)
        return pool
    }

    /// Names the calling pool thread and sets its nice value, once per thread.
    private func prepareThread() {
        guard g_private_get(Self.prepared) == nil else { return }
        g_private_set(Self.prepared, UnsafeMutableRawPointer(bitPattern: 1))
        // On Linux a nice value set with PRIO_PROCESS and 0 applies to the calling thread only.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        navgtk_name_current_thread(label)
    }

    /// Whether the current thread was prepared (a `GPrivate`, GLib's thread-local slot).
    nonisolated(unsafe) private static let prepared: UnsafeMutablePointer<GPrivate> = {  // GPrivate is GLib's thread-safe slot
        let slot = UnsafeMutablePointer<GPrivate>.allocate(capacity: 1)
        slot.initialize(to: GPrivate())
        return slot
    }()
}
