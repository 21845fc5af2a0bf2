import CGtk
import Gtk
import NavigationGtk
import NavigationWeb
import PhotoPosting

/// A walk through every screen for a UX review (`postcard --review-tour DIR`): drives the real app
/// through its widgets as a user would and saves a PNG of the window at each step in `DIR` (rendered by
/// GTK itself, so it works under Xvfb with no window manager), then quits. Covers My Profile, New Post
/// (Choose a Photo, Add a Comment, the discard question), the feed scrolled under the bar, a friend's
/// profile, the Post detail pushed (at 360 and 1280 px wide), Comments with a reply flow pushed in
/// place, Edit Caption, Messages with the composed message flow, a message's detail presented
/// modally (at 360 and 1280 px), the Camera pushed in the flow and alone as Quick Snap, the
/// no-camera state, the guide pushed (at the top and scrolled under the bar) and presented over the
/// photo flow, and a web page that failed to load.
@MainActor
enum ReviewTour {
    /// Runs the tour on `app`, then calls `finish(succeeded)` (which quits the app). A failure is
    /// printed to standard error. `onScreen` runs after each screenshot with its file name, while the
    /// screen still shows (tests read it over AT-SPI there).
    static func run(app: AppController, into directory: FilePath, onScreen: (@MainActor (String) async -> Void)? = nil,
                    finish: @escaping @MainActor (Bool) -> Void) {
        Task {
            do {
                var found: [LibraryPhoto] = []
                try await app.library.scan { found += $0 }
                let candidates = found
                let readable = try await ImageDecoder.queue.run {
                    candidates.filter { (try? ImageDecoder.header(uri: $0.photo.uri)) != nil }.map(\.photo)
                }
                guard readable.count >= 3 else {
                    throw AppOptionsError(message: "the tour needs at least 3 readable photos in \(app.library.directory); found \(readable.count)")
                }
                try Files.makeDirectory(directory)
                try await Tour(app: app, directory: directory, photos: readable.map(\.fileName), onScreen: onScreen).walk()
                print("Review screenshots saved in \(directory)")
                finish(true)
            } catch {
                PostcardMain.printError("postcard: review tour failed: \(error)")
                finish(false)
            }
        }
    }
}

@MainActor
private struct Tour {
    let app: AppController
    let directory: FilePath
    /// Readable photos of the library, at least 3; the tour picks from these.
    let photos: [String]
    /// Runs after each screenshot (see ``ReviewTour/run(app:into:onScreen:finish:)``).
    let onScreen: (@MainActor (String) async -> Void)?
    func photo(_ preferred: String, else index: Int) -> String {
        photos.contains(preferred) ? preferred : photos[index % photos.count]
    }
    var main: Window { app.mainWindow.window }
    var stack: NavigationStack { app.mainWindow.stack }

    func walk() async throws {
        try await waitUntil("main window") { main.isMapped }
        try await save(main, "01-my-profile.png")

        let dialog = try await openPhotoFlow(app.myProfile.postButton)
        try await save(dialog.window, "02-choose-a-photo.png")
        let comment = try await choose(photo("coffee.png", else: 0), in: dialog.stack)
        comment.commentView.insertAtCursor("First coffee of the day.\nPosted from Postcard.")
        try await save(dialog.window, "03-add-a-comment.png")
        try await waitUntil("Post enabled") { comment.postButton.isSensitive }
        comment.postButton.activate()
        try await waitUntil("the new post") { dialog.isDismissed && app.myProfile.feedItems.first?.isPhotoLoaded == true }
        try await save(main, "04-my-profile-with-post.png")

        let second = try await openPhotoFlow(app.myProfile.postButton)
        let draft = try await choose(photo("rocket.jpg", else: 1), in: second.stack)
        draft.commentView.insertAtCursor("Liftoff")
        second.cancelButton.activate()
        try await waitUntil("the discard question") { !ConfirmationDialog.open.isEmpty }
        try await save(ConfirmationDialog.open[0].window, "05-discard-this-post.png")
        ConfirmationDialog.open[0].keepButton.activate()
        draft.commentView.text = "Falcon 9 on the pad"
        try await waitUntil("Post enabled") { draft.postButton.isSensitive }
        draft.postButton.activate()
        try await waitUntil("the second post") { second.isDismissed && app.myProfile.posts.first?.comment == "Falcon 9 on the pad" }
        try await waitUntil("the feed taller than the window") { app.myProfile.scroller.maximumVerticalOffset >= 260 }
        app.myProfile.scroller.verticalOffset = 260
        try await save(main, "06-feed-scrolled-under-the-bar.png")
        app.myProfile.scroller.verticalOffset = 0

        app.myProfile.friendButtons.first?.activate()
        try await waitForStack(depth: 2)
        try await save(main, "07-friend-profile.png")
        stack.backButton.activate()
        try await waitForStack(depth: 1)

        app.myProfile.activatePost(at: 1)  // the first post of the tour
        try await waitForStack(depth: 2)
        let detail = stack.visiblePage as! PhotoDetailPage
        try await waitUntil("the detail photo") { detail.isPhotoLoaded }
        try await save(main, "08-post-detail-pushed.png")
        for width: Int32 in [360, 1280] {
            main.setDefaultSize(width: width, height: 720)
            try await waitUntil("width \(width)") { abs(main.width - width) <= 12 }
            try await save(main, "08-post-detail-pushed-\(width)px.png")
        }
        main.setDefaultSize(width: 720, height: 800)

        try await activateButton("Comments", in: detail)
        try await waitForStack(depth: 3)
        let thread = stack.visiblePage as! CommentThreadPage
        try await save(main, "09-comments.png")
        thread.replyButton.activate()
        try await waitUntil("the reply flow") { (stack.visiblePage as? PhotoPickerPage)?.pendingThumbnails == 0 && stack.transition == .idle }
        try await save(main, "10-reply-choose-a-photo-pushed.png")
        let reply = try await choose(photo("chelsea.png", else: 2), in: stack)
        reply.commentView.insertAtCursor("Chelsea approves.")
        try await save(main, "11-reply-add-a-comment-pushed.png")
        try await waitUntil("Post enabled") { reply.postButton.isSensitive }
        reply.postButton.activate()
        try await waitUntil("the reply") { thread.replyRows.count == 1 && stack.visiblePage === thread && stack.transition == .idle }
        try await save(main, "12-comments-with-reply.png")
        stack.backButton.activate()
        try await waitForStack(depth: 2)

        try await activateBarButton(localized("Edit Caption"))  // found by its label, in the language shown
        try await waitForStack(depth: 3)
        try await save(main, "13-edit-caption.png")
        stack.popToRoot()
        try await waitForStack(depth: 1)

        app.messagesButton.activate()
        try await waitForStack(depth: 2)
        let messages = stack.visiblePage as! MessagesPage
        try await save(main, "14-messages.png")
        messages.newMessageButton.activate()
        try await waitUntil("Choose Recipient") { SendPhotoMessageFlow.current?.stack.visiblePage is ChooseRecipientPage }
        let messageDialog = SendPhotoMessageFlow.current!
        try await save(messageDialog.window, "15-choose-recipient.png")
        (messageDialog.stack.visiblePage as! ChooseRecipientPage).friendButtons[1].activate()
        try await waitUntil("the photo step") {
            (messageDialog.stack.visiblePage as? PhotoPickerPage)?.pendingThumbnails == 0 && messageDialog.stack.transition == .idle
        }
        try await save(messageDialog.window, "16-message-choose-a-photo.png")
        let note = try await choose(photo("astronaut.png", else: 0), in: messageDialog.stack)
        note.commentView.insertAtCursor("Look who I met!")
        try await save(messageDialog.window, "17-message-add-a-comment.png")
        try await waitUntil("Post enabled") { note.postButton.isSensitive }
        note.postButton.activate()
        try await waitUntil("the message") { messageDialog.isDismissed && messages.rows.count == 1 }
        try await save(main, "18-messages-with-message.png")

        messages.rows[0].openButton.activate()
        try await waitUntil("the message detail") { app.presentedMessage?.window.isMapped == true }
        let presented = app.presentedMessage!
        try await waitUntil("its photo") { (presented.page as? PhotoDetailPage)?.isPhotoLoaded == true }
        for width: Int32 in [360, 1280] {
            presented.window.setDefaultSize(width: width, height: 640)
            try await waitUntil("dialog width \(width)") { abs(presented.window.width - width) <= 12 }
            try await save(presented.window, "19-message-detail-modal-\(width)px.png")
        }
        presented.closeButton.activate()
        try await waitUntil("the message closed") { app.presentedMessage == nil || presented.isDismissed }

        // The camera (use `--camera test` where there is none): pushed in the flow, then alone as Quick Snap.
        stack.popToRoot()
        try await waitForStack(depth: 1)
        let cameraFlow = try await openPhotoFlow(app.myProfile.postButton)
        (cameraFlow.stack.visiblePage as! PhotoPickerPage).takePhotoButton.activate()
        let pushed = try await waitForCamera(in: cameraFlow.stack)
        try await save(cameraFlow.window, pushed.problem == nil ? "20-camera-pushed.png" : "20-camera-pushed-no-camera.png")
        cameraFlow.cancelButton.activate()
        try await waitUntil("the flow closed") { cameraFlow.isDismissed && app.activeFlow == nil }
        app.myProfile.quickSnapButton?.activate()
        try await waitUntil("Quick Snap") { CommentedPhotoFlow.current?.stack.visiblePage is CameraPage }
        let quickSnap = CommentedPhotoFlow.current!
        let alone = try await waitForCamera(in: quickSnap.stack)
        try await save(quickSnap.window, alone.problem == nil ? "21-quick-snap.png" : "21-quick-snap-no-camera.png")
        if alone.problem == nil {
            alone.shutterButton.activate()
            try await waitUntil("Add a Comment after the shot") { quickSnap.stack.visiblePage is CommentPage && quickSnap.stack.transition == .idle }
            try await save(quickSnap.window, "22-quick-snap-add-a-comment.png")
        }
        // Close on the camera's own bar, Cancel above it (nothing typed: either closes at once).
        (quickSnap.stack.pages.count > 1 ? quickSnap.cancelButton : quickSnap.closeButton).activate()
        try await waitUntil("Quick Snap closed") { quickSnap.isDismissed }
        // The problem state, as a camera that is not there shows it.
        let missing = CameraPage(settings: CameraSettings(sources: [.device(path: "/dev/video99")],
                                                          captureDirectory: app.camera.captureDirectory))
        let missingDialog = PageDialog(over: app.myProfile, presenting: missing)
        missingDialog.present()
        _ = try await waitForCamera(in: nil, page: missing)
        try await save(missingDialog.window, "23-no-camera.png")
        missingDialog.dismiss()

        // The guide under the translucent bar: at the top, scrolled, and presented alone over the flow.
        guard let guide = app.showGuide() else { throw AppOptionsError(message: "the guide is missing") }
        try await waitForWebPage(guide)
        try await save(main, "24-guide-pushed.png")
        _ = try await guide.evaluateJavaScript("window.scrollTo(0, 240); 0")
        try await save(main, "25-guide-scrolled-under-the-bar.png")
        stack.popToRoot()
        try await waitForStack(depth: 1)
        let flow = try await openPhotoFlow(app.myProfile.postButton)
        guard let presentedGuide = app.presentGuide(section: "posting", over: flow.stack.visiblePage!) else {
            throw AppOptionsError(message: "the guide is missing")
        }
        try await waitForWebPage(presentedGuide.page as! WebPage)
        try await save(presentedGuide.window, "26-guide-presented-from-the-photo-flow.png")
        presentedGuide.dismiss()
        flow.cancelButton.activate()
        try await waitUntil("the flow closed") { flow.isDismissed && app.activeFlow == nil }
        // A page that cannot load.
        let failing = WebPage(uri: "http://127.0.0.1:9/")  // a port WebKit refuses
        stack.push(failing)
        try await waitUntil("the error page") { failing.loadError != nil && stack.transition == .idle }
        try await save(main, "27-web-page-failed-to-load.png")
        stack.popToRoot()
        try await waitForStack(depth: 1)

        // Keyboard Shortcuts and About, from the primary menu.
        app.primaryMenu.activateItem(localized("Keyboard Shortcuts"))  // found by its label, in the language shown
        try await waitUntil("Keyboard Shortcuts") { app.shortcutsWindow?.isMapped == true }
        try await save(app.shortcutsWindow!, "28-keyboard-shortcuts.png")
        app.shortcutsWindow?.destroy()
        app.primaryMenu.activateItem(localized("About Postcard"))
        try await waitUntil("About") { app.aboutWindow?.isMapped == true }
        try await save(app.aboutWindow!, "29-about.png")
        app.aboutWindow?.destroy()

        // The dark style (as when the desktop prefers dark; see DesktopStyle), then light again.
        for (dark, name) in [(true, "30-my-profile-dark.png"), (false, "")] {
            DesktopStyle.useDarkStyle(dark)
            if !name.isEmpty { try await save(main, name) }
        }
    }

    func waitForWebPage(_ page: WebPage) async throws {
        try await waitUntil("the web page") { !page.isLoading && page.loadError == nil && stack.transition == .idle }
        try await Task.sleep(for: .milliseconds(600))  // painted
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
            guard let picker = CommentedPhotoFlow.current?.stack.visiblePage as? PhotoPickerPage else { return false }
            return !picker.isScanning && picker.pendingThumbnails == 0
        }
        return CommentedPhotoFlow.current!
    }

    func choose(_ name: String, in stack: NavigationStack) async throws -> CommentPage {
        let picker = stack.visiblePage as! PhotoPickerPage
        guard let index = picker.photos.firstIndex(where: { $0.fileName == name }) else {
            throw AppOptionsError(message: "\(name) is not in the grid")
        }
        picker.grid.activateItem(at: index)
        try await waitUntil("Add a Comment") { stack.visiblePage is CommentPage && stack.transition == .idle }
        return stack.visiblePage as! CommentPage
    }

    func activateButton(_ label: String, in page: PhotoDetailPage) async throws {
        guard let button = page.actions.child(at: 0) else { throw AppOptionsError(message: "no \(label) button") }
        Widget(UnsafeMutableRawPointer(button), transfer: .none).activate()
    }

    func activateBarButton(_ label: String) async throws {
        guard let item = stack.visiblePage?.endBarItems.first(where: { ($0 as? Button)?.label == label }) else {
            throw AppOptionsError(message: "no \(label) in the bar")
        }
        item.activate()
    }

    func waitForStack(depth: Int) async throws {
        try await waitUntil("\(depth) pages") { stack.pages.count == depth && stack.transition == .idle }
    }

    func save(_ window: Window, _ name: String) async throws {
        try await Task.sleep(for: .milliseconds(400))
        try window.saveSnapshot(toPNG: directory.appending(name))
        await onScreen?(name)
    }

    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<200 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw AppOptionsError(message: "timed out waiting for \(what)")
    }
}
