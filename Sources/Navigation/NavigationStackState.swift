import Synchronization

/// A stable identity for a page on a navigation stack. Unique within the process.
public struct PageID: Hashable, Sendable, CustomStringConvertible {
    /// The raw number; only meaningful for equality and debugging.
    public let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// Makes a new, never-used identity. Safe from any thread.
    public static func make() -> PageID {
        PageID(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }

    /// "page#N", for logs.
    public var description: String { "page#\(rawValue)" }
}

/// The state of one navigation stack as a value: the pages from root (first) to visible (last).
///
/// Hosts (see `NavigationGtk`) keep one of these as the single source of truth: every change, whether
/// asked for by code (push, pop) or by the user with native UI (Back button, Escape, mouse back), is
/// made here first, and the widgets follow the ``StackChange`` between the old and new value.
///
/// Misuse is reported by the return value and changes nothing (pushing a page already on the stack,
/// popping the root), following libadwaita's `AdwNavigationView`, which logs and ignores such calls.
///
/// The state holds process-local ids and is not saved: an app saves its path of routes (``routes``, its
/// own `Codable` values), which a later run rebuilds pages from.
public struct NavigationStackState: Equatable, Sendable {
    /// One page on the stack.
    public struct Entry: Equatable, Sendable, Identifiable {
        /// The page's identity.
        public let id: PageID
        /// The title shown in the bar while the page is visible, and as the Back button's tooltip on
        /// the page above it.
        public var title: String
        /// The app's route value the page was made from (see `NavigationRouter` in `NavigationGtk`), or
        /// nil for a page pushed without one (a flow's pages).
        public var route: AnyRoute?
        /// A name for the page that code can pop back to (``NavigationStackState/pop(toTag:)``), as
        /// libadwaita's page tags; unique on a stack (a later page with the same tag is not found).
        public var tag: String?
        /// Whether the user can leave the page with Back (the button, its shortcuts, gestures). False
        /// hides Back on the page, as libadwaita's `can-pop`; code can still pop it.
        public var canPop: Bool

        /// Creates an entry.
        public init(id: PageID, title: String, route: AnyRoute? = nil, tag: String? = nil, canPop: Bool = true) {
            self.id = id
            self.title = title
            self.route = route
            self.tag = tag
            self.canPop = canPop
        }
    }

    /// The route of each page, root first (nil for a page pushed without one).
    public var routes: [AnyRoute?] { entries.map(\.route) }

    /// The pages, root first, visible page last. Never contains an id twice.
    public private(set) var entries: [Entry]

    /// The page the user just left with Back (``goBack()``), which Forward (``goForward()``) pushes
    /// again; nil once anything else changes the stack. Not saved with the state.
    public private(set) var forwardEntry: Entry?

    /// Creates a stack holding `entries` (duplicates after the first occurrence are dropped).
    public init(_ entries: [Entry] = []) {
        self.entries = []
        replace(with: entries)
    }

    /// The visible page, or nil when the stack is empty.
    public var top: Entry? { entries.last }

    /// The page Back returns to, or nil at the root.
    public var previous: Entry? { entries.count > 1 ? entries[entries.count - 2] : nil }

    /// Whether there is a page to go back to.
    public var canGoBack: Bool { entries.count > 1 }

    /// Whether the user can go back: there is a page below and the visible page allows it
    /// (``Entry/canPop``). The Back button shows, and Back's shortcuts act, only then.
    public var canUserGoBack: Bool { canGoBack && top?.canPop != false }

    /// The page tagged `tag` (the lowest one), or nil.
    public func entry(taggedAs tag: String) -> Entry? { entries.first { $0.tag == tag } }

    /// Whether `id` is on the stack.
    public func contains(_ id: PageID) -> Bool { entries.contains { $0.id == id } }

    /// Pushes `entry` on top.
    /// - Returns: false, changing nothing, if a page with the same id is already on the stack.
    @discardableResult
    public mutating func push(_ entry: Entry) -> Bool {
        guard !contains(entry.id) else { return false }
        entries.append(entry)
        forwardEntry = nil
        return true
    }

    /// The user's Back: pops the visible page when ``canUserGoBack``, and remembers it for
    /// ``goForward()``.
    /// - Returns: the popped page, or nil (nothing changed).
    @discardableResult
    public mutating func goBack() -> Entry? {
        guard canUserGoBack, let popped = pop() else { return nil }
        forwardEntry = popped
        return popped
    }

    /// The user's Forward (Alt+Right, mouse button 9; what a web browser does): pushes again the page
    /// the user just left with ``goBack()``, while nothing else has changed the stack since.
    /// - Returns: the page pushed, or nil (nothing to go forward to).
    @discardableResult
    public mutating func goForward() -> Entry? {
        guard let entry = forwardEntry, !contains(entry.id) else { return nil }
        entries.append(entry)
        forwardEntry = nil
        return entry
    }

    /// Removes the visible page, unless it is the root.
    /// - Returns: the removed page, or nil (nothing changed) at the root or on an empty stack.
    @discardableResult
    public mutating func pop() -> Entry? {
        guard entries.count > 1 else { return nil }
        forwardEntry = nil
        return entries.removeLast()
    }

    /// Removes every page above `id`, making it the visible page.
    /// - Returns: the removed pages, bottom first; empty if `id` is not on the stack or already on top.
    @discardableResult
    public mutating func pop(to id: PageID) -> [Entry] {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return [] }
        let removed = Array(entries[(index + 1)...])
        entries.removeSubrange((index + 1)...)
        if !removed.isEmpty { forwardEntry = nil }
        return removed
    }

    /// Removes every page above the one tagged `tag`, making it the visible page (libadwaita's
    /// `pop_to_tag`).
    /// - Returns: the removed pages, bottom first; empty if no page has the tag or it is on top.
    @discardableResult
    public mutating func pop(toTag tag: String) -> [Entry] {
        guard let entry = entry(taggedAs: tag) else { return [] }
        return pop(to: entry.id)
    }

    /// Removes every page but the root.
    /// - Returns: the removed pages, bottom first; empty at the root.
    @discardableResult
    public mutating func popToRoot() -> [Entry] {
        guard let root = entries.first else { return [] }
        return pop(to: root.id)
    }

    /// Replaces all pages with `newEntries` (root first). An empty list empties the stack. Repeated ids
    /// keep their first occurrence.
    public mutating func replace(with newEntries: [Entry]) {
        var seen = Set<PageID>()
        entries = newEntries.filter { seen.insert($0.id).inserted }
        forwardEntry = nil
    }

    /// Forgets the page ``goForward()`` would push again.
    public mutating func clearForward() { forwardEntry = nil }

    /// Sets whether the user can leave page `id` with Back (``Entry/canPop``).
    /// - Returns: false if `id` is not on the stack.
    @discardableResult
    public mutating func setCanPop(_ canPop: Bool, of id: PageID) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries[index].canPop = canPop
        return true
    }

    /// Sets the tag of page `id` (nil for none). The caller keeps tags unique (``entry(taggedAs:)`` finds
    /// the lowest page with a tag).
    /// - Returns: false if `id` is not on the stack.
    @discardableResult
    public mutating func setTag(_ tag: String?, of id: PageID) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries[index].tag = tag
        return true
    }

    /// Sets the title of page `id`.
    /// - Returns: false if `id` is not on the stack.
    @discardableResult
    public mutating func setTitle(_ title: String, of id: PageID) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries[index].title = title
        return true
    }

    /// The cheapest change that turns `self` into `new`, for a host to animate.
    public func change(to new: NavigationStackState) -> StackChange {
        let common = zip(entries, new.entries).prefix { $0.id == $1.id }.count
        let removed = Array(entries[common...])
        let added = Array(new.entries[common...])
        switch (removed.isEmpty, added.isEmpty) {
        case (true, true): return .none
        case (true, false): return .push(added)
        case (false, true): return .pop(removed)
        case (false, false): return .replace(removed: removed, added: added)
        }
    }
}

/// How a stack changed between two states, as a host animates it.
public enum StackChange: Equatable, Sendable {
    /// Nothing changed (titles may have).
    case none
    /// These pages were added on top, bottom first; the last is now visible. Animated as a push.
    case push([NavigationStackState.Entry])
    /// These pages were removed from the top, bottom first. Animated as a pop.
    case pop([NavigationStackState.Entry])
    /// Pages were removed and others added above the common base. Animated as a push of the new top.
    case replace(removed: [NavigationStackState.Entry], added: [NavigationStackState.Entry])

    /// The kind of transition to show, or nil for none.
    public var transitionKind: TransitionKind? {
        switch self {
        case .none: nil
        case .push, .replace: .push
        case .pop: .pop
        }
    }
}

/// The direction of a page transition.
public enum TransitionKind: Equatable, Sendable {
    /// A new page slides over the old one (from the end edge: right in left-to-right locales).
    case push
    /// The visible page slides away, uncovering the one under it.
    case pop
}

/// Whether a page transition is animating, as named state rather than flags.
public enum Transition: Equatable, Sendable {
    /// No transition: input goes to the visible page.
    case idle
    /// A transition from page `from` to page `to` is animating; input is ignored until it ends.
    case running(from: PageID?, to: PageID?, kind: TransitionKind)

    /// Whether a transition is animating.
    public var isRunning: Bool { self != .idle }
}

/// How a flow or a page is shown.
public enum Presentation: Equatable, Sendable {
    /// In a dialog window of its own (transient for and modal to the caller's window), with its own
    /// header bar and navigation stack; Cancel at the start of the bar.
    case modal
    /// Pushed onto the caller's existing navigation stack; when it ends the stack pops back to exactly
    /// where it was.
    case pushed
}

/// A step of a page's life on a navigation stack, as libadwaita's `AdwNavigationPage` signals it.
public enum PageLifecycleEvent: Equatable, Sendable {
    /// A change (push, pop, replace) has started to show the page.
    case showing
    /// The change that showed the page has ended (its transition is over): it is the visible page.
    case shown
    /// A change has started to cover or remove the page.
    case hiding
    /// The change that covered or removed the page has ended.
    case hidden
}
