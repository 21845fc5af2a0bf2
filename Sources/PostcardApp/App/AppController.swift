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
    /// The primary menu (end of My Profile's bar): Keyboard Shortcuts, Help, About Postcard.
    public let primaryMenu = MenuButton(iconName: "open-menu-symbolic", accessibleLabel: localized("Main Menu"))
    /// The web page presented last (a guide section over a dialog, or a link opened from a message),
    /// while open.
    public internal(set) var presentedWebPage: ModalDialog?
    /// The Keyboard Shortcuts window shown last.
    public internal(set) var shortcutsWindow: Gtk.Window?
    /// The About window shown last.
    public internal(set) var aboutWindow: Gtk.Window?
    /// The running flow, if any. One at a time: the buttons that start flows do nothing meanwhile.
    public private(set) var activeFlow: Task<Void, Never>?
    /// Called after each flow's result has been handled (feed reloaded, page updated).
    public var onFlowEnded: (@MainActor (FlowOutcome) -> Void)?
    /// Called with a flow's name ("New Post", "Reply with Photo", "New Message", "Edit Caption") when it
    /// starts; every start is followed by exactly one ``onFlowEnded``.
    public var onFlowStarted: (@MainActor (String) -> Void)?
    /// The message detail presented last, while open.
    public internal(set) var presentedMessage: ModalDialog?

    /// The main stack driven by its path of ``Route``s: every screen of the main window is opened by
    /// setting or extending this path, and ``page(for:)`` is the one place that makes a page for a route.
    public private(set) lazy var router = NavigationRouter<Route>(stack: mainWindow.stack) { [unowned self] route in
        self.page(for: route)
    }
    /// The link waiting for a flow or dialog to close (the newest one), if any; see ``open(link:)``.
    public internal(set) var pendingLink: Route?
    /// The notice at the bottom of the main window (a link waiting, a link copied), while shown.
    public internal(set) var notice: Notice?

    /// Builds the main window (not shown; see ``present()``).
    /// `cameraSources` says where Take Photo and Quick Snap take pictures from (default: the cameras
    /// GStreamer finds, or what `POSTCARD_CAMERA` says; see ``CameraSource/init(option:)``).
    public init(application: Application?, store: PostStore, library: PhotoLibrary,
                cameraSources: [CameraSource] = CameraSource.fromEnvironment) {
        self.store = store
        self.library = library
        camera = CameraSettings(sources: cameraSources, captureDirectory: store.directory.appending("camera"))
        myProfile = ProfilePage(person: .me)
        mainWindow = NavigationWindow(application: application, root: myProfile)
        // "Postcard" on My Profile; elsewhere the page and the app, as GNOME apps title their windows.
        mainWindow.windowTitle = { [weak myProfile] title in
            // Translators: the main window's title: %s is the title of the page it shows ("Ada Lovelace").
            title == myProfile?.title ? "Postcard" : localized("%s – Postcard", title)
        }
        wire(myProfile)
        _ = router  // follows the stack from the start
        myProfile.onFriendSelected = { [weak self] friend in self?.router.push(.profile(friend.id)) }
        // Start: Quick Snap, Messages; end: the primary menu. Balanced, so the title stays centred and
        // the bar fits a 360-pixel window.
        myProfile.addStartBarItem(messagesButton)
        messagesButton.onClicked { [weak self] in self?.router.push(.messages) }
        primaryMenu.addItem(localized("Keyboard Shortcuts"), accelerator: "<Control>question") { [weak self] in self?.showShortcuts() }
        primaryMenu.addItem(localized("Help"), accelerator: "F1") { [weak self] in self?.showGuide() }
        // Translators: an item of the main menu: put the link to my profile on the clipboard.
        primaryMenu.addItem(localized("Copy Link to My Profile")) { [weak self] in self?.copyLink(to: .myProfile) }
        primaryMenu.addItem(localized("About Postcard")) { [weak self] in self?.showAbout() }
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
    public private(set) lazy var guideFolder: FilePath? = (try? ResourceLocator.resourcesDirectory()).map { $0.appending("guide") }

    /// A Web Page showing the guide at `section` (an anchor such as "posting"), or nil: the guide is
    /// missing, or web pages cannot be shown here and the guide opened in the desktop's browser instead.
    func makeGuide(section: String?) -> WebPage? {
        guard let guideFolder else { return nil }
        let uri = Self.guidePage(in: guideFolder).uri + (section.map { "#" + $0 } ?? "")
        guard WebPage.unavailableReason == nil else { openOutside(uri); return nil }
        // Translators: the title of the app's own help pages (a user guide), shown in the bar.
        return WebPage(uri: uri, title: localized("Guide"), localFolder: guideFolder)
    }

    /// The guide in the user's language: `guide/<lang>/index.html` for the first of their languages that
    /// has one (as GNOME help is installed per language), else the English `guide/index.html`.
    static func guidePage(in guideFolder: FilePath) -> FilePath {
        for language in Localization.languageNames where language != "C" {
            let page = guideFolder.appending(language, "index.html")
            if Files.exists(page) { return page }
        }
        return guideFolder.appending("index.html")
    }

    /// Pushes the Postcard Guide onto the main stack (F1, Help in the primary menu): the bar shows
    /// "Guide" and Back. Opened already, it is shown again rather than pushed twice.
    @discardableResult
    public func showGuide(section: String? = nil) -> WebPage? {
        if case .guide? = router.visibleRoute { return stack.visiblePage as? WebPage }
        return router.push(.guide(section: section)) as? WebPage
    }

    /// Presents the guide at `section` alone over `page` (its own bar with Close), without leaving
    /// what `page` is part of: Help in the photo flow.
    @discardableResult
    public func presentGuide(section: String?, over page: Page) -> ModalDialog? {
        makeGuide(section: section).map { present($0, over: page, width: 560) }
    }

    /// Opens a link activated in a post, reply or message: web pages are pushed onto the main stack as a
    /// Web Page (or presented over a dialog the link was in); anything else opens in the desktop's default
    /// application.
    /// A `postcard://` link opens its screen (``open(link:)``; a link in a page presented alone closes
    /// that page first, as the user asked from it).
    public func openLink(_ uri: String, from page: Page) {
        if Route.isLink(uri) {
            if page.navigationStack !== stack { dismissPresentedPages() }
            open(link: uri)
            return
        }
        guard uri.hasPrefix("http://") || uri.hasPrefix("https://"), WebPage.unavailableReason == nil else {
            return openOutside(uri)  // mail addresses; or no WebKitGTK here: the desktop's browser
        }
        if page.navigationStack === stack {
            router.push(.webPage(uri))
        } else {
            present(WebPage(uri: uri, localFolder: nil), over: page)
        }
    }

    /// Opens `uri` in the desktop's default application; a failure is logged (nothing else to show it in).
    func openOutside(_ uri: String) {
        do { try DefaultApplication.open(uri) } catch { appLog.problem("Couldn't open \(uri): \(error)") }
    }

    @discardableResult
    private func present(_ web: WebPage, over page: Page, width: Int32 = 720) -> ModalDialog {
        let dialog = ModalDialog(over: page, presenting: web, width: width, height: 640)
        presentedWebPage = dialog
        dialog.present()
        Task { [weak self, weak dialog] in
            await dialog?.dismissed()
            if self?.presentedWebPage === dialog { self?.presentedWebPage = nil }
            self?.openPendingLink()
        }
        return dialog
    }

    /// Shows the main window.
    public func present() { mainWindow.present() }

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
        if Window.isListed(mainWindow.window.pointer()) { saveNavigation() }
        mainWindow.window.destroy()
        MainLoopBridge.drain()
        store.waitForWrites()  // the drafts the closing flows just kept reach the disk before the process ends
    }

    var stack: NavigationStack { mainWindow.stack }

    /// Pushes `person`'s profile onto the main stack (``Route/profile(_:)``).
    /// - Returns: the profile shown, or nil when `person` is not a friend.
    @discardableResult
    public func showProfile(of person: Person) -> ProfilePage? {
        router.push(.profile(person.id)) as? ProfilePage
    }

    func wire(_ page: ProfilePage) {
        reload(page)
        page.onNewPost = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startFlow("New Post") { await self.post(to: page) }
        }
        page.onOpenPost = { [weak self] post in self?.router.push(.post(post.id)) }
        page.onOpenLink = { [weak self, weak page] uri in
            guard let self, let page else { return }
            self.openLink(uri, from: page)
        }
        page.onQuickSnap = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startPostFlow(on: page, start: .camera(title: localized("Quick Snap")))
        }
    }

    /// Starts the photo flow posting to `page`'s profile, opening on `start`.
    func startPostFlow(on page: ProfilePage, start: CommentedPhotoFlow.Start) {
        startFlow("New Post") { [weak self] in await self?.post(to: page, start: start) }
    }

    private func startFlow(_ name: String, _ body: @escaping @MainActor () async -> Void) {
        // One at a time, and none once the main window is gone (a click landing as the app quits).
        guard activeFlow == nil, Window.isListed(mainWindow.window.pointer()) else { return }
        appLog.debug("Flow started: \(name)")
        onFlowStarted?(name)
        activeFlow = Task {
            await body()
            self.activeFlow = nil
            self.openPendingLink()
        }
    }

    /// Both profile callers (and Quick Snap, which starts on the camera) use the same flow; each stores
    /// the post on its own profile.
    private func post(to page: ProfilePage, start: CommentedPhotoFlow.Start = .choosePhoto) async {
        let profile = page.person.id
        var stored: Post?
        let result = await CommentedPhotoFlow.run(from: page, library: library, camera: camera, start: start,
                                                  help: help, drafts: drafts(kind: "post", target: profile)) { [store] photo, comment in
            stored = try await store.addInBackground(photo: photo, comment: comment, author: Person.me.id, profile: profile)
        }
        if case .posted = result, let stored { page.insertNewPost(stored) }  // in place: no reload
        finishFlow(.post(result))
    }

    // MARK: - Drafts

    /// Where a flow for `kind` and `target` keeps what is typed (the store's drafts); a failure to keep
    /// it is logged, and the flow goes on.
    private func drafts(kind: String, target: String) -> CommentedPhotoFlow.Drafts {
        Self.drafts(in: store, kind: kind, target: target)
    }

    private static func drafts(in store: PostStore, kind: String, target: String) -> CommentedPhotoFlow.Drafts {
        CommentedPhotoFlow.Drafts(save: { [store] photo, comment in
            store.saveDraftInBackground(kind: kind, target: target, photoURI: photo.uri, comment: comment)
        }, remove: { [store] in
            store.removeDraftInBackground(kind: kind, target: target)
        })
    }

    /// Offers the newest draft kept from an earlier run on My Profile: **Resume** opens the same flow on
    /// the same page (a friend's profile, a post's thread) with the photo chosen and the comment typed;
    /// **Discard** forgets it. A draft whose post is gone is forgotten.
    /// - Returns: whether a draft is offered.
    @discardableResult
    public func offerDraft() -> Bool {
        guard let draft = (try? store.drafts())?.first else { return false }
        let text = switch draft.kind {
        // Translators: the banner on My Profile when a reply was left unfinished (the app quit or crashed).
        case "reply": localized("You have an unfinished reply")
        // Translators: the banner on My Profile when a caption edit was left unfinished (the app quit or crashed).
        case "caption": localized("You have an unfinished caption")
        // Translators: the banner on My Profile when a message was left unfinished (the app quit or crashed).
        case "message": localized("You have an unfinished message")
        // Translators: the banner on My Profile when a post was left unfinished (the app quit or crashed).
        default: localized("You have an unfinished post")
        }
        myProfile.showDraftBanner(text, detail: String(draft.comment.map { $0.isNewline ? " " : $0 }), onResume: { [weak self] in
            self?.resume(draft)
        }, onDiscard: { [store] in
            try? store.removeDraft(kind: draft.kind, target: draft.target)
        })
        return true
    }

    /// Opens `draft` again where it was left.
    public func resume(_ draft: Draft) {
        let start = CommentedPhotoFlow.Start.addComment(Photo(uri: draft.photoURI), comment: draft.comment)
        appLog.debug("Draft resumed: \(draft.kind) \(draft.target)")
        switch draft.kind {
        case "message":
            guard let person = Person.named(draft.target) else {
                try? store.removeDraft(kind: draft.kind, target: draft.target)
                return
            }
            router.setPath([.messages], animated: false)
            guard let messages = stack.visiblePage as? MessagesPage else { return }
            let resuming = (recipient: person, photo: Photo(uri: draft.photoURI), comment: draft.comment)
            startFlow("New Message") { [weak self] in await self?.sendMessage(from: messages, resuming: resuming) }
        case "caption":
            guard let id = Int64(draft.target), let post = try? store.post(id: id), post.author == Person.me.id else {
                try? store.removeDraft(kind: draft.kind, target: draft.target)  // its post is gone
                return
            }
            router.setPath(backPath(for: .post(post.id)), animated: false)
            guard let detail = stack.visiblePage as? PhotoDetailPage else { return }
            startFlow("Edit Caption") { [weak self] in await self?.editCaption(of: post, shownIn: detail, resuming: draft.comment) }
        case "reply":
            guard let id = Int64(draft.target), let post = try? store.post(id: id) else {
                try? store.removeDraft(kind: draft.kind, target: draft.target)  // its post is gone
                return
            }
            router.setPath(backPath(for: .comments(post.id)), animated: false)
            guard let thread = stack.visiblePage as? CommentThreadPage else { return }
            startFlow("Reply with Photo") { [weak self] in await self?.reply(in: thread, start: start) }
        default:
            if draft.target == Person.me.id {
                router.setPath([], animated: false)
                startPostFlow(on: myProfile, start: start)
            } else if Person.named(draft.target) != nil {
                router.setPath([.profile(draft.target)], animated: false)
                guard let profile = stack.visiblePage as? ProfilePage else { return }
                startPostFlow(on: profile, start: start)
            }
        }
    }

    private func finishFlow(_ outcome: FlowOutcome) {
        appLog.debug("Flow ended: \(outcome)")
        onFlowEnded?(outcome)
        Memory.returnFreedMemory(after: 1)  // the flow's pictures and pages are freed by then
    }

    // MARK: - Post detail, comments, Edit Caption

    /// Pushes the detail page of `post` (``Route/post(_:)``; the same page type a message presents
    /// modally).
    /// - Returns: the page shown, or nil when the post is gone (a Not Found page shows instead).
    @discardableResult
    public func showPost(_ post: Post) -> PhotoDetailPage? {
        router.push(.post(post.id)) as? PhotoDetailPage
    }

    /// The detail page of `post`, with Comments, Copy Link and (on my own posts) Edit Caption.
    func makePostPage(_ post: Post) -> PhotoDetailPage {
        let author = Person.named(post.author)?.name ?? post.author
        // Translators: the title of the page showing one post (a noun: a photo with a comment); translate
        // only what follows the "|". The subtitle below it is "by %s" with the author's name. Keep it
        // short: in a 360-pixel window the bar also holds Back and Edit Caption.
        let title = localized("page title|Post")
        // Translators: the subtitle under a post's title: who posted it (%s is a person's name).
        let subtitle = localized("by %s", author)
        let page = PhotoDetailPage(title: title, subtitle: subtitle, photoPath: post.photoPath,
                                   comment: post.comment, detail: Self.postedLine(post.createdAt))
        page.subject = post.id
        // Translators: a button under a post that opens its comment thread.
        let comments = Button(label: localized("Comments"))
        comments.onClicked { [weak self] in self?.router.push(.comments(post.id)) }
        page.actions.append(comments)
        page.actions.append(copyLinkButton(for: .post(post.id)))
        page.onOpenLink = { [weak self, weak page] uri in
            guard let self, let page else { return }
            self.openLink(uri, from: page)
        }
        if post.author == Person.me.id {
            // Translators: a button in the bar of one's own post (and the title of the page it opens): edit
            // the post's caption, its comment. Keep it short: the bar also holds Back and the post's title.
            let edit = Button(label: localized("Edit Caption"))
            edit.onClicked { [weak self, weak page] in
                guard let self, let page else { return }
                self.startFlow("Edit Caption") { await self.editCaption(of: post, shownIn: page) }
            }
            page.addEndBarItem(edit)
        }
        return page
    }

    /// The comment thread of `post`, with Reply with Photo.
    func makeThreadPage(_ post: Post) -> CommentThreadPage {
        let thread = CommentThreadPage(post: post)
        reload(thread)
        thread.onReply = { [weak self, weak thread] in
            guard let self, let thread else { return }
            self.startFlow("Reply with Photo") { await self.reply(in: thread) }
        }
        thread.onOpenLink = { [weak self, weak thread] uri in
            guard let self, let thread else { return }
            self.openLink(uri, from: thread)
        }
        return thread
    }

    /// The thread caller pushes the flow in place and stores a reply.
    private func reply(in thread: CommentThreadPage, start: CommentedPhotoFlow.Start = .choosePhoto) async {
        let post = thread.post
        var stored: Reply?
        let result = await CommentedPhotoFlow.run(from: thread, presentation: .pushed, library: library,
                                                  camera: camera, start: start, help: help,
                                                  drafts: drafts(kind: "reply", target: String(post.id))) { [store] photo, comment in
            stored = try await store.addReplyInBackground(to: post, photo: photo, comment: comment, author: Person.me.id)
        }
        if case .posted = result, let stored { thread.appendReply(stored) }
        finishFlow(.reply(result))
    }

    /// Edit Caption reuses the Add a Comment page unchanged: pushed with the current caption, "Save".
    private func editCaption(of post: Post, shownIn detail: PhotoDetailPage, resuming draft: String? = nil) async {
        let current = (try? store.post(id: post.id))?.comment ?? post.comment
        let editor = CommentPage(photo: Photo(path: post.photoPath), comment: draft ?? current, actionLabel: localized("Save"),
                                 title: localized("Edit Caption"), photoDescription: current)
        // The edited caption is kept as a draft too (kind "caption"), until saved or left.
        let drafts = self.drafts(kind: "caption", target: String(post.id))
        editor.onCommentChanged = { [weak editor] text in
            if let editor { drafts.saveSoon(editor.photo, text) }
        }
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
        var keepsDraft = false
        let popped = stack.observePops { [weak editor] removed, _ in
            if removed.contains(where: { $0 === editor }) { done.resolve(false) }
        }
        let destroyed = stack.observeDestruction { [weak editor] in  // window closed, app quit: keep what was typed
            if let editor, editor.commentView.text != current {
                drafts.cancelPendingSave()
                drafts.save(editor.photo, editor.commentView.text)
                keepsDraft = true
            }
            done.resolve(false)
        }
        stack.push(editor)
        let saved = await done.value(onCancel: { done.resolve(false) })
        drafts.cancelPendingSave()
        if !keepsDraft { drafts.remove() }
        popped.cancel()
        destroyed.cancel()
        if stack.pages.contains(where: { $0 === editor }) { stack.pop(to: detail) }
        if saved {
            let updated = try? store.post(id: post.id)  // read once, for the detail page and the feeds
            detail.setComment(updated?.comment ?? current)
            if let updated {
                for case let profile as ProfilePage in stack.pages { profile.update(updated) }
            }
        }
        finishFlow(.caption(saved: saved))
    }

    // MARK: - Messages

    /// Pushes the Messages page (``Route/messages``).
    @discardableResult
    public func showMessages() -> MessagesPage? {
        router.push(.messages) as? MessagesPage
    }

    /// The Messages page, with New Message.
    func makeMessagesPage() -> MessagesPage {
        let page = MessagesPage()
        reload(page)
        page.onNewMessage = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startFlow("New Message") { await self.sendMessage(from: page) }
        }
        page.onOpen = { [weak self, weak page] message in
            guard let self, let page else { return }
            self.open(message, from: page)
        }
        return page
    }

    /// The message caller runs the composed flow: Choose Recipient, then the photo flow as a step.
    private func sendMessage(from page: MessagesPage, resuming: (recipient: Person, photo: Photo, comment: String)? = nil) async {
        var stored: Message?
        let result = await SendPhotoMessageFlow.run(from: page, library: library, camera: camera,
                                                    drafts: { [store] person in Self.drafts(in: store, kind: "message", target: person.id) },
                                                    resuming: resuming) { [store] person, photo, comment in
            stored = try await store.addMessageInBackground(to: person.id, photo: photo, comment: comment, author: Person.me.id)
        }
        if case .sent = result, let stored { page.insertNewMessage(stored) }
        finishFlow(.message(result))
    }

    /// Presents a message's photo and comment modally: the detail page shows its own bar with Close.
    func open(_ message: Message, from page: MessagesPage) {
        let detail = Self.makeMessagePage(message)
        let dialog = ModalDialog(over: page, presenting: detail)
        detail.onOpenLink = { [weak self, weak detail] uri in
            guard let self, let detail else { return }
            self.openLink(uri, from: detail)
        }
        presentedMessage = dialog
        dialog.present()
        Task { [weak self, weak dialog] in
            await dialog?.dismissed()
            if self?.presentedMessage === dialog { self?.presentedMessage = nil }
            self?.openPendingLink()
        }
    }

    /// The detail page of a private message: its photo, comment, recipient and time.
    static func makeMessagePage(_ message: Message) -> PhotoDetailPage {
        let name = Person.named(message.recipient)?.name ?? message.recipient
        // Translators: the title of the page showing one private message (a noun).
        let title = localized("Message")
        // Translators: the subtitle under a message's title: whom it was sent to (%s is a person's name).
        let subtitle = localized("to %s", name)
        // Translators: when a message was sent; %s is a date and time, e.g. "7 Aug 2026, 14:05".
        let sent = localized("Sent %s", Self.timeText(message.createdAt))
        let page = PhotoDetailPage(title: title, subtitle: subtitle, photoPath: message.photoPath,
                                   comment: message.comment, detail: sent)
        page.subject = message.id
        return page
    }

}
