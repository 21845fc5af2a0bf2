/// The main-actor tasks of one owner (an app's controller, a window): started through it, cancelled
/// together, and waited for when the owner closes, so that no task outlives what it works on.
///
/// A task's code may then read its owner after an `await` without checking whether a quit freed it
/// meanwhile: ``closeAndWait(timeout:)`` returns once every task has ended (or the time is up), and the
/// owner is released after that. Once closed, `start(_:)` starts nothing. Main actor only.
@MainActor
public final class OwnedTasks {
    private var running: [UInt64: Task<Void, Never>] = [:]
    private var nextID: UInt64 = 0
    private var endedBeforeStored: Set<UInt64> = []

    /// Whether ``close()`` has been called: new tasks are refused.
    public private(set) var isClosed = false

    /// Creates an empty, open set of tasks.
    public init() {}

    /// How many tasks have started and not yet ended.
    public var count: Int { running.count }

    /// Starts `operation` as a main-actor task owned here; it runs synchronously until its first
    /// suspension when `immediately` (`Task.immediate`: what a click starts is shown before the click's
    /// handler returns), else at the main loop's next iteration.
    /// - Returns: the task, or nil when closed (nothing is started).
    @discardableResult
    public func start(immediately: Bool = false, _ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never>? {
        guard !isClosed else { return nil }
        nextID += 1
        let id = nextID
        let body: @MainActor () async -> Void = { [weak self] in
            await operation()
            self?.ended(id)
        }
        let task = immediately ? Task.immediate(operation: body) : Task(operation: body)
        if endedBeforeStored.remove(id) == nil { running[id] = task }  // else it ended already, synchronously
        return task
    }

    private func ended(_ id: UInt64) {
        if running.removeValue(forKey: id) == nil { endedBeforeStored.insert(id) }
    }

    /// Cancels every running task (each ends as its code handles cancellation).
    public func cancelAll() {
        for task in running.values { task.cancel() }
    }

    /// Refuses new tasks from now on and cancels the running ones.
    public func close() {
        isClosed = true
        cancelAll()
    }

    /// ``close()``, then runs GLib's main loop until every task has ended or `timeout` has passed. For shutdown, from synchronous code on the main thread.
    /// - Returns: whether every task ended.
    @discardableResult
    public func closeAndWait(timeout: Duration = .seconds(5)) -> Bool {
        close()
        return MainLoopBridge.run(until: { self.running.isEmpty }, timeout: timeout)
    }
}
