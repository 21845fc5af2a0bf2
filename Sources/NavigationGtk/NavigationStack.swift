import CGtk
import Gtk
import Navigation

/// A navigation stack of ``Page``s shown in a ``PageStackView`` under a `GtkHeaderBar` — the GTK host of the
/// `NavigationStackState` model, with what libadwaita's `AdwNavigationView` gives GNOME apps:
///
/// - The bar shows the visible page's title, its end bar items, and a Back button
///   (`go-previous-symbolic`, accessible name "Back", tooltip = the previous page's title) whenever there
///   is a page to go back to.
/// - Push slides the new page over (from the end edge); pop slides it away, uncovering the page below
///   (mirrored in right-to-left locales), moved by libadwaita's navigation spring (`Spring/navigation`:
///   about 218 ms for a push, 292 ms for a pop, which is clamped). With animations off (``isAnimated``,
///   or the desktop's) a change is shown at once. Pointer input is ignored while a transition runs; a change
///   requested during one finishes it cleanly. Popped pages are removed from the widget tree only after
///   their transition ends, and released then.
/// - Back: the Back button, Alt+Left (Alt+Right in a right-to-left layout), the Back key, mouse button 8,
///   and Escape on a pushed page when
///   ``popsOnEscape`` (installed on the window by ``installBackShortcuts(on:)``). Escape on the root page
///   calls ``onEscapeAtRoot`` instead (a modal flow cancels there). A page whose ``Page/canPop`` is false
///   has no Back and ignores every back shortcut (as libadwaita's `can-pop`); code can still pop it.
/// - Forward: Alt+Right, the Forward key and mouse button 9 push again the page the user just left
///   with Back, while nothing else has changed the stack (``goForward()``).
/// - Tags, unique within the stack: ``pop(toTag:)``, ``page(taggedAs:)``, and ``push(tag:)`` for pages
///   ``add(_:)``ed in advance (libadwaita's `pop_to_tag`, `find_page`, `push_by_tag`).
/// - Events, delivered after the change that caused them is applied, in order, once each, with their
///   ``Cause``: each page hears showing, shown, hiding, hidden (``Page/observeLifecycle(_:)``); observers
///   of the stack hear pushed, popped, removed and replaced (``observeEvents(_:)``). A handler that changes
///   the stack starts a new change, whose events follow the current change's.
/// - A history menu on the Back button (right click, long press, Shift+F10 or the Menu key): every page
///   below, nearest first, by title; choosing one pops back to it (``showHistoryMenu()``). Neither
///   libadwaita nor GTK has one; browsers do.
/// - Focus is remembered per page and restored when the page is shown again.
///
/// Misuse of the API (pushing a page twice, popping the root, a duplicate or unknown tag, a page that is
/// not on the stack) is reported with `g_critical` in the `NavigationGtk` log domain and ignored, as
/// libadwaita does.
///
/// Every change goes through the model first (``state``) and the widgets follow. Main actor only.
@MainActor
public final class NavigationStack {
    /// The model: the pages' ids and titles, root first.
    public internal(set) var state = NavigationStackState()

    /// What the stack is doing now: one value, so that, say, a swipe during a cross-fade cannot be
    /// written down (see ``Phase``).
    var phase: Phase = .idle

    /// Whether a transition (a slide) is animating. A swipe back in progress is not a transition
    /// (``isSwipingBack``).
    public var transition: Transition {
        switch phase {
        case .sliding(let handover):
            .running(from: handover.from?.id, to: handover.to?.id, kind: handover.kind)
        case .idle, .swiping, .destroyed:
            .idle
        }
    }

    /// The edge the last transition's incoming page slid from (push) or the outgoing page slid to
    /// (pop): `.right` for push and pop in left-to-right locales, `.left` in right-to-left ones;
    /// `.none` when the change was not animated.
    public internal(set) var lastSlide: SlideEdge = .none

    /// Where a page slides to or from.
    public enum SlideEdge: Equatable, Sendable {
        /// The left edge.
        case left
        /// The right edge.
        case right
        /// No slide: the change was shown at once.
        case none
    }

    /// The header bar showing Back and, for each page on the stack, the page's ``Page/barLayer`` (its
    /// title and bar items), the visible page's shown and, while pages change, two cross-fading with the
    /// slide or the swipe. The host window sets it as its titlebar.
    package let headerBar = HeaderBar()

    /// The widget that shows the pages; put it in the window.
    public let view = PageStackView()

    /// The frame-clock callback moving the running slide, if one is running.
    var slideTick: UInt32?
    /// The breakpoints added (``addBreakpoint(_:)``), the current one, the one the next tick switches to.
    var breakpoints: [Breakpoint] = []
    var currentBreakpoint: Breakpoint?
    var pendingBreakpoint = PendingBreakpoint()
    var breakpointTick: UInt32?
    /// Told when a page on the stack changed what it shows inside it that a router's path lists (a
    /// split view's content pane).
    let hostedContentObservers = Observers<Void>()

    /// A page on the stack changed the routes it shows inside it (a ``NavigationSplitView``'s pane).
    func hostedContentDidChange() { hostedContentObservers.notify(()) }

    /// The Back button (visible when `NavigationStackState/canUserGoBack`).
    package let backButton = Button(iconName: "go-previous-symbolic", accessibleLabel: toolkitLocalized("Back"))

    /// Whether the stack names its pages for screen readers by their titles (``Page/isNamedForScreenReaders``)
    /// and focuses a page with no control of its own. On by default.
    package var namesPagesForScreenReaders = true {
        didSet { for page in pagesByID.values { page.isNamedForScreenReaders = namesPagesForScreenReaders } }
    }

    /// The Back button's history menu (see ``showHistoryMenu()``).
    // Translators: what a screen reader calls the menu of pages behind Back (Shift+F10 on Back): "Go Back
    // To menu. My Profile".
    package private(set) lazy var historyMenu = PopupMenu(anchor: backButton, accessibleLabel: toolkitLocalized("Go Back To"))

    /// The bar's title widget: the visible page's ``Page/titleView`` (an empty one, in no bar, with no
    /// page).
    package var titleView: TitleView { visiblePage.map { $0.titleView } ?? emptyTitleView }
    private var emptyTitleView: TitleView {
        if let madeEmptyTitleView { return madeEmptyTitleView }
        let made = TitleView()
        madeEmptyTitleView = made
        return made
    }

    /// The bar's title label.
    package var titleLabel: Label { titleView.titleLabel }

    /// The title the stack's bar shows: the visible page's ``Page/title`` as the bar has it now (empty
    /// with no page). Main thread.
    public var title: String { titleLabel.text }

    /// Whether the bar shows Back now: the user can go back from the visible page
    /// (`NavigationStackState/canUserGoBack`). Main thread.
    public var isShowingBackButton: Bool { backButton.isVisible }

    /// Back's tooltip: the title of the page Back returns to, as GNOME apps name it (nil when Back is
    /// hidden or the page below has no title). Main thread.
    public var backButtonTooltip: String? { backButton.isVisible ? backButton.tooltip : nil }

    /// Called when Escape is pressed on the root page (nothing to pop). A modal dialog cancels its flow.
    public var onEscapeAtRoot: (@MainActor () -> Void)?

    /// Whether Escape on a pushed page goes back (true, the default, as libadwaita's navigation view
    /// has it). Turn it off for a stack whose pages use Escape themselves (a browser's stop, a search
    /// bar); Alt+Left, the Back key, mouse button 8 and the Back button still go back, and Escape at the
    /// root still calls ``onEscapeAtRoot``.
    public var popsOnEscape = true

    /// Whether the stack's bar already has a Cancel that ends everything on it (a modal dialog's), so
    /// flows pushed onto it add none of their own.
    public var providesCancel = false

    /// The visible page's start button the bar may move into its overflow menu (see ``updateBar()``).
    var madeEmptyTitleView: TitleView?
    /// The items each page's layer gets from the stack's host (``addEndBarItemToEveryPage(_:)``): how to
    /// make them, and those made for each layer in this bar.
    var hostEndItemMakers: [@MainActor () -> Widget] = []
    var hostEndItems: [ObjectIdentifier: [Widget]] = [:]

    /// The height in pixels of the translucent bar floating over this stack's pages (0 when the bar is
    /// opaque or hidden), as the window hosting the stack measured it at its last layout. Pages whose
    /// ``Page/extendsUnderTopBar`` is true are told each change (``Page/topInsetDidChange(_:)``).
    public internal(set) var topInset: Int = 0 {
        didSet {
            guard topInset != oldValue else { return }
            for page in pages where page.extendsUnderTopBar { page.setTopInset(topInset) }
        }
    }

    /// The mouse button that goes back (the "back" side button, X11/GDK button 8).
    public static let mouseBackButton: UInt32 = 8

    /// The mouse button that goes forward (the "forward" side button, X11/GDK button 9).
    public static let mouseForwardButton: UInt32 = 9

    // Internal (not private) where the extensions in NavigationStack+*.swift need them; nothing outside
    // the type uses them.
    var pagesByID: [PageID: Page] = [:]
    var pagesAwaitingRemoval: [Page] = []
    /// Pages added with ``add(_:)``, by tag, for ``push(tag:)``.
    var addedPages: [String: Page] = [:]
    /// The page Forward pushes again (kept alive while `NavigationStackState/forwardEntry` names it).
    var forwardPage: Page?
    var lastTitle: String?
    /// Notifications of changes already applied, waiting to be delivered in order (see ``deliver()``).
    var pendingNotifications: [@MainActor () -> Void] = []
    var isDelivering = false

    let popObservers = Observers<([Page], Cause)>()
    let eventObservers = Observers<(Event, Cause)>()
    let visiblePageObservers = Observers<Page?>()
    let titleObservers = Observers<String>()
    let destructionObservers = Observers<Void>()

    /// The swipe gestures (for tests, which drive them through their signals).
    package internal(set) var swipeScrollController: ScrollController?
    package internal(set) var swipeTouchGesture: DragGesture?

    /// Creates a stack, optionally with a root page.
    public init(root: Page? = nil) {
        NavigationStyle.loadOnce()
        view.expandsHorizontally = true
        view.expandsVertically = true
        headerBar.packStart(backButton)
        backButton.isVisible = false
        backButton.onClicked { [weak self] in self?.goBack() }
        installHistoryMenu()
        installSwipeGestures()
        view.onAllocate = { [weak self] width, height in self?.pageAreaAllocated(width: width, height: height) }
        view.onSlideChanged = { [weak self] outgoing, incoming, progress in
            self?.crossFadeBar(from: outgoing, to: incoming, progress: progress)
        }
        // The window the stack is in going: heard from that window's own `destroy` (a window the toolkit
        // wraps emits it as soon as GTK lets it go; see `Window`), watched from each realize on.
        view.connect("realize") { [weak self] _ in self?.watchRootWindow() }
        view.connect("destroy") { [weak self] _ in self?.viewDestroyed() }
        if let root { replace(with: [root], animated: false) }
    }

    /// The pages, root first.
    public var pages: [Page] { state.entries.compactMap { pagesByID[$0.id] } }

    /// Whether changes are animated (true, the default) or switch at once, for every push and pop of this
    /// stack (libadwaita's `animate-transitions`). When the desktop turns animations off
    /// (`gtk-enable-animations`, GNOME's Reduce Animation) every change is shown at once too, in the
    /// frame it is made in, as libadwaita's widgets do then.
    public var isAnimated = true

    /// What happened to the stack's pages, for ``observeEvents(_:)``.
    public enum Event {
        /// `page` was pushed (once per page, also for each page of a replace that only adds).
        case pushed(Page)
        /// `page` left the top of the stack by a pop or pop-to (once per page, top first).
        case popped(Page)
        /// `page` was taken out from below the visible page (``remove(_:)``).
        case removed(Page)
        /// The pages were replaced: `removed` left (bottom first), `added` came (bottom first). Pages on
        /// both the old and the new stack are in neither, wherever they moved.
        case replaced(removed: [Page], added: [Page])
    }

    /// Why the stack changed, delivered with each event.
    public enum Cause: Equatable, Sendable {
        /// Code asked (push, pop, replace, a router's path).
        case code
        /// The user went back: the Back button, its history menu, Alt+Left, the Back key, Escape, mouse
        /// button 8, a swipe.
        case userBack
        /// The user went forward (Alt+Right, the Forward key, mouse button 9).
        case userForward
        /// A flow ended and popped its pages (``FlowHost/end()``).
        case flowEnded
        /// A ``NavigationSplitView`` moved its content pages between its pane and the stack, as its
        /// window crossed the width where it collapses or expands: the pages go on showing where they
        /// went; nothing was closed. Flows and routers treat such a pop as a move, not an ending.
        case splitViewResized
    }

    /// The visible page, or nil when empty.
    public var visiblePage: Page? {
        // The top entry's id alone (`state.top` would copy the whole entry: title, route, tag).
        state.entries.isEmpty ? nil : pagesByID[state.entries[state.entries.count - 1].id]
    }

    /// Pushes `page` and shows it with a slide-over transition.
    ///
    /// Navigation is idempotent: does nothing (and returns false) when the visible page — the one on
    /// top, also while it is still sliding in — is of the same type and has the same non-nil
    /// ``Page/subject``, whatever the input that asked twice (a double click, key repeat, two
    /// activations in one frame). A page already on this stack or on another one, or whose tag another
    /// page on the stack has, is misuse: reported with `g_critical` and ignored (false).
    @discardableResult
    public func push(_ page: Page) -> Bool {
        guard canPush(page) else { return false }
        if let subject = page.subject, let top = visiblePage, type(of: top) == type(of: page), top.subject == subject {
            return false  // that page is already open: a second open of the same thing
        }
        var new = state
        new.push(entry(for: page))
        attach(page)
        apply(new, cause: .code)
        return true
    }

    /// Whether `page` can go on the stack; reports misuse (`g_critical`) when it cannot.
    private func canPush(_ page: Page, besides others: [Page] = []) -> Bool {
        if page.navigationStack != nil || state.contains(page.id) {
            logMisuse("push: “\(page.title)” is already on a navigation stack; ignored")
            return false
        }
        if let tag = page.tag, state.entry(taggedAs: tag) != nil || others.contains(where: { $0.tag == tag }) {
            logMisuse("push: the tag “\(tag)” of “\(page.title)” is already used on this stack; ignored")
            return false
        }
        return true
    }

    /// Adds `page` to the stack for later, so ``push(tag:)`` can push it by its ``Page/tag`` and
    /// ``page(taggedAs:)`` finds it, as libadwaita's `add`: added to an empty stack, it becomes the root
    /// (pushed, without a slide). A page already on the stack stays added after it is popped. Added
    /// pages are kept (and follow their tag changes) until ``remove(_:)`` or until the stack goes. A
    /// page without a tag, or with a tag another page on the stack or another added page has, is misuse
    /// (`g_critical`, ignored).
    public func add(_ page: Page) {
        guard let tag = page.tag else { logMisuse("add: “\(page.title)” has no tag; ignored"); return }
        if let other = addedPages[tag], other !== page {
            logMisuse("add: the tag “\(tag)” is already used by “\(other.title)”; ignored")
            return
        }
        if let entry = state.entry(taggedAs: tag), entry.id != page.id {
            logMisuse("add: the tag “\(tag)” is already used on this stack; ignored")
            return
        }
        if page.navigationStack != nil, !state.contains(page.id) {
            logMisuse("add: “\(page.title)” is on another navigation stack; ignored")
            return
        }
        addedPages[tag] = page
        follow(page)
        if state.entries.isEmpty {
            var new = state
            new.push(entry(for: page))
            attach(page)
            apply(new, cause: .code, animated: false)
        }
    }

    /// The page tagged `tag`: on the stack, or added with ``add(_:)`` (libadwaita's `find_page`); nil when
    /// there is none (not misuse).
    public func page(taggedAs tag: String) -> Page? {
        if let entry = state.entry(taggedAs: tag) { return pagesByID[entry.id] }
        return addedPages[tag]
    }

    /// Pushes the page added with ``add(_:)`` whose tag is `tag` (libadwaita's `push_by_tag`).
    /// - Returns: false, changing nothing, when no such page was added (misuse, `g_critical`) or it is
    ///   on the stack already.
    @discardableResult
    public func push(tag: String) -> Bool {
        guard let page = addedPages[tag] else { logMisuse("push(tag:): no page tagged “\(tag)” was added; ignored"); return false }
        if state.contains(page.id) { return false }
        return push(page)
    }

    /// Pops every page above the page tagged `tag` (libadwaita's `pop_to_tag`).
    /// - Returns: the popped pages, bottom first; empty, changing nothing, when it is on top or no page on
    ///   the stack has the tag. Not misuse, unlike libadwaita's critical: code that pops to a page after
    ///   an `await` may find the user already took it away.
    @discardableResult
    public func pop(toTag tag: String) -> [Page] {
        guard let entry = state.entry(taggedAs: tag), let page = pagesByID[entry.id] else { return [] }
        return pop(to: page)
    }

    /// The user's Forward (Alt+Right, Alt+Left right to left; the Forward key; mouse button 9): pushes again the page the user
    /// just left with Back, while nothing else has changed the stack since. A flow's pages are not
    /// brought back (the flow has ended or moved on).
    /// - Returns: whether a page was pushed.
    @discardableResult
    public func goForward() -> Bool {
        var new = state
        guard let entry = new.goForward(), let page = forwardPage, page.id == entry.id else { return false }
        attach(page)
        apply(new, cause: .userForward)
        return true
    }

    /// Forgets the page Forward would push again (``goForward()``). Flows call it when their pages leave.
    public func clearForward() {
        forwardPage = nil
        state.clearForward()
    }

    func entry(for page: Page, route: AnyRoute? = nil) -> NavigationStackState.Entry {
        .init(id: page.id, title: page.title, route: route, tag: page.tag, canPop: page.canPop)
    }

    /// Keeps the first `kept` pages (the root counts), removes every page above them and pushes
    /// `newPages` with their routes, nearest the root first, as one change: a push when nothing is
    /// removed, a pop when nothing is added, else a replace animated as a push of the new top
    /// (``NavigationRouter`` follows its path with it).
    /// - Returns: false, changing nothing, when a new page is already on a stack or its tag is used
    ///   (misuse, `g_critical`).
    @discardableResult
    package func show(keeping kept: Int, thenPush newPages: [(page: Page, route: AnyRoute?)], animated: Bool = true) -> Bool {
        var new = NavigationStackState(Array(state.entries.prefix(max(0, kept))))
        for (index, item) in newPages.enumerated() {
            let earlier = newPages[..<index].map(\.page)
            guard item.page.navigationStack == nil, !state.contains(item.page.id),
                  item.page.tag.map({ tag in new.entry(taggedAs: tag) == nil && !earlier.contains { $0.tag == tag } }) ?? true else {
                _ = canPush(item.page, besides: earlier)  // reports which
                return false
            }
            new.push(entry(for: item.page, route: item.route))
        }
        newPages.forEach { attach($0.page) }
        apply(new, cause: .code, animated: animated)
        return true
    }

    /// Pops the visible page with a slide-under transition.
    /// - Returns: the popped page; nil, changing nothing, at the root or on an empty stack (as
    ///   libadwaita's `pop` returns false: Escape at the root is not misuse).
    @discardableResult
    public func pop() -> Page? {
        var new = state
        guard let removed = new.pop() else { return nil }
        let page = pagesByID[removed.id]
        apply(new, cause: .code)
        return page
    }

    /// Pops every page above `page`; does nothing if `page` is already visible.
    /// - Returns: the popped pages, bottom first; empty, changing nothing, when `page` is not on the stack.
    ///   Not misuse, unlike libadwaita's critical: code that pops to a page after an `await` may find the
    ///   user already took it away.
    @discardableResult
    public func pop(to page: Page) -> [Page] {
        pop(to: page, cause: .code)
    }

    /// ``pop(to:)`` for `cause` (a flow ending, the user's history menu).
    @discardableResult
    package func pop(to page: Page, cause: Cause) -> [Page] {
        guard state.contains(page.id) else { return [] }
        var new = state
        let removed = new.pop(to: page.id).compactMap { pagesByID[$0.id] }
        apply(new, cause: cause)
        return removed
    }

    /// Pops every page but the root; does nothing at the root.
    @discardableResult
    public func popToRoot() -> [Page] {
        guard let root = pages.first else { return [] }
        return pop(to: root)
    }

    /// Takes `page` out of the stack from below the visible page, without a transition (what's shown
    /// does not change; Back then goes to the page under it), or forgets it if it was only added with
    /// ``add(_:)``. The visible page (pop it instead) and a page that is neither are misuse
    /// (`g_critical`, ignored). Observers hear ``Event/removed(_:)``.
    public func remove(_ page: Page) {
        if let tag = page.tag, addedPages[tag] === page, !state.contains(page.id) {
            addedPages[tag] = nil
            unfollow(page)
            return
        }
        guard state.contains(page.id) else { logMisuse("remove: “\(page.title)” is not on this navigation stack; ignored"); return }
        guard state.top?.id != page.id else { logMisuse("remove: “\(page.title)” is the visible page; pop it instead"); return }
        var new = NavigationStackState()
        for entry in state.entries where entry.id != page.id { new.push(entry) }
        apply(new, cause: .code, animated: false)
    }

    /// Replaces all pages with `newPages` (root first); an empty list empties the stack. A page that
    /// stays keeps its widgets, state and focus wherever it moves. Observers hear one
    /// ``Event/replaced(removed:added:)`` (never pushed or popped), as libadwaita's `replace`. Animated as a push of the new top page
    /// when `animated`. A page listed twice, a page on another stack or a tag used twice is misuse
    /// (`g_critical`): the later one is left out.
    public func replace(with newPages: [Page], animated: Bool = true) {
        var new = NavigationStackState()
        var accepted: [Page] = []
        for page in newPages {
            if accepted.contains(where: { $0 === page }) {
                logMisuse("replace: “\(page.title)” is listed twice; the later one is left out")
                continue
            }
            if let stack = page.navigationStack, stack !== self {
                logMisuse("replace: “\(page.title)” is on another navigation stack; left out")
                continue
            }
            if let tag = page.tag, accepted.contains(where: { $0.tag == tag }) {
                logMisuse("replace: the tag “\(tag)” of “\(page.title)” is used twice; the later page is left out")
                continue
            }
            let route = state.entries.first { $0.id == page.id }?.route
            new.push(entry(for: page, route: route))
            accepted.append(page)
        }
        accepted.forEach(attach)
        apply(new, cause: .code, animated: animated, asReplace: true)
    }

    /// Goes back one page as the Back button does: pops, unless at the root or the visible page's
    /// ``Page/shouldLeave`` says to stay. Each call pops one page, also during a transition (two fast
    /// presses of mouse-back pop two pages).
    public func goBack() {
        guard let page = visiblePage else { return }
        leaveAsTheUser {
            var new = state
            guard new.goBack() != nil else { return }
            forwardPage = page
            apply(new, cause: .userBack)
        }
    }

    /// The user going back several pages at once (the Back button's history menu): pops to `page`,
    /// unless the visible page cannot be left by the user (``Page/canPop``) or its ``Page/shouldLeave``
    /// says to stay. Does nothing if `page` is not below the visible page.
    public func goBack(to page: Page) {
        guard visiblePage !== page, state.contains(page.id) else { return }
        leaveAsTheUser { pop(to: page, cause: .userBack) }
    }

    /// Runs `leave` as the user's Back: only when the user can go back (``Page/canPop``) and the visible
    /// page's ``Page/shouldLeave`` lets it go.
    private func leaveAsTheUser(_ leave: () -> Void) {
        guard state.canUserGoBack, let top = visiblePage else { return }
        if let shouldLeave = top.shouldLeave, !shouldLeave() { return }
        leave()
    }

    // MARK: - Observing

    /// Calls `handler` with the removed pages (bottom first) and the cause after every pop, pop-to,
    /// ``remove(_:)`` and replace that removes pages, once the change is applied, until the token goes.
    /// Flows use it to notice Back past their first page, or their pages being taken away by anyone
    /// else, and end.
    public func observePops(_ handler: @escaping @MainActor ([Page], Cause) -> Void) -> ObservationToken {
        popObservers.add { handler($0.0, $0.1) }
    }

    /// Calls `handler` once when the stack's widgets are destroyed (window closed, app quit), until the
    /// token goes; at once (later in this turn of the main loop) when they already are. Pushed flows end
    /// there.
    public func observeDestruction(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        let token = destructionObservers.add { handler() }
        if case .destroyed = phase {
            enqueue { [weak token] in if let token, !token.isCancelled { handler() } }
            deliver()
        }
        return token
    }

    /// Calls `handler` with the visible page (nil when empty) after every push, pop or replace that
    /// changes it (not when the visible page stays, as libadwaita's `visible-page`), once the stack's
    /// bar shows it, until the token goes. Hosts use it to swap bars (see ``ModalDialog``).
    public func observeVisiblePage(_ handler: @escaping @MainActor (Page?) -> Void) -> ObservationToken {
        visiblePageObservers.add(handler)
    }

    /// Calls `handler` with the visible page's title now and whenever it changes (a push, pop or
    /// replace, or the visible page renaming itself, e.g. a web page that loaded), until the token goes.
    /// Windows use it so their title — what window lists and screen readers announce — follows the page.
    public func observeTitle(_ handler: @escaping @MainActor (String) -> Void) -> ObservationToken {
        let token = titleObservers.add(handler)
        handler(state.top?.title ?? "")
        return token
    }

    /// Calls `handler` with each ``Event`` (pushed, popped, removed, replaced) and its ``Cause`` after
    /// the change is applied, in order, once each, until the token goes.
    public func observeEvents(_ handler: @escaping @MainActor (Event, Cause) -> Void) -> ObservationToken {
        eventObservers.add { handler($0.0, $0.1) }
    }

    /// The window whose `destroy` is watched, and the handler.
    private var watchedWindow: (window: Object, handler: UInt)?

    /// Watches the `destroy` of the window the view is in now (once per window).
    private func watchRootWindow() {
        guard let root = view.rootWindow else { return }
        let window = Object.wrapping(UnsafeMutableRawPointer(root))
        guard watchedWindow?.window !== window else { return }
        if let old = watchedWindow { old.window.disconnect(old.handler) }
        watchedWindow = (window, window.connect("destroy") { [weak self] _ in self?.viewDestroyed() })
    }

    private func viewDestroyed() {
        if case .destroyed = phase { return }
        endPhase()
        phase = .destroyed
        // The window is gone: let go of its pages, so none outlives it (whoever made a page may keep it).
        for page in pagesByID.values { detach(page) }
        pagesByID.removeAll()
        pagesAwaitingRemoval.removeAll()
        addedPages.removeAll()
        forwardPage = nil
        state = NavigationStackState()
        enqueue { [weak self] in
            guard let self else { return }
            self.destructionObservers.notify(())
            self.destructionObservers.cancelAll()
            self.popObservers.cancelAll()
            self.eventObservers.cancelAll()
            self.visiblePageObservers.cancelAll()
            self.titleObservers.cancelAll()
        }
        deliver()
    }
}

/// Reports misuse of the public API with `g_critical` in the toolkit's log domain (`NavigationGtk`), as
/// libadwaita's `g_return_if_fail` checks do; the caller then ignores the call. Fatal in the tests unless
/// expected (`G_DEBUG=fatal-criticals`, `g_test_expect_message`).
func logMisuse(_ message: String) {
    Logger.toolkit.critical(message)
}
