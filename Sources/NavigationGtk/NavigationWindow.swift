import CGtk
import Gtk
import Navigation

/// An application window whose top bar is the bar of one ``NavigationStack`` — the main window of an
/// app built on pages. Back shortcuts (Alt+Left, Back key, Escape, mouse button 8) are installed and
/// ignored while a modal dialog of the window is open.
///
/// **Content under the bar.** The bar is translucent and floats over the pages (as libadwaita's
/// `AdwToolbarView` with a raised top bar). The pages start below it: at layout time — in the
/// overlay's size-allocate (`get-child-position`), not by changing margins or scroll positions — the
/// stack is placed at a top inset equal to the bar's current height for the current width, so the inset
/// follows window resizes, title changes that change the bar's height, and revealing or hiding the bar
/// (``isTopBarRevealed``). Pages whose ``Page/extendsUnderTopBar`` is true let their scrolled content draw
/// above that edge, under the bar; their scrollbars stay below it.
///
/// **The focus is heard on return.** Each time the window becomes active (shown, or given back the
/// focus when a dialog over it closes or the user comes back from another window), a screen reader
/// hears the control that has the keyboard focus (`Window/sayFocusOnceActive(delay:)`): GTK 4.8 tells
/// it of focus changes only, and Orca 43 said only the window's name.
///
/// Main actor only.
@MainActor
public final class NavigationWindow {
    /// The window.
    public let window: Window
    /// The navigation stack shown in the window.
    public let stack: NavigationStack
    /// Lays the bar over the stack.
    public let overlay = Overlay()

    /// The top inset in pixels applied at the last layout (the bar's height; 0 when hidden).
    public private(set) var topInset: Int = 0

    private var titleObservation: ObservationToken?

    /// The window's title for the visible page's title (what window lists and screen readers announce);
    /// default: the page's title. An app may add its name, e.g. `{ "\($0) – Postcard" }`.
    public var windowTitle: @MainActor (String) -> String = { $0 } {
        didSet { window.title = windowTitle(stack.visiblePage?.title ?? "") }
    }

    /// Creates the window with `root` as the first page. `width`/`height` are the default size in pixels.
    /// The window's title follows the visible page (see ``windowTitle``).
    public init(application: Application? = nil, root: Page, width: Int = 720, height: Int = 680) {
        window = Window(application: application)
        stack = NavigationStack(root: root)
        window.title = root.title
        titleObservation = stack.observeTitle { [weak self] title in
            guard let self else { return }
            self.window.title = self.windowTitle(title)
        }
        window.setDefaultSize(width: width, height: height)
        window.hideTitlebar()  // the stack's bar floats in the content
        stack.headerBar.addCSSClass("translucent-bar")
        let base = Box(.vertical)
        overlay.setChild(base)
        overlay.addOverlay(stack.view, measured: true)
        overlay.addOverlay(stack.headerBar, measured: true)
        overlay.onPlaceChild { [weak self] child, width, height in
            self?.place(child, width: width, height: height)
        }
        window.setChild(overlay)
        stack.installBackShortcuts(on: window)
        window.host = self
        window.connect("notify::is-active") { [weak window] _ in
            guard let window, window.isActive else { return }
            window.sayFocusOnceActive()
        }
        window.onDestroy { [weak self, weak window] in
            guard let window else { return }
            window.host = nil
            self?.sheets = []  // their widgets go with the window
            window.modalSheets = 0
        }
    }

    /// The navigation window whose GTK window is `window`, or nil: found through the window's one
    /// Swift wrapper (``Object/wrapper(of:)``), which holds it weakly.
    static func hosting(_ window: UnsafeMutablePointer<GtkWindow>?) -> NavigationWindow? {
        window.flatMap { (Object.wrapper(of: UnsafeMutableRawPointer($0)) as? Window)?.host as? NavigationWindow }
    }

    // MARK: - Bottom sheets

    /// The sheets shown inside the window, bottom first, each on its dimmed backdrop (see
    /// ``ModalDialog``): a dialog presented from a sheet is a sheet over it.
    private var sheets: [(backdrop: Widget, sheet: Widget, offset: () -> Int)] = []

    /// The sheet shown on top inside the window now, if any.
    public var presentedSheet: Widget? { sheets.last?.sheet }

    /// Whether `sheet` is shown and another sheet is over it.
    func isCovered(_ sheet: Widget) -> Bool {
        guard let index = sheets.firstIndex(where: { $0.sheet === sheet }) else { return false }
        return index < sheets.count - 1
    }

    /// Shows `sheet` over the pages (and over any sheet shown already) at the bottom of the window, on a
    /// dimmed `backdrop`, modal: the window's pages and bar, and the sheets below, take no input and no
    /// focus, and the window's back shortcuts do nothing, until ``removeSheet(_:)``. `offset` is how
    /// far the sheet is dragged down now, in pixels.
    func presentSheet(_ sheet: Widget, backdrop: Widget, offset: @escaping @MainActor () -> Int) {
        sheets.last?.sheet.isSensitive = false
        sheets.append((backdrop, sheet, offset))
        overlay.addOverlay(backdrop)
        overlay.addOverlay(sheet)
        stack.view.isSensitive = false
        stack.headerBar.isSensitive = false
        window.modalSheets += 1
    }

    /// Takes `sheet` away; the sheet below it (or the window) gets its input back.
    func removeSheet(_ sheet: Widget) {
        guard let index = sheets.firstIndex(where: { $0.sheet === sheet }) else { return }
        let shown = sheets.remove(at: index)
        gtk_overlay_remove_overlay(overlay.opaque, shown.sheet.widget)
        gtk_overlay_remove_overlay(overlay.opaque, shown.backdrop.widget)
        window.modalSheets -= 1
        if let top = sheets.last {
            top.sheet.isSensitive = true
        } else {
            stack.view.isSensitive = true
            stack.headerBar.isSensitive = true
        }
    }

    /// Lays the sheet out again (it was dragged).
    func sheetMoved() { gtk_widget_queue_allocate(overlay.widget) }

    /// Shows the window.
    public func present() { window.present() }

    /// Whether the top bar is shown. Hiding it moves the pages up to the window's top edge.
    public var isTopBarRevealed: Bool {
        get { stack.headerBar.isVisible }
        set { stack.headerBar.isVisible = newValue }
    }

    private func place(_ child: UnsafeMutablePointer<GtkWidget>, width: Int, height: Int) -> Overlay.Rect? {
        let barHeight = isTopBarRevealed ? stack.headerBar.naturalHeight(forWidth: width) : 0
        if child == stack.headerBar.widget {
            return Overlay.Rect(x: 0, y: 0, width: width, height: barHeight)
        }
        if child == stack.view.widget {
            topInset = barHeight
            stack.topInset = barHeight  // pages drawing under the bar (web pages) pad their content by it
            return Overlay.Rect(x: 0, y: barHeight, width: width, height: max(0, height - barHeight))
        }
        for (depth, sheet) in sheets.enumerated() {
            if child == sheet.backdrop.widget { return Overlay.Rect(x: 0, y: 0, width: width, height: height) }
            if child == sheet.sheet.widget {
                // Nearly the whole height, as libadwaita's bottom sheet: the dimmed window shows above it;
                // a sheet over a sheet starts a little lower, so the one below still shows.
                let top = min(ModalDialog.sheetTopGap * (depth + 1), height / 3)
                return Overlay.Rect(x: 0, y: top + max(0, sheet.offset()), width: width, height: max(0, height - top))
            }
        }
        return nil
    }
}

/// A modal dialog window with its own header bar and navigation stack: how a flow presents itself
/// modally (what libadwaita's `AdwDialog` with an `AdwNavigationView` inside gives GNOME apps).
///
/// The window is transient for and modal to its parent (the parent's shortcuts don't fire while it is
/// open), and has no window-control buttons: **Cancel** sits at the start of the bar (GNOME HIG: dialogs
/// put Cancel first and the affirmative action last), with Back beside it on pushed pages.
///
/// Every way the user can leave — Cancel, Escape on the first page, the window manager's close
/// button — calls the one ``onCancelRequest`` handler; the dialog never closes itself. Its owner ends it
/// with ``dismiss()``, which destroys the window and returns keyboard focus to the widget that had it
/// in the parent before the dialog opened. If the window is destroyed from outside (its parent closed,
/// the app quit), ``onCancelRequest`` is called too, once, with ``isDismissed`` already true.
///
/// **Adaptive.** Over a ``NavigationWindow`` narrower than ``bottomSheetWidth`` (450 px, where
/// libadwaita's `AdwDialog` turns into a bottom sheet), the dialog is drawn inside that window as a
/// bottom sheet instead (``style``): the window dimmed behind it and taking no input, a drag handle on
/// top; dragging it down, or a click on the dimmed window, asks to leave as Cancel does (so a flow can
/// still ask "Discard this post?"). The flow's code is the same either way.
///
/// Main actor only.
@MainActor
public final class ModalDialog {
    /// How the dialog is shown.
    public enum Style: Equatable, Sendable {
        /// A window of its own, transient for and modal to its parent.
        case window
        /// A bottom sheet drawn inside the parent window.
        case bottomSheet
    }

    /// Parent windows narrower than this, in pixels, show the dialog as a bottom sheet.
    public static let bottomSheetWidth = 450
    /// The gap above a bottom sheet, in pixels, where the dimmed window shows.
    public static let sheetTopGap = 48
    /// How far, in pixels, the sheet's handle must be dragged down to ask to leave.
    public static let sheetDismissDistance = 120.0

    /// How the dialog is shown, decided when it is made from its parent window's width.
    public let style: Style
    /// The dialog window (a screen reader announces it as a dialog). Not shown when ``style`` is
    /// ``Style/bottomSheet``.
    public let window = Window(role: .dialog)
    /// The bottom sheet (announced as a dialog) when ``style`` is ``Style/bottomSheet``, else nil.
    public let sheet: Box?
    /// Where the dialog's own keys go: the window, or the sheet.
    public var keyTarget: Widget { sheet ?? window }
    /// Whether another modal dialog is over this one now (its keys are then not for it).
    public var isCovered: Bool {
        if let sheet { return (host?.window.hasModalChildWindow ?? false) || (host?.isCovered(sheet) ?? false) }
        return window.hasModalChild
    }
    private weak var host: NavigationWindow?
    private let backdrop: Box?
    private var sheetOffset: Double = 0
    /// How far the sheet has come up: 0 (below the window) … 1 (in place); past 1 while the spring
    /// overshoots (drawn in place).
    private var sheetReveal: Double = 1
    /// The frame-clock callback moving the sheet (opening, or back into place after a drag).
    private var sheetTick: UInt32?
    /// The dialog's navigation stack.
    public let stack: NavigationStack
    /// The one Cancel button (start of the bar, on every page).
    public let cancelButton = Button(label: toolkitLocalized("Cancel"))
    /// **Close**, at the start of the first page's own bar when the dialog presents its first page alone
    /// (see ``init(over:root:width:height:presentsRootAlone:)``); it asks to leave as Cancel does.
    public let closeButton = Button(label: toolkitLocalized("Close"))
    /// Whether the first page shows its own bar with Close, and the stack's bar only above it.
    public let presentsRootAlone: Bool

    /// Called when the user asks to leave by any path (Cancel, Close, Escape at the first page, window
    /// close, the sheet dragged down), or when the window was destroyed from outside. A dialog made
    /// with ``init(over:presenting:width:height:)`` dismisses itself here unless this is replaced.
    public var onCancelRequest: (@MainActor () -> Void)?

    /// The first page (the one presented, for a dialog presenting a page alone).
    public let root: Page

    private let focusReturn: FocusReturn
    private let completion = FlowCompletion<Void>()
    private var observations: [ObservationToken] = []
    /// Whether ``dismiss()`` ran or the window was destroyed; the dialog is finished either way.
    public private(set) var isDismissed = false

    /// Creates (does not show) a dialog over the window that shows `anchor` (none when `anchor` is not
    /// in a window), with `root` as its first page. `width`/`height` are the default size in pixels.
    ///
    /// With `presentsRootAlone`, the first page is presented as a page alone is (its own standalone bar,
    /// with **Close** at the start, as ``init(over:presenting:width:height:)`` shows it); pages pushed above it show the stack's
    /// bar, with Cancel and Back, and going back to the first page brings its own bar back. This is how
    /// a flow that starts on a page usable on its own (a camera) keeps that page's standalone look.
    public init(over anchor: Page?, root: Page, width: Int = 560, height: Int = 640, presentsRootAlone: Bool = false) {
        self.presentsRootAlone = presentsRootAlone
        self.root = root
        stack = NavigationStack()
        stack.providesCancel = true
        let parent = anchor?.view.rootWindow
        focusReturn = FocusReturn(in: parent)
        let host = NavigationWindow.hosting(parent)
        if let host, host.window.width > 0, host.window.width < Self.bottomSheetWidth {
            style = .bottomSheet
            self.host = host
            sheet = Box(dialogRole: ())
            backdrop = Box(.vertical)
        } else {
            style = .window
            sheet = nil
            backdrop = nil
        }
        window.title = root.title
        stack.observeTitle { [weak window, weak sheet] title in
            guard !title.isEmpty else { return }
            window?.title = title  // the window follows its page (e.g. a web page's, once loaded)
            sheet?.setAccessibleLabel(title)
        }.store(in: &observations)
        if style == .window { window.makeModal(over: parent) }
        window.setDefaultSize(width: width, height: height)
        window.addCSSClass("navigation-dialog")
        sheet?.addCSSClass("navigation-dialog")
        stack.headerBar.showsTitleButtons = false
        // Cancel first, at the start; the stack's Back button follows it.
        stack.headerBar.remove(stack.backButton)
        stack.headerBar.packStart(cancelButton)
        stack.headerBar.packStart(stack.backButton)
        // In a narrow window, while Back is shown, Cancel goes into the bar's overflow menu last (after the
        // end buttons), so Back, the whole title and the affirmative action fit; it stays reachable there
        // and comes back first.
        stack.headerBar.setMovableStartItem(cancelButton) { [weak stack] in stack?.backButton.isVisible == true }
        if let sheet, let backdrop {
            buildSheet(sheet, backdrop: backdrop)
            if presentsRootAlone {
                root.standaloneBar.showsTitleButtons = false
                stack.observeVisiblePage { [weak self, weak root] page in
                    guard let self, let root else { return }
                    self.updateBars(root: root, showingRoot: page === root)
                }.store(in: &observations)
            }
        } else if presentsRootAlone {
            // Both bars live in the window's content: the stack's above the pages, shown only when a
            // page is pushed; the first page's own inside it. (A GtkHeaderBar anywhere moves the window.)
            window.hideTitlebar()
            let frame = Box(.vertical)
            frame.append(stack.headerBar)
            frame.append(stack.view)
            window.setChild(frame)
            root.standaloneBar.showsTitleButtons = false
            stack.observeVisiblePage { [weak self, weak root] page in
                guard let self, let root else { return }
                self.updateBars(root: root, showingRoot: page === root)
            }.store(in: &observations)
        } else {
            window.setTitlebar(stack.headerBar)
            window.setChild(stack.view)
        }
        if let sheet {
            stack.installBackShortcuts(on: sheet) { [weak self] in self?.isCovered ?? true }
            // The window the sheet is in went (closed, the app quit): as a destroyed dialog window.
            stack.observeDestruction { [weak self] in
                guard let self, !self.isDismissed else { return }
                self.isDismissed = true
                self.completion.resolve(())
                self.onCancelRequest?()
            }.store(in: &observations)
        } else {
            stack.installBackShortcuts(on: window)
        }
        if presentsRootAlone {
            // The first page's items stay in its own bar for the dialog's life: the stack's bar never shows it.
            root.keepsStandaloneBar = true
            root.showStandaloneBar(leading: closeButton)
        }
        stack.replace(with: [root], animated: false)

        cancelButton.onClicked { [weak self] in self?.requestCancel() }
        closeButton.onClicked { [weak self] in self?.requestCancel() }
        stack.onEscapeAtRoot = { [weak self] in self?.requestCancel() }
        window.onCloseRequest { [weak self] in
            self?.requestCancel()
            return true  // the owner decides; dismiss() destroys the window
        }
        window.onDestroy { [weak self] in
            guard let self, !self.isDismissed else { return }
            self.isDismissed = true
            self.completion.resolve(())
            self.onCancelRequest?()
        }
    }

    /// Creates (does not show) a dialog over the window showing `anchor` that presents `page` alone: the
    /// page's own standalone bar with **Close** at its start, no stack bar (the page is the root of the
    /// dialog's own stack, so it may still push pages of its own). Close, Escape, the window manager's
    /// close button — and in a window narrower than ``bottomSheetWidth``, where it is a bottom sheet, the
    /// handle dragged down or a click on the dimmed window — all ask to leave (``onCancelRequest``),
    /// which dismisses it unless the owner replaces that handler (to ask first). ``dismissed()`` returns
    /// then; focus returns to the widget that had it in the parent. `width`/`height` are the default
    /// size in pixels.
    public convenience init(over anchor: Page?, presenting page: Page, width: Int = 560, height: Int = 640) {
        self.init(over: anchor, root: page, width: width, height: height, presentsRootAlone: true)
        onCancelRequest = { [weak self] in self?.dismiss() }
    }

    /// Waits until the dialog is dismissed by any path (or the caller's task is cancelled, which
    /// dismisses it).
    public func dismissed() async {
        await completion.value(onCancel: { [weak self] in self?.dismiss() })
    }

    /// Runs `handler` once when the dialog is dismissed by any path, synchronously, within
    /// ``dismiss()`` (at once when it already is): for state that must say the dialog is gone in the same
    /// turn of the main loop (what is presented), where ``dismissed()`` resumes its caller later.
    public func whenDismissed(_ handler: @escaping @MainActor () -> Void) {
        completion.whenResolved { _ in handler() }
    }

    /// Puts an item made by `make` at the very end of the dialog's bar on every page shown in the
    /// dialog's stack (outside the page's own bar items), e.g. a flow's Help: one item per page, made once
    /// when the page's part of the bar is, and kept with it (see `BarLayer`), so it cross-fades with the
    /// page's other items. A page presented alone (its own bar) gets none.
    public func addEndBarItem(_ make: @escaping @MainActor () -> Widget) {
        stack.addEndBarItemToEveryPage(make)
    }

    /// Shows the dialog and focuses its first page.
    public func present() {
        if let sheet, let backdrop, let host {
            host.presentSheet(sheet, backdrop: backdrop) { [weak self] in self?.sheetPlacementOffset ?? 0 }
            openSheet()
        } else {
            window.present()
            // The control focused below is focused while the window is not yet active, and GTK 4.8
            // says nothing of it later; from a menu (its closing gives the parent's focus back to its
            // button just then) Orca 43 said nothing of the dialog at all.
            window.sayFocusOnceActive()
        }
        if let page = stack.visiblePage {
            if let initial = page.initialFocus, initial.grabFocus() { return }
            if page.content.grabFocus() { return }
            if presentsRootAlone, page === root { closeButton.grabFocus() } else { page.view.grabFocus() }
        }
    }

    /// Closes the dialog window now and returns focus to where it was in the parent. Idempotent.
    public func dismiss() {
        guard !isDismissed else { return }
        isDismissed = true
        if presentsRootAlone {  // the page is given back, its bar layer free for its next host
            root.keepsStandaloneBar = false
            root.hideStandaloneBar(removing: closeButton)
        }
        stack.replace(with: [], animated: false)
        observations.forEach { $0.cancel() }
        observations = []
        stopSheetMotion()
        if let sheet { host?.removeSheet(sheet) }
        window.destroy()
        focusReturn.restore()
        // Last: what runs on it (``whenDismissed(_:)``, synchronously) may present the next dialog, which
        // must not then lose the keyboard to the window this one gives it back to.
        completion.resolve(())
    }

    /// The sheet: a drag handle, the stack's bar and its pages; the backdrop dims the window behind it.
    private func buildSheet(_ sheet: Box, backdrop: Box) {
        sheet.addCSSClass("bottom-sheet")
        let handleArea = Box(.vertical)
        handleArea.addCSSClass("sheet-handle-area")
        let handle = Box(.vertical)
        handle.addCSSClass("sheet-handle")
        handle.horizontalAlignment = .center
        handleArea.append(handle)
        handleArea.hideFromScreenReaders()  // Cancel and Escape say the same to a screen reader
        sheet.append(handleArea)
        sheet.append(stack.headerBar)
        sheet.append(stack.view)
        let drag = DragGesture(touchOnly: false)
        drag.onBegin { [weak self] _, _ in
            self?.stopSheetMotion()  // the finger takes the sheet where it is
            return true
        }
        drag.onUpdate { [weak self] _, dy in
            self?.sheetOffset = max(0, dy)
            self?.host?.sheetMoved()
        }
        drag.onEnd { [weak self] _, dy in
            guard let self else { return }
            self.moveSheet(SpringAnimation(spring: .bottomSheet, from: self.sheetOffset, to: 0, epsilon: 0.5)) { [weak self] offset in
                self?.sheetOffset = max(0, offset)
            }
            if dy >= Self.sheetDismissDistance { self.requestCancel() }  // the flow decides (it may ask first)
        }
        handleArea.addController(drag)
        sheetDragGesture = drag
        backdrop.addCSSClass("sheet-backdrop")
        let click = ClickGesture(button: 1)
        click.onPressed { [weak self] _ in self?.requestCancel() }
        backdrop.addController(click)
    }

    /// The sheet handle's drag (for tests, which drive it through its signals).
    package private(set) var sheetDragGesture: DragGesture?

    /// How far the sheet is dragged down now, in pixels (0 when not dragged). After a drag that does
    /// not close it, it goes back by libadwaita's bottom-sheet spring.
    public var sheetDragOffset: Double { sheetOffset }

    /// Whether the sheet is moving by itself now: coming up as it opens, or going back into place
    /// after a drag.
    public var isSheetMoving: Bool { sheetTick != nil }

    /// The frame time, in microseconds, that the sheet's running spring counts from (the frame clock's
    /// time when it began to move), once its first frame has run; nil when it is still. For the
    /// package's tests, which check each frame against the spring.
    package private(set) var sheetMotionStartTime: Int64?

    /// Where the sheet is drawn below its place, in pixels: the drag, and the part not yet come up.
    private var sheetPlacementOffset: Int {
        let height = Double(host?.overlay.height ?? 0)
        return Int((sheetOffset + max(0, 1 - sheetReveal) * height).rounded())
    }

    /// Brings the sheet up from below the window by libadwaita's bottom-sheet spring (damping 0.8,
    /// mass 1, stiffness 400, ε 0.0001, not clamped, as `AdwBottomSheet` opens); at once with
    /// animations off.
    private func openSheet() {
        sheetReveal = 0
        moveSheet(SpringAnimation(spring: .bottomSheet, from: 0, to: 1, epsilon: 0.0001)) { [weak self] value in
            self?.sheetReveal = value
        }
    }

    /// Runs `spring` on the host's frame clock, handing each frame's value to `apply` (the spring's
    /// closed form at the frame's time since now), and its end value at the first frame past its
    /// duration; with animations off, or no window on screen, the end value at once.
    private func moveSheet(_ spring: SpringAnimation, _ apply: @escaping @MainActor (Double) -> Void) {
        stopSheetMotion()
        guard let host, DesktopStyle.animationsEnabled, host.overlay.isMapped else {
            apply(spring.to)
            self.host?.sheetMoved()
            return
        }
        let start = host.overlay.frameTime
        var first: Int64?
        sheetTick = host.overlay.addTickCallback { [weak self] time in
            guard let self, !self.isDismissed else { return false }
            let origin = start ?? first ?? time
            first = origin
            self.sheetMotionStartTime = origin
            let elapsed = Duration.microseconds(time - origin)  // the frame clock counts microseconds
            apply(spring.value(at: elapsed))
            self.host?.sheetMoved()
            guard !spring.isFinished(at: elapsed) else {
                self.sheetTick = nil
                self.sheetMotionStartTime = nil
                return false
            }
            return true
        }
        apply(spring.from)
        host.sheetMoved()
    }

    /// Stops the sheet where it is going: in place, not dragged.
    private func stopSheetMotion() {
        if let tick = sheetTick { host?.overlay.removeTickCallback(tick) }
        sheetTick = nil
        sheetMotionStartTime = nil
        sheetReveal = 1
    }

    private func requestCancel() {
        guard !isDismissed else { return }
        onCancelRequest?()
    }

    /// The first page alone: its own bar with Close, the stack's bar hidden; a page above it: the
    /// stack's bar (Cancel, Back, title), the first page's own bar hidden.
    private func updateBars(root: Page, showingRoot: Bool) {
        if showingRoot {
            stack.headerBar.isVisible = false
            if !root.isShowingStandaloneBar { root.showStandaloneBar(leading: closeButton) }
        } else {
            root.standaloneBar.isVisible = false  // its items stay in it (the stack's bar never shows this page)
            stack.headerBar.isVisible = true
        }
    }
}
