import Adwaita
import CGtk
import Gtk
import NavigationGtk
import NavigationWeb
import PhotoPosting
import PostcardApp
import PostcardModel

/// A walk through every screen for a UX review: drives the real app through its widgets as a user
/// would and saves pictures of the window at each screen (``ReviewGallery/screens``), rendered by GTK
/// itself, so it works under Xvfb with no window manager. At each screen it saves one picture per
/// ``ReviewVariant`` (light, dark and high-contrast style), as `DIR/<screen>/<part>-<variant>.png`. `postcard-review --review-tour DIR` runs it once per
/// ``ReviewPart`` (window width and scale) and makes the gallery (``ReviewGallery``).
@MainActor
enum ReviewTour {
    /// Runs the tour on `app`, then calls `finish(succeeded)` (which quits the app). A failure is
    /// printed to standard error. `part` sizes the main window first (nil: as it is); `variants` are
    /// saved at each screen. `onScreen` runs after each screen's pictures with the screen's name, while
    /// the screen still shows in the last variant (tests read it over AT-SPI there).
    static func run(app: AppController, into directory: FilePath, part: ReviewPart? = nil,
                    variants: [ReviewVariant] = [ReviewVariant(dark: false, rightToLeft: false)],
                    onScreen: (@MainActor (String) async -> Void)? = nil,
                    finish: @escaping @MainActor (Bool) -> Void) {
        Task.onMainLoop {
            do {
                var found: [LibraryPhoto] = []
                try await app.library.scan { found += $0 }
                let candidates = found
                let readable = try await ImageDecoder.queue.run {
                    candidates.filter { (try? ImageDecoder.header(uri: $0.photo.uri)) != nil }.map(\.photo)
                }
                guard readable.count >= 3 else {
                    throw ReviewError(message: "the tour needs at least 3 readable photos in \(app.library.directory); found \(readable.count)")
                }
                try Files.makeDirectory(directory)
                let tour = Tour(app: app, directory: directory, photos: readable.map(\.fileName), part: part, variants: variants,
                                onScreen: onScreen)
                try await tour.walk()
                StyleManager.default.colorScheme = .followDesktop
                print("Review pictures\(part.map { " (\($0.name))" } ?? "") saved in \(directory)")
                // Every screen has been used: Swift's global executor (libdispatch's pool) must not have been.
                let pool = ProcessThreads.globalExecutorThreads()
                print("Swift's global thread pool: \(pool.isEmpty ? "not started" : "started: " + pool.map(\.label).joined(separator: " "))")
                if let seconds = IdleAfterTour.seconds { try await IdleAfterTour.measure(app, seconds: seconds, photos: readable) }
                finish(true)
            } catch {
                PostcardMain.printError("postcard: review tour failed: \(error)")
                StyleManager.default.colorScheme = .followDesktop
                finish(false)
            }
        }
    }
}

extension ReviewTour {
    /// Replays `journey` on `app` (``JourneyReplayer``, as fast as the screens allow) and saves a picture
    /// of each step once its screen shows, in every one of `variants`, as the screen
    /// ``ReviewGallery/screens(of:title:)`` names it; then calls `finish(succeeded)`. `part` sizes the main
    /// window first, and the journal's own `window` steps are passed over. A step that cannot be replayed
    /// is printed to standard error, naming it, and the run fails.
    static func run(journey: Journey, title: String, app: AppController, into directory: FilePath, part: ReviewPart?,
                    variants: [ReviewVariant], finish: @escaping @MainActor (Bool) -> Void) {
        Task.onMainLoop {
            do {
                try Files.makeDirectory(directory)
                let screens = ReviewGallery.screens(of: journey, title: title)
                let tour = Tour(app: app, directory: directory, photos: [], part: part, variants: variants, onScreen: nil,
                                screenNames: Set(screens.map(\.name)))
                // Laid out once first: a default size set before the window's first layout is not kept.
                try await tour.waitUntil("main window") { app.mainWindow.window.isMapped && app.mainWindow.window.width > 0 }
                if let part {
                    app.mainWindow.window.setDefaultSize(width: part.width, height: part.height)
                    try await tour.waitUntil("width \(part.width)") { abs(app.mainWindow.window.width - part.width) <= 12 }
                }
                let replayer = JourneyReplayer(app: app, journey: journey, pace: .fast)
                replayer.followsWindowSteps = false
                var step = 0
                replayer.afterStep = { _ in
                    let screen = screens[step]
                    step += 1
                    try await tour.settle()
                    try await tour.save(tour.windowShown, screen.name)
                }
                try await replayer.run()
                StyleManager.default.colorScheme = .followDesktop
                print("Review pictures of \(screens.count) steps\(part.map { " (\($0.name))" } ?? "") saved in \(directory)")
                finish(true)
            } catch {
                PostcardMain.printError("postcard: review of the journey \(title) failed: \(error)")
                StyleManager.default.colorScheme = .followDesktop
                finish(false)
            }
        }
    }
}

extension Tour {
    /// The window on top: the discard question, a flow's or dialog's own window, else the main window
    /// (where a bottom sheet shows).
    var windowShown: Window {
        if let question = MessageDialog.shown().first, question.window.isMapped { return question.window }
        for dialog in [app.flowDialog, app.presentedMyCode, app.presentedScanner, app.presentedMessage].compactMap({ $0 })
        where !dialog.isDismissed && window(of: dialog).isMapped {
            return window(of: dialog)
        }
        return main
    }

    /// Waits until what the screen shows has loaded: the thumbnails of Choose a Photo, a post's photo,
    /// and no page moving, so that pictures of the same journey come out the same on every run.
    func settle() async throws {
        let stack = app.flowDialog?.stack ?? self.stack
        try await waitUntil("the pages to stop moving") { stack.transition == .idle && self.stack.transition == .idle }
        switch stack.visiblePage {
        case let picker as PhotoPickerPage: try await waitUntil("the thumbnails") { picker.hasSettled && picker.pendingThumbnails == 0 }
        case let detail as PhotoDetailPage: try await waitUntil("the photo") { detail.isPhotoLoaded }
        case let comment as CommentPage: try await waitUntil("the photo") { comment.hasDecodedPhoto || !comment.isPhotoReadable }
        case let profile as ProfilePage:
            try await waitUntil("the feed's photos") { profile.feedItems.allSatisfy { $0.card == nil || $0.isPhotoLoaded } }
        default: break
        }
    }
}

@MainActor
private struct Tour {
    let app: AppController
    let directory: FilePath
    /// Readable photos of the library, at least 3; the tour picks from these.
    let photos: [String]
    /// The main window's width and the scale; nil: the window as it is, no part name in file names.
    let part: ReviewPart?
    /// Saved at each screen.
    let variants: [ReviewVariant]
    /// Runs after each screen (see ``ReviewTour/run(app:into:part:variants:onScreen:finish:)``).
    let onScreen: (@MainActor (String) async -> Void)?
    /// The names ``save(_:_:overlays:settle:keepingToasts:)`` takes: the gallery's screens.
    var screenNames = Set(ReviewGallery.screens.map(\.name))
    func photo(_ preferred: String, else index: Int) -> String {
        photos.contains(preferred) ? preferred : photos[index % photos.count]
    }
    var main: Window { app.mainWindow.window }
    var stack: NavigationStack { app.mainWindow.stack }
    /// Where a flow's pages show: its own dialog window, or the main window with the flow as a bottom
    /// sheet in it (narrow windows; see ``ModalDialog/Style``).
    func window(of dialog: ModalDialog) -> Window { dialog.style == .bottomSheet ? main : dialog.window }

    func walk() async throws {
        try await waitUntil("main window") { main.isMapped }
        if let part {
            main.setDefaultSize(width: part.width, height: part.height)
            try await waitUntil("width \(part.width)") { abs(main.width - part.width) <= 12 }
        }
        try await save(main, "my-profile")
        app.primaryMenu.openMenu()
        try await waitUntil("the primary menu") { app.primaryMenu.isMenuOpen && app.primaryMenu.menuPopover?.isMapped == true }
        try await save(main, "primary-menu", overlays: [app.primaryMenu.menuPopover].compactMap { $0 })
        app.primaryMenu.closeMenu()
        try await waitUntil("the menu closed") { !app.primaryMenu.isMenuOpen }
        // Two earlier posts (stored as a flow stores them), so the feed runs under the bar at 1280 × 800 too.
        for (name, text) in [(photo("hubble_deep_field.jpg", else: 0), "Galaxies, as far as Hubble sees"),
                             (photo("retina.jpg", else: 1), "My eye doctor's best picture")] {
            let post = try app.store.addNow(photo: Photo(path: app.library.directory.appending(name)), comment: text,
                                         author: Identity.localID, profile: Identity.localID)
            app.myProfile.insertNewPost(post)
        }

        let dialog = try await openPhotoFlow(app.myProfile.postButton)
        try await save(window(of: dialog), "choose-a-photo")
        let comment = try await choose(photo("coffee.png", else: 0), in: dialog.stack)
        comment.commentView.insertAtCursor("First coffee of the day.\nPosted from Postcard.")
        try await save(window(of: dialog), "add-a-comment")
        try await waitUntil("Post enabled") { comment.postButton.isSensitive }
        // A post the database refuses (as a full disk would): the error shows and the text stays.
        try app.store.execute("CREATE TRIGGER review_refuse BEFORE INSERT ON posts BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        comment.postButton.activate()
        try await waitUntil("the failure") { comment.errorLabel.isVisible && comment.postButton.isSensitive }
        try await save(window(of: dialog), "add-a-comment-failed")
        try app.store.execute("DROP TRIGGER review_refuse")
        comment.errorLabel.isVisible = false
        // The draft can't be kept (a full disk): what the page says while Postcard keeps trying.
        comment.showDraftStatus(.notSaved(reason: localized("the disk is full")))
        try await save(window(of: dialog), "add-a-comment-not-saved")
        comment.showDraftStatus(.saved)
        // Near the limit on a comment's length: the counter.
        let typed = comment.commentView.text
        comment.commentView.insertAtCursor(" " + String(repeating: "More about this coffee. ", count: 87))
        try await save(window(of: dialog), "add-a-comment-near-the-limit")
        comment.commentView.text = typed
        try await saveMoreMenu(of: dialog, as: "add-a-comment-more-menu")
        comment.postButton.activate()
        try await waitUntil("the new post") { dialog.isDismissed && app.myProfile.feedItems.first?.isPhotoLoaded == true }
        try await waitUntil("the Posted toast") { app.toasts.shownButton(labeled: localized("View")) != nil }
        try await save(main, "my-profile-posted-toast", keepingToasts: true)
        try await save(main, "my-profile-with-post")

        let second = try await openPhotoFlow(app.myProfile.postButton)
        let draft = try await choose(photo("rocket.jpg", else: 1), in: second.stack)
        draft.commentView.insertAtCursor("Liftoff")
        second.cancelButton.activate()
        try await waitUntil("the discard question") { !MessageDialog.shown().isEmpty }
        try await save(MessageDialog.shown()[0].window, "discard-this-post")
        MessageDialog.shown()[0].keepButton.activate()
        draft.commentView.text = "Falcon 9 on the pad"
        try await waitUntil("Post enabled") { draft.postButton.isSensitive }
        draft.postButton.activate()
        try await waitUntil("the second post") { second.isDismissed && app.myProfile.posts.first?.comment == "Falcon 9 on the pad" }
        // The new post's row drawn with its photo first: a list keeps the row at the top in place when one
        // is inserted above it, so scrolling earlier would land a post further down on some runs.
        try await waitUntil("the second post's row") {
            app.myProfile.feedItems.first?.commentLabel.text == "Falcon 9 on the pad" && app.myProfile.feedItems.first?.isPhotoLoaded == true
        }
        try await waitUntil("the feed taller than the window") { app.myProfile.scroller.maximumVerticalOffset >= 260 }
        app.myProfile.scroller.verticalOffset = 260
        try await waitUntil("scrolled") { abs(app.myProfile.scroller.verticalOffset - 260) < 1 }
        try await save(main, "my-profile-scrolled-under-the-bar", settle: .seconds(3.2))
        app.myProfile.scroller.verticalOffset = 0

        // Choose a Photo over an empty folder and over one with a damaged photo.
        let library = app.library
        let empty = app.store.directory.appending("review-empty-library")
        let damaged = app.store.directory.appending("review-damaged-library")
        try Files.makeDirectory(empty)
        try Files.makeDirectory(damaged)
        try Files.writeText("not a photo", to: damaged.appending("damaged.jpg"))
        try Files.copy(library.directory.appending(photo("chelsea.png", else: 2)), to: damaged.appending(photo("chelsea.png", else: 2)))
        for (folder, name) in [(empty, "choose-a-photo-no-photos"), (damaged, "choose-a-photo-damaged-photo")] {
            app.switchLibrary(to: PhotoLibrary(directory: folder))
            let flow = try await openPhotoFlow(app.myProfile.postButton)
            try await save(window(of: flow), name, settle: .seconds(3.2))
            flow.cancelButton.activate()
            try await waitUntil("the flow closed") { flow.isDismissed && app.activeFlow == nil }
        }
        app.switchLibrary(to: library)

        app.myProfile.friendButtons.first?.activate()
        try await waitForStack(depth: 2)
        try await save(main, "friend-profile")
        stack.backButton.activate()
        try await waitForStack(depth: 1)

        app.myProfile.activatePost(at: 1)  // the first post the tour made in New Post
        try await waitForStack(depth: 2)
        let detail = stack.visiblePage as! PhotoDetailPage
        try await waitUntil("the detail photo") { detail.isPhotoLoaded }
        try await save(main, "post-detail-pushed")

        try await activateButton("Comments", in: detail)
        try await waitForStack(depth: 3)
        let thread = stack.visiblePage as! CommentThreadPage
        try await save(main, "comments")
        stack.showHistoryMenu()
        try await waitUntil("the history menu") { stack.historyMenu.isOpen && stack.historyMenu.isMapped }
        try await save(main, "back-history-menu", overlays: [stack.historyMenu])
        stack.historyMenu.popdown()
        try await waitUntil("the history menu closed") { !stack.historyMenu.isOpen }
        thread.replyButton.activate()
        try await waitUntil("the reply flow") { (stack.visiblePage as? PhotoPickerPage)?.pendingThumbnails == 0 && stack.transition == .idle }
        try await save(main, "choose-a-photo-reply-pushed")
        let reply = try await choose(photo("chelsea.png", else: 2), in: stack)
        reply.commentView.insertAtCursor("Chelsea approves.")
        try await save(main, "add-a-comment-reply-pushed")
        try await waitUntil("Post enabled") { reply.postButton.isSensitive }
        reply.postButton.activate()
        try await waitUntil("the reply") { thread.replyRows.count == 1 && stack.visiblePage === thread && stack.transition == .idle }
        try await save(main, "comments-with-reply")
        stack.backButton.activate()
        try await waitForStack(depth: 2)

        try await activateBarButton(localized("Edit Caption"))  // found by its label, in the language shown
        try await waitForStack(depth: 3)
        try await save(main, "edit-caption")
        stack.popToRoot()
        try await waitForStack(depth: 1)

        app.messagesButton.activate()
        try await waitForStack(depth: 2)
        let messages = stack.visiblePage as! MessagesPage
        try await save(main, "messages")
        messages.newMessageButton.activate()
        try await waitUntil("Choose Recipient") { app.flowDialog?.stack.visiblePage is ChooseRecipientPage }
        let messageDialog = app.flowDialog!
        try await save(window(of: messageDialog), "choose-recipient")
        (messageDialog.stack.visiblePage as! ChooseRecipientPage).friendButtons[1].activate()
        try await waitUntil("the photo step") {
            (messageDialog.stack.visiblePage as? PhotoPickerPage)?.pendingThumbnails == 0 && messageDialog.stack.transition == .idle
        }
        try await save(window(of: messageDialog), "choose-a-photo-message")
        let note = try await choose(photo("astronaut.png", else: 0), in: messageDialog.stack)
        note.commentView.insertAtCursor("Look who I met!")
        try await save(window(of: messageDialog), "add-a-comment-message")
        try await waitUntil("Post enabled") { note.postButton.isSensitive }
        note.postButton.activate()
        try await waitUntil("the message") { messageDialog.isDismissed && messages.rows.count == 1 }
        try await save(main, "messages-with-message")

        messages.rows[0].openButton.activate()
        try await waitUntil("the message detail") { app.presentedMessage?.root.view.isMapped == true }
        let presented = app.presentedMessage!
        try await waitUntil("its photo") { (presented.root as? PhotoDetailPage)?.isPhotoLoaded == true }
        try await save(window(of: presented), "post-detail-presented")  // a bottom sheet in a narrow window
        presented.closeButton.activate()
        try await waitUntil("the message closed") { app.presentedMessage == nil || presented.isDismissed }

        // The camera (use `--camera test` where there is none): pushed in the flow, then alone as Quick Snap.
        stack.popToRoot()
        try await waitForStack(depth: 1)
        let cameraFlow = try await openPhotoFlow(app.myProfile.postButton)
        (cameraFlow.stack.visiblePage as! PhotoPickerPage).takePhotoButton.activate()
        _ = try await waitForCamera(in: cameraFlow.stack)
        try await save(window(of: cameraFlow), "camera-pushed")
        cameraFlow.cancelButton.activate()
        try await waitUntil("the flow closed") { cameraFlow.isDismissed && app.activeFlow == nil }
        app.myProfile.quickSnapButton?.activate()
        try await waitUntil("Quick Snap") { app.flowDialog?.stack.visiblePage is CameraPage }
        let quickSnap = app.flowDialog!
        let alone = try await waitForCamera(in: quickSnap.stack)
        try await save(window(of: quickSnap), "camera-presented")
        if alone.problem == nil {
            alone.shutterButton.activate()
            try await waitUntil("Add a Comment after the shot") { quickSnap.stack.visiblePage is CommentPage && quickSnap.stack.transition == .idle }
            try await save(window(of: quickSnap), "add-a-comment-after-quick-snap")
        }
        // Close on the camera's own bar, Cancel above it (nothing typed: either closes at once).
        (quickSnap.stack.pages.count > 1 ? quickSnap.cancelButton : quickSnap.closeButton).activate()
        try await waitUntil("Quick Snap closed") { quickSnap.isDismissed }
        // The problem state, as a camera that is not there shows it.
        let missing = CameraPage(settings: CameraSettings(sources: [.device(path: "/dev/video99")],
                                                          captureDirectory: app.camera.captureDirectory))
        let missingDialog = ModalDialog(over: app.myProfile, presenting: missing)
        missingDialog.present()
        _ = try await waitForCamera(in: nil, page: missing)
        try await save(window(of: missingDialog), "camera-no-camera")
        missingDialog.dismiss()

        // The guide under the translucent bar: at the top, scrolled, and presented alone over the flow.
        guard let guide = app.showGuide() else { throw ReviewError(message: "the guide is missing") }
        try await waitForWebPage(guide)
        try await save(main, "web-page-pushed", settle: .seconds(3.2))
        _ = try await guide.evaluateJavaScript("window.scrollTo(0, 240); 0")
        try await save(main, "web-page-scrolled-under-the-bar", settle: .seconds(3.2))
        stack.popToRoot()
        try await waitForStack(depth: 1)
        let flow = try await openPhotoFlow(app.myProfile.postButton)
        guard let presentedGuide = app.presentGuide(section: "posting", over: flow.stack.visiblePage!) else {
            throw ReviewError(message: "the guide is missing")
        }
        try await waitForWebPage(presentedGuide.root as! WebPage)
        try await save(window(of: presentedGuide), "web-page-presented", settle: .seconds(3.2))
        presentedGuide.dismiss()
        flow.cancelButton.activate()
        try await waitUntil("the flow closed") { flow.isDismissed && app.activeFlow == nil }
        // A page that cannot load.
        let failing = WebPage(uri: "http://127.0.0.1:9/")  // a port WebKit refuses
        stack.push(failing)
        try await waitUntil("the error page") { failing.loadError != nil && stack.transition == .idle }
        try await save(main, "web-page-failed-to-load", settle: .seconds(3.2))
        stack.popToRoot()
        try await waitForStack(depth: 1)

        // Keyboard Shortcuts and About, from the primary menu.
        app.primaryMenu.activateItem(localized("Keyboard Shortcuts"))  // found by its label, in the language shown
        try await waitUntil("Keyboard Shortcuts") { app.shortcutsWindow?.isMapped == true }
        try await save(app.shortcutsWindow!, "keyboard-shortcuts")
        app.shortcutsWindow?.destroy()
        app.primaryMenu.activateItem(localized("About Postcard"))
        try await waitUntil("About") { app.aboutWindow?.isMapped == true }
        try await save(app.aboutWindow!, "about")
        app.aboutWindow?.destroy()

        // Links from outside: a post on a friend's profile opens above that profile, and a link to a post
        // that is gone opens Not Found.
        let friend = app.people.friendPeople[0]
        let onFriends = try app.store.addNow(photo: Photo(path: app.library.directory.appending(photo("rocket.jpg", else: 1))),
                                          comment: "For \(friend.name): postcard://profile/\(friend.id)",
                                          author: Identity.localID, profile: friend.id)
        try await waitUntil("About closed") { !app.isBusyWithAFlowOrDialog }
        app.open(link: Route.post(onFriends.id).link)
        try await waitForStack(depth: 3)
        let linked = stack.visiblePage as! PhotoDetailPage
        try await waitUntil("the linked post's photo") { linked.isPhotoLoaded }
        try await save(main, "post-opened-by-link")
        app.open(link: Route.comments(999_999).link)
        try await waitForStack(depth: 2)
        try await save(main, "link-not-found")
        stack.popToRoot()
        try await waitForStack(depth: 1)

        // Delete on a post's page: the page goes, and a toast offers Undo; Undo brings the post back.
        app.open(link: Route.post(onFriends.id).link)
        try await waitForStack(depth: 3)
        let doomed = stack.visiblePage as! PhotoDetailPage
        try await waitUntil("the post's photo") { doomed.isPhotoLoaded }
        try await activateButton(localized("Delete"), in: doomed)
        try await waitForStack(depth: 2)
        try await waitUntil("Undo") { app.toasts.shownButton(labeled: localized("Undo")) != nil }
        try await save(main, "post-deleted-undo", keepingToasts: true)
        guard let undo = app.toasts.shownButton(labeled: localized("Undo")) else {
            throw ReviewError(message: "Undo went before it was pressed")
        }
        undo.activate()
        try await waitUntil("the post back") { (try? app.store.post(id: onFriends.id)) != nil }
        stack.popToRoot()
        try await waitForStack(depth: 1)
        try await walkFriendsAndCodes()
    }

    /// Scan a Code presented alone (looking, a code read, no camera), My Code, and Add Friend with the
    /// scanner pushed (a code refused) and New Friend. The camera is a still picture (`--camera image:`),
    /// so each picture is the same every run: a photo with no code in it, then QR codes made by the app's
    /// own encoder.
    func walkFriendsAndCodes() async throws {
        let folder = app.store.directory.appending("review-codes")
        try Files.makeDirectory(folder)
        func picture(_ name: String, of text: String) throws -> CameraSource {
            let path = folder.appending(name)
            guard try QRCode(encoding: text).texture(modulePixels: 10)?.save(toPNG: path) == true else {
                throw ReviewError(message: "can't write \(path)")
            }
            return .image(path: path.string ?? "")
        }
        let cameraBefore = app.camera.sources
        defer { if let source = cameraBefore.first { app.switchCamera(to: source) } }

        func presented(_ dialog: () -> ModalDialog?) async throws -> ModalDialog {
            try await waitUntil("presented") { dialog()?.root.view.isMapped == true && dialog()?.stack.transition == .idle }
            return dialog()!
        }
        func scanner(until state: @escaping (ScanCodePage.State) -> Bool) async throws -> ModalDialog {
            try await waitUntil("nothing open over the main window") { !app.isBusyWithAFlowOrDialog }
            guard app.presentScanner() != nil else { throw ReviewError(message: "Scan a Code was not presented") }
            let dialog = try await presented { app.presentedScanner }
            let page = dialog.root as! ScanCodePage
            try await waitUntil("Scan a Code's state") { state(page.state) }
            return dialog
        }
        func close(_ dialog: ModalDialog) async throws {
            dialog.dismiss()
            try await waitUntil("closed") { !app.isBusyWithAFlowOrDialog }
        }

        app.switchCamera(to: .image(path: app.library.directory.appending(photo("coffee.png", else: 0)).string ?? ""))
        var dialog = try await scanner { $0 == .looking }
        try await save(window(of: dialog), "scan-a-code")
        try await close(dialog)

        app.switchCamera(to: try picture("text.png", of: "Meet at the north entrance at 10:30"))
        dialog = try await scanner { if case .read = $0 { true } else { false } }
        try await save(window(of: dialog), "scan-a-code-read")
        try await close(dialog)

        app.switchCamera(to: .device(path: "/dev/video-review-none"))
        dialog = try await scanner { if case .problem = $0 { true } else { false } }
        try await save(window(of: dialog), "scan-a-code-no-camera")
        try await close(dialog)

        try await waitUntil("nothing open over the main window") { !app.isBusyWithAFlowOrDialog }
        guard app.presentMyCode() != nil else { throw ReviewError(message: "My Code was not presented") }
        dialog = try await presented { app.presentedMyCode }
        try await save(window(of: dialog), "my-code")
        try await close(dialog)

        // Add Friend: a code that is not a Postcard code is refused on the pushed scanner; a friend's goes on.
        app.switchCamera(to: try picture("web.png", of: "https://example.org/postcard"))
        app.startAddFriend()
        try await waitUntil("Add Friend") { app.flowDialog?.stack.visiblePage is AddFriendPage && app.flowDialog?.stack.transition == .idle }
        dialog = app.flowDialog!
        try await save(window(of: dialog), "add-friend")
        (dialog.stack.visiblePage as! AddFriendPage).scanButton.activate()
        try await waitUntil("refused") {
            guard let page = dialog.stack.visiblePage as? ScanCodePage, dialog.stack.transition == .idle else { return false }
            if case .refused = page.state { return true }
            return false
        }
        try await save(window(of: dialog), "add-friend-not-a-postcard-code")
        dialog.stack.goBack()
        try await waitUntil("Add Friend again") { dialog.stack.visiblePage is AddFriendPage && dialog.stack.transition == .idle }
        app.switchCamera(to: try picture("friend.png", of: FriendCode(id: "3e8c5d1a-7b2f-4c69-8d04-b5a1f6e9c270", name: "Mei Chen").link))
        dialog.cancelButton.activate()
        try await waitUntil("canceled") { !app.isBusyWithAFlowOrDialog }
        app.startAddFriend()
        try await waitUntil("Add Friend") { app.flowDialog?.stack.visiblePage is AddFriendPage && app.flowDialog?.stack.transition == .idle }
        dialog = app.flowDialog!
        (dialog.stack.visiblePage as! AddFriendPage).scanButton.activate()
        try await waitUntil("New Friend") { dialog.stack.visiblePage is NewFriendPage && dialog.stack.transition == .idle }
        try await save(window(of: dialog), "add-friend-new-friend")
        dialog.cancelButton.activate()
        try await waitUntil("canceled") { !app.isBusyWithAFlowOrDialog }
    }

    /// Saves `dialog`'s bar with its overflow menu (More) open, as screen `name`: in a window 360 px
    /// wide, as a phone has (a flow in its own window is made that narrow for it, then given its width
    /// back), where the bar's end buttons and, while Back shows, Cancel are in More.
    func saveMoreMenu(of dialog: ModalDialog, as name: String) async throws {
        let bar = dialog.stack.headerBar
        let (width, height) = (dialog.window.width, dialog.window.height)
        if dialog.style == .window {
            dialog.window.setDefaultSize(width: 360, height: height)
            try await waitUntil("the flow's window 360 px wide") { abs(dialog.window.width - 360) <= 12 }
        }
        try await waitUntil("items in More") { bar.overflowCount > 0 && bar.moreButton.isMapped }
        bar.moreButton.openMenu()
        try await waitUntil("More open") { bar.moreButton.isMenuOpen && bar.moreButton.menuPopover?.isMapped == true }
        try await save(window(of: dialog), name, overlays: [bar.moreButton.menuPopover].compactMap { $0 })
        bar.moreButton.closeMenu()
        try await waitUntil("More closed") { !bar.moreButton.isMenuOpen }
        if dialog.style == .window {
            dialog.window.setDefaultSize(width: width, height: height)
            do {
                try await waitUntil("the flow's window as wide as before") { abs(dialog.window.width - width) <= 12 && bar.overflowCount == 0 }
            } catch {
                throw ReviewError(message: "\(error): \(dialog.window.width) px wide (was \(width)), \(bar.overflowCount) in More")
            }
        }
    }

    func waitForWebPage(_ page: WebPage) async throws {
        try await waitUntil("the web page") { !page.isLoading && page.loadError == nil && stack.transition == .idle }
        await MainLoopBridge.sleep(seconds: 0.6)  // painted
    }

    // MARK: - Steps

    /// Waits until the Camera page on `stack` (or `page`) shows frames or a problem.
    @discardableResult
    func waitForCamera(in stack: NavigationStack?, page: CameraPage? = nil) async throws -> CameraPage {
        try await waitUntil("the camera") {
            guard let camera = page ?? stack?.visiblePage as? CameraPage else { return false }
            return camera.problem != nil || ((camera.camera?.frameCount ?? 0) >= 3 && stack?.transition ?? .idle == .idle)
        }
        return page ?? stack!.visiblePage as! CameraPage
    }

    func openPhotoFlow(_ button: Button) async throws -> ModalDialog {
        button.activate()
        try await waitUntil("Choose a Photo") {
            guard let picker = app.flowDialog?.stack.visiblePage as? PhotoPickerPage else { return false }
            return !picker.isScanning && picker.pendingThumbnails == 0
        }
        return app.flowDialog!
    }

    func choose(_ name: String, in stack: NavigationStack) async throws -> CommentPage {
        let picker = stack.visiblePage as! PhotoPickerPage
        guard let index = picker.photos.firstIndex(where: { $0.fileName == name }) else {
            throw ReviewError(message: "\(name) is not in the grid")
        }
        picker.grid.activateItem(at: index)
        try await waitUntil("Add a Comment") { stack.visiblePage is CommentPage && stack.transition == .idle }
        return stack.visiblePage as! CommentPage
    }

    /// Activates the button reading `label` among `page`'s actions (under the photo).
    func activateButton(_ label: String, in page: PhotoDetailPage) async throws {
        var index = 0
        while let button = page.actions.child(at: index) {
            if String(cString: navgtk_type_name_of(button)) == "GtkButton",
               let text = gtk_button_get_label(UnsafeMutableRawPointer(button).assumingMemoryBound(to: GtkButton.self)),
               String(cString: text).filter({ $0 != "_" }) == label {
                Widget(UnsafeMutableRawPointer(button), transfer: .none).activate()
                return
            }
            index += 1
        }
        throw ReviewError(message: "no \(label) button")
    }

    func activateBarButton(_ label: String) async throws {
        guard let item = stack.visiblePage?.endBarItems.first(where: { ($0 as? Button)?.label == label }) else {
            throw ReviewError(message: "no \(label) in the bar")
        }
        // In a narrow window it may be in the bar's overflow menu: chosen there, as a user would.
        if !item.isMapped, stack.headerBar.moreButton.activateItem(label) { return }
        item.activate()
    }

    func waitForStack(depth: Int) async throws {
        try await waitUntil("\(depth) pages") { stack.pages.count == depth && stack.transition == .idle }
    }

    /// Saves `window` (with `overlays`, open popovers) in every variant's style as the screen `name` of
    /// ``ReviewGallery/screens``, then runs ``onScreen``.
    /// `settle`: how long the first variant waits; a scrolled list or page waits for GTK's and WebKit's
    /// scroll indicators to fade (about 3 s), so that the picture is the same on every run.
    ///
    /// `keepingToasts`: the screen shows the toast that is up (a toast screen); it must last through every
    /// variant's picture (a toast goes after 5 s), else this throws rather than save pictures that differ.
    /// The caller then deals with it (presses its button), as the next screen dismisses it.
    func save(_ window: Window, _ name: String, overlays: [Widget] = [], settle: Duration = .milliseconds(400),
              keepingToasts: Bool = false) async throws {
        guard screenNames.contains(name) else {
            throw ReviewError(message: "\(name) is not one of the gallery's screens")
        }
        let folder = directory.appending(name)
        try Files.makeDirectory(folder)
        // A toast goes by itself after 5 seconds: whether one still shows would depend on how fast the tour
        // ran. Each screen is saved without the toasts of earlier steps (they slide away while it settles).
        let shownToasts = keepingToasts ? app.toasts.toasts : []
        if !keepingToasts { for toast in app.toasts.toasts { toast.dismiss() } }
        for (index, variant) in variants.enumerated() {
            StyleManager.default.colorScheme = variant.dark ? .forceDark : .forceLight  // the text direction is the part's, set before the app was built
            try await Self.useHighContrast(variant.highContrast)
            await MainLoopBridge.sleep(seconds: index == 0 ? settle.seconds : 0.3)  // restyled, laid out and drawn
            // In the frame GTK paints next: outside a frame the window may have dropped its drawing (a web
            // page or a scroll indicator asked to be drawn again), and there would be nothing to save.
            let file = folder.appending(ReviewGallery.fileName(part: part, variant: variant))
            try await window.saveSnapshotOfNextFrame(toPNG: file, overlays: overlays)
        }
        if keepingToasts {
            guard !shownToasts.isEmpty, !shownToasts.contains(where: \.isDismissed) else {
                throw ReviewError(message: "\(name): the toast went before all its pictures were saved")
            }
        } else {
            for toast in app.toasts.toasts { toast.dismiss() }  // one that came while the pictures were taken
        }
        await onScreen?(name)  // in the last variant; the walk goes on in it (the next screen sets its own)
    }

    /// Turns the desktop's high-contrast setting on or off as the desktop would (GSettings, which
    /// libadwaita follows; the gallery runs on GSettings' memory backend, so no real setting changes), and
    /// waits until libadwaita has restyled.
    static func useHighContrast(_ on: Bool) async throws {
        guard StyleManager.default.isHighContrast != on else { return }
        guard g_getenv("GSETTINGS_BACKEND").map({ String(cString: $0) }) == "memory" else {
            throw ReviewError(message: "the high-contrast pictures change the desktop's settings: run with GSETTINGS_BACKEND=memory (make review does)")
        }
        let settings = g_settings_new("org.gnome.desktop.a11y.interface")!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        g_settings_set_boolean(settings, "high-contrast", on ? 1 : 0)
        for _ in 0..<100 where StyleManager.default.isHighContrast != on { await MainLoopBridge.sleep(seconds: 0.02) }
    }

    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<200 {
            if condition() { return }
            await MainLoopBridge.sleep(seconds: 0.05)
        }
        throw ReviewError(message: "timed out waiting for \(what)")
    }
}

/// Why the tour or the gallery could not go on (said on standard error).
struct ReviewError: Error, CustomStringConvertible {
    /// What went wrong.
    let message: String
    var description: String { message }
}

private extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
