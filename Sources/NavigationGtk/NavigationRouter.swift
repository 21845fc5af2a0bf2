import Navigation

/// Drives a ``NavigationStack`` from a *path* of the app's own route values, as SwiftUI's
/// `NavigationStack(path:)` and Point-Free's swift-navigation do: the app names its screens with a
/// `Hashable & Codable` type, says once how to make the page for a route (`destination`), and then sets
/// the path (``setPath(_:animated:)``) instead of pushing and popping pages one by one.
///
/// - The path lists the routes of the pages above the stack's root page, nearest the root first (the
///   root page is not part of it: an empty path shows the root alone).
/// - Setting it makes the fewest changes to get there (`PathChange`): pages for the routes both paths
///   start with are kept as they are; the rest is popped, pushed, or both, with the stack's normal
///   transitions (one push or one pop, however many pages change).
/// - The route of each page is kept in the stack's own state (`NavigationStackState/Entry/route`),
///   so the path is read from what the stack shows, never from a list kept beside it: the user's Back,
///   Escape, swipe, the Back button's history menu and Forward change it, and ``observePath(_:)``
///   hears every change, whoever made it.
/// - Pages pushed on the stack without a route (a pushed flow's pages, or apps that don't use routes)
///   keep working; they are not part of the path, and setting a different path removes them (a pushed
///   flow then ends, as it does when its pages are popped).
/// - The path is `Codable` (an array of the app's values, with no process-local ids), so a path saved by
///   one run is rebuilt by the next with ``setPath(_:animated:)``.
///
/// Main actor only.
@MainActor
public final class NavigationRouter<Route: Hashable & Codable & Sendable> {
    /// The stack this router drives.
    public let stack: NavigationStack

    /// Makes the page for a route, or returns nil when it cannot (its subject is gone); called only for
    /// routes whose pages are not on the stack already.
    private let destination: @MainActor (Route) -> Page?
    private var shownPath: [Route] = []
    private let pathObservers = Observers<[Route]>()
    private var stackObservation: ObservationToken?
    private var hostedObservation: ObservationToken?

    /// Drives `stack` (which has its root page already); `destination` makes the page for a route.
    /// Pages already above the root stay (they have no route, so they are not part of the path).
    public init(stack: NavigationStack, destination: @escaping @MainActor (Route) -> Page?) {
        self.stack = stack
        self.destination = destination
        shownPath = path
        stackObservation = stack.observeEvents { [weak self] _, _ in self?.stackDidChange() }
        hostedObservation = stack.hostedContentObservers.add { [weak self] in self?.stackDidChange() }
    }

    /// The routes of the pages above the root, nearest the root first: what the stack shows now. An
    /// expanded ``NavigationSplitView`` on the stack adds the routes of the content pages in its pane
    /// after its own, so a path is the same whether the split view is collapsed (its content pages on
    /// the stack) or expanded.
    public var path: [Route] {
        locatedRoutes.map(\.route)
    }

    /// Where each route of the path is: the stack entry it belongs to (its own, or the split view whose
    /// pane shows it) and, in a pane, its place there.
    private var locatedRoutes: [(route: Route, entry: Int, pane: (split: NavigationSplitView, index: Int)?)] {
        var result: [(route: Route, entry: Int, pane: (split: NavigationSplitView, index: Int)?)] = []
        let pages = stack.pages
        for (index, entry) in stack.state.entries.enumerated() {
            if index > 0, let route = entry.route?.value(as: Route.self) { result.append((route, index, nil)) }
            guard index < pages.count, let split = pages[index] as? NavigationSplitView else { continue }
            for (paneIndex, route) in split.routesInPane.enumerated() {
                if let route = route.value(as: Route.self) { result.append((route, index, (split, paneIndex))) }
            }
        }
        return result
    }

    /// The route of the visible page, or nil (the root, or a page without a route on top).
    /// (With an expanded split view on top, the route of the deepest content page in its pane.)
    public var visibleRoute: Route? {
        if let split = stack.visiblePage as? NavigationSplitView, let last = split.routesInPane.last { return last.value(as: Route.self) }
        return stack.state.top?.route?.value(as: Route.self)
    }

    /// The deepest path a router shows: `maximumPathDepth` (64) pages above the root, far more than a
    /// person navigates by hand. A longer path (from a damaged file, a journal, a storm of links) is cut to
    /// it before any page is made, and a push beyond it is refused; both are logged.
    public static var maximumDepth: Int { maximumPathDepth }

    /// Makes the stack show `newPath` above its root, with the fewest changes (see the type's docs);
    /// pages without a route above the kept ones are removed. Makes pages only for the routes that are
    /// new; when `destination` returns nil for one, the path stops before it. A path longer than
    /// ``maximumDepth`` is cut to its first ``maximumDepth`` routes first.
    /// - Returns: the path shown afterwards (`newPath`, or the start of it up to the route that could
    ///   not be shown).
    @discardableResult
    public func setPath(_ newPath: [Route], animated: Bool = true) -> [Route] {
        var newPath = newPath
        if newPath.count > Self.maximumDepth {
            Logger.toolkit.problem("A path of \(newPath.count) pages was cut to \(Self.maximumDepth)")
            newPath = Array(newPath.prefix(Self.maximumDepth))
        }
        let old = path
        let change = PathChange(from: old, to: newPath)
        guard change != .none else { return old }
        let kept = change.kept(from: old)
        var pages: [(page: Page, route: AnyRoute?)] = []
        for route in change.added {
            guard let page = destination(route) else { break }
            pages.append((page, AnyRoute(route)))
        }
        // Through an expanded split view: the routes after its own are its content, in its pane.
        let located = locatedRoutes
        let keptEntries = entryCount(keepingRoutes: kept)
        let lastKept = kept > 0 ? located[kept - 1] : nil
        let top = stack.pages.indices.contains(keptEntries - 1) ? stack.pages[keptEntries - 1] : nil
        if let split = lastKept?.pane?.split ?? (top as? NavigationSplitView), !split.isCollapsed, top === split {
            let paneKept = lastKept?.pane.map { $0.index + 1 } ?? 0
            if keptEntries < stack.state.entries.count { stack.show(keeping: keptEntries, thenPush: [], animated: animated) }
            split.showContent(keeping: paneKept, thenPush: pages)
            return path
        }
        // A new split view among the pages: the pages after it are its content (in its pane when it
        // stays expanded once on the stack, else above it on the stack).
        if let splitIndex = pages.firstIndex(where: { $0.page is NavigationSplitView }), splitIndex + 1 < pages.count,
           let split = pages[splitIndex].page as? NavigationSplitView {
            stack.show(keeping: keptEntries, thenPush: Array(pages[...splitIndex]), animated: animated)
            let rest = Array(pages[(splitIndex + 1)...])
            if split.isCollapsed {
                stack.show(keeping: stack.state.entries.count, thenPush: rest, animated: false)
            } else {
                split.showContent(keeping: 0, thenPush: rest)
            }
            return path
        }
        stack.show(keeping: keptEntries, thenPush: pages, animated: animated)
        return path
    }

    /// Pushes the page for `route` on top of whatever the stack shows (also above pages without a
    /// route, such as a pushed flow's, which stay). Does nothing when the visible page already shows
    /// `route` — opening the same screen twice in a row (a double click, key repeat, two activations in
    /// one frame) shows it once.
    /// - Returns: the page for `route` on top afterwards (the new one or the one already shown), or nil
    ///   when `destination` could not make it or the path is ``maximumDepth`` routes deep already.
    @discardableResult
    public func push(_ route: Route, animated: Bool = true) -> Page? {
        if visibleRoute == route { return stack.visiblePage }
        guard path.count < Self.maximumDepth else {
            Logger.toolkit.problem("Not pushed: the path is \(Self.maximumDepth) pages deep already")
            return nil
        }
        guard let page = destination(route) else { return nil }
        if let split = stack.visiblePage as? NavigationSplitView, !split.isCollapsed {
            return split.pushContent(page, route: AnyRoute(route)) ? page : nil
        }
        return stack.show(keeping: stack.state.entries.count, thenPush: [(page, AnyRoute(route))], animated: animated) ? page : nil
    }

    /// The page on the stack showing `route` (the lowest one), or nil.
    public func page(for route: Route) -> Page? {
        let wanted = AnyRoute(route)
        guard let entry = stack.state.entries.first(where: { $0.route == wanted }) else {
            for case let split as NavigationSplitView in stack.pages {
                if let page = split.contentPageShowing(wanted) { return page }
            }
            return nil
        }
        return stack.pages.first { $0.id == entry.id }
    }

    /// Calls `handler` with the new path after every change of it (a push, pop or replace by code or by
    /// the user), once the stack shows it, until the token goes. Changes of pages without a route only
    /// are not heard (the path is the same).
    public func observePath(_ handler: @escaping @MainActor ([Route]) -> Void) -> ObservationToken {
        pathObservers.add(handler)
    }

    /// How many of the stack's entries to keep so that the first `kept` routes of the path stay: the
    /// root and everything up to the `kept`-th page with a route.
    private func entryCount(keepingRoutes kept: Int) -> Int {
        guard kept > 0 else { return 1 }
        let located = locatedRoutes
        return kept <= located.count ? located[kept - 1].entry + 1 : stack.state.entries.count
    }

    private func stackDidChange() {
        let now = path
        guard now != shownPath else { return }
        shownPath = now
        pathObservers.notify(now)
    }
}
