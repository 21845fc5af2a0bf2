import Adwaita
import Gtk
import Navigation
import NavigationGtk
import NavigationWeb
import PhotoPosting
import PostcardModel
import PostcardStore

/// The app's wiring: the main window on My Profile, its stack driven by a path of ``Route``s
/// (``router``), the one flow at a time (``FlowRunner``), and a coordinator per feature, each owning its
/// flows and what it does with their results:
///
/// | feature | coordinator | flows |
/// | --- | --- | --- |
/// | posting from My Profile and friends' profiles | `PostingCoordinator` | the photo flow, modal |
/// | replies in a post's comment thread | `ReplyCoordinator` | the photo flow, pushed in place |
/// | private messages | `MessagingCoordinator` | Choose Recipient, then the photo flow as a step |
/// | a post's page and its caption | `CaptionCoordinator` | Edit Caption, pushed |
/// | the guide and links | `HelpCoordinator` | — |
/// | friends, Scan a Code, My Code | `FriendsCoordinator` | Add Friend, modal |
///
/// The process's start is ``PostcardMain``; routes and links are in `AppRoutes.swift`, drafts in
/// `AppDrafts.swift`, actions and shortcuts in `AppActions.swift`. Main actor only.
@MainActor
public final class AppController {
    /// Where posts are kept.
    public let store: PostStore
    /// The user and their friends, from the store.
    public let people: People
    /// The photos offered by the flow (see ``switchLibrary(to:)``).
    public private(set) var library: PhotoLibrary
    /// The cameras Take Photo and Quick Snap show, and where taken photos go (`camera` in the data
    /// folder).
    public private(set) var camera: CameraSettings
    /// The main window and its navigation stack.
    public let mainWindow: NavigationWindow
    /// The root page.
    public let myProfile: ProfilePage
    /// **Messages** at the start of My Profile's bar (after Quick Snap): an icon (`mail-unread-symbolic`, an envelope)
    /// named "Messages" for screen readers and in its tooltip, so the bar fits a 360-pixel window.
    public let messagesButton = Button(iconName: "mail-unread-symbolic", accessibleLabel: localized("Messages"))
    /// The primary menu (end of My Profile's bar): Keyboard Shortcuts, Help, Scan a Code, My Code, Copy
    /// Link to My Profile, About Postcard.
    public let primaryMenu = MenuButton(iconName: "open-menu-symbolic", accessibleLabel: localized("Main Menu"))
    /// The Keyboard Shortcuts window shown last.
    public internal(set) var shortcutsWindow: Gtk.Window?
    /// The About window shown last.
    public internal(set) var aboutWindow: Gtk.Window?
    /// The link waiting for what is presented to go (the newest one), if any; see ``open(link:)``.
    public internal(set) var pendingLink: Route?
    /// What was asked for (About, Keyboard Shortcuts, New Post…) while something else was presented, in the
    /// order asked, each once: presented one after another as what is presented goes. See
    /// ``presentWhenPossible(_:)``. At most one of each destination, so it is bounded.
    public internal(set) var waitingPresentations: [Destination] = []
    /// What is presented over the main window now (nil: nothing), the one place that says it: set by the
    /// presenters as what they show appears and once it has gone (its Close, Cancel, Escape or the
    /// window manager's close alike). See ``Destination``, ``present(_:)``, ``navigate(to:)``.
    public internal(set) var presented: Destination?
    /// Told of every change of ``presented``, after it changed.
    public let presentationChanges = Observers<Destination?>()
    /// Who waits in ``presentationEnds()``.
    var presentationWaiters: [CheckedContinuation<Void, Never>] = []
    /// The main window's following of the store (a Not Found page whose subject comes back).
    private var followsStore: ObservationToken?
    /// The Postcard code the newest link opened was, if it was one: its profile route opens Add Friend
    /// for someone who is not a friend yet.
    var linkedFriendCode: FriendCode?
    /// True while ``restoreNavigation()`` sets the path kept at the last quit: its web pages then wait for
    /// the user's Load (`WebPage.waitsForLoadButton`) instead of loading by themselves.
    var isRestoringNavigation = false
    /// The timeout that opens the newest link received from outside (``receive(link:)``), or 0.
    var linkArrivals: UInt32 = 0
    /// When the first of the links now waiting to open arrived (GLib's monotonic clock, µs), or nil.
    var firstWaitingArrival: Int64?
    /// The main window's toasts (libadwaita's `AdwToastOverlay` around its content): what just happened
    /// (posted, sent, saved, copied, deleted, with View or Undo), and a link waiting.
    public let toasts: ToastOverlay
    /// The toast saying a link waits, while it does.
    var waitingLinkToast: Toast?
    /// The toast about what happened last (replaced by the next one).
    var lastToast: Toast?
    /// The toast offering Undo after a deletion, used by Ctrl+Z while it shows.
    weak var undoToast: Toast?

    /// Every task the app and its coordinators start that may outlive a click (a flow, a store write
    /// and what follows it): cancelled and waited for at quit (``shutdown()``), so none reads the app
    /// after it is gone.
    public let tasks = OwnedTasks()
    /// The one flow at a time.
    private(set) lazy var flows = FlowRunner(tasks: tasks)
    /// Posting from profiles.
    private(set) lazy var posting = PostingCoordinator(app: self)
    /// Replies in comment threads.
    private(set) lazy var replies = ReplyCoordinator(app: self)
    /// Private messages.
    private(set) lazy var messaging = MessagingCoordinator(app: self)
    /// A post's page and Edit Caption.
    private(set) lazy var captions = CaptionCoordinator(app: self)
    /// The guide and links.
    private(set) lazy var help = HelpCoordinator(app: self)
    /// Deleting posts, replies, messages and friends, with Undo.
    private(set) lazy var deletions = DeletionCoordinator(app: self)
    /// Friends, the user's name, Scan a Code and My Code.
    private(set) lazy var friends = FriendsCoordinator(app: self)

    /// The main stack driven by its path of ``Route``s: every screen of the main window is opened by
    /// setting or extending this path, and ``page(for:)`` is the one place that makes a page for a route.
    public private(set) lazy var router = NavigationRouter<Route>(stack: mainWindow.stack) { [weak self] route in
        self?.page(for: route)
    }

    /// Builds the main window (not shown; see ``present()``).
    /// `cameraSources` says where Take Photo and Quick Snap take pictures from (default: the cameras
    /// GStreamer finds, or what `POSTCARD_CAMERA` says; see ``CameraSource/init(option:)``).
    public init(application: Application?, store: PostStore, library: PhotoLibrary,
                cameraSources: [CameraSource] = CameraSource.fromEnvironment) {
        Libadwaita.initialize()  // done already by the app's AdwApplication; tests and tools build the app without one
        WebPage.appSchemes = [Route.scheme]  // postcard: links are the app's own: never opened from a web page
        self.store = store
        self.library = library
        camera = CameraSettings(sources: cameraSources, captureDirectory: store.directory.appending("camera"))
        people = People(store: store)
        myProfile = ProfilePage(person: people.me, viewer: people.me)
        mainWindow = NavigationWindow(application: application, root: myProfile)
        // Toasts over the whole window (pages, bar and sheets): the window's content goes inside the overlay.
        let content = mainWindow.overlay
        mainWindow.window.setChild(nil)
        toasts = ToastOverlay(content)
        mainWindow.window.setChild(toasts)
        // "Postcard" on My Profile; elsewhere the page and the app, as GNOME apps title their windows.
        mainWindow.windowTitle = { [weak myProfile] title in
            // Translators: the main window's title: %s is the title of the page it shows ("Ada Lovelace").
            let shown = title == myProfile?.title ? "Postcard" : localized("%s – Postcard", title)
            // Translators: the main window's title while the posts are open read-only; %s is its usual title.
            return store.isReadOnly ? localized("%s (Read-Only)", shown) : shown
        }
        flows.mayStart = { [weak self] in
            // None once the main window is gone (a click landing as the app quits).
            guard let self else { return false }
            return !self.mainWindow.window.isDestroyed
        }
        flows.onStarted = { [weak self] started in
            self?.flowStarts.notify(started)
            self?.setPresented(.flow(started.kind))
            self?.onFlowStarted?(started)
        }
        flows.onEnded = { [weak self] outcome in
            self?.flowEnds.notify(outcome)
            self?.onFlowEnded?(outcome)
        }
        flows.afterEach = { [weak self] in
            if case .flow? = self?.presented { self?.setPresented(nil) }
        }
        posting.wire(myProfile)
        friends.wire(myProfile)
        // A Not Found page whose subject comes back (Undo, a friend added again) shows it instead.
        followsStore = store.changes.add { [weak self] change in
            switch change {
            case .restored, .friendAdded, .postAdded, .messageAdded: self?.replaceNotFoundPagesWhoseSubjectIsBack()
            default: break
            }
        }
        _ = router  // follows the stack from the start
        buildBar()
        if let application { installActions(on: application) }
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, modifiers in
            guard let self, !self.mainWindow.window.hasModalChild else { return false }
            switch keyval {
            case KeyValue.f1:
                self.showGuide()
                return true
            case KeyValue.f6 where !modifiers.contains(.control):
                return self.moveFocusToOrFromTheToast()
            case KeyValue.z where modifiers.contains(.control) && !modifiers.contains(.shift):
                // Undo, as GNOME apps offer it while their toast says what was deleted (Files, Photos).
                guard let toast = self.undoToast, !toast.isDismissed else { return false }
                toast.activateAction()
                return true
            default:
                return false
            }
        }
        mainWindow.window.addController(keys)
    }

    /// Where the focus was before F6 moved it to a toast's button (``moveFocusToOrFromTheToast()``).
    private weak var focusBeforeToast: Widget?

    /// F6, as GNOME apps move the focus from one region of a window to the next (GTK's panes do): from
    /// anywhere in the main window to the button of the toast showing (Undo, View), which a screen reader
    /// then says with its name ("Undo push button"); from there, back to where the focus was. Nothing
    /// (false) when no toast with a button shows.
    private func moveFocusToOrFromTheToast() -> Bool {
        guard let button = shownToastButton else { return false }
        if mainWindow.window.focusWidget == button.widget { return returnFocusFromTheToast() }
        focusBeforeToast = mainWindow.window.focusWidget.map { Widget.widget(wrapping: UnsafeMutableRawPointer($0)) }
        return button.grabFocus()
    }

    /// The button of the toast showing now, if it has one.
    private var shownToastButton: Button? {
        lastToast.flatMap { $0.isDismissed ? nil : $0.buttonLabel }.flatMap { toasts.shownButton(labeled: $0.filter { $0 != "_" }) }
    }

    /// When the focus is on the toast's button (F6), gives it back to where it was before, else to the
    /// visible page's first control: before the toast goes with its button (its action pressed), so that
    /// what the action did is heard there. Returns whether the focus moved.
    @discardableResult
    func returnFocusFromTheToast() -> Bool {
        guard let focus = mainWindow.window.focusWidget, focus == shownToastButton?.widget else { return false }
        if let back = focusBeforeToast, back.isMapped, back.grabFocus() { return true }
        return mainWindow.stack.visiblePage?.initialFocus?.grabFocus() ?? false
    }

    /// My Profile's bar. Start: Quick Snap, Messages; end: the primary menu. Balanced, so the title stays
    /// centred and the bar fits a 360-pixel window. The menu's items present what they name when possible:
    /// chosen while a flow that was just cancelled is still ending (a quick keyboard user), they open once
    /// it has gone instead of being dropped.
    private func buildBar() {
        myProfile.addStartBarItem(messagesButton)
        messagesButton.onClicked { [weak self] in self?.router.push(.messages) }
        primaryMenu.addItem(localized("Keyboard Shortcuts"), accelerator: "<Control>question") { [weak self] in self?.presentWhenPossible(.keyboardShortcuts) }
        primaryMenu.addItem(localized("Help"), accelerator: "F1") { [weak self] in self?.showGuide() }
        // Translators: an item of the main menu: read a QR code with the camera.
        primaryMenu.addItem(localized("Scan a Code")) { [weak self] in self?.presentWhenPossible(.scanner) }
        // Translators: an item of the main menu: show the user's own Postcard code (a QR code).
        primaryMenu.addItem(localized("My Code")) { [weak self] in self?.presentWhenPossible(.myCode) }
        // Translators: an item of the main menu: put the link to my profile on the clipboard.
        primaryMenu.addItem(localized("Copy Link to My Profile")) { [weak self] in self?.copyLink(to: .myProfile) }
        primaryMenu.addItem(localized("About Postcard")) { [weak self] in self?.presentWhenPossible(.about) }
        myProfile.addEndBarItem(primaryMenu)
    }

    // MARK: - Flows

    /// The running flow's task, if any. One at a time: the buttons that start flows do nothing meanwhile.
    public var activeFlow: Task<Void, Never>? { flows.task }
    /// The dialog of the running flow while it is presented modally (tests and tools drive it as a user
    /// would).
    package var flowDialog: ModalDialog? { flows.current?.flow.dialog }
    /// Called after each flow's result has been handled (feed reloaded, page updated).
    public var onFlowEnded: (@MainActor (FlowOutcome) -> Void)?
    /// Called when a flow starts; every start is followed by exactly one ``onFlowEnded``.
    public var onFlowStarted: (@MainActor (StartedFlow) -> Void)?
    /// The journey being recorded (`--record`), if any.
    public var journeyRecorder: JourneyRecorder?
    /// Told of each flow as it starts, before it shows anything, for as many listeners as want it (the
    /// journey recorder), before ``onFlowStarted``.
    let flowStarts = Observers<StartedFlow>()
    /// Told of each flow's outcome once it has been handled, before ``onFlowEnded``.
    let flowEnds = Observers<FlowOutcome>()
    /// Told when a dialog opens over the main window (true) and once it has closed (false): My Code, Scan a
    /// Code, Keyboard Shortcuts, About (``presented``'s changes, as a journal names them).
    let dialogChanges = Observers<(JourneyDialog, Bool)>()

    /// Rows per page read from the store as a list scrolls (a feed row is about 370 px tall: 24 rows fill
    /// several screens, and reading them is quick enough not to miss a frame).
    static let pageSize = 24

    // MARK: - The window

    /// Shows the main window.
    public func present() { mainWindow.present() }

    var stack: NavigationStack { mainWindow.stack }

    /// Offers `library` in Choose a Photo from the next flow on (`--library` or `--pictures` given to a
    /// second launch); a flow already open keeps the photos it shows.
    public func switchLibrary(to library: PhotoLibrary) {
        appLog.info("Photo library switched to \(library.directory)")
        self.library = library
    }

    /// Takes photos from `source` from the next Take Photo or Quick Snap on (`--camera` given to a
    /// second launch).
    public func switchCamera(to source: CameraSource) {
        camera.sources = [source]
    }

    /// Closes everything as the app quits: the main window is destroyed, which destroys its dialogs,
    /// so every running flow resolves (as canceled) before the process ends. Idempotent.
    public func shutdown() {
        if !mainWindow.window.isDestroyed { saveNavigation() }
        mainWindow.window.destroy()
        // Every task ends before the app goes: the flows (cancelled as their windows went, or here), and
        // what a click started (a deletion's store write and its toast): none outlives the app.
        if !tasks.closeAndWait(timeout: .seconds(10)) {
            appLog.problem("\(tasks.count) task(s) still running 10 s after the window closed")
        }
        MainLoopBridge.drain()
        journeyRecorder?.stop()  // after the flows' ends, which it writes
        store.purgeMarkedDeletionsNow()  // an Undo still offered ends with the app: deleted for good
        store.waitForWrites()  // the drafts the closing flows just kept reach the disk before the process ends
    }

    // MARK: - Screens

    /// Pushes `person`'s profile onto the main stack (``Route/profile(_:)``).
    /// - Returns: the profile shown, or nil when `person` is not a friend.
    @discardableResult
    public func showProfile(of person: Person) -> ProfilePage? {
        router.push(.profile(person.id)) as? ProfilePage
    }

    /// Pushes the detail page of `post` (``Route/post(_:)``; the same page type a message presents
    /// modally).
    /// - Returns: the page shown, or nil when the post is gone (a Not Found page shows instead).
    @discardableResult
    public func showPost(_ post: Post) -> PhotoDetailPage? {
        router.push(.post(post.id)) as? PhotoDetailPage
    }

    /// Pushes Messages (``Route/messages``): the list, and the message chosen beside it or over it.
    @discardableResult
    public func showMessages() -> MessagesSplitView? {
        router.push(.messages) as? MessagesSplitView
    }

    /// Messages if it is on the main stack (visible or under other pages), else nil.
    public var messages: MessagesSplitView? { stack.pages.lazy.compactMap { $0 as? MessagesSplitView }.first }

    /// The message Messages shows now (beside the list, or over it when narrow), or nil.
    public var shownMessage: PhotoDetailPage? {
        if let page = stack.visiblePage as? PhotoDetailPage, case .message = router.visibleRoute { return page }
        return (stack.visiblePage as? MessagesSplitView).flatMap { $0.isCollapsed ? nil : $0.shownMessage }
    }

    /// Pushes the Postcard Guide onto the main stack (F1, Help in the primary menu): the bar shows
    /// "Guide" and Back. Opened already, it is shown again rather than pushed twice.
    @discardableResult
    public func showGuide(section: String? = nil) -> WebPage? { help.showGuide(section: section) }

    /// Presents the guide at `section` alone over `page` (its own bar with Close), without leaving
    /// what `page` is part of: Help in the photo flow.
    @discardableResult
    public func presentGuide(section: String?, over page: Page) -> ModalDialog? { help.presentGuide(section: section, over: page) }

    /// Opens a link activated in a post, reply or message (see `HelpCoordinator`): a `postcard://` link
    /// its screen, a web page as a Web Page, anything else in the desktop's default application.
    public func openLink(_ uri: String, from page: Page) { help.openLink(uri, from: page) }

    /// Presents **Scan a Code** alone over My Profile (its own bar with Close), as the primary menu's Scan a
    /// Code does; nothing while a flow or dialog is open.
    /// - Returns: the page, or nil when it was not presented.
    @discardableResult
    public func presentScanner() -> ScanCodePage? { friends.presentScanner() }
    /// Scan a Code while presented.
    public var presentedScanner: ModalDialog? { friends.presentedScanner }
    /// Presents **My Code** alone over My Profile, as the primary menu's My Code does; nothing while a flow
    /// or dialog is open.
    /// - Returns: the page, or nil when it was not presented.
    @discardableResult
    public func presentMyCode() -> MyCodePage? { friends.presentMyCode() }
    /// My Code while presented.
    public var presentedMyCode: ModalDialog? { friends.presentedMyCode }
    /// Runs **Add Friend** modally from My Profile, as its Add Friend… button does; nothing while a flow
    /// runs.
    public func startAddFriend() { friends.startAddFriend() }

    /// The web page presented last (a guide section over a dialog, or a link opened from a message),
    /// while open.
    public var presentedWebPage: ModalDialog? { help.presentedWebPage }

    /// Closes the web page (and My Code) presented alone over the main window (a link activated in it
    /// opens its screen in the main window).
    func dismissPresentedPages() {
        friends.dismissPresentedPages()
        help.dismissPresentedWebPage()
    }

    /// Where a flow for `kind` and `target` keeps what is typed: the store's draft `id`, this flow's own
    /// (a new one, or a resumed draft's, which ``resume(_:)`` has taken over), written by its writer.
    func drafts(_ kind: DraftKind, target: String, id: String = PostStore.newDraftID()) -> CommentDrafts {
        Self.drafts(in: store, kind: kind, target: target, id: id)
    }

    static func drafts(in store: PostStore, kind: DraftKind, target: String, id: String = PostStore.newDraftID()) -> CommentDrafts {
        CommentDrafts(save: { [store] photo, comment, done in
            store.saveDraft(kind, id: id, target: target, photoURI: photo.uri, comment: comment) { error in
                MainLoopBridge.onMainThread { done(error) }
            }
        }, remove: { [store] in
            store.removeDraft(id: id)
        })
    }
}
