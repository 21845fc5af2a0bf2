import CGtk
import CWebKit
import Gtk
import NavigationGtk
import Synchronization

/// A `Page` showing a web page in a WebKitGTK web view: pushed onto a window's stack it runs under
/// the window's translucent bar yet starts below it; presented alone (`ModalDialog/init(over:presenting:width:height:)`) or in a dialog, it
/// sits below its own opaque bar with no inset.
///
/// **The inset.** A web page lays itself out from the top of its view, so the view cannot simply start
/// below the bar: content that scrolls under the bar must be drawn there. The view is placed from the
/// top of the bar down, and the bar's height (`Page/topInset`, measured by the window at layout time)
/// is pushed into the document as a user style sheet — `padding-top` on the root, `scroll-padding-top`
/// so in-page anchor jumps land below the bar, and the scroll bar track's top margin — each time the
/// bar's height changes (shown or hidden, text size, a narrow window).
///
/// **What loads.** Only `http`, `https` and files inside ``localFolder`` (the app's own pages) load in
/// the view; `mailto:` and other schemes open in the desktop's default application; `javascript:`,
/// `data:` and other files are refused with a message. Links that would open a new window load here.
///
/// **Bar.** The title is the document's `<title>` (or ``fixedTitle``), a progress bar shows while
/// loading, and **Open in Browser** (end of the bar) opens the page in the default browser. A page that
/// fails to load (no network, unknown host, TLS error, the web process gone) shows why and **Try Again**,
/// never a blank view.
///
/// **What a page may not do.** A page never starts a download (a response the view would not show, or one
/// sent as an attachment, is refused and the page says so; WebKit's `download-started` is cancelled too),
/// never opens the Print dialog (a page has no Print command; `window.print()` is refused and said), and
/// its web process is ended by WebKit when it uses more memory than ``webProcessMemoryLimit`` (the page
/// then says so, with **Try Again**). A page made with ``waitsForLoadButton`` set sends nothing until the
/// user presses **Load**.
///
/// **Web processes: at most one per web page shown.** A page starts loading (and WebKit starts its web
/// process) only when it is first shown, so a path of fifty guide pages set at once (a link, a journal,
/// restored pages) starts one process, for the page on top. A page covered by a pushed page ends its process
/// once the push is over, keeping its address and how far it was scrolled; shown again (Back), it loads
/// them again. Its process also ends when the page leaves its stack or dialog, or its window is destroyed.
/// The cost of that choice: going back to a web page loads it again (from WebKit's cache when it can)
/// instead of finding it as it was, and what its scripts held is gone; GNOME Web keeps background tabs
/// alive, but an app's web pages are passing ones (a guide, a link in a post, in Postcard), and a stack of them kept
/// each one's process (about 100 MB apiece) for nothing.
///
/// Main actor only.
@MainActor
public final class WebPage: Page {
    /// The web view (a `WebKitWebView`).
    public let webView: Widget
    /// **Open in Browser** (end of the bar).
    public let openInBrowserButton = Button(label: toolkitLocalized("Open in Browser"))
    /// Shows the loading progress, just below the bar.
    public let progressBar = ProgressBar()
    /// The error state: why the page can't be shown, and Try Again.
    public let errorState = ContentUnavailableView(iconName: "network-error-symbolic")
    /// The error state's headline.
    public var errorTitle: Label { errorState.titleLabel }
    /// The error state's explanation (the reason WebKit gave).
    public var errorDetail: Label { errorState.descriptionLabel }
    /// **Try Again** in the error state.
    public let tryAgainButton = Button(label: toolkitLocalized("Try Again"))
    /// A short message at the top of the page when a link was refused or could not be opened.
    public let messageLabel = Label()
    /// What a page waiting for the user shows (``waitsForLoadButton``): its address, and **Load**.
    public let loadPlaceholder = ContentUnavailableView(iconName: "web-browser-symbolic")
    /// **Load**, in ``loadPlaceholder``: loads the page.
    // Translators: a button that loads a web page which was not loaded by itself.
    public let loadButton = Button(label: toolkitLocalized("Load"))

    /// Whether the page waits for the user before loading: shown, it offers ``loadButton`` (with the site's
    /// name) instead of loading, and WebKit starts no web process and sends no request until it is pressed.
    /// For a page nobody asked to see now, such as one brought back when the app starts. Set it before the
    /// page is first shown; false by default. Main actor.
    public var waitsForLoadButton = false {
        didSet { if waitsForLoadButton { isLoading = false } }
    }

    /// The most memory, in megabytes, the web process of a page made from now on may use: past it WebKit
    /// ends that process (its memory-pressure handler, `WebKitMemoryPressureSettings`: this limit, a kill
    /// threshold of 1, measured every 2 seconds; it first frees what it can from half the limit on) and the
    /// page says so, with **Try Again**. 2048 (2 GiB) by default; pages share one WebKit web context per
    /// limit. WebKit applies it only while its memory-pressure handler runs: not when the environment sets
    /// `WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR` (the toolkit then logs that pages are not bounded). Main actor.
    public static var webProcessMemoryLimit = 2048

    /// How often, in seconds, a web process measures its memory against ``webProcessMemoryLimit`` (tests
    /// measure more often, to see the limit reached in seconds).
    package static var memoryPollInterval = 2.0

    /// The folder whose files may load inside (the app's own pages), or nil for none.
    public let localFolder: FilePath?
    /// The title shown instead of the document's, or nil to follow the document.
    public let fixedTitle: String?
    /// The URI shown or being loaded.
    public private(set) var currentURI: String
    /// Why the last load failed, while the error state shows; nil otherwise.
    public private(set) var loadError: String?
    /// Whether a load is in progress (true from creation: a page loads once first shown, see the type's
    /// docs).
    public private(set) var isLoading = false
    /// The inset pushed into the document now, in pixels (0 when presented with an opaque bar).
    public private(set) var appliedInset: Int = 0

    private let webKitView: OpaquePointer  // the WebKitWebView that webView wraps
    private let memoryLimit = WebPage.webProcessMemoryLimit  // its context's, in MB
    let webKit: WebKitFunctions
    private let frame = Overlay()
    private let webSlot = Box(.vertical)  // holds webView once the page is first shown

    /// Creates a page that loads `uri`. `localFolder` (an absolute path) is the folder whose `file://`
    /// pages may load here; `title` fixes the bar's title (nil: the document's `<title>`). Main actor.
    /// - Throws: ``WebPageUnavailable`` when WebKitGTK 6.0 cannot be opened on this computer (Debian's
    ///   `libwebkitgtk-6.0-4` is not installed), with the reason to show (``unavailableReason``): open
    ///   the address in the desktop's browser instead.
    public convenience init(uri: String, title: String? = nil, localFolder: FilePath? = nil) throws(WebPageUnavailable) {
        try self.init(uri: uri, title: title, localFolder: localFolder, webKit: WebKitLibrary.opened)
    }

    /// Creates a page that loads `uri` with WebKitGTK's functions in `webKit`, or throws its failure
    /// (the toolkit's tests open a library that is not there).
    package init(uri: String, title: String? = nil, localFolder: FilePath? = nil,
                 webKit opened: Result<WebKitFunctions, WebPageUnavailable>) throws(WebPageUnavailable) {
        currentURI = uri
        fixedTitle = title
        self.localFolder = localFolder.map { $0.absolute.appending("") }  // ends in "/": "guide-old" is not in "guide"
        webKit = try opened.get()
        let context = WebContexts.context(webKit, limitMegabytes: Self.webProcessMemoryLimit, pollInterval: Self.memoryPollInterval)
        let pointer = withUnsafePointer(to: webKit) { navgtk_webkit_view_new($0, context) }!
        webKitView = OpaquePointer(pointer)
        webView = Widget(UnsafeMutableRawPointer(pointer), transfer: .full)
        // Translators: the title of a page showing a web page, until the page's own title is known.
        super.init(title: title ?? toolkitLocalized("Web Page"))
        // Translators: what a screen reader calls a web page's content, until the page's own title is known.
        webView.setAccessibleLabel(title ?? toolkitLocalized("Web page"))
        build()
        connectSignals()
        if decision(for: uri) == .load {
            loadsWhenShown = uri  // no web process before the page is shown (see the type's docs)
            isLoading = true  // to its callers, the load has begun
        } else {
            load(uri)  // opened outside or refused: no web process either
        }
    }

    /// The address (and scroll offset, in CSS pixels) to load the next time the page is shown: set until
    /// it is first shown, and again while it is covered by a pushed page (its process ended).
    private var loadsWhenShown: String?
    private var scrollToAfterLoad: Double?

    /// Whether the page's web process is ended while the page is covered and loads again when shown (see
    /// the type's docs): true from its creation until it is first shown, and while it is covered.
    public var isSuspended: Bool { loadsWhenShown != nil }

    isolated deinit {
        webKit.web_view_terminate_web_process(webKitView)
    }

    /// Why web pages cannot be shown on this computer (WebKitGTK 6.0, Debian `libwebkitgtk-6.0-4`, is
    /// not installed), or nil when they can: what creating a page would throw. Opens WebKitGTK the first
    /// time (main thread).
    public static var unavailableReason: String? {
        if case .failure(let unavailable) = WebKitLibrary.opened { return unavailable.reason }
        return nil
    }

    /// Loads WebKitGTK 6.0's library into the process on a thread of its own (`dlopen`, some 50–90 ms),
    /// so that the first page made afterwards does not wait for it on the main thread. Call it when a web
    /// page is likely soon (a link to one arrived); it returns at once, and only the first call starts a
    /// thread. Any thread.
    nonisolated public static func preload() {
        guard WebKitPreload.start() else { return }
        g_thread_unref(g_thread_new("webkit-preload", WebKitPreload.load, nil))
    }

    /// The page scrolls under a window's translucent bar (see the type's docs).
    public override var extendsUnderTopBar: Bool { true }

    public override var initialFocus: Widget? {
        waitsForLoadButton ? loadButton : loadError == nil ? webView : tryAgainButton
    }

    /// Pushes the new inset into the document (see the type's docs) and places the view from the bar's
    /// top edge down.
    public override func topInsetDidChange(_ inset: Int) {
        applyInset(inset)
        frame.queueResize()
    }

    // MARK: - Loading

    /// Loads `uri` if it may load inside (see the type's docs); otherwise opens it outside or says why
    /// not.
    public func load(_ uri: String) {
        switch decision(for: uri) {
        case .load:
            loadsWhenShown = nil
            currentURI = uri
            showError(nil)
            isLoading = true
            webKit.web_view_load_uri(webKitView, uri)
        case .openOutside:
            openOutside(uri)
        case .refuse(let reason):
            show(message: reason)
        }
    }

    /// Loads the current page again (Try Again).
    public func reload() { load(currentURI) }

    /// Runs `script` in the page and returns its result as JSON text (`webkit_web_view_evaluate_javascript`).
    /// - Throws: `GLibError` when the script throws or the page has gone; `CancellationError` when the
    ///   calling task is cancelled (WebKit stops waiting for the script).
    public func evaluateJavaScript(_ script: String) async throws -> String {
        let webKitView = self.webKitView, webKit = self.webKit
        let value = try await AsyncCall.run(start: { callback, data, cancellable in
            webKit.web_view_evaluate_javascript(webKitView, script, -1, nil, nil, cancellable, callback, data)
        }, finish: { result, error in
            webKit.web_view_evaluate_javascript_finish(webKitView, result, error).map { Handle(value: $0) }
        })
        defer { g_object_unref(UnsafeMutableRawPointer(value.value)) }
        guard let json = webKit.jsc_value_to_json(value.value, 0) else { return "null" }
        defer { g_free(json) }
        return String(cString: json)
    }

    /// Ends the page's web process now (it restarts if the page loads again). Called when the page
    /// leaves its stack or dialog.
    public func endWebProcess() { webKit.web_view_terminate_web_process(webKitView) }

    private struct Handle<T>: @unchecked Sendable { let value: T }

    // MARK: - Building

    private func build() {
        progressBar.addCSSClass("web-progress")
        progressBar.verticalAlignment = .start
        progressBar.isVisible = false
        messageLabel.addCSSClass("web-message")
        messageLabel.wraps = true
        messageLabel.verticalAlignment = .start
        messageLabel.isVisible = false

        tryAgainButton.addCSSClass("suggested-action")
        tryAgainButton.onClicked { [weak self] in self?.reload() }
        errorState.addAction(tryAgainButton)
        let errorBackground = Box(.vertical)
        errorBackground.addCSSClass("web-error")
        errorBackground.append(errorState)
        errorBackground.isVisible = false
        self.errorBackground = errorBackground

        loadButton.addCSSClass("suggested-action")
        loadButton.onClicked { [weak self] in self?.loadPressed() }
        loadPlaceholder.addAction(loadButton)
        let placeholderBackground = Box(.vertical)
        placeholderBackground.addCSSClass("web-error")
        placeholderBackground.append(loadPlaceholder)
        placeholderBackground.isVisible = false
        self.placeholderBackground = placeholderBackground

        // The view may be taller than the page: it starts under the bar (see topInsetDidChange).
        let sizer = Box(.vertical)
        sizer.expandsVertically = true
        sizer.expandsHorizontally = true
        frame.setChild(sizer)
        // The web view joins the window when the page is first shown: WebKit starts a web process as soon
        // as its view is realized, which a page covered in a stack is (see the type's docs).
        webSlot.expandsVertically = true
        webSlot.expandsHorizontally = true
        webView.expandsVertically = true
        webView.expandsHorizontally = true
        frame.addOverlay(webSlot)
        frame.addOverlay(errorBackground)
        frame.addOverlay(placeholderBackground)
        frame.addOverlay(progressBar)
        frame.addOverlay(messageLabel)
        frame.onPlaceChild { [weak self] child, width, height in
            guard let self, child == self.webSlot.widget else { return nil }
            let inset = self.appliedInset
            return Overlay.Rect(x: 0, y: -inset, width: width, height: height + inset)
        }
        frame.drawsOutsideBounds = true
        frame.expandsVertically = true
        content.append(frame)
        addEndBarItem(openInBrowserButton)
        openInBrowserButton.onClicked { [weak self] in
            guard let self else { return }
            self.openOutside(self.currentURI)
        }
        // Taken out of its window (popped, dismissed) or its window destroyed: the view is unrealized, and
        // its web process ends. Covered by a pushed page, it stays realized but is unmapped once the push is
        // over: it remembers where it was and ends its process too, then loads again when shown.
        webView.connect("unrealize") { [weak self] _ in self?.endWebProcess() }
        // Shown and hidden as its stack (or split view) says (`Page/observeLifecycle(_:)`), once each
        // change's transition is over; a page shown in a window by itself, with no host, loads when mapped.
        lifecycleToken = observeLifecycle { [weak self] event in
            switch event {
            case .showing: self?.attachWebView()  // in the window before the stack focuses it
            case .shown: self?.resume()
            case .hiding: self?.readScrollOffset()
            case .hidden: self?.suspend()
            }
        }
        frame.connect("map") { [weak self] _ in
            guard let self, self.navigationStack == nil, self.lifecycle == nil else { return }
            MainLoopBridge.afterLayout { [weak self] in
                guard let self, self.frame.isMapped, self.navigationStack == nil, self.lifecycle == nil else { return }
                self.resume()
            }
        }
        applyInset(0)
    }

    private var errorBackground: Box?
    private var placeholderBackground: Box?

    /// Shows what a page waiting for the user would load, and **Load** (see ``waitsForLoadButton``).
    private func showLoadPlaceholder(for uri: String) {
        // Translators: the title of a web page that was not loaded by itself; the user may load it.
        loadPlaceholder.set(title: toolkitLocalized("Load This Page?"),
                            // Translators: %s is a web site, e.g. "example.org".
                            description: toolkitLocalized("This page from %s was not loaded again by itself.", Self.host(of: uri)))
        placeholderBackground?.isVisible = true
        progressBar.isVisible = false
        if view.isMapped { _ = loadButton.grabFocus() }
    }

    /// **Load** pressed: the page loads as a page shown for the first time.
    private func loadPressed() {
        waitsForLoadButton = false
        placeholderBackground?.isVisible = false
        isLoading = true
        resume()
    }
    private var lifecycleToken: ObservationToken?

    /// Covered, or taken out (its transition over): ends the web process, keeping the address and the
    /// scroll offset read as the change began (once the page is hidden, WebKit reports an offset of 0).
    private func suspend() {
        guard loadsWhenShown == nil, loadError == nil else { return }
        let uri = currentURI
        loadsWhenShown = uri
        guard !isLoading, let reading = scrollReading else { return endWebProcess() }
        Task { [weak self] in
            let offset = await reading.value
            guard let self, self.loadsWhenShown == uri, self.lifecycle != .shown else { return }
            self.scrollToAfterLoad = offset
            self.endWebProcess()
        }
    }

    /// Reads how far the page is scrolled, as a change that will cover it begins.
    private func readScrollOffset() {
        scrollReading = nil
        guard loadsWhenShown == nil, !isLoading, loadError == nil else { return }
        scrollReading = Task { [weak self] in
            (try? await self?.evaluateJavaScript("window.scrollY")).flatMap(Double.init)
        }
    }

    private var scrollReading: Task<Double?, Never>?

    /// Shown (first, or again after it was covered): loads what it was showing.
    private func resume() {
        guard let uri = loadsWhenShown else { return }
        guard !waitsForLoadButton else { return showLoadPlaceholder(for: uri) }
        attachWebView()
        load(uri)
    }

    /// Puts the web view in the page (once): done as the page starts to show, so that it is in the window
    /// when its stack gives it the keyboard focus (``initialFocus``), and never for a page that is only
    /// covered (WebKit starts a web process as soon as the view is realized).
    private func attachWebView() {
        guard webView.parentWidget == nil, !waitsForLoadButton else { return }
        webSlot.append(webView)
        // The stack focused the page as it came (the view was not there yet to take it, and the page took
        // focus itself, "Guide panel." to a screen reader): the view has it now, as it would have.
        if view.hasFocus || view.rootWindow.map({ gtk_window_get_focus($0) == nil }) == true, loadError == nil {
            _ = webView.grabFocus()
        }
    }

    private func applyInset(_ inset: Int) {
        appliedInset = inset
        let manager = webKit.web_view_get_user_content_manager(webKitView)
        webKit.user_content_manager_remove_all_style_sheets(manager)
        let css = """
            html { padding-top: \(inset)px !important; scroll-padding-top: \(inset)px !important; }
            ::-webkit-scrollbar-track { margin-top: \(inset)px; }
            """
        let sheet = webKit.user_style_sheet_new(css, Int32(NAVGTK_WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES),
                                                Int32(NAVGTK_WEBKIT_USER_STYLE_LEVEL_USER), nil, nil)
        webKit.user_content_manager_add_style_sheet(manager, sheet)
        webKit.user_style_sheet_unref(sheet)
    }

    // MARK: - Signals

    private func connectSignals() {
        webView.connect("notify::title") { [weak self] _ in self?.documentTitleChanged() }
        webView.connect("notify::estimated-load-progress") { [weak self] _ in
            guard let self else { return }
            self.progressBar.fraction = self.webKit.web_view_get_estimated_load_progress(self.webKitView)
        }
        webView.connect("load-changed") { [weak self] args in
            guard let self else { return }
            let event = Int(args.enumValue(at: 1))
            self.isLoading = event != Int(NAVGTK_WEBKIT_LOAD_FINISHED)
            if event == Int(NAVGTK_WEBKIT_LOAD_FINISHED), let offset = self.scrollToAfterLoad {
                self.scrollToAfterLoad = nil
                Task { _ = try? await self.evaluateJavaScript("window.scrollTo(0, \(offset))") }
            }
            self.progressBar.isVisible = self.isLoading
            if event == Int(NAVGTK_WEBKIT_LOAD_COMMITTED), let pointer = self.webKit.web_view_get_uri(self.webKitView) {
                let committed = String(cString: pointer)
                if committed == "about:blank", !self.currentURI.hasPrefix("about:") {
                    // WebKit shows a blank page in place of an address it refuses (a port such as 9).
                    // Translators: %s is a web site, e.g. "example.org".
                    let detail = toolkitLocalized("%s could not be loaded: the address was refused.", Self.host(of: self.currentURI))
                    self.showError((toolkitLocalized("Can't Show This Page"), detail))
                } else {
                    self.currentURI = committed
                }
            }
        }
        webView.connect("load-failed") { [weak self] args in
            guard let self, let error = args.boxed(at: 3)?.assumingMemoryBound(to: GError.self) else { return }
            let failingURI = args.string(at: 2) ?? self.currentURI
            args.setReturn(self.loadFailed(uri: failingURI, error: error))
        }
        webView.connect("load-failed-with-tls-errors") { [weak self] args in
            guard let self else { return }
            let uri = args.string(at: 1) ?? self.currentURI
            self.currentURI = uri
            // Translators: %s is a web site, e.g. "example.org".
            let detail = toolkitLocalized("%s did not prove who it is (its certificate is not valid), so the page is not shown.",
                                   Self.host(of: uri))
            self.showError((toolkitLocalized("This Connection Isn't Safe"), detail))
            args.setReturn(true)
        }
        webView.connect("web-process-terminated") { [weak self] args in
            guard let self, self.view.isMapped else { return }
            if args.enumValue(at: 1) == Int32(NAVGTK_WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT) {
                Logger.toolkit.info("The web process of \(self.currentURI) was ended: it used more than \(self.memoryLimit) MB")
                // Translators: %1$s is a web site, e.g. "example.org"; %2$d a number of megabytes.
                let detail = toolkitLocalized("%1$s used more than %2$d MB of memory, so it was stopped. Try loading it again.",
                                              Self.host(of: self.currentURI), self.memoryLimit)
                // Translators: the title shown when a web page was stopped for using too much memory.
                self.showError((toolkitLocalized("This Page Used Too Much Memory"), detail))
                return
            }
            self.showError((toolkitLocalized("The Page Stopped Working"), toolkitLocalized("Its web content process ended. Try loading it again.")))
        }
        webView.connect("print") { [weak self] args in
            // A page has no Print command: its print request (`window.print()`) opens no dialog.
            args.setReturn(true)
            guard let self else { return }
            Logger.toolkit.info("A print request of \(self.currentURI) was refused")
            // Translators: shown when a web page asked to print itself.
            self.show(message: toolkitLocalized("The page asked to print; web pages are not printed here."))
        }
        webView.connect("decide-policy") { [weak self] args in
            guard let self, let decision = args.object(at: 1) else { return }
            let kind = Int(args.enumValue(at: 2))
            if kind == Int(NAVGTK_WEBKIT_POLICY_DECISION_TYPE_RESPONSE) {
                args.setReturn(self.decideResponse(OpaquePointer(decision)))
            } else {
                args.setReturn(self.decide(OpaquePointer(decision), type: kind))
            }
        }
    }

    private func documentTitleChanged() {
        guard fixedTitle == nil else { return }
        let documentTitle = webKit.web_view_get_title(webKitView).map { String(cString: $0) } ?? ""
        title = documentTitle.isEmpty ? Self.host(of: currentURI) : documentTitle
        webView.setAccessibleLabel(title)
    }

    /// Asked before a link the user clicked to another scheme (`mailto:`, a registered custom scheme)
    /// is handed to the desktop, as GNOME Web asks ("Open in Mail?"); `answer` is called with true to
    /// open it. Without it such links are not opened. A link the page follows by itself (a script, a
    /// `<meta http-equiv="refresh">`, a form sent by a script) never leaves the web view, asked or not,
    /// and links to the app's own schemes (``appSchemes``) are never opened from a page. Main actor.
    public var confirmOpeningOutside: (@MainActor (_ uri: String, _ answer: @escaping @MainActor (Bool) -> Void) -> Void)?

    /// The URI schemes the app opens itself (its own links, in lower case, without the colon: `["myapp"]`),
    /// set once as the app starts; empty by default. A web page is never let follow or hand to the desktop
    /// a link to one of them, clicked or not, so a page can't drive the app: it says on the page that the
    /// link was not opened. (A desktop hands such links to the app itself, as GIO does with an app's
    /// `x-scheme-handler/` MIME type.) Main actor.
    public static var appSchemes: Set<String> = []

    /// The addresses handed to the desktop so far, oldest first (what the user confirmed).
    public internal(set) var openedOutside: [String] = []

    /// Whether a confirmation is being asked now (one at a time: a page asking again meanwhile is ignored).
    var isAskingToOpenOutside = false

    /// True when handled (the error state shows); cancelled loads (a new one started) are not errors.
    private func loadFailed(uri: String, error: UnsafeMutablePointer<GError>) -> Bool {
        let code = error.pointee.code
        if error.pointee.domain == webKit.network_error_quark(), code == Int32(NAVGTK_WEBKIT_NETWORK_ERROR_CANCELLED) {
            return true
        }
        if error.pointee.domain == webKit.policy_error_quark(),
           code == Int32(NAVGTK_WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE) {
            return true  // we decided not to load it here (refused or opened outside)
        }
        currentURI = uri
        let reason = String(cString: error.pointee.message)
        // Translators: %1$s is a web site, e.g. "example.org"; %2$s why it could not be loaded.
        let detail = toolkitLocalized("%1$s could not be loaded: %2$s.", Self.host(of: uri), reason)
        showError((toolkitLocalized("Can't Show This Page"), detail))
        return true
    }

    private func showError(_ error: (title: String, detail: String)?) {
        loadError = error.map { "\($0.title): \($0.detail)" }
        errorBackground?.isVisible = error != nil
        progressBar.isVisible = false
        if let error {
            errorState.set(title: error.title, description: error.detail)
            if view.isMapped { _ = tryAgainButton.grabFocus() }
        }
    }

    func show(message: String) {
        messageLabel.text = message
        messageLabel.isVisible = true
    }

    static func host(of uri: String) -> String {
        guard let parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, nil) else { return uri }
        defer { g_uri_unref(parsed) }
        return g_uri_get_host(parsed).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? uri
    }
}
