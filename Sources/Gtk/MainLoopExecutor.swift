import CGtk

/// A Swift `TaskExecutor` that runs jobs on the main thread from GLib's default main context (an idle
/// source per job; `g_idle_add_full` is thread-safe), so that a main-actor task's `await`s never go
/// through Swift's global executor.
///
/// **Why.** On Linux a continuation (`withCheckedContinuation`, and everything built on it: a GIO call,
/// a flow's result, a store write) resumes its task on the *generic* executor, which is Swift's global
/// executor, libdispatch's thread pool — even when the task runs on the main actor and is resumed on the
/// main thread; the task hops to the main actor from there. Starting that pool starts its workqueue
/// monitor, which wakes the process once a second for the rest of its life. A task that prefers this
/// executor (SE-0417 task executor preference) is resumed here instead: on the main thread, by GLib.
///
/// Use ``Task/onMainLoop(priority:_:)`` to start main-actor tasks with this preference. What still
/// starts the pool: `Task { }` and `Task.detached { }` without a preference that await something,
/// `async let` and task-group children outside a preference, `Task.sleep`, `DispatchQueue.global()`.
/// A nonisolated `async` function (without `nonisolated(nonsending)` or `@concurrent`) called from such
/// a task runs on the main thread, as the preference says: blocking work belongs on a
/// ``ThreadPoolExecutor``.
public final class MainLoopExecutor: TaskExecutor, @unchecked Sendable {  // stateless; GLib's main context is thread-safe
    /// The one main-loop executor.
    public static let shared = MainLoopExecutor()

    private init() {}

    private final class Queued: @unchecked Sendable {  // handed to the main thread once, through GLib
        let job: UnownedJob
        init(_ job: UnownedJob) { self.job = job }
    }

    /// Queues `job` to run on the main thread at the main loop's next iteration (any thread).
    public func enqueue(_ job: consuming ExecutorJob) {
        let queued = Unmanaged.passRetained(Queued(UnownedJob(job))).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let queued = Unmanaged<Queued>.fromOpaque(data!).takeRetainedValue()
            queued.job.runSynchronously(on: MainLoopExecutor.shared.asUnownedTaskExecutor())
            return 0  // G_SOURCE_REMOVE
        }, queued, nil)
    }
}

extension Task where Failure == Never {
    /// Starts `operation` on the main actor as `Task { }` does, preferring ``MainLoopExecutor``: its awaits
    /// resume through GLib's main loop, never through Swift's global executor (see there why). The
    /// preference goes to the task's `async let` and task-group children too, not to tasks it starts
    /// with `Task { }`. Any thread.
    @discardableResult
    public static func onMainLoop(priority: TaskPriority? = nil,
                                  _ operation: sending @escaping @MainActor () async -> Success) -> Task<Success, Never> {
        Task(executorPreference: MainLoopExecutor.shared, priority: priority) { await operation() }
    }
}

extension Task where Failure == any Error {
    /// Starts the throwing `operation` on the main actor preferring ``MainLoopExecutor``, as
    /// ``Task/onMainLoop(priority:_:)-(_,_)`` does; the task's value rethrows what `operation` throws.
    @discardableResult
    public static func onMainLoop(priority: TaskPriority? = nil,
                                  _ operation: sending @escaping @MainActor () async throws -> Success) -> Task<Success, any Error> {
        Task(executorPreference: MainLoopExecutor.shared, priority: priority) { try await operation() }
    }
}
