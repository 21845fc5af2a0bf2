import CGtk
import Gtk
import Navigation

/// Two pages side by side — a sidebar (a list) and its content (what is chosen in it) — that collapse into
/// one navigation stack when the window is narrow, as libadwaita 1.4's `AdwNavigationSplitView` and
/// UIKit's `UISplitViewController` (GNOME Settings, Fractal and Chats arrange themselves so).
///
/// **Expanded** (``isCollapsed`` false), the sidebar is at the start (``sidebarPosition``), as wide as
/// `clamp(width × sidebarWidthFraction, minSidebarWidth, maxSidebarWidth)` with the lengths in
/// ``sidebarWidthUnit`` (`sp` by default, so Large Text widens it), and the content takes the rest, never
/// less than its own minimum width. The content pane shows the deepest of ``contentPages`` with that
/// page's own header bar (its title and items), and a Back button in it when more than one content page
/// was pushed (UIKit's "separate secondary").
///
/// **Collapsed**, the split view shows the sidebar alone. When it is a page on a ``NavigationStack``, its
/// content pages go onto that stack above it while ``showsContent`` is true — with the stack's Back,
/// swipe, keys, history and bar — and the user's Back from the first content page shows the sidebar
/// again (``showsContent`` becomes false, and the content pages are let go: a later expand shows an
/// empty pane, as a router's path then says); it never pops the stack below the split view. Not on a stack
/// (alone in a window, or in tests), it shows the deepest content page in place of the sidebar while
/// ``showsContent`` is true, as libadwaita's does.
///
/// Collapsing and expanding keep what the user sees: collapsing with content shown puts
/// `[split view (sidebar), content…]` on the stack; expanding takes every page above the split view back
/// into the content pane. Pages moved so keep their widgets, focus and state, and their lifecycle events
/// come once per real change (a page that stays on screen hears nothing), as libadwaita's test of the
/// split view states (`tests/test-navigation-split-view.c`, ported in the toolkit's tests).
///
/// Set ``isCollapsed`` from the window's width with a ``Breakpoint`` (`max-width: 600sp`, as GNOME's
/// apps), or from code. Main actor only.
@MainActor
open class NavigationSplitView: Page {
    /// The split view's properties, for ``observeSplitProperties(_:)`` (libadwaita's `notify::…`).
    public enum SplitProperty: Equatable, Sendable {
        /// ``sidebar`` changed.
        case sidebar
        /// ``contentPage`` changed.
        case contentPage
        /// ``isCollapsed`` changed.
        case collapsed
        /// ``showsContent`` changed.
        case showsContent
        /// ``sidebarPosition`` changed.
        case sidebarPosition
        /// ``minSidebarWidth`` changed.
        case minSidebarWidth
        /// ``maxSidebarWidth`` changed.
        case maxSidebarWidth
        /// ``sidebarWidthFraction`` changed.
        case sidebarWidthFraction
        /// ``sidebarWidthUnit`` changed.
        case sidebarWidthUnit
    }

    /// Which side the sidebar is on, in the reading direction (mirrored for right-to-left languages).
    public enum SidebarPosition: Equatable, Sendable {
        /// The start: the left in left-to-right languages (the default).
        case start
        /// The end.
        case end
    }

    /// The sidebar page, or nil. Setting it shows it where the sidebar shows (lifecycle `showing`,
    /// `shown` when it is on screen); the one it replaces hears `hiding` and `hidden`. A page with the
    /// same tag as a content page is refused (`g_critical`), as libadwaita's.
    public var sidebar: Page? {
        get { sidebarPage }
        set { setSidebar(newValue) }
    }

    /// The first content page (what is chosen in the sidebar), or nil. Setting it replaces every content
    /// page (``contentPages``) with it. A page with the sidebar's tag is refused (`g_critical`).
    public var contentPage: Page? {
        get { contentPages.first }
        set { setContent(newValue) }
    }

    /// The content pages, first to deepest: ``contentPage`` and the pages pushed above it
    /// (`pushContent(_:)`, or pushed on the stack above the split view while collapsed).
    public private(set) var contentPages: [Page] = []

    /// Whether the split view shows one page at a time (see the type's docs). False by default.
    public var isCollapsed = false {
        didSet {
            guard isCollapsed != oldValue else { return }
            let start = g_get_monotonic_time()
            isCollapsed ? collapse() : expand()
            lastSwitchMicroseconds = Int64(g_get_monotonic_time() - start)
            notify(.collapsed)
        }
    }

    /// Whether the content is shown rather than the sidebar when collapsed (libadwaita's `show-content`).
    /// Expanded, both are shown whatever this says; it takes effect on the next collapse.
    public var showsContent = false {
        didSet {
            guard showsContent != oldValue else { return }
            if isCollapsed, let stack = navigationStack, !isMoving {
                isMoving = true
                if showsContent, !contentPages.isEmpty {
                    detachFromPane()
                    rememberMovedLifecycles()
                    stack.pushMoved(contentPages.map { ($0, routes[$0.id]) })
                } else if !showsContent {
                    _ = stack.takePages(above: self)
                }
                isMoving = false
            }
            arrange()
            notify(.showsContent)
        }
    }

    /// The sidebar's side (``SidebarPosition/start`` by default).
    public var sidebarPosition = SidebarPosition.start {
        didSet { if sidebarPosition != oldValue { arrange(); notify(.sidebarPosition) } }
    }

    /// The sidebar's least width, in ``sidebarWidthUnit`` (180 by default, libadwaita's).
    public var minSidebarWidth = 180.0 {
        didSet { if minSidebarWidth != oldValue { area.queueResize(); notify(.minSidebarWidth) } }
    }

    /// The sidebar's greatest width, in ``sidebarWidthUnit`` (280 by default, libadwaita's).
    public var maxSidebarWidth = 280.0 {
        didSet { if maxSidebarWidth != oldValue { area.queueResize(); notify(.maxSidebarWidth) } }
    }

    /// The sidebar's share of the split view's width before the clamp, 0…1 (0.25 by default, libadwaita's).
    public var sidebarWidthFraction = 0.25 {
        didSet { if sidebarWidthFraction != oldValue { area.queueResize(); notify(.sidebarWidthFraction) } }
    }

    /// The unit of ``minSidebarWidth`` and ``maxSidebarWidth`` (`sp` by default: they grow with the
    /// desktop's text size, `DesktopStyle/textDPI`).
    public var sidebarWidthUnit = BreakpointCondition.LengthUnit.sp {
        didSet { if sidebarWidthUnit != oldValue { area.queueResize(); notify(.sidebarWidthUnit) } }
    }

    /// Creates an expanded split view titled `title` (the title its host's bar shows for it), with no
    /// pages yet.
    public override init(title: String, subtitle: String? = nil) {
        super.init(title: title, subtitle: subtitle)
        area.owner = self
        area.appendToBox(sidebarPane)
        area.appendToBox(separator)
        area.appendToBox(contentPane)
        separator.addCSSClass("sidebar-separator")
        sidebarPane.addCSSClass("sidebar-pane")
        contentPane.addCSSClass("content-pane")
        sidebarPane.expandsVertically = true
        contentPane.expandsVertically = true
        contentPane.expandsHorizontally = true
        gtk_widget_set_overflow(contentPane.widget, GTK_OVERFLOW_HIDDEN)
        gtk_widget_set_overflow(sidebarPane.widget, GTK_OVERFLOW_HIDDEN)
        area.expandsHorizontally = true
        area.expandsVertically = true
        content.append(area)
        paneBackButton.onClicked { [weak self] in _ = self?.popContent() }
        lifecycleToken = observeLifecycle { [weak self] _ in self?.updateLifecycles() }
        arrange()
    }

    // MARK: - Observing

    /// Calls `handler` with each property that changed (only on a real change, as GObject's `notify`
    /// with explicit notification), until the token goes.
    public func observeSplitProperties(_ handler: @escaping @MainActor (SplitProperty) -> Void) -> ObservationToken {
        splitObservers.add(handler)
    }

    /// What the content pane shows while expanded with no content page (e.g. a status page saying
    /// "No Message Selected"), or nil for an empty pane.
    public var contentPlaceholder: Widget? {
        didSet {
            if let oldValue, oldValue !== contentPlaceholder { contentPane.remove(oldValue) }
            if let contentPlaceholder { contentPlaceholder.expandsVertically = true; contentPane.append(contentPlaceholder) }
            arrange()
        }
    }

    /// The width below which the split view collapses on its own, e.g. `max-width: 600sp` (GNOME's
    /// apps use 400–600 sp); nil (the default) leaves ``isCollapsed`` to code or a ``Breakpoint`` of the
    /// app's. While the split view is on a stack it is that stack's breakpoint (``NavigationStack/addBreakpoint(_:)``),
    /// so the switch follows the stack's page area at every size change.
    public var collapseCondition: BreakpointCondition? {
        didSet { installCollapseBreakpoint() }
    }

    /// The routes of the content pages shown in the pane (expanded), first to deepest; empty while
    /// collapsed (the pages are then on the stack with their routes, or not shown). A router's path
    /// lists them after the split view's own route.
    public var routesInPane: [AnyRoute] {
        isCollapsed ? [] : contentPages.compactMap { routes[$0.id] }
    }

    /// The content page in the pane whose route is `route`, or nil.
    func contentPageShowing(_ route: AnyRoute) -> Page? {
        isCollapsed ? nil : contentPages.first { routes[$0.id] == route }
    }

    /// Shows `pages` (with their routes) as the content, replacing the content pages after the first
    /// `keeping` ones: in the pane when expanded, on the stack when collapsed on one. A router setting a
    /// path through the split view does this.
    public func showContent(keeping kept: Int, thenPush pages: [(page: Page, route: AnyRoute?)]) {
        let kept = max(0, min(kept, contentPages.count))
        if kept == 0, let first = pages.first {
            if let route = first.route { routes[first.page.id] = route }
            setContent(first.page)
            for item in pages.dropFirst() { pushContent(item.page, route: item.route) }
            showsContent = true
            return
        }
        if kept == 0 { setContent(nil); return }
        while contentPages.count > kept { _ = popContent() }
        for item in pages { pushContent(item.page, route: item.route) }
    }

    // MARK: - Showing content

    /// Pushes `page` above the content pages: in the content pane when expanded (with a Back in its bar),
    /// on the stack when collapsed on one. Shows the content.
    /// - Returns: false, changing nothing, when `page` is already here or on a stack (misuse, `g_critical`).
    @discardableResult
    public func pushContent(_ page: Page, route: AnyRoute? = nil) -> Bool {
        guard page.navigationStack == nil, page !== sidebarPage, !contentPages.contains(where: { $0 === page }) else {
            logMisuse("pushContent: “\(page.title)” is already shown; ignored")
            return false
        }
        if let route { routes[page.id] = route }
        if isCollapsed, let stack = navigationStack {
            let wasEmpty = contentPages.isEmpty
            defer { if wasEmpty { notify(.contentPage) } }
            contentPages.append(page)
            if showsContent {
                stack.show(keeping: stack.state.entries.count, thenPush: [(page, route)])
            } else {
                showsContent = true  // pushes every content page, this one on top
            }
            return true
        }
        let wasEmpty = contentPages.isEmpty
        contentPages.append(page)
        follow(page)
        arrange()
        showsContent = true
        updateLifecycles()
        if wasEmpty { notify(.contentPage) }  // the first content page came this way
        return true
    }

    /// Pops the deepest content page above the first (the content pane's Back); false when there is
    /// only one.
    @discardableResult
    public func popContent() -> Bool {
        guard contentPages.count > 1, let last = contentPages.last else { return false }
        if isCollapsed, let stack = navigationStack, showsContent {
            return stack.pop(to: contentPages[contentPages.count - 2]).isEmpty == false
        }
        contentPages.removeLast()
        forget(last)
        arrange()
        updateLifecycles()
        return true
    }

    /// Shows the content page tagged `tag` (libadwaita's `navigation.push` action on a split view): the
    /// content is shown. The sidebar's tag, or a tag no page here has, is misuse (`g_critical`).
    /// - Returns: whether the content is shown by this call or already was.
    @discardableResult
    public func push(tag: String) -> Bool {
        if sidebarPage?.tag == tag {
            logMisuse("push(tag:): “\(tag)” is the sidebar, already in the navigation stack; ignored")
            return false
        }
        guard contentPage?.tag == tag else {
            logMisuse("push(tag:): No page with the tag “\(tag)” in this split view; ignored")
            return false
        }
        showsContent = true
        return true
    }

    /// Shows the sidebar rather than the content when collapsed (libadwaita's `navigation.pop` action).
    public func popToSidebar() {
        showsContent = false
    }

    override func navigationStackDidChange() {
        if let stack = navigationStack { watch(stack) }
        if navigationStack !== breakpointStack { installCollapseBreakpoint() }
        arrange()
    }

    // MARK: - Private

    private let splitObservers = Observers<SplitProperty>()
    private var sidebarPage: Page?
    /// The routes of content pages, for the stack they go onto when collapsed and for routers.
    private var routes: [PageID: AnyRoute] = [:]
    let area = SplitArea()
    let sidebarPane = Box(.vertical)
    let contentPane = Box(.vertical)
    let separator = Widget.separator(.vertical)
    private let paneBackButton = Button(iconName: "go-previous-symbolic", accessibleLabel: toolkitLocalized("Back"))
    /// The page whose standalone bar holds ``paneBackButton`` now.
    private weak var paneBackHolder: Page?
    /// The pages this split view last told they are on screen (``updateLifecycles()``).
    private var shownPages: [Page] = []
    private var lifecycleToken: ObservationToken?
    private var hostPops: ObservationToken?
    private weak var observedStack: NavigationStack?
    /// Pages are moving between the pane and the stack: the stack's pops are not the user's.
    private var isMoving = false
    private var lastReportedRoutes: [AnyRoute] = []
    /// How long the last collapse or expand took on the main thread (moving the pages), in microseconds;
    /// for the navigation benchmark.
    package private(set) var lastSwitchMicroseconds: Int64 = 0
    private var collapseBreakpoint: Breakpoint?
    private weak var breakpointStack: NavigationStack?

    private func notify(_ property: SplitProperty) { splitObservers.notify(property) }

    private func setSidebar(_ page: Page?) {
        guard page !== sidebarPage else { return }
        if let page, let tag = page.tag, contentPages.contains(where: { $0.tag == tag }) {
            logMisuse("sidebar: a content page already has the same tag “\(tag)”; ignored")
            return
        }
        if let old = sidebarPage {
            sidebarPane.remove(old.view)
            old.splitAcceptsTag = nil
        }
        sidebarPage = page
        if let page {
            sidebarPane.append(page.view)
            page.splitAcceptsTag = { [weak self] page, tag in self?.accepts(tag, for: page) ?? true }
        }
        arrange()
        updateLifecycles()
        notify(.sidebar)
    }

    private func setContent(_ page: Page?) {
        guard page !== contentPages.first || contentPages.count > 1 else { return }
        if let page, let tag = page.tag, sidebarPage?.tag == tag {
            logMisuse("content: the sidebar already has the same tag “\(tag)”; ignored")
            return
        }
        let old = contentPages
        if isCollapsed, let stack = navigationStack, showsContent, !old.isEmpty {
            isMoving = true
            _ = stack.takePages(above: self)
            isMoving = false
        }
        detachFromPane()
        contentPages = page.map { [$0] } ?? []
        for gone in old where gone !== page { forget(gone) }
        if let page { follow(page) }
        if isCollapsed, let stack = navigationStack, showsContent, let page {
            isMoving = true
            stack.pushMoved([(page, routes[page.id])])
            isMoving = false
        }
        arrange()
        updateLifecycles()
        notify(.contentPage)
    }

    /// Follows a content page's tag (refusing the sidebar's).
    private func follow(_ page: Page) {
        page.splitAcceptsTag = { [weak self] page, tag in self?.accepts(tag, for: page) ?? true }
    }

    private func forget(_ page: Page) {
        page.splitAcceptsTag = nil
        routes[page.id] = nil
        if page.view.parentWidget == contentPane.widget { contentPane.remove(page.view) }
        if paneBackHolder === page { page.hideStandaloneBar(removing: paneBackButton); paneBackHolder = nil }
        if let index = shownPages.firstIndex(where: { $0 === page }) {
            shownPages.remove(at: index)
            page.setLifecycleFromHost(.hiding)
            page.setLifecycleFromHost(.hidden)
        }
    }

    private func accepts(_ tag: String?, for page: Page) -> Bool {
        guard let tag else { return true }
        let others = ([sidebarPage].compactMap { $0 } + contentPages).filter { $0 !== page }
        if others.contains(where: { $0.tag == tag }) {
            logMisuse("tag: a page in this split view already has the same tag “\(tag)”; “\(page.title)” keeps its tag")
            return false
        }
        return true
    }

    /// Takes every content page's view out of the content pane.
    private func detachFromPane() {
        for page in contentPages where page.view.parentWidget == contentPane.widget { contentPane.remove(page.view) }
        if let holder = paneBackHolder { holder.hideStandaloneBar(removing: paneBackButton); paneBackHolder = nil }
    }

    /// The focused widget if it is in one of the content pages (moving a page's widgets between hosts
    /// takes GTK's focus away; it is given back after the move).
    private func focusInContent() -> Widget? {
        guard let window = view.rootWindow, let focus = gtk_window_get_focus(window) else { return nil }
        let widget = Widget.widget(wrapping: UnsafeMutableRawPointer(focus))
        return contentPages.contains { $0.view.contains(widget.widget) } ? widget : nil
    }

    private func collapse() {
        let focus = focusInContent()
        defer { if let focus, focus.isMapped, !focus.isFocus { _ = focus.grabFocus() } }
        guard let stack = navigationStack else { arrange(); updateLifecycles(); return }
        watch(stack)
        if showsContent, !contentPages.isEmpty, stack.state.contains(id) {
            isMoving = true
            detachFromPane()
            arrange()
            rememberMovedLifecycles()  // before the stack tells the split view it is covered
            stack.pushMoved(contentPages.map { ($0, routes[$0.id]) })
            isMoving = false
        } else {
            arrange()
        }
        updateLifecycles()
    }

    /// The content pages went onto the stack: their lifecycle is the stack's now.
    private func rememberMovedLifecycles() {
        shownPages.removeAll { page in contentPages.contains { $0 === page } }
    }

    private func expand() {
        let focus = focusInContent() ?? navigationStack?.visiblePage.flatMap { page in
            view.rootWindow.flatMap { gtk_window_get_focus($0) }.map { Widget.widget(wrapping: UnsafeMutableRawPointer($0)) }
                .flatMap { page.view.contains($0.widget) ? $0 : nil }
        }
        defer { if let focus, focus.isMapped, !focus.isFocus { _ = focus.grabFocus() } }
        if let stack = navigationStack {
            watch(stack)
            // Whatever was pushed above the split view is its content now, deepest on the right; the
            // deepest stays on screen, so it hears nothing (known before the stack says the split view shows).
            let above = Array(stack.pages.drop { $0 !== self }.dropFirst())
            for entry in stack.state.entries where above.contains(where: { $0.id == entry.id }) {
                if let route = entry.route { routes[entry.id] = route }
            }
            for page in above where !contentPages.contains(where: { $0 === page }) {
                contentPages.append(page)
                follow(page)
            }
            if let top = above.last, top.lifecycle == .shown || top.lifecycle == .showing, !shownPages.contains(where: { $0 === top }) {
                shownPages.append(top)
            }
            isMoving = true
            _ = stack.takePages(above: self)
            isMoving = false
            if !above.isEmpty, !showsContent {
                isMoving = true
                showsContent = true
                isMoving = false
            }
        }
        arrange()
        updateLifecycles()
    }

    /// Follows the host stack's pops: the user's Back from the first content page shows the sidebar.
    private func watch(_ stack: NavigationStack) {
        guard observedStack !== stack else { return }
        observedStack = stack
        hostPops = stack.observePops { [weak self] removed, cause in
            guard let self, !self.isMoving, cause != .splitViewResized else { return }
            let before = self.contentPages.count, first = self.contentPage
            self.contentPages.removeAll { page in removed.contains { $0 === page } && page !== first }
            if removed.contains(where: { $0 === first }) {
                // The content left the stack (the user's Back, or a path without it): it is not the
                // content any more, so expanding later shows an empty pane, as the path says.
                let gone = self.contentPages
                self.contentPages = []
                for page in gone { self.forget(page) }
                self.notify(.contentPage)
                self.isMoving = true
                self.showsContent = false
                self.isMoving = false
            } else if before != self.contentPages.count {
                self.arrange()
            }
        }
    }

    /// Shows the panes for the current mode.
    private func arrange() {
        let hosted = navigationStack != nil
        let contentOnStack = isCollapsed && hosted
        let showsContentAlone = isCollapsed && !hosted && (showsContent || sidebarPage == nil)
        sidebarPane.isVisible = sidebarPage != nil && !showsContentAlone
        contentPane.isVisible = (!contentPages.isEmpty || (contentPlaceholder != nil && !isCollapsed)) && !contentOnStack
            && (!isCollapsed || showsContentAlone)
        contentPlaceholder?.isVisible = contentPages.isEmpty
        separator.isVisible = sidebarPane.isVisible && contentPane.isVisible
        // The deepest content page in the pane, with its own bar (and Back above the first).
        if !contentOnStack, let top = contentPages.last {
            for page in contentPages where page !== top && page.view.parentWidget == contentPane.widget { contentPane.remove(page.view) }
            if top.view.parentWidget != contentPane.widget {
                if top.view.parentWidget != nil { top.view.unparent() }
                contentPane.append(top.view)
            }
            let back = contentPages.count > 1 ? paneBackButton : nil
            if paneBackHolder !== top, let holder = paneBackHolder { holder.hideStandaloneBar(removing: paneBackButton) }
            top.showStandaloneBar(leading: back)
            top.standaloneBar.showsTitleButtons = false
            if back == nil, top.standaloneBar.holds(paneBackButton) { top.standaloneBar.remove(paneBackButton) }
            paneBackHolder = back == nil ? nil : top
        }
        if let sidebarPage {
            if hosted { sidebarPage.hideStandaloneBar(removing: nil) } else {
                sidebarPage.showStandaloneBar(leading: nil)
                sidebarPage.standaloneBar.showsTitleButtons = false
            }
        }
        area.queueResize()
        let routesNow = routesInPane
        if routesNow != lastReportedRoutes {
            lastReportedRoutes = routesNow
            navigationStack?.hostedContentDidChange()
        }
    }

    /// The split view's own breakpoint on its stack, for ``collapseCondition``.
    private func installCollapseBreakpoint() {
        if let collapseBreakpoint, let stack = breakpointStack { stack.removeBreakpoint(collapseBreakpoint) }
        collapseBreakpoint = nil
        breakpointStack = nil
        guard let condition = collapseCondition, let stack = navigationStack else { return }
        let breakpoint = Breakpoint(condition: condition)
        breakpoint.addSetter(self, \.isCollapsed, true)
        collapseBreakpoint = breakpoint
        breakpointStack = stack
        stack.addBreakpoint(breakpoint)
    }

    /// Tells the pages that came on screen or left it, once per real change.
    private func updateLifecycles() {
        let hostShows = lifecycle == nil || lifecycle == .showing || lifecycle == .shown
        var visible: [Page] = []
        if hostShows {
            if !isCollapsed {
                visible = [sidebarPage, contentPages.last].compactMap { $0 }
            } else if navigationStack != nil {
                visible = [sidebarPage].compactMap { $0 }
            } else if showsContent || sidebarPage == nil {
                visible = [contentPages.last].compactMap { $0 }
            } else {
                visible = [sidebarPage].compactMap { $0 }
            }
        }
        let leaving = shownPages.filter { page in !visible.contains { $0 === page } }
        let coming = visible.filter { page in !shownPages.contains { $0 === page } }
        shownPages = visible
        for page in leaving { page.setLifecycleFromHost(.hiding) }
        for page in coming { page.setLifecycleFromHost(.showing) }
        for page in leaving { page.setLifecycleFromHost(.hidden) }
        for page in coming { page.setLifecycleFromHost(.shown) }
    }
}
