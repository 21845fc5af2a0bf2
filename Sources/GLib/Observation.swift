/// A running observation: the handler it was made for is called until the token is cancelled
/// (``cancel()``) or released — keep it in a property (or ``store(in:)`` an array) for as long as you want
/// to hear, as a Combine `AnyCancellable` or swift-navigation's `ObserveToken`.
///
/// Returned by every `observe…` call of the toolkit (stacks, pages, routers, windows). Main actor only.
@MainActor
public final class ObservationToken {
    /// Whether ``cancel()`` ran.
    public private(set) var isCancelled = false

    init() {}

    /// Ends the observation now: its handler is not called again, also not for an event already being
    /// delivered. Idempotent.
    public func cancel() { isCancelled = true }

    /// Keeps the token alive in `tokens` (the observation lasts as long as the array holds it).
    public func store(in tokens: inout [ObservationToken]) { tokens.append(self) }
}

/// The observers of one kind of event, each held by its ``ObservationToken``: the toolkit's one observer
/// mechanism. A handler is called while its token lives and is not cancelled; released and cancelled
/// tokens are dropped at the next notification.
///
/// Notifying calls the handlers registered at that moment, in the order they were added; a handler may
/// add or cancel observations (an added one hears from the next notification on). Main actor only.
@MainActor
public final class Observers<Value> {
    private struct Entry {
        weak var token: ObservationToken?
        let handler: @MainActor (Value) -> Void
    }
    private var entries: [Entry] = []

    /// No observers.
    public init() {}

    /// Calls `handler` with every value ``notify(_:)`` is given from now on, until the returned token is
    /// cancelled or released.
    public func add(_ handler: @escaping @MainActor (Value) -> Void) -> ObservationToken {
        let token = ObservationToken()
        entries.removeAll { $0.token?.isCancelled ?? true }
        entries.append(Entry(token: token, handler: handler))
        return token
    }

    /// Whether any observation is still running.
    public var isEmpty: Bool { !entries.contains { $0.token.map { !$0.isCancelled } ?? false } }

    /// Calls each running observation's handler with `value`.
    public func notify(_ value: Value) {
        entries.removeAll { $0.token?.isCancelled ?? true }
        let snapshot = entries  // a handler may add or cancel observations meanwhile
        for entry in snapshot {
            guard let token = entry.token, !token.isCancelled else { continue }
            entry.handler(value)
        }
    }

    /// Ends every observation (their tokens read as cancelled).
    public func cancelAll() {
        for entry in entries { entry.token?.cancel() }
        entries = []
    }
}
