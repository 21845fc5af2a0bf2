import Dispatch
import Glibc
import Synchronization

/// Runs blocking work (decoding, disk I/O) on its own background threads, at most ``width`` jobs at
/// once, so a list of thousands of photos never starts thousands of decodes and the main thread never
/// waits.
///
/// - The threads run at a lower priority than the main thread (``niceness``, 10 by default), so on a
///   machine with few cores, decoding yields to drawing and input instead of stalling them.
/// - Waiting jobs start newest first (LIFO): what was just scrolled into view loads before what was
///   requested earlier.
/// - A job still waiting is dropped as soon as its task is cancelled (a list cell that scrolled away
///   cancels its load): it never runs and ``run(_:)`` throws `CancellationError`. A job that has started
///   runs to the end (blocking C calls cannot be interrupted); the cancelled caller discards its result.
///
/// Safe to use from any thread or actor. The threads live as long as the process.
public final class BackgroundWorkQueue: Sendable {
    /// The most jobs that run at once (the number of threads).
    public let width: Int
    /// The threads' nice value (0 is normal; higher yields more to other threads).
    public let niceness: Int32

    private struct Job {
        let id: UInt64
        let run: @Sendable () -> Void
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var nextID: UInt64 = 0
        var waiting: [Job] = []
        var threadsStarted = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let label: String  // for debugging (the queue's name)

    /// Creates a queue of `width` (≥ 1) threads at nice `niceness` (0…19), named after `label`; they
    /// start with the first job.
    public init(label: String, width: Int, niceness: Int32 = 10) {
        self.label = label
        self.width = max(1, width)
        self.niceness = min(19, max(0, niceness))
    }

    /// Runs `work` on one of the queue's threads and returns its result.
    /// - Throws: `CancellationError` if the calling task is cancelled before the work starts; otherwise
    ///   whatever `work` throws.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        startThreadsOnce()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let resumed = Mutex(false)
                let resume: @Sendable (Result<T, any Error>) -> Void = { result in
                    let first = resumed.withLock { done -> Bool in
                        defer { done = true }
                        return !done
                    }
                    if first { continuation.resume(with: result) }
                }
                let job = Job(id: id, run: { resume(Result { try work() }) }, cancel: { resume(.failure(CancellationError())) })
                let cancelledAlready = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiting.append(job)
                    return false
                }
                if cancelledAlready { job.cancel() } else { available.signal() }
            }
        } onCancel: {
            let job = state.withLock { state -> Job? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index)
            }
            job?.cancel()
        }
    }

    /// Number of jobs waiting for a thread (for tests and benchmarks).
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    private func startThreadsOnce() {
        let start = state.withLock { state -> Bool in
            defer { state.threadsStarted = true }
            return !state.threadsStarted
        }
        guard start else { return }
        for _ in 0..<width {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()  // the threads keep the queue alive
            pthread_create(&thread, nil, { context in
                let queue = Unmanaged<BackgroundWorkQueue>.fromOpaque(context!).takeUnretainedValue()
                queue.work()
                return nil
            }, context)
            pthread_detach(thread)
        }
    }

    private func work() {
        // On Linux a nice value set with PRIO_PROCESS and 0 applies to the calling thread only.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while true {
            available.wait()
            guard let job = state.withLock({ $0.waiting.popLast() }) else { continue }  // cancelled meanwhile
            job.run()
        }
    }
}
