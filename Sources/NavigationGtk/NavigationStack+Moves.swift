import Gtk
import Navigation

// Moving pages between the stack and another host (a ``NavigationSplitView``'s content pane) without a
// transition and without lifecycle events for the pages moved: they were showing where they came from
// and go on showing where they go, so nothing about them changed for their observers.
extension NavigationStack {
    /// Puts `pages` (with their routes) above the visible page at once, as moved from another host: the
    /// moved pages keep their lifecycle; the page they cover hears `hiding` and `hidden`.
    /// - Returns: false, changing nothing, when a page is already on a stack or its tag is used here
    ///   (misuse, reported with a critical).
    @discardableResult
    package func pushMoved(_ pages: [(page: Page, route: AnyRoute?)]) -> Bool {
        guard !pages.isEmpty else { return true }
        let covered = visiblePage
        var new = state
        for (index, item) in pages.enumerated() {
            let earlier = pages[..<index].map(\.page)
            guard item.page.navigationStack == nil, !state.contains(item.page.id),
                  item.page.tag.map({ tag in new.entry(taggedAs: tag) == nil && !earlier.contains { $0.tag == tag } }) ?? true else {
                logMisuse("a page moved onto the stack (“\(item.page.title)”) is already on one, or its tag is used; ignored")
                return false
            }
            new.push(entry(for: item.page, route: item.route))
        }
        if let covered { setLifecycle(.hiding, of: covered) }
        pages.forEach { attach($0.page) }
        apply(new, cause: .splitViewResized, animated: false, lifecycleStarted: true)
        return true
    }

    /// Takes every page above `page` off the stack at once, as moving to another host: they keep their
    /// lifecycle and leave without observers hearing them popped by the user; `page` hears `showing` and
    /// `shown`. Their widgets are out of the stack when this returns.
    /// - Returns: the pages taken, bottom first, with their routes; empty when `page` is on top or not here.
    package func takePages(above page: Page) -> [(page: Page, route: AnyRoute?)] {
        guard let index = state.entries.firstIndex(where: { $0.id == page.id }), index + 1 < state.entries.count else { return [] }
        let taken = state.entries[(index + 1)...].compactMap { entry in pagesByID[entry.id].map { ($0, entry.route) } }
        var new = state
        _ = new.pop(to: page.id)
        setLifecycle(.showing, of: page)
        apply(new, cause: .splitViewResized, animated: false, lifecycleStarted: true)
        for item in taken where view.contains(item.0.view.widget) { view.remove(item.0.view) }
        for item in taken { item.0.setHiddenFromScreenReaders(false) }  // read in the host it moves to
        return taken.map { (page: $0.0, route: $0.1) }
    }
}
