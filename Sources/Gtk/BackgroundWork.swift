import Dispatch
import Synchronization

/// Runs blocking work (decoding, disk I/O) on background threads, at most ``width`` jobs at once, so a
/// list of thousands of photos never starts thousands of decodes and the main thread never waits.
///
/// A job still waiting for a slot is dropped as soon as its task is cancelled (a list cell that scrolled
/// away cancels its load): it never runs and ``run(_:)`` throws `CancellationError`. A job that has
/// started runs to the end (blocking C calls cannot be interrupted); its result is then discarded by the
/// cancelled caller. Waiting jobs start newest first (LIFO): what was just scrolled into view loads
/// before what was requested earlier. Safe to use from any thread or actor.
public final class BackgroundWorkQueue: Sendable {
    /// The most jobs that run at once.
    public let width: Int

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var nextID: UInt64 = 0
        var waiting: [Waiter] = []
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue

    /// Creates a queue that runs at most `width` (≥ 1) jobs at once on GCD's global threads.
    public init(label: String, width: Int) {
        self.width = max(1, width)
        queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
    }

    /// Runs `work` on a background thread once a slot is free, and returns its result.
    /// - Throws: `CancellationError` if the calling task is cancelled before the work starts; otherwise
    ///   whatever `work` throws.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await acquire()
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try work() }
                self.release()
                continuation.resume(with: result)
            }
        }
    }

    /// Number of jobs waiting for a slot (for tests and benchmarks).
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    private func acquire() async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { state in
            if state.running < width {
                state.running += 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiting.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = state.withLock { state -> Waiter? in
            if let next = state.waiting.popLast() { return next }  // the slot passes on (LIFO)
            state.running -= 1
            return nil
        }
        next?.continuation.resume()
    }
}
