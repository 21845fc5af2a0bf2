import Glibc
import Gtk
import Navigation
import NavigationGtk
import NavigationWeb
import PhotoPosting
import PostcardResources

/// The app: the main window on My Profile, pages pushed onto it (friends, posts, comment threads,
/// messages), and what each of the four callers of the photo flow does with its result:
///
/// | caller | presentation | result goes to |
/// | --- | --- | --- |
/// | My Profile, New Post | modal | my feed |
/// | a friend's profile, Post to Their Profile | modal | their feed, "posted by me" |
/// | a post's Comments, Reply with Photo | pushed in place | the thread |
/// | Messages, New Message | modal, as a step after Choose Recipient | the messages list |
///
/// Main actor only.
@MainActor
public final class AppController {
    /// How one of the app's flows ended (for observers such as tests and the review tour).
    public enum FlowOutcome: Equatable, Sendable {
        /// A post from a profile (mine or a friend's).
        case post(CommentedPhotoFlow.Result)
        /// A reply in a comment thread.
        case reply(CommentedPhotoFlow.Result)
        /// A private message.
        case message(SendPhotoMessageFlow.Result)
        /// Edit Caption: saved or not.
        case caption(saved: Bool)
    }

    /// Where posts are kept.
    public let store: PostStore
    /// The photos offered by the flow.
    public let library: PhotoLibrary
    /// The cameras Take Photo and Quick Snap show, and where taken photos go (`camera` in the data
    /// folder).
    public let camera: CameraSettings
    /// The main window and its navigation stack.
    public let mainWindow: NavigationWindow
    /// The root page.
    public let myProfile: ProfilePage
    /// **Messages** at the start of My Profile's bar (after Quick Snap): an icon (`mail-unread-symbolic`, an envelope)
    /// named "Messages" for screen readers and in its tooltip, so the bar fits a 360-pixel window.
    public let messagesButton = Button(iconName: "mail-unread-symbolic", accessibleLabel: "Messages")
    /// The primary menu (end of My Profile's bar): Keyboard Shortcuts, Help, About Postcard.
    public let primaryMenu = MenuButton(iconName: "open-menu-symbolic", accessibleLabel: "Main Menu")
    /// The web page presented last (a guide section over a dialog, or a link opened from a message),
    /// while open.
    public private(set) var presentedWebPage: PageDialog?
    /// The Keyboard Shortcuts window shown last.
    public internal(set) var shortcutsWindow: Gtk.Window?
    /// The About window shown last.
    public internal(set) var aboutWindow: Gtk.Window?
    /// The running flow, if any. One at a time: the buttons that start flows do nothing meanwhile.
    public private(set) var activeFlow: Task<Void, Never>?
    /// Called after each flow's result has been handled (feed reloaded, page updated).
    public var onFlowEnded: (@MainActor (FlowOutcome) -> Void)?
    /// The message detail presented last, while open.
    public private(set) var presentedMessage: PageDialog?

    /// Builds the main window (not shown; see ``present()``).
    /// `cameraSources` says where Take Photo and Quick Snap take pictures from (default: the cameras
    /// GStreamer finds, or what `POSTCARD_CAMERA` says; see ``CameraSource/init(option:)``).
    public init(application: Application?, store: PostStore, library: PhotoLibrary,
                cameraSources: [CameraSource] = CameraSource.fromEnvironment) {
        self.store = store
        self.library = library
        camera = CameraSettings(sources: cameraSources, captureDirectory: Files.join(store.directory, "camera"))
        myProfile = ProfilePage(person: .me)
        mainWindow = NavigationWindow(application: application, root: myProfile)
        mainWindow.window.title = "Postcard"
        wire(myProfile)
        myProfile.onFriendSelected = { [weak self] friend in self?.showProfile(of: friend) }
        // Start: Quick Snap, Messages; end: the primary menu. Balanced, so the title stays centred and
        // the bar fits a 360-pixel window.
        myProfile.addStartBarItem(messagesButton)
        messagesButton.onClicked { [weak self] in self?.showMessages() }
        primaryMenu.addItem("Keyboard Shortcuts", accelerator: "<Control>question") { [weak self] in self?.showShortcuts() }
        primaryMenu.addItem("Help", accelerator: "F1") { [weak self] in self?.showGuide() }
        primaryMenu.addItem("About Postcard") { [weak self] in self?.showAbout() }
        myProfile.addEndBarItem(primaryMenu)
        if let application { installActions(on: application) }
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, _ in
            guard keyval == KeyValue.f1, let self, !self.mainWindow.window.hasModalChild else { return false }
            self.showGuide()
            return true
        }
        mainWindow.window.addController(keys)
    }

    // MARK: - The guide and links

    /// Help inside a photo flow: the guide's "Posting a photo" (or "Taking a photo" on the camera)
    /// presented over the flow's page.
    private var help: CommentedPhotoFlow.Help {
        CommentedPhotoFlow.Help { [weak self] page in
            self?.presentGuide(section: page is CameraPage ? "camera" : "posting", over: page)
        }
    }

    /// The guide's folder (`guide/` in the resources), or nil when the resources cannot be found; looked
    /// up once.
    public private(set) lazy var guideFolder: String? = (try? ResourceLocator.resourcesDirectory()).map { Files.join($0, "guide") }

    /// A Web Page showing the guide at `section` (an anchor such as "posting"), or nil: the guide is
    /// missing, or web pages cannot be shown here and the guide opened in the desktop's browser instead.
    private func makeGuide(section: String?) -> WebPage? {
        guard let guideFolder else { return nil }
        let uri = Files.uri(forPath: Files.join(guideFolder, "index.html")) + (section.map { "#" + $0 } ?? "")
        guard WebPage.unavailableReason == nil else { openOutside(uri); return nil }
        return WebPage(uri: uri, title: "Guide", localFolder: guideFolder)
    }

    /// Pushes the Postcard Guide onto the main stack (F1, Help in the primary menu): the bar shows
    /// "Guide" and Back. Opened already, it is shown again rather than pushed twice.
    @discardableResult
    public func showGuide(section: String? = nil) -> WebPage? {
        if let guide = stack.visiblePage as? WebPage, guide.fixedTitle == "Guide" { return guide }
        guard let page = makeGuide(section: section) else { return nil }
        stack.push(page)
        return page
    }

    /// Presents the guide at `section` alone over `page` (its own bar with Close), without leaving
    /// what `page` is part of: Help in the photo flow.
    @discardableResult
    public func presentGuide(section: String?, over page: Page) -> PageDialog? {
        makeGuide(section: section).map { present($0, over: page, width: 560) }
    }

    /// Opens a link activated in a post, reply or message: web pages are pushed onto the main stack as a
    /// Web Page (or presented over a dialog the link was in); anything else opens in the desktop's default
    /// application.
    public func openLink(_ uri: String, from page: Page) {
        guard uri.hasPrefix("http://") || uri.hasPrefix("https://"), WebPage.unavailableReason == nil else {
            return openOutside(uri)  // mail addresses; or no WebKitGTK here: the desktop's browser
        }
        let web = WebPage(uri: uri, localFolder: nil)
        if page.navigationStack === stack {
            stack.push(web)
        } else {
            present(web, over: page)
        }
    }

    /// Opens `uri` in the desktop's default application; a failure is logged (nothing else to show it in).
    private func openOutside(_ uri: String) {
        do { try DefaultApplication.open(uri) } catch { PostcardMain.printError("postcard: couldn't open \(uri): \(error)") }
    }

    @discardableResult
    private func present(_ web: WebPage, over page: Page, width: Int32 = 720) -> PageDialog {
        let dialog = PageDialog(over: page, presenting: web, width: width, height: 640)
        presentedWebPage = dialog
        dialog.present()
        Task { [weak self, weak dialog] in
            await dialog?.dismissed()
            if self?.presentedWebPage === dialog { self?.presentedWebPage = nil }
        }
        return dialog
    }

    /// Shows the main window.
    public func present() { mainWindow.present() }

    /// Closes everything as the app quits: the main window is destroyed, which destroys its dialogs,
    /// so every running flow resolves (as canceled) before the process ends. Idempotent.
    public func shutdown() {
        mainWindow.window.destroy()
        MainLoopBridge.drain()
    }

    private var stack: NavigationStack { mainWindow.stack }

    /// Pushes `person`'s profile onto the main stack.
    @discardableResult
    public func showProfile(of person: Person) -> ProfilePage {
        let page = ProfilePage(person: person)
        wire(page)
        stack.push(page)
        return page
    }

    private func wire(_ page: ProfilePage) {
        reload(page)
        page.onNewPost = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startFlow { await self.post(to: page) }
        }
        page.onOpenPost = { [weak self] post in self?.showPost(post) }
        page.onOpenLink = { [weak self, weak page] uri in
            guard let self, let page else { return }
            self.openLink(uri, from: page)
        }
        page.onQuickSnap = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startPostFlow(on: page, start: .camera(title: "Quick Snap"))
        }
    }

    /// Starts the photo flow posting to `page`'s profile, opening on `start`.
    func startPostFlow(on page: ProfilePage, start: CommentedPhotoFlow.Start) {
        startFlow { [weak self] in await self?.post(to: page, start: start) }
    }

    private func startFlow(_ body: @escaping @MainActor () async -> Void) {
        guard activeFlow == nil else { return }
        activeFlow = Task {
            await body()
            self.activeFlow = nil
        }
    }

    /// Both profile callers (and Quick Snap, which starts on the camera) use the same flow; each stores
    /// the post on its own profile.
    private func post(to page: ProfilePage, start: CommentedPhotoFlow.Start = .choosePhoto) async {
        let profile = page.person.id
        var stored: Post?
        let result = await CommentedPhotoFlow.run(from: page, library: library, camera: camera, start: start,
                                                  help: help) { [store] photo, comment in
            stored = try store.add(photo: photo, comment: comment, author: Person.me.id, profile: profile)
        }
        if case .posted = result, let stored { page.insertNewPost(stored) }  // in place: no reload
        onFlowEnded?(.post(result))
    }

    // MARK: - Post detail, comments, Edit Caption

    /// Pushes the detail page of `post` (the same page type a message presents modally).
    @discardableResult
    public func showPost(_ post: Post) -> PhotoDetailPage {
        let author = Person.named(post.author)?.name ?? post.author
        let page = PhotoDetailPage(title: "Post", subtitle: "by \(author)", photoPath: post.photoPath,
                                   comment: post.comment, detail: Self.postedLine(post.createdAt))
        let comments = Button(label: "Comments")
        comments.onClicked { [weak self, weak page] in
            guard let self, let page else { return }
            self.showThread(of: post, from: page)
        }
        page.actions.append(comments)
        page.onOpenLink = { [weak self, weak page] uri in
            guard let self, let page else { return }
            self.openLink(uri, from: page)
        }
        if post.author == Person.me.id {
            let edit = Button(label: "Edit Caption")
            edit.onClicked { [weak self, weak page] in
                guard let self, let page else { return }
                self.startFlow { await self.editCaption(of: post, shownIn: page) }
            }
            page.addEndBarItem(edit)
        }
        stack.push(page)
        return page
    }

    private func showThread(of post: Post, from detail: PhotoDetailPage) {
        let thread = CommentThreadPage(post: post)
        reload(thread)
        thread.onReply = { [weak self, weak thread] in
            guard let self, let thread else { return }
            self.startFlow { await self.reply(in: thread) }
        }
        thread.onOpenLink = { [weak self, weak thread] uri in
            guard let self, let thread else { return }
            self.openLink(uri, from: thread)
        }
        stack.push(thread)
    }

    /// The thread caller pushes the flow in place and stores a reply.
    private func reply(in thread: CommentThreadPage) async {
        let post = thread.post
        var stored: Reply?
        let result = await CommentedPhotoFlow.run(from: thread, presentation: .pushed, library: library,
                                                  camera: camera, help: help) { [store] photo, comment in
            stored = try store.addReply(to: post, photo: photo, comment: comment, author: Person.me.id)
        }
        if case .posted = result, let stored { thread.appendReply(stored) }
        onFlowEnded?(.reply(result))
    }

    /// Edit Caption reuses the Add a Comment page unchanged: pushed with the current caption, "Save".
    private func editCaption(of post: Post, shownIn detail: PhotoDetailPage) async {
        let current = (try? store.post(id: post.id))?.comment ?? post.comment
        let editor = CommentPage(photo: Photo(path: post.photoPath), comment: current, actionLabel: "Save", title: "Edit Caption")
        let done = FlowCompletion<Bool>()
        editor.onPost = { [weak self, weak editor] caption in
            guard let self, let editor else { return }
            do {
                try self.store.updateComment(ofPost: post.id, to: caption)
                done.resolve(true)
            } catch {
                editor.showError("\(error)")
            }
        }
        stack.observePops(owner: editor) { [weak editor] removed in
            if removed.contains(where: { $0 === editor }) { done.resolve(false) }
        }
        stack.observeDestruction(owner: editor) { done.resolve(false) }  // window closed, app quit
        stack.push(editor)
        let saved = await done.value(onCancel: { done.resolve(false) })
        stack.removeObservers(owner: editor)
        if stack.pages.contains(where: { $0 === editor }) { stack.pop(to: detail) }
        if saved {
            let updated = try? store.post(id: post.id)  // read once, for the detail page and the feeds
            detail.setComment(updated?.comment ?? current)
            if let updated {
                for case let profile as ProfilePage in stack.pages { profile.update(updated) }
            }
        }
        onFlowEnded?(.caption(saved: saved))
    }

    // MARK: - Messages

    /// Pushes the Messages page.
    @discardableResult
    public func showMessages() -> MessagesPage {
        let page = MessagesPage()
        reload(page)
        page.onNewMessage = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startFlow { await self.sendMessage(from: page) }
        }
        page.onOpen = { [weak self, weak page] message in
            guard let self, let page else { return }
            self.open(message, from: page)
        }
        stack.push(page)
        return page
    }

    /// The message caller runs the composed flow: Choose Recipient, then the photo flow as a step.
    private func sendMessage(from page: MessagesPage) async {
        var stored: Message?
        let result = await SendPhotoMessageFlow.run(from: page, library: library, camera: camera) { [store] person, photo, comment in
            stored = try store.addMessage(to: person.id, photo: photo, comment: comment, author: Person.me.id)
        }
        if case .sent = result, let stored { page.insertNewMessage(stored) }
        onFlowEnded?(.message(result))
    }

    /// Presents a message's photo and comment modally: the detail page shows its own bar with Close.
    private func open(_ message: Message, from page: MessagesPage) {
        let name = Person.named(message.recipient)?.name ?? message.recipient
        let detail = PhotoDetailPage(title: "Message", subtitle: "to \(name)", photoPath: message.photoPath,
                                     comment: message.comment, detail: "Sent " + Self.timeText(message.createdAt))
        let dialog = PageDialog(over: page, presenting: detail)
        detail.onOpenLink = { [weak self, weak detail] uri in
            guard let self, let detail else { return }
            self.openLink(uri, from: detail)
        }
        presentedMessage = dialog
        dialog.present()
        Task { [weak self, weak dialog] in
            await dialog?.dismissed()
            if self?.presentedMessage === dialog { self?.presentedMessage = nil }
        }
    }

    // MARK: - Loading

    /// Rows per page read from the store as a list scrolls (a feed row is about 370 px tall: 24 rows fill
    /// several screens, and reading them is quick enough not to miss a frame).
    static let pageSize = 24

    private func reload(_ page: ProfilePage) {
        let profile = page.person.id
        page.showPosts(PagedRows(pageSize: Self.pageSize) { [store] last, limit in
            try store.posts(onProfile: profile, after: last, limit: limit)
        })
    }

    private func reload(_ page: CommentThreadPage) {
        let post = page.post
        do {
            let total = try store.replyCount(to: post)
            page.showReplies(PagedRows(pageSize: Self.pageSize) { [store] last, limit in
                try store.replies(to: post, after: last, limit: limit)
            }, total: total)
        } catch {
            page.showError("Can't load replies: \(error)")
        }
    }

    private func reload(_ page: MessagesPage) {
        page.showMessages(PagedRows(pageSize: Self.pageSize) { [store] last, limit in
            try store.messages(after: last, limit: limit)
        })
    }

    /// "7 Aug 2026, 14:05" in the local time zone (`%-d`: no padding before one-digit days).
    static func timeText(_ seconds: Int64) -> String {
        DateText.format(unixSeconds: seconds, "%-d %b %Y, %H:%M")
    }

    static func postedLine(_ seconds: Int64) -> String { "Posted " + timeText(seconds) }
}

/// Starts the app from the command line.
public enum PostcardMain {
    /// The application id (reverse DNS).
    public static let applicationID = "io.github.postcard.Postcard"

    /// Parses `arguments` (including the program name), runs the app, and returns the exit status:
    /// 0 normally, 1 on a start-up error (printed to standard error), 2 on a bad command line.
    @MainActor
    public static func run(arguments: [String]) -> Int32 {
        let options: AppOptions
        do {
            options = try AppOptions(arguments: Array(arguments.dropFirst()))
        } catch {
            printError("postcard: \(error)\n\n\(AppOptions.usage)")
            return 2
        }
        if options.showHelp { print(AppOptions.usage); return 0 }
        let store: PostStore, library: PhotoLibrary, resources: String
        do {
            resources = try ResourceLocator.resourcesDirectory()
            library = PhotoLibrary(directory: try options.libraryDirectory(resources: resources))
            store = try PostStore(directory: options.resolvedDataDirectory)
        } catch {
            printError("postcard: \(error)")
            return 1
        }
        guard initializeGtk() else {
            printError("postcard: can't open a display. Run it in a desktop session (DISPLAY or WAYLAND_DISPLAY set).")
            return 1
        }
        let desktopStyle = DesktopStyle()  // dark when the desktop prefers it, watched while the app runs
        let app = Application(id: applicationID, unique: !options.needsOwnInstance)
        var tourFailed = false
        var controller: AppController?
        func activate() {
            if controller == nil {
                _ = postcard_get_resource()  // compiled in (and registered as the program loaded)
                StyleSheet.load(resource: "/io/github/postcard/Postcard/style.css")
                controller = AppController(application: app, store: store, library: library,
                                           cameraSources: [options.camera])
                controller?.present()
                if options.measuresStartup, let controller {
                    StartupMeasurement.run(controller) { app.quit() }
                } else if let tour = options.reviewTourDirectory, let controller {
                    ReviewTour.run(app: controller, into: tour) { succeeded in
                        tourFailed = !succeeded
                        app.quit()
                    }
                }
            } else {
                controller?.present()
            }
        }
        app.onActivate { activate() }
        app.onOpen { uris in  // postcard photo.jpg, or Open With from a file manager
            activate()
            if let first = uris.first { controller?.startNewPost(with: first) }
        }
        app.onShutdown { controller?.shutdown() }
        let status = withExtendedLifetime(desktopStyle) {
            app.run(opening: options.files, asService: options.runsAsService)
        }
        MainLoopBridge.drain()  // let flows resumed during shutdown finish
        return tourFailed ? 1 : status
    }

    static func printError(_ message: String) {
        var stderr = StandardError()
        print(message, to: &stderr)
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        _ = string.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
