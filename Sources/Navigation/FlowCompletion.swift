/// The one result of a flow, delivered exactly once.
///
/// A flow can end in many ways at nearly the same time (a double-click on Post, Cancel during a
/// transition, the window manager closing the dialog while the caller's task is cancelled). Every path
/// calls ``resolve(_:)``; the first call wins and later ones change nothing and return false. Callers
/// await ``value(onCancel:)``; every one of them, however many, gets that first value exactly once.
///
/// Main actor only.
@MainActor
public final class FlowCompletion<Value: Sendable> {
    /// The result, once resolved.
    public private(set) var result: Value?
    private var continuations: [CheckedContinuation<Value, Never>] = []
    private var observers: [@MainActor (Value) -> Void] = []

    /// Creates an unresolved completion.
    public init() {}

    /// Whether a result has been set.
    public var isResolved: Bool { result != nil }

    /// Sets the result if none is set yet, resumes the waiting caller, and runs the observers.
    /// - Returns: true for the first call, false (and nothing happens) for every later one.
    @discardableResult
    public func resolve(_ value: Value) -> Bool {
        guard result == nil else { return false }
        result = value
        let waiting = continuations
        continuations = []
        for continuation in waiting { continuation.resume(returning: value) }
        let toNotify = observers
        observers = []
        toNotify.forEach { $0(value) }
        return true
    }

    /// Runs `observer` once with the result when it is resolved (at once if it already is).
    public func whenResolved(_ observer: @escaping @MainActor (Value) -> Void) {
        if let result { observer(result) } else { observers.append(observer) }
    }

    /// Waits for the result. If the calling task is cancelled first, `onCancel` runs on the main actor;
    /// it should end the flow (typically resolving with a "canceled" value), which then returns here.
    ///
    /// Any number of callers may wait; each gets the one result.
    public func value(onCancel: @escaping @MainActor () -> Void) async -> Value {
        if let result { return result }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                if let result {
                    continuation.resume(returning: result)
                } else {
                    self.continuations.append(continuation)
                }
            }
        } onCancel: {
            Task { @MainActor in onCancel() }
        }
    }
}
