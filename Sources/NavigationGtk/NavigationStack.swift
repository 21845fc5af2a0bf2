import CGtk
import Glibc
import Gtk
import Navigation

/// A navigation stack of ``Page``s shown in a `GtkStack` under a `GtkHeaderBar` — the GTK host of the
/// ``NavigationStackState`` model, with what libadwaita's `AdwNavigationView` gives GNOME apps:
///
/// - The bar shows the visible page's title, its end bar items, and a Back button
///   (`go-previous-symbolic`, accessible name "Back", tooltip = the previous page's title) whenever there
///   is a page to go back to.
/// - Push slides the new page over (from the end edge); pop slides it away, uncovering the page below
///   (mirrored in right-to-left locales). Pointer input is ignored while a transition runs; a change
///   requested during one finishes it cleanly. Popped pages are removed from the widget tree only after
///   their transition ends, and released then.
/// - Back: the Back button, Alt+Left, the Back key, mouse button 8, and Escape on a pushed page
///   (installed on the window by ``installBackShortcuts(on:)``). Escape on the root page calls
///   ``onEscapeAtRoot`` instead (a modal flow cancels there). A page whose ``Page/canPop`` is false
///   has no Back and ignores every back shortcut (as libadwaita's `can-pop`); code can still pop it.
/// - Forward: Alt+Right, the Forward key and mouse button 9 push again the page the user just left
///   with Back, while nothing else has changed the stack (``goForward()``).
/// - Tags: ``pop(toTag:)``, and ``push(tag:)`` for pages ``add(_:)``ed in advance (libadwaita's
///   `pop_to_tag`, `push_by_tag`).
/// - Events: each page hears showing, shown, hiding, hidden (``Page/observeLifecycle(owner:_:)``);
///   observers of the stack hear pushed, popped (once per page) and replaced (``observeEvents(owner:_:)``).
/// - A history menu on the Back button (right click, long press, Shift+F10 or the Menu key): every page
///   below, nearest first, by title; choosing one pops back to it (``showHistoryMenu()``). Neither
///   libadwaita nor GTK has one; browsers do.
/// - Focus is remembered per page and restored when the page is shown again.
///
/// Every change goes through the model first (``state``) and the widgets follow.
/// Main actor only.
@MainActor
public final class NavigationStack {
    /// The model: the pages' ids and titles, root first.
    public private(set) var state = NavigationStackState()

    /// Whether a transition is animating.
    public private(set) var transition: Transition = .idle

    /// The edge the last transition's incoming page slid from (push) or the outgoing page slid to
    /// (pop): `.right` for push and pop in left-to-right locales, `.left` in right-to-left ones;
    /// `.none` when the change was not animated.
    public private(set) var lastSlide: SlideEdge = .none

    /// Where a page slides to or from.
    public enum SlideEdge: Equatable, Sendable { case left, right, none }

    /// The header bar showing the stack's title, Back button and page bar items. The host window sets
    /// it as its titlebar.
    public let headerBar = HeaderBar()

    /// The widget that shows the pages; put it in the window.
    public let view = Stack()

    /// The Back button (visible when ``NavigationStackState/canGoBack``).
    public let backButton = Button(iconName: "go-previous-symbolic", accessibleLabel: toolkitLocalized("Back"))

    /// The bar's title widget (the visible page's title and subtitle).
    public let titleView = TitleView()

    /// The bar's title label.
    public var titleLabel: Label { titleView.titleLabel }

    /// Called when Escape is pressed on the root page (nothing to pop). A modal dialog cancels its flow.
    public var onEscapeAtRoot: (@MainActor () -> Void)?

    /// Whether the stack's bar already has a Cancel that ends everything on it (a modal dialog's), so
    /// flows pushed onto it add none of their own.
    public var providesCancel = false

    /// The height in pixels of the translucent bar floating over this stack's pages (0 when the bar is
    /// opaque or hidden), as the window hosting the stack measured it at its last layout. Pages whose
    /// ``Page/extendsUnderTopBar`` is true are told each change (``Page/topInsetDidChange(_:)``).
    public internal(set) var topInset: Int32 = 0 {
        didSet {
            guard topInset != oldValue else { return }
            for page in pages where page.extendsUnderTopBar { page.setTopInset(topInset) }
        }
    }

    var pagesByID: [PageID: Page] = [:]
    // Internal (not private) where NavigationStack+SwipeBack.swift needs it; nothing outside the type uses it.
    private var pagesAwaitingRemoval: [Page] = []
    private var popObservers: [(owner: Weak, handler: @MainActor ([Page]) -> Void)] = []
    private var visiblePageObservers: [(owner: Weak, handler: @MainActor (Page?) -> Void)] = []
    private var titleObservers: [(owner: Weak, handler: @MainActor (String) -> Void)] = []
    private var lastTitle: String?
    private var destroyObservers: [(owner: Weak, handler: @MainActor () -> Void)] = []
    private var isDestroyed = false
    private var eventObservers: [(owner: Weak, handler: @MainActor (Event) -> Void)] = []
    /// Pages added with ``add(_:)``, by tag, for ``push(tag:)``.
    private var addedPages: [String: Page] = [:]
    /// The page Forward pushes again (kept alive while ``NavigationStackState/forwardEntry`` names it).
    var forwardPage: Page?
    /// The page that is leaving and the one that is coming, while their transition runs.
    private var lifecycleInProgress: (left: Page?, came: Page?)?
    /// The swipe back in progress, if any.
    var swipe: SwipeBack?
    /// The cross-fade in progress: the leaving page's picture and the timer fading it.
    private var crossFade: (picture: Picture, timer: UInt32, frame: (x: Int32, y: Int32, width: Int32, height: Int32))?
    /// True while a finished swipe's pop is applied (its hiding and showing were heard already).
    var lifecycleAlreadyStarted = false
    /// Where a touchpad scroll sequence is, for the swipe back.
    var touchpadSwipe = TouchpadSwipe.none
    /// The swipe gestures (for tests, which drive them through their signals).
    package internal(set) var swipeScrollController: ScrollController?
    package internal(set) var swipeTouchGesture: DragGesture?

    /// The layer the swiped page is drawn in, over the stack's pages and under its bar: the host's
    /// overlay (``NavigationWindow`` sets its own). Without one there is no swipe back.
    package weak var swipeLayer: Overlay? {
        didSet {
            swipeLayer?.onPlaceChild { [weak self] child, _, _ in
                guard let self else { return nil }
                if let fade = self.crossFade, child == fade.picture.widget {
                    let frame = fade.frame
                    return Overlay.Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
                }
                guard let swipe = self.swipe, child == swipe.picture.widget else { return nil }
                let offset = Int32((swipe.progress * Double(swipe.frame.width)).rounded()) * (self.view.isRightToLeft ? -1 : 1)
                return Overlay.Rect(x: swipe.frame.x + offset, y: swipe.frame.y, width: swipe.frame.width, height: swipe.frame.height)
            }
        }
    }

    private struct Weak { weak var object: AnyObject? }

    /// The mouse button that goes back (the "back" side button, X11/GDK button 8).
    public static let mouseBackButton: UInt32 = 8

    /// The mouse button that goes forward (the "forward" side button, X11/GDK button 9).
    public static let mouseForwardButton: UInt32 = 9

    /// Transition length: 200 ms, GtkStack's default and close to libadwaita's navigation view.
    public static let transitionDuration: UInt32 = 200

    /// Creates a stack, optionally with a root page.
    public init(root: Page? = nil) {
        NavigationStyle.loadOnce()
        view.transitionDuration = Self.transitionDuration
        view.isHomogeneous = false
        view.expandsHorizontally = true
        view.expandsVertically = true
        headerBar.setTitleWidget(titleView)
        headerBar.packStart(backButton)
        backButton.isVisible = false
        backButton.onClicked { [weak self] in self?.goBack() }
        installHistoryMenu()
        installSwipeGestures()
        view.onTransitionRunningChanged { [weak self] running in
            if !running { self?.finishTransition() }
        }
        // GTK 4 emits `destroy` only at the last unref; a destroyed window unrealizes its widgets at once.
        view.connect("unrealize") { [weak self] _ in
            guard let self, let root = self.view.rootWindow, !Window.isListed(root) else { return }
            self.viewDestroyed()
        }
        view.connect("destroy") { [weak self] _ in self?.viewDestroyed() }
        if let root { replace(with: [root], animated: false) }
    }

    /// The pages, root first.
    public var pages: [Page] { state.entries.compactMap { pagesByID[$0.id] } }

    /// Whether changes are animated (true, the default) or switch at once, for every push and pop of this
    /// stack (libadwaita's `animate-transitions`). When the desktop turns animations off
    /// (`gtk-enable-animations`, GNOME's Reduce Animation), an animated change cross-fades in place
    /// instead of sliding (``crossFadeDuration``): no motion, but the change is still seen.
    public var isAnimated = true

    /// How long a cross-fade lasts, in milliseconds (see ``isAnimated``).
    public static let crossFadeDuration: Double = 200

    /// Whether a cross-fade is showing now (the leaving page fading out over the new one).
    public var isCrossFading: Bool { crossFade != nil }

    /// What happened to the stack's pages, for ``observeEvents(owner:_:)``.
    public enum Event {
        /// `page` was pushed (once per page, also for each page of a replace that only adds).
        case pushed(Page)
        /// `page` left the stack by a pop or pop-to (once per page, top first).
        case popped(Page)
        /// The pages were replaced: `removed` left (bottom first), `added` came (bottom first).
        case replaced(removed: [Page], added: [Page])
    }

    /// The visible page, or nil when empty.
    public var visiblePage: Page? { state.top.flatMap { pagesByID[$0.id] } }

    /// Pushes `page` and shows it with a slide-over transition.
    ///
    /// Navigation is idempotent: does nothing (and returns false) when the visible page — the one on
    /// top, also while it is still sliding in — is of the same type and has the same non-nil
    /// ``Page/subject``, whatever the input that asked twice (a double click, key repeat, two
    /// activations in one frame). Also does nothing if the page is already on this stack or on
    /// another one (a programming error, logged).
    @discardableResult
    public func push(_ page: Page) -> Bool {
        guard page.navigationStack == nil || page.navigationStack === self, !state.contains(page.id) else {
            logMisuse("push: \(page.title) is already on a navigation stack; ignored")
            return false
        }
        if let subject = page.subject, let top = visiblePage, type(of: top) == type(of: page), top.subject == subject {
            return false  // that page is already open: a second open of the same thing
        }
        var new = state
        new.push(entry(for: page))
        attach(page)
        apply(new)
        return true
    }

    /// Adds `page` to the stack without showing it, so ``push(tag:)`` can push it later by its
    /// ``Page/tag`` (libadwaita's `add`). Pages are kept until pushed and popped, or until the stack goes.
    /// Does nothing for a page without a tag (logged).
    public func add(_ page: Page) {
        guard let tag = page.tag else { logMisuse("add: \(page.title) has no tag; ignored"); return }
        addedPages[tag] = page
    }

    /// Pushes the page added with ``add(_:)`` whose tag is `tag` (libadwaita's `push_by_tag`).
    /// - Returns: false, changing nothing, when no such page was added or it is already on the stack.
    @discardableResult
    public func push(tag: String) -> Bool {
        guard let page = addedPages[tag] else { logMisuse("push(tag:): no page tagged \(tag) was added"); return false }
        return push(page)
    }

    /// Pops every page above the page tagged `tag` (libadwaita's `pop_to_tag`).
    /// - Returns: the popped pages, bottom first; empty when no page on the stack has the tag.
    @discardableResult
    public func pop(toTag tag: String) -> [Page] {
        guard let entry = state.entry(taggedAs: tag), let page = pagesByID[entry.id] else { return [] }
        return pop(to: page)
    }

    /// The user's Forward (Alt+Right, the Forward key, mouse button 9): pushes again the page the user
    /// just left with Back, while nothing else has changed the stack since. A flow's pages are not
    /// brought back (the flow has ended or moved on).
    /// - Returns: whether a page was pushed.
    @discardableResult
    public func goForward() -> Bool {
        var new = state
        guard let entry = new.goForward(), let page = forwardPage, page.id == entry.id else { return false }
        attach(page)
        apply(new)
        return true
    }

    /// Forgets the page Forward would push again (``goForward()``). Flows call it when their pages leave.
    public func clearForward() {
        forwardPage = nil
        state.clearForward()
    }

    private func entry(for page: Page, route: AnyRoute? = nil) -> NavigationStackState.Entry {
        .init(id: page.id, title: page.title, route: route, tag: page.tag, canPop: page.canPop)
    }

    /// Keeps the first `kept` pages (the root counts), removes every page above them and pushes
    /// `newPages` with their routes, nearest the root first, as one change: a push when nothing is
    /// removed, a pop when nothing is added, else a replace animated as a push of the new top
    /// (``NavigationRouter`` follows its path with it).
    /// - Returns: false, changing nothing, when a new page is already on a stack (logged).
    @discardableResult
    package func show(keeping kept: Int, thenPush newPages: [(page: Page, route: AnyRoute?)], animated: Bool = true) -> Bool {
        for (page, _) in newPages where page.navigationStack != nil || state.contains(page.id) {
            logMisuse("push: \(page.title) is already on a navigation stack; ignored")
            return false
        }
        var new = NavigationStackState(Array(state.entries.prefix(max(0, kept))))
        for (page, route) in newPages { new.push(entry(for: page, route: route)) }
        newPages.forEach { attach($0.page) }
        apply(new, animated: animated)
        return true
    }

    /// Pops the visible page with a slide-under transition; does nothing at the root.
    /// - Returns: the popped page, or nil.
    @discardableResult
    public func pop() -> Page? {
        var new = state
        guard let removed = new.pop() else { return nil }
        let page = pagesByID[removed.id]
        apply(new)
        return page
    }

    /// Pops every page above `page`; does nothing if `page` is not on the stack or already visible.
    /// - Returns: the popped pages, bottom first.
    @discardableResult
    public func pop(to page: Page) -> [Page] {
        var new = state
        let removed = new.pop(to: page.id).compactMap { pagesByID[$0.id] }
        apply(new)
        return removed
    }

    /// Pops every page but the root; does nothing at the root.
    @discardableResult
    public func popToRoot() -> [Page] {
        guard let root = pages.first else { return [] }
        return pop(to: root)
    }

    /// Replaces all pages with `newPages` (root first); an empty list empties the stack.
    /// Animated as a push of the new top page when `animated`.
    public func replace(with newPages: [Page], animated: Bool = true) {
        var new = NavigationStackState()
        var accepted: [Page] = []
        for page in newPages where new.push(entry(for: page)) {
            accepted.append(page)
        }
        accepted.forEach(attach)
        apply(new, animated: animated)
    }

    /// Goes back one page as the Back button does: pops, unless at the root or the visible page's
    /// ``Page/shouldLeave`` says to stay. Each call pops one page, also during a transition (two fast
    /// presses of mouse-back pop two pages).
    public func goBack() {
        guard let page = visiblePage else { return }
        leaveAsTheUser {
            var new = state
            guard new.goBack() != nil else { return }
            apply(new)
            if state.forwardEntry?.id == page.id { forwardPage = page }  // unless a pop observer cleared it
        }
    }

    /// The user going back several pages at once (the Back button's history menu): pops to `page`,
    /// unless the visible page cannot be left by the user (``Page/canPop``) or its ``Page/shouldLeave``
    /// says to stay. Does nothing if `page` is not below the visible page.
    public func goBack(to page: Page) {
        guard visiblePage !== page, state.contains(page.id) else { return }
        leaveAsTheUser { pop(to: page) }
    }

    /// Runs `leave` as the user's Back: only when the user can go back (``Page/canPop``) and the visible
    /// page's ``Page/shouldLeave`` lets it go, with ``isGoingBack`` true meanwhile.
    private func leaveAsTheUser(_ leave: () -> Void) {
        guard state.canUserGoBack, let top = visiblePage else { return }
        if let shouldLeave = top.shouldLeave, !shouldLeave() { return }
        isGoingBack = true
        defer { isGoingBack = false }
        leave()
    }

    /// The Back button's history menu (see ``showHistoryMenu()``).
    public private(set) lazy var historyMenu = PopupMenu(anchor: backButton)

    /// Opens the Back button's history menu: every page below the visible one, nearest first, by title;
    /// choosing one goes back to it (``goBack(to:)``). Does nothing when the user cannot go back.
    public func showHistoryMenu() {
        guard state.canUserGoBack, backButton.isMapped else { return }
        historyMenu.setItems(pages.dropLast().reversed().map { page in
            (label: page.title, handler: { @MainActor [weak self, weak page] in
                guard let self, let page else { return }
                self.goBack(to: page)
            })
        })
        historyMenu.popup()
    }

    private func installHistoryMenu() {
        let rightClick = ClickGesture(button: 3)
        rightClick.onPressed { [weak self] _ in self?.showHistoryMenu() }
        backButton.addController(rightClick)
        let longPress = LongPressGesture()
        longPress.onPressed { [weak self] in self?.showHistoryMenu() }
        backButton.addController(longPress)
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, modifiers in
            guard keyval == KeyValue.menu || (keyval == KeyValue.f10 && modifiers.contains(.shift)) else { return false }
            self?.showHistoryMenu()
            return true
        }
        backButton.addController(keys)
        backButton.setAccessibleHasPopup(true)
    }

    /// True while a pop started by ``goBack()`` (the user's Back) is being applied; observers of pops
    /// use it to tell the user's Back from code's pops.
    public internal(set) var isGoingBack = false

    /// Calls `handler` with the removed pages (bottom first) after every pop, pop-to and replace that
    /// removes pages, while `owner` lives. Flows use it to notice Back past their first page, or their
    /// pages being taken away by anyone else, and end.
    public func observePops(owner: AnyObject, _ handler: @escaping @MainActor ([Page]) -> Void) {
        popObservers.append((Weak(object: owner), handler))
    }

    /// Calls `handler` once when the stack's widgets are destroyed (window closed, app quit), while
    /// `owner` lives. Pushed flows end there.
    public func observeDestruction(owner: AnyObject, _ handler: @escaping @MainActor () -> Void) {
        if isDestroyed { handler(); return }
        destroyObservers.append((Weak(object: owner), handler))
    }

    /// Calls `handler` with the visible page (nil when empty) after every push, pop or replace, once the
    /// stack's bar shows it, while `owner` lives. Hosts use it to swap bars (see ``ModalDialog``).
    public func observeVisiblePage(owner: AnyObject, _ handler: @escaping @MainActor (Page?) -> Void) {
        visiblePageObservers.append((Weak(object: owner), handler))
    }

    /// Calls `handler` with the visible page's title whenever it changes (a push, pop or replace, or
    /// the visible page renaming itself, e.g. a web page that loaded), while `owner` lives. Windows use
    /// it so their title — what window lists and screen readers announce — follows the page.
    public func observeTitle(owner: AnyObject, _ handler: @escaping @MainActor (String) -> Void) {
        titleObservers.append((Weak(object: owner), handler))
        handler(state.top?.title ?? "")
    }

    /// Calls `handler` with each ``Event`` (pushed, popped, replaced) after the change is applied,
    /// while `owner` lives.
    public func observeEvents(owner: AnyObject, _ handler: @escaping @MainActor (Event) -> Void) {
        eventObservers.append((Weak(object: owner), handler))
    }

    /// Stops calling `owner`'s pop, event, visible-page and destruction handlers.
    public func removeObservers(owner: AnyObject) {
        popObservers.removeAll { $0.owner.object === owner || $0.owner.object == nil }
        eventObservers.removeAll { $0.owner.object === owner || $0.owner.object == nil }
        visiblePageObservers.removeAll { $0.owner.object === owner || $0.owner.object == nil }
        titleObservers.removeAll { $0.owner.object === owner || $0.owner.object == nil }
        destroyObservers.removeAll { $0.owner.object === owner || $0.owner.object == nil }
    }

    private func viewDestroyed() {
        guard !isDestroyed else { return }
        isDestroyed = true
        let observers = destroyObservers
        destroyObservers = []
        for observer in observers where observer.owner.object != nil { observer.handler() }
        // The window is gone: let go of its pages, so none outlives it (whoever made a page may keep it).
        for page in pagesByID.values {
            page.navigationStack = nil
            page.titleObserver = nil
            page.savedFocus = nil
        }
        pagesByID.removeAll()
        pagesAwaitingRemoval.removeAll()
        addedPages.removeAll()
        forwardPage = nil
        lifecycleInProgress = nil
        state = NavigationStackState()
        popObservers.removeAll()
        eventObservers.removeAll()
        visiblePageObservers.removeAll()
        titleObservers.removeAll()
    }

    /// Installs the back shortcuts on `window`: Alt+Left, the Back key (`XF86Back`), Escape, and mouse
    /// button 8. Escape at the root calls ``onEscapeAtRoot``.
    public func installBackShortcuts(on window: Window) {
        installBackShortcuts(on: window) { [weak window] in window?.hasModalChild ?? true }
    }

    /// Installs the back shortcuts on `target` (a window, or a dialog drawn inside one), ignored while
    /// `isBlocked()` (a modal dialog over it).
    package func installBackShortcuts(on target: Widget, isBlocked: @escaping @MainActor () -> Bool) {
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, modifiers in
            guard let self, !isBlocked() else { return false }
            let alt = modifiers.contains(.alt)
            switch keyval {
            case KeyValue.left where alt, KeyValue.keypadLeft where alt, KeyValue.back:
                self.goBack()
                return true
            case KeyValue.right where alt, KeyValue.keypadRight where alt, KeyValue.forward:
                self.goForward()
                return true
            case KeyValue.escape:
                if self.state.canGoBack { self.goBack() } else if let atRoot = self.onEscapeAtRoot { atRoot() } else { return false }
                return true
            default:
                return false
            }
        }
        target.addController(keys)
        // As AdwNavigationView: any button, in the capture phase (before the widget under the pointer),
        // acting on button 8 ("back").
        let mouseBack = ClickGesture(button: 0)
        mouseBack.propagationPhase = .capture
        mouseBack.onPressed { [weak self] button in
            guard !isBlocked() else { return }
            if button == Self.mouseBackButton { self?.goBack() }
            if button == Self.mouseForwardButton { self?.goForward() }
        }
        target.addController(mouseBack)
    }

    // MARK: - The one path for every change

    private func attach(_ page: Page) {
        guard pagesByID[page.id] == nil else { return }
        pagesByID[page.id] = page
        page.navigationStack = self
        page.titleObserver = { [weak self] page in self?.pageTitleDidChange(page) }
        page.hideStandaloneBar(removing: nil)
        if page.extendsUnderTopBar { page.setTopInset(topInset) }
        pagesAwaitingRemoval.removeAll { $0 === page }
        if !view.contains(page.view.widget) {
            view.add(page.view, name: page.id.description)
        }
    }

    func apply(_ new: NavigationStackState, animated: Bool = true) {
        let change = state.change(to: new)
        guard change != .none else { state = new; return }
        if swipe != nil, !lifecycleAlreadyStarted { abandonSwipe() }  // code changed the stack mid-swipe
        // A change during a transition first finishes the previous one cleanly.
        endCrossFade()
        flushRemovals()
        finishLifecycle()
        let outgoing = visiblePage
        if let outgoing { outgoing.savedFocus = focusedWidget(in: outgoing) }
        state = new
        var removedPages: [Page] = []
        switch change {
        case .pop(let removed), .replace(let removed, _):
            removedPages = removed.compactMap { pagesByID.removeValue(forKey: $0.id) }
        case .push, .none:
            break
        }
        for page in removedPages {
            page.navigationStack = nil
            page.setTopInset(0)
            page.titleObserver = nil
            page.savedFocus = nil
            page.unpackBarItems()
        }
        pagesAwaitingRemoval.append(contentsOf: removedPages)
        if state.forwardEntry == nil { forwardPage = nil }

        let incoming = visiblePage
        if outgoing !== incoming {
            if !lifecycleAlreadyStarted {
                outgoing?.lifecycleDidChange(.hiding)
                incoming?.lifecycleDidChange(.showing)
            }
            lifecycleInProgress = (outgoing, incoming)
        }
        if let incoming {
            let animate = animated && isAnimated && change.transitionKind != nil && view.isMapped
            let slides = animate && DesktopStyle.animationsEnabled
            let fade = animate && !slides ? outgoing.flatMap { startCrossFade(from: $0) } : nil  // nil: nothing drawn yet
            let type = slides ? transitionType(change.transitionKind!) : GTK_STACK_TRANSITION_TYPE_NONE
            lastSlide = slides ? (view.isRightToLeft ? .left : .right) : .none
            transition = .running(from: outgoing?.id, to: incoming.id, kind: change.transitionKind ?? .push)
            view.canTarget = false
            view.showChild(named: incoming.id.description, transition: type)
            if let fade { crossFade = fade }
        }
        updateBar()
        // Only the visible page is there for a screen reader; pages below it (and those leaving) are not.
        for page in pagesByID.values { page.view.setHiddenFromScreenReaders(page !== incoming) }
        for page in removedPages { page.view.setHiddenFromScreenReaders(true) }
        visiblePageObservers.removeAll { $0.owner.object == nil }
        for observer in visiblePageObservers { observer.handler(incoming) }
        if let incoming { restoreFocus(in: incoming) }
        if !view.isTransitionRunning, crossFade == nil { finishTransition() }
        // Pages removed by a replace leave the stack as popped ones do: whoever owns them (a pushed flow)
        // hears of it and ends.
        if !removedPages.isEmpty {
            popObservers.removeAll { $0.owner.object == nil }
            for observer in popObservers { observer.handler(removedPages) }
        }
        let event: [Event] = switch change {
        case .push(let added): added.compactMap { pagesByID[$0.id] }.map { .pushed($0) }
        case .pop: removedPages.reversed().map { .popped($0) }
        case .replace(_, let added): [.replaced(removed: removedPages, added: added.compactMap { pagesByID[$0.id] })]
        case .none: []
        }
        eventObservers.removeAll { $0.owner.object == nil }
        for item in event { for observer in eventObservers { observer.handler(item) } }
    }

    /// Ends the page lifecycle of the change shown last: the page that left is hidden, the one that came
    /// is shown (at the end of its transition, or at once when a new change interrupts it).
    private func finishLifecycle() {
        guard let (left, came) = lifecycleInProgress else { return }
        lifecycleInProgress = nil
        left?.lifecycleDidChange(.hidden)
        came?.lifecycleDidChange(.shown)
    }

    /// Puts a picture of `page` (still shown) over the stack's pages and fades it out over
    /// ``crossFadeDuration``; the transition ends when it has gone. Nil when there is no layer to draw
    /// in or nothing to draw (the change then switches at once).
    private func startCrossFade(from page: Page) -> (picture: Picture, timer: UInt32, frame: (x: Int32, y: Int32, width: Int32, height: Int32))? {
        guard let layer = swipeLayer, let (picture, frame) = pictureOverPages(of: page, in: layer) else { return nil }
        let started = g_get_monotonic_time()
        let timer = MainLoopBridge.repeating(milliseconds: 16) { [weak self, weak picture] in
            guard let self, let picture else { return false }
            let t = min(1, Double(g_get_monotonic_time() - started) / (Self.crossFadeDuration * 1000))
            gtk_widget_set_opacity(picture.widget, 1 - t)
            guard t >= 1 else { return true }
            self.crossFade = nil
            gtk_overlay_remove_overlay(OpaquePointer(layer.gobject), picture.widget)
            self.finishTransition()
            return false
        }
        return (picture, timer, frame)
    }

    /// A picture of `page` as it is on screen, added to `layer` over the stack's pages and under its bar
    /// (not hit by the pointer, not read by screen readers), and where the pages are in `layer`; nil
    /// when the page has not been drawn yet.
    func pictureOverPages(of page: Page, in layer: Overlay) -> (Picture, (x: Int32, y: Int32, width: Int32, height: Int32))? {
        var bounds = graphene_rect_t()
        guard let texture = page.view.renderedTexture(), gtk_widget_compute_bounds(view.widget, layer.widget, &bounds) != 0 else {
            return nil
        }
        let picture = Picture()
        picture.canShrink = true
        picture.texture = texture
        picture.canTarget = false
        picture.hideFromScreenReaders()
        picture.addCSSClass("swipe-page")
        layer.addOverlay(picture)
        if gtk_widget_get_parent(headerBar.widget) == layer.widget {
            gtk_widget_insert_before(picture.widget, layer.widget, headerBar.widget)  // under the bar
        }
        return (picture, (Int32(bounds.origin.x), Int32(bounds.origin.y), Int32(bounds.size.width), Int32(bounds.size.height)))
    }

    /// Ends a cross-fade at once (a new change came during it).
    private func endCrossFade() {
        guard let fade = crossFade else { return }
        crossFade = nil
        g_source_remove(fade.timer)
        gtk_overlay_remove_overlay(OpaquePointer(swipeLayer?.gobject), fade.picture.widget)
        finishTransition()
    }

    private func finishTransition() {
        transition = .idle
        view.canTarget = true
        flushRemovals()
        finishLifecycle()
    }

    private func flushRemovals() {
        let removing = pagesAwaitingRemoval
        pagesAwaitingRemoval = []
        for page in removing where view.contains(page.view.widget) {
            view.remove(page.view)
        }
    }

    private func transitionType(_ kind: TransitionKind) -> GtkStackTransitionType {
        let rtl = view.isRightToLeft
        switch kind {
        case .push: return rtl ? GTK_STACK_TRANSITION_TYPE_OVER_RIGHT : GTK_STACK_TRANSITION_TYPE_OVER_LEFT
        case .pop: return rtl ? GTK_STACK_TRANSITION_TYPE_UNDER_LEFT : GTK_STACK_TRANSITION_TYPE_UNDER_RIGHT
        }
    }

    // MARK: - Bar

    private func updateBar() {
        let page = visiblePage
        titleView.set(title: state.top?.title ?? "", subtitle: page?.subtitle,
                      minimumCharacters: page?.minimumTitleCharacters ?? TitleView.minimumTitleCharacters)
        backButton.isVisible = state.canUserGoBack
        backButton.tooltip = state.previous?.title
        let title = state.top?.title ?? ""
        if title != lastTitle {
            lastTitle = title
            titleObservers.removeAll { $0.owner.object == nil }
            for observer in titleObservers { observer.handler(title) }
        }
        for other in pages where other !== page { other.unpackBarItems() }
        page?.packBarItems(into: headerBar)
    }

    /// Packs the visible page's bar items again, after the bar's own items (so they sit inside them).
    func repackVisiblePageBarItems() { visiblePage?.packBarItems(into: headerBar) }

    private func pageTitleDidChange(_ page: Page) {
        state.setTitle(page.title, of: page.id)
        updateBar()
    }

    /// A page's ``Page/canPop`` changed: Back shows or hides at once if it is the visible page.
    func pageCanPopDidChange(_ page: Page) {
        state.setCanPop(page.canPop, of: page.id)
        updateBar()
    }

    // MARK: - Focus

    private func focusedWidget(in page: Page) -> Widget? {
        guard let window = page.view.rootWindow, let focus = gtk_window_get_focus(window),
              page.view.contains(focus) else { return nil }
        return Widget(UnsafeMutableRawPointer(focus), transfer: .none)
    }

    private func restoreFocus(in page: Page) {
        guard page.view.rootWindow != nil else { return }
        if let saved = page.savedFocus, page.view.contains(saved.widget), saved.grabFocus() { return }
        if let initial = page.initialFocus, initial.grabFocus() { return }
        if page.content.grabFocus() { return }
        if backButton.isVisible { backButton.grabFocus() }
    }
}

/// Reports misuse of the public API with `g_critical` in the toolkit's log domain (`NavigationGtk`), as
/// libadwaita's `g_return_if_fail` checks do; the caller then ignores the call. Fatal in the tests unless
/// expected (`G_DEBUG=fatal-criticals`, `g_test_expect_message`).
func logMisuse(_ message: String) {
    Logger.toolkit.critical(message)
}
