import Gtk
import Navigation

/// A screen that can be shown on a ``NavigationStack`` (pushed into a window or a dialog) or presented
/// alone in a ``ModalDialog`` (``ModalDialog/init(over:presenting:width:height:)``).
///
/// A page does not know where it is used. It builds its widgets into ``content``, reports what the user
/// did through its own events or async results, and never pushes, pops, presents or dismisses anything
/// itself: whoever created it (a flow, an app screen) decides what comes next.
///
/// **The standalone bar.** A page has its own `GtkHeaderBar` (its standalone bar,
/// ``isShowingStandaloneBar``) at the top of ``view``, made the first time it is asked for (a page only ever pushed never builds it). The host
/// decides, each time it shows the page, whether that bar is visible: presented alone (modally) it is,
/// with the page's title and the host's Close or Cancel at the start; pushed onto a stack it is hidden,
/// and the stack's bar shows the title and Back.
///
/// **Its bar items.** The page's title (``title``, ``subtitle``) and its bar items (``addEndBarItem(_:)``) are
/// one `BarLayer`, built once, which the bar showing the page holds for as long as it does: the
/// stack's bar keeps a layer per page and cross-fades between them, so an item is never taken out of a
/// bar and put back as pages come and go. It moves only when the page changes host (presented alone
/// after being pushed, or the other way round).
///
/// Main actor only.
@MainActor
open class Page {
    /// The page's identity on a stack.
    public let id = PageID.make()

    /// The title shown in the bar while the page is visible and as the Back button's tooltip above it.
    /// Observable (``observeProperties(_:)``).
    public var title: String {
        didSet { if title != oldValue { titleDidChange(.title) } }
    }

    /// A second, smaller line under the title (nil for none), e.g. "3 replies". Observable.
    public var subtitle: String? {
        didSet { if subtitle != oldValue { titleDidChange(.subtitle) } }
    }

    /// A property of a page that observers can follow (``observeProperties(_:)``), as GObject's
    /// `notify` signal for libadwaita's `AdwNavigationPage` properties.
    public enum Property: Equatable, Sendable {
        /// ``title`` changed.
        case title
        /// ``subtitle`` changed.
        case subtitle
        /// ``tag`` changed.
        case tag
        /// ``canPop`` changed.
        case canPop
    }

    private let propertyObservers = Observers<Property>()

    /// Calls `handler` with each property of the page that changes (``title``, ``subtitle``, ``tag``,
    /// ``canPop``), after the page's stack (if any) has taken the change, until the token goes.
    public func observeProperties(_ handler: @escaping @MainActor (Property) -> Void) -> ObservationToken {
        propertyObservers.add(handler)
    }

    /// The stack's own hook for the page's property changes (set while the page is on it).
    var stackDidChangeProperty: (@MainActor (Page, Property) -> Void)?

    private func propertyDidChange(_ property: Property) {
        stackDidChangeProperty?(self, property)
        propertyObservers.notify(property)
    }

    /// What hosts show: the standalone bar (when visible) above ``content``. Screen readers find it as a
    /// group (libadwaita's `AdwNavigationPage` is one), named by the page's title while a stack shows it
    /// (`isNamedForScreenReaders`).
    public let view = Box(groupRole: ())

    /// Whether screen readers find ``view`` named by the page's title: Orca 43 then says "Title panel" as
    /// focus comes into the page from another, the page's announcement (a window's or dialog's name is
    /// said only when focus comes from another window, or when Orca finds the control it came from gone).
    /// Set by the hosting stack.
    package var isNamedForScreenReaders = false {
        didSet {
            guard isNamedForScreenReaders != oldValue else { return }
            if isNamedForScreenReaders { view.setAccessibleLabel(title) } else { view.clearAccessibleLabel() }
        }
    }

    /// The page's widget tree: a vertical box that fills the page area.
    public let content = Box(.vertical)

    /// The page's own header bar, visible only when the page is presented alone (see the type's docs).
    /// Made, hidden, at the top of ``view`` the first time it is asked for: building a header bar (its
    /// window buttons, their icons) is a good part of what a page costs, and a pushed page never shows it.
    package var standaloneBar: HeaderBar {
        if let madeStandaloneBar { return madeStandaloneBar }
        let bar = HeaderBar()
        bar.isVisible = false
        view.prepend(bar)
        madeStandaloneBar = bar
        return bar
    }
    private var madeStandaloneBar: HeaderBar?

    /// The page's title widget (title and subtitle) in whichever bar shows the page: the middle of its
    /// ``barLayer``. Made when first asked for.
    package var titleView: TitleView {
        if let madeTitleView { return madeTitleView }
        let titleView = TitleView()
        titleView.set(title: title, subtitle: subtitle, minimumCharacters: minimumTitleCharacters)
        madeTitleView = titleView
        return titleView
    }
    private var madeTitleView: TitleView?

    /// The page's part of the bar showing it: its start items, ``titleView`` and end items, with their
    /// overflow menu. Built the first time a bar shows the page, then kept (see the type's docs).
    package var barLayer: BarLayer {
        if let madeBarLayer { return madeBarLayer }
        let layer = BarLayer(title: titleView)
        for item in startBarItems { layer.packStart(item) }
        for item in endBarItems { layer.packEnd(item) }
        madeBarLayer = layer
        return layer
    }
    private var madeBarLayer: BarLayer?
    /// The bar layer if it was built.
    var madeBarLayerIfAny: BarLayer? { madeBarLayer }

    /// Whether the page keeps its bar layer in its own standalone bar even while on a stack: the first
    /// page of a dialog that presents it alone (``ModalDialog``), whose stack's bar never shows it.
    package var keepsStandaloneBar = false

    /// Widgets the host puts at the end of the bar showing this page, in order.
    public private(set) var endBarItems: [Widget] = []

    /// Widgets the host puts at the start of the bar (after Back or Close), in order. Flows put their
    /// Cancel here when pushed.
    public private(set) var startBarItems: [Widget] = []

    /// The widget to focus when the page first appears (nil: the first focusable child; with none,
    /// the host focuses its Back or Close button).
    open var initialFocus: Widget? { nil }

    /// The fewest characters of the title kept before "…" when the bar is narrow (default
    /// ``TitleView/minimumTitleCharacters``). A page whose bar holds many items lowers it so the bar
    /// still fits a 360-pixel window.
    open var minimumTitleCharacters: Int { TitleView.minimumTitleCharacters }

    /// Whether the page's content may scroll under a translucent top bar (the host then starts it
    /// below the bar with a top inset equal to the bar's height). Default false.
    open var extendsUnderTopBar: Bool { false }

    /// The height in pixels of a translucent bar floating over this page (0 when it has an opaque bar,
    /// is presented alone, or is on no stack). Set during layout, for pages whose
    /// ``extendsUnderTopBar`` is true; see ``topInsetDidChange(_:)``.
    public private(set) var topInset: Int = 0

    /// Called (during layout, on the main thread) when ``topInset`` changes: bar shown or hidden, its
    /// height changed by a resize or text size, the page pushed onto or popped off a window's stack.
    /// Content that cannot draw outside its own area (a web view) uses it to start below the bar and
    /// scroll under it, as libadwaita's `AdwToolbarView` lets content extend under a raised top bar.
    /// Default: nothing.
    open func topInsetDidChange(_ inset: Int) {}

    func setTopInset(_ inset: Int) {
        guard inset != topInset else { return }
        topInset = inset
        topInsetDidChange(inset)
    }

    /// The stack the page is on now, or nil. Set by the stack; flows use it to run "from" this page.
    public internal(set) weak var navigationStack: NavigationStack? {
        didSet { if navigationStack !== oldValue { navigationStackDidChange() } }
    }

    /// The page went onto a stack or left one (``navigationStack`` changed): a host inside the page
    /// (a split view) rearranges for it.
    func navigationStackDidChange() {}

    /// What the page shows (a person's id, a post's id), or nil. A stack does not push a page of the
    /// same type with the same subject as the page on top of it (or being pushed there): opening the
    /// same page twice in a row — a double click, key repeat, two activations in one frame — shows it
    /// once. See ``NavigationStack/push(_:)``.
    public var subject: AnyHashable?

    /// The route value the page was made from when a ``NavigationRouter`` put it on its stack, or nil
    /// (a page pushed without one, such as a flow's, or on no stack). Read from the stack's
    /// ``NavigationStack/state``, which is where it is kept.
    public var route: AnyRoute? {
        navigationStack?.state.entries.first { $0.id == id }?.route
    }

    /// Asked before the user leaves the page with Back (button, keys, mouse) or Escape; return false
    /// to stay (e.g. to ask "Discard this post?" first). Set by whoever owns the page, not the page.
    public var shouldLeave: (@MainActor () -> Bool)?

    /// A name code can pop back to (``NavigationStack/pop(toTag:)``), find the page by
    /// (``NavigationStack/page(taggedAs:)``) or push it by (``NavigationStack/push(tag:)``), as
    /// libadwaita's page tags. Unique within a stack: a tag another page on the stack has is misuse
    /// (`g_critical`) and the page keeps the tag it had, as libadwaita's page refuses a duplicate tag. A
    /// change while on a stack, or added to one (``NavigationStack/add(_:)``), is followed there at once.
    /// Observable.
    public var tag: String? {
        didSet {
            guard tag != oldValue else { return }
            if let accepts = stackAcceptsTag, !accepts(self, tag) {
                tag = oldValue  // refused (the stack said why); observers hear nothing
                return
            }
            if let accepts = splitAcceptsTag, !accepts(self, tag) {
                tag = oldValue  // refused (the stack said why); observers hear nothing
                return
            }
            propertyDidChange(.tag)
        }
    }

    /// The stack's check of a new tag (set while the page is on it or added to it): false refuses it.
    var stackAcceptsTag: (@MainActor (Page, String?) -> Bool)?
    /// The check of a ``NavigationSplitView`` the page is in (its sidebar or content): false refuses it.
    var splitAcceptsTag: (@MainActor (Page, String?) -> Bool)?

    /// Sets the lifecycle as a host other than a stack shows or hides the page (a split view's pane),
    /// and tells the observers at once.
    func setLifecycleFromHost(_ event: PageLifecycleEvent) {
        lifecycle = event
        lifecycleObservers.notify(event)
    }

    /// Whether the user can leave the page with Back: false hides the Back button on it and ignores
    /// every back shortcut and gesture while it is visible (libadwaita's `can-pop`), for a page that must
    /// be finished or cancelled in its own way. Code can still pop it. Takes effect at once.
    public var canPop = true {
        didSet { if canPop != oldValue { propertyDidChange(.canPop) } }
    }

    /// Where the page is in its stack's transitions, as libadwaita's navigation page signals: `showing`
    /// when a change starts to show it, `shown` when that change's transition has ended, `hiding` and
    /// `hidden` likewise when it is covered or popped. Nil before it was first shown. Set when the change
    /// is applied; observers hear it after (``observeLifecycle(_:)``).
    public internal(set) var lifecycle: PageLifecycleEvent?
    let lifecycleObservers = Observers<PageLifecycleEvent>()

    /// Calls `handler` with each lifecycle event of the page (``lifecycle``), in order, after the stack
    /// change that caused it, until the token goes. E.g. start a camera on `shown`, pause it on `hiding`.
    public func observeLifecycle(_ handler: @escaping @MainActor (PageLifecycleEvent) -> Void) -> ObservationToken {
        lifecycleObservers.add(handler)
    }

    /// The widget that had focus when the page was last covered, restored when it is shown again.
    var savedFocus: Widget?
    /// Whether a stack last hid the page's view from screen readers (nil: it never said).
    private var hiddenFromScreenReaders: Bool?

    /// Gives the keyboard focus to the page's view itself (a page with no control of its own), which is
    /// focusable only until focus leaves it: Tab never comes back to it.
    /// - Returns: whether it took focus.
    ///
    /// Whether it still has the focus is told by its window's focus widget, not its `has-focus`: in a
    /// window not yet active (a dialog just shown) that stays false, and focus given to another control
    /// before the window was active (a dialog's own first control) left the view focusable for good.
    func focusItself() -> Bool {
        view.isFocusable = true
        guard view.grabFocus(), let root = view.rootWindow,
              let window = Object.wrapper(of: UnsafeMutableRawPointer(root)) as? Window else {
            view.isFocusable = false
            return false
        }
        stopFocusingItself()
        focusLeaveWindow = window
        focusLeaveHandler = window.connect("notify::focus-widget") { [weak self, weak window] _ in
            // No focus for a moment is not focus elsewhere (``Window/refocus()`` gives it back).
            guard let self, let window, let focus = window.focusWidget, focus != self.view.widget else { return }
            self.view.isFocusable = false
            self.stopFocusingItself()
        }
        return true
    }

    /// Stops following the window's focus for ``focusItself()``.
    private func stopFocusingItself() {
        if focusLeaveHandler != 0 { focusLeaveWindow?.disconnect(focusLeaveHandler) }
        focusLeaveHandler = 0
        focusLeaveWindow = nil
    }

    private var focusLeaveHandler: UInt = 0
    private weak var focusLeaveWindow: Window?

    /// Hides the page's view from screen readers, or shows it to them, unless it already is so.
    func setHiddenFromScreenReaders(_ hidden: Bool) {
        guard hiddenFromScreenReaders != hidden else { return }
        hiddenFromScreenReaders = hidden
        view.setHiddenFromScreenReaders(hidden)
    }

    /// Creates a page with `title` (and an optional `subtitle`).
    public init(title: String, subtitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        content.expandsHorizontally = true
        content.expandsVertically = true
        view.append(content)
        view.addCSSClass("page")
    }

    /// Adds `item` at the end of the bar that shows this page (the first added is outermost, as with
    /// `gtk_header_bar_pack_end`).
    public func addEndBarItem(_ item: Widget) {
        endBarItems.append(item)
        madeBarLayer?.packEnd(item)
    }

    /// Adds `item` at the start of the bar that shows this page, after Back or Close.
    public func addStartBarItem(_ item: Widget) {
        startBarItems.append(item)
        madeBarLayer?.packStart(item)
    }

    /// Removes an item added with ``addStartBarItem(_:)`` or ``addEndBarItem(_:)``.
    public func removeBarItem(_ item: Widget) {
        startBarItems.removeAll { $0 === item }
        endBarItems.removeAll { $0 === item }
        madeBarLayer?.remove(item)
    }

    /// Whether the standalone bar is showing (the page is presented alone).
    public var isShowingStandaloneBar: Bool { madeStandaloneBar?.isVisible ?? false }

    // MARK: - Host side

    /// Shows the standalone bar with `leading` (the host's Close or Cancel) at its start and the page's
    /// bar layer in it (taken from a stack's bar if one held it); used by hosts that present the page alone.
    package func showStandaloneBar(leading: Widget?) {
        let bar = standaloneBar
        if let leading, !bar.holds(leading) { bar.packStart(leading) }
        bar.addLayer(barLayer)
        bar.showLayer(barLayer)
        bar.isVisible = true
    }

    /// Hides the standalone bar (the page is pushed on a stack whose bar shows its title and Back);
    /// `leading` is removed from it if it was put there. The page's bar layer stays in it until a stack's
    /// bar takes it.
    package func hideStandaloneBar(removing leading: Widget?) {
        guard let bar = madeStandaloneBar else { return }  // never shown: nothing to hide
        if let leading, bar.holds(leading) { bar.remove(leading) }
        bar.isVisible = false
    }

    private func titleDidChange(_ property: Property) {
        madeTitleView?.set(title: title, subtitle: subtitle, minimumCharacters: minimumTitleCharacters)
        if property == .title, isNamedForScreenReaders { view.setAccessibleLabel(title) }
        propertyDidChange(property)
    }
}

/// A header bar title: the title on one line and an optional smaller subtitle under it, both centred
/// and shortened with "…" when the bar is narrow (as `AdwWindowTitle`).
@MainActor
public final class TitleView: Widget {
    /// The title label (CSS class `title`).
    public let titleLabel = Label()
    /// The subtitle label (CSS class `subtitle`), hidden when there is no subtitle.
    public let subtitleLabel = Label()

    /// Creates an empty title view.
    public init() {
        super.init(Box.makeBox(.vertical), transfer: .full)
        verticalAlignment = .center
        titleLabel.addCSSClass("title")
        subtitleLabel.addCSSClass("subtitle")
        subtitleLabel.addCSSClass("dim-label")
        titleLabel.ellipsizeAtEnd()
        subtitleLabel.ellipsizeAtEnd()
        appendToBox(titleLabel)
        appendToBox(subtitleLabel)
        subtitleLabel.isVisible = false
    }

    /// The fewest characters of a title kept before "…" (short titles such as "Post" are never cut;
    /// the bar still fits a 360 px window). A page with a crowded bar may ask for fewer
    /// (``Page/minimumTitleCharacters``).
    public static let minimumTitleCharacters = 10

    /// Shows `title` and, when not nil or empty, `subtitle`; at least `minimumCharacters` of the title are
    /// kept before "…" at the desktop's usual text size. With larger text (GNOME's Large Text) fewer
    /// are kept, so that they take no more room than at the usual size (96 dpi): 5 of 10 at twice the text.
    public func set(title: String, subtitle: String?, minimumCharacters: Int = TitleView.minimumTitleCharacters) {
        titleLabel.text = title
        self.minimumCharacters = min(title.count, minimumCharacters)
        applyMinimumCharacters()
        subtitleLabel.text = subtitle ?? ""
        subtitleLabel.isVisible = !(subtitle ?? "").isEmpty
    }

    /// How many of `minimumCharacters` a title keeps before "…" at the text resolution `dpi`: as many as
    /// take the room `minimumCharacters` take at 96 dpi (the usual text size), at least one. So the bar's
    /// narrowest width does not grow with the desktop's text size: a window 360 pixels wide still fits
    /// Back, the actions and a shortened title at twice the text size (issue 57, item 5).
    package static func keptCharacters(of minimumCharacters: Int, dpi: Double) -> Int {
        guard dpi > 96 else { return minimumCharacters }
        return max(min(1, minimumCharacters), Int((Double(minimumCharacters) * 96 / dpi).rounded(.down)))
    }

    private var minimumCharacters = 0
    private var textSizeToken: ObservationToken?

    private func applyMinimumCharacters() {
        titleLabel.widthInCharacters = Self.keptCharacters(of: minimumCharacters, dpi: DesktopStyle.textDPI)
        if textSizeToken == nil {
            textSizeToken = DesktopStyle.observeTextDPI { [weak self] _ in self?.applyMinimumCharacters() }
        }
    }
}
