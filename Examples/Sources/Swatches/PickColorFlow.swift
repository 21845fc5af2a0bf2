import NavigationGtk

/// A flow owns its pages and returns a typed result exactly once, modally or pushed.
@MainActor public final class PickColorFlow {
    public enum Result: Equatable, Sendable { case picked(String), canceled }
    private let completion = FlowCompletion<Result>()   // first resolve wins
    public private(set) var host: FlowHost?

    public init() {}

    public func run(from page: Page, presentation: Presentation = .modal) async -> Result {
        let first = PickColorPage()
        first.onPicked = { [weak self] in self?.finish(.picked($0)) }
        let host = FlowHost(from: page, presentation: presentation, first: first)
        host.onCancelRequest = { [weak self] _ in self?.finish(.canceled) }  // Cancel, Escape, close, Back
        self.host = host
        return await completion.value(onCancel: { [weak self] in self?.finish(.canceled) })  // caller's Task cancelled
    }

    private func finish(_ result: Result) {
        guard completion.resolve(result) else { return }
        host?.end()          // dismiss the dialog, or pop back to exactly where it started
        host = nil
    }
}
