/// What an app's route value is, type-erased, as a stack's ``NavigationStackState/Entry`` keeps it: the
/// value a page was made from (a post, a profile), so the stack's state alone says which route each page
/// shows, with no list kept beside it.
///
/// Two routes are equal when their values are of the same type and equal (`AnyHashable`'s equality).
/// Safe to pass between threads: it can only be made from a `Sendable` value, which is what makes the
/// `@unchecked Sendable` below sound (`AnyHashable` itself is not marked `Sendable`).
public struct AnyRoute: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The route value.
    public let base: AnyHashable

    /// Wraps `route`.
    public init<Route: Hashable & Sendable>(_ route: Route) {
        base = AnyHashable(route)
    }

    /// The route as `Route`, or nil when it is a value of another type.
    public func value<Route>(as type: Route.Type = Route.self) -> Route? {
        base.base as? Route
    }

    /// The route's own description.
    public var description: String { String(describing: base.base) }
}

/// The deepest path of routes a navigation stack is given: 64 pages above its root, far more than a
/// person navigates by hand. `NavigationRouter` cuts a longer path to it before making any page, and
/// whatever reads paths from outside (a saved state, a journal) refuses or cuts longer ones the same way.
public let maximumPathDepth = 64

/// The fewest changes that take a navigation stack from one path of routes to another, as SwiftUI's
/// `NavigationStack(path:)` follows the path an app sets: pages for the routes the two paths share at
/// their start are kept as they are (not rebuilt); what follows is popped, pushed, or both.
///
/// A path lists the routes of the pages above the stack's root page, nearest the root first; the root
/// itself is not part of it (an empty path shows the root alone).
public enum PathChange<Route: Equatable>: Equatable {
    /// The paths are equal: nothing to do.
    case none
    /// The new path is the old one with `routes` added at the end, nearest the root first: push them
    /// (animated as one push, of the last).
    case push([Route])
    /// The new path is the start of the old one: pop `count` pages (animated as one pop).
    case pop(count: Int)
    /// The paths part after their first `kept` routes: pop `removing` pages, then push `adding` (animated
    /// as a push of the new last page). `kept` may be 0: a completely different path.
    case replace(kept: Int, removing: Int, adding: [Route])

    /// The change from `old` to `new`.
    public init(from old: [Route], to new: [Route]) {
        let kept = zip(old, new).prefix { $0 == $1 }.count
        let removing = old.count - kept
        let adding = Array(new[kept...])
        switch (removing, adding.isEmpty) {
        case (0, true): self = .none
        case (0, false): self = .push(adding)
        case (_, true): self = .pop(count: removing)
        default: self = .replace(kept: kept, removing: removing, adding: adding)
        }
    }

    /// How many routes at the start of both paths are kept (their pages stay as they are).
    public func kept(from old: [Route]) -> Int {
        switch self {
        case .none: old.count
        case .push: old.count
        case .pop(let count): old.count - count
        case .replace(let kept, _, _): kept
        }
    }

    /// The routes whose pages are made, nearest the root first.
    public var added: [Route] {
        switch self {
        case .none, .pop: []
        case .push(let routes): routes
        case .replace(_, _, let routes): routes
        }
    }

    /// The kind of transition a host animates, or nil for none.
    public var transitionKind: TransitionKind? {
        switch self {
        case .none: nil
        case .push, .replace: .push
        case .pop: .pop
        }
    }
}
