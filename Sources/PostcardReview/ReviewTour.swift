import Adwaita
import CGtk
import Gtk
import NavigationGtk
import NavigationWeb
import PhotoPosting
import PostcardApp
import PostcardModel

/// A walk through every screen for a UX review: the journey `tour.journey` beside this file
/// (``builtInJourney``), replayed in the real app through its widgets as a user's input would go
/// (``JourneyReplayer``), with the gallery's own `review` steps: `review snapshot SCREEN` saves pictures
/// of the window on top (``ReviewGallery/screens``), rendered by GTK itself, so it works under Xvfb with
/// no window manager, and the others set up what no input makes (``Tour/perform(_:_:)``). At each
/// screen it saves one picture per ``ReviewVariant`` (light, dark and high-contrast style), as
/// `DIR/<screen>/<part>-<variant>.png`. `postcard-review --review-tour DIR` runs it once per
/// ``ReviewPart`` (window width and scale) and makes the gallery (``ReviewGallery``).
@MainActor
enum ReviewTour {
    /// The tour's journal, in the source tree beside this file (the review tool runs from a build of it).
    nonisolated static var builtInJourney: FilePath {
        FilePath(#filePath).removingLastComponent.appending("tour.journey")
    }

    /// Runs the tour on `app`, then calls `finish(succeeded)` (which quits the app). A failure is
    /// printed to standard error, naming the journal's line and step. `part` sizes the main window first
    /// (nil: as it is); `variants` are saved at each screen (none: no pictures, and no waiting for what
    /// only pictures need, such as a scroll indicator's fade; the accessibility tour reads each screen over
    /// AT-SPI instead). `onScreen` runs after each screen's pictures
    /// with the screen's name, while the screen still shows in the last variant (tests read it over
    /// AT-SPI there).
    static func run(app: AppController, into directory: FilePath, part: ReviewPart? = nil,
                    variants: [ReviewVariant] = [ReviewVariant(dark: false, rightToLeft: false)],
                    onScreen: (@MainActor (String) async -> Void)? = nil,
                    finish: @escaping @MainActor (Bool) -> Void) {
        let journey: Journey
        do {
            guard let text = Files.readText(builtInJourney) else { throw ReviewError(message: "can't read \(builtInJourney)") }
            journey = try Journey(text: text)
        } catch {
            PostcardMain.printError("postcard: review tour failed: \(builtInJourney): \(error)")
            return finish(false)
        }
        run(journey: journey, title: builtInJourney.lastComponent.displayName, app: app, into: directory, part: part,
            variants: variants, onScreen: onScreen, finish: finish)
    }
}

extension ReviewTour {
    /// Replays `journey` on `app` (``JourneyReplayer``, as fast as the screens allow) and saves pictures
    /// in every one of `variants`: at each `review snapshot SCREEN` step when it has them (the built-in
    /// tour), else of each step once its screen shows; the screens are those
    /// ``ReviewGallery/screens(of:title:)`` names. The gallery's other `review` steps set up what no
    /// input makes (``Tour/perform(_:_:)``). Then calls `finish(succeeded)`. `part` sizes the main window
    /// first, and the journal's own `window` steps are passed over. A step that cannot be replayed is
    /// printed to standard error, naming its line and step, and the run fails.
    static func run(journey: Journey, title: String, app: AppController, into directory: FilePath, part: ReviewPart?,
                    variants: [ReviewVariant], onScreen: (@MainActor (String) async -> Void)? = nil,
                    finish: @escaping @MainActor (Bool) -> Void) {
        Task {
            do {
                try Files.makeDirectory(directory)
                let screens = ReviewGallery.screens(of: journey, title: title)
                let tour = Tour(app: app, directory: directory, part: part, variants: variants, onScreen: onScreen,
                                screenNames: Set(screens.map(\.name)))
                try await tour.sizeWindow()
                let replayer = JourneyReplayer(app: app, journey: journey, pace: .fast)
                replayer.followsWindowSteps = false
                replayer.performReviewStep = { name, values, entry in
                    do {
                        try await tour.perform(name, values)
                    } catch let error as JourneyError {
                        throw error
                    } catch {
                        throw JourneyError(line: entry.line, step: "review \(name)", reason: .notReplayable("\(error)"))
                    }
                }
                if !journey.hasSnapshots {
                    var step = 0
                    replayer.afterStep = { _ in
                        let screen = screens[step]
                        step += 1
                        try await tour.settle()
                        try await tour.save(tour.windowShown, screen.name)
                    }
                }
                try await replayer.run()
                StyleManager.default.colorScheme = .followDesktop
                print("Review pictures of \(screens.count) screens\(part.map { " (\($0.name))" } ?? "") saved in \(directory)")
                // Every screen has been used: Swift's global executor (libdispatch's pool) must not have been.
                let pool = ProcessThreads.globalExecutorThreads()
                print("Swift's global thread pool: \(pool.isEmpty ? "not started" : "started: " + pool.map(\.label).joined(separator: " "))")
                if let seconds = IdleAfterTour.seconds {
                    var found: [LibraryPhoto] = []
                    try await app.library.scan { found += $0 }
                    try await IdleAfterTour.measure(app, seconds: seconds, photos: found.map(\.photo))
                }
                finish(true)
            } catch {
                PostcardMain.printError("postcard: review tour \(title) failed: \(error)")
                StyleManager.default.colorScheme = .followDesktop
                finish(false)
            }
        }
    }
}

extension Journey {
    /// Whether it names its pictures (`review snapshot SCREEN` steps), as the built-in tour does.
    var hasSnapshots: Bool {
        entries.contains { if case .review("snapshot", _) = $0.step { true } else { false } }
    }
}

extension Tour {
    /// The window on top: Keyboard Shortcuts or About, the discard question, a page presented alone, a
    /// flow's own window, else the main window (where a bottom sheet shows).
    var windowShown: Window {
        for window in [app.shortcutsWindow, app.aboutWindow].compactMap({ $0 }) where window.isMapped { return window }
        if let question = MessageDialog.shown().first, question.window.isMapped { return question.window }
        for dialog in [app.presentedWebPage, app.presentedScanner, app.presentedMyCode, app.flowDialog].compactMap({ $0 })
        where !dialog.isDismissed && window(of: dialog).isMapped {
            return window(of: dialog)
        }
        return main
    }

    /// The page on top: of a page presented alone, the running flow's, else the main stack's.
    var pageShown: Page? {
        for dialog in [app.presentedWebPage, app.presentedScanner, app.presentedMyCode].compactMap({ $0 })
        where !dialog.isDismissed {
            return dialog.stack.visiblePage ?? dialog.root
        }
        return (app.flowDialog?.stack ?? stack).visiblePage
    }

    /// Waits until what the screen shows has loaded — the thumbnails of Choose a Photo, a post's photo,
    /// the newest post's in a feed, replies and messages in their lists, a camera's first frames, a web page — and
    /// no page is moving, so that pictures of the same journey come out the same on every run; with
    /// `keepingToasts`, until a toast shows.
    func settle(keepingToasts: Bool = false) async throws {
        let stack = app.flowDialog?.stack ?? self.stack
        try await waitUntil("the pages to stop moving") { stack.transition == .idle && self.stack.transition == .idle }
        // The bar's overflow settled (with Large Text, New Message or Reply goes into More a moment after the page shows).
        try await waitUntil("the bar's items to settle") { stack.headerBar.currentLayer?.isArranging != true }
        switch pageShown {
        case let picker as PhotoPickerPage: try await waitUntil("the thumbnails") { !picker.isScanning && picker.pendingThumbnails == 0 }
        case let detail as PhotoDetailPage: try await waitUntil("the photo") { detail.isPhotoLoaded }
        case let comment as CommentPage: try await waitUntil("the photo") { comment.hasDecodedPhoto || !comment.isPhotoReadable }
        case let profile as ProfilePage:
            try await waitUntil("the newest post's photo") { profile.feedItems.first.map { $0.card == nil || $0.isPhotoLoaded } ?? true }
        case let thread as CommentThreadPage:
            let count = (try? app.store.replies(to: thread.post).count) ?? 0
            try await waitUntil("the replies") { thread.replyRows.count == count }
        case let messages as MessagesSplitView:
            let count = (try? app.store.messages().count) ?? 0
            try await waitUntil("the messages") { messages.list.rows.count == count }
        case let camera as CameraPage: _ = try await waitForCamera(in: nil, page: camera)
        case let web as WebPage:
            try await waitUntil("the web page") { !web.isLoading }
            if web.loadError == nil {
                // Its images loaded and decoded, and the page no longer scrolling (to a section's anchor,
                // which moves as images above it take their height), then painted.
                var last = ""
                for _ in 0..<100 {
                    let now = (try? await web.evaluateJavaScript(
                        "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0) + ' ' + window.scrollY")) ?? ""
                    if now.hasPrefix("\"true") || now.hasPrefix("true"), now == last { break }
                    last = now
                    await MainLoopBridge.sleep(for: .seconds(0.1))
                }
                await MainLoopBridge.sleep(for: .seconds(0.6))
            }
        default: break
        }
        if keepingToasts { try await waitUntil("a toast") { !app.toasts.toasts.isEmpty } }
        // A bar short of room moves its buttons into More one at a time, each after a second look 100 ms
        // later (HeaderBar): with Large Text that can go on after the page's content has come.
        try await barsSettled()
    }
}

@MainActor
final class Tour {
    let app: AppController
    let directory: FilePath
    /// The main window's width and the scale; nil: the window as it is, no part name in file names.
    let part: ReviewPart?
    /// Saved at each screen.
    let variants: [ReviewVariant]
    /// Runs after each screen (see ``ReviewTour/run(app:into:part:variants:onScreen:finish:)``).
    let onScreen: (@MainActor (String) async -> Void)?
    /// The names ``save(_:_:overlays:settle:keepingToasts:)`` takes: the gallery's screens.
    let screenNames: Set<String>
    /// The main window's width before the first `review resize`, for `review resize part` outside a
    /// gallery part (the accessibility tour).
    var widthBeforeResize: Int?
    /// The comment before `review near-the-limit`, for `review restore-comment`.
    private var typedComment = ""
    /// The library the app had before `review library`.
    private lazy var library = app.library

    init(app: AppController, directory: FilePath, part: ReviewPart?, variants: [ReviewVariant],
         onScreen: (@MainActor (String) async -> Void)?, screenNames: Set<String> = Set(ReviewGallery.screens.map(\.name))) {
        self.app = app
        self.directory = directory
        self.part = part
        self.variants = variants
        self.onScreen = onScreen
        self.screenNames = screenNames
    }

    var main: Window { app.mainWindow.window }
    var stack: NavigationStack { app.mainWindow.stack }
    /// Where a flow's pages show: its own dialog window, or the main window with the flow as a bottom
    /// sheet in it (narrow windows; see ``ModalDialog/Style``).
    func window(of dialog: ModalDialog) -> Window { dialog.style == .bottomSheet ? main : dialog.window }

    /// Waits for the main window, then gives it the part's size.
    func sizeWindow() async throws {
        // Laid out once first: a default size set before the window's first layout is not kept.
        try await waitUntil("main window") { main.isMapped && main.width > 0 }
        if let part {
            main.setDefaultSize(width: part.width, height: part.height)
            try await waitUntil("width \(part.width)") { abs(main.width - part.width) <= 12 }
        }
    }

    /// The running flow's dialog, or an error naming `what` needed it.
    private func flowDialog(_ what: String) throws -> ModalDialog {
        guard let dialog = app.flowDialog else { throw ReviewError(message: "\(what): no flow dialog is open") }
        return dialog
    }

    /// The Add a Comment page shown in the running flow.
    private func commentPage(_ what: String) throws -> CommentPage {
        guard let page = (app.flowDialog?.stack ?? stack).visiblePage as? CommentPage else {
            throw ReviewError(message: "\(what): Add a Comment is not shown")
        }
        return page
    }

    /// A picture of `text` as a QR code (the app's own encoder), in the data folder, as a still camera.
    private func codePicture(_ name: String, of text: String) throws -> CameraSource {
        let folder = app.store.directory.appending("review-codes")
        try Files.makeDirectory(folder)
        let path = folder.appending(name)
        guard try QRCode(encoding: text).texture(modulePixels: 10)?.save(toPNG: path) == true else {
            throw ReviewError(message: "can't write \(path)")
        }
        return .image(path: path.string ?? "")
    }

    private func presented(_ dialog: () -> ModalDialog?) async throws -> ModalDialog {
        try await waitUntil("presented") { dialog()?.root.view.isMapped == true && dialog()?.stack.transition == .idle }
        return dialog()!
    }

    /// Does the review step `name` with `values` (see `tour.journey`).
    /// - Throws: ``ReviewError`` for a step it does not know or a screen that did not come.
    func perform(_ name: String, _ values: [String]) async throws {
        func value(_ index: Int) throws -> String {
            guard index < values.count else { throw ReviewError(message: "review \(name) needs \(index + 1) values") }
            return values[index]
        }
        switch name {
        case "snapshot":
            let options = Set(values.dropFirst())
            let screen = try value(0)
            var overlays: [Widget] = []
            if options.contains("overlay=primary-menu") { overlays = [app.primaryMenu.menuPopover].compactMap { $0 } }
            if options.contains("overlay=history-menu") { overlays = [stack.historyMenu] }
            let settle = options.first { $0.hasPrefix("settle=") }.flatMap { Double($0.dropFirst(7)) } ?? 0.4
            try await self.settle(keepingToasts: options.contains("keep-toasts"))
            // `window=main`: the main window even while a flow's own window is open over it.
            let window = options.contains("window=main") ? main : windowShown
            try await save(window, screen, overlays: overlays, settle: .milliseconds(Int(settle * 1000)),
                           keepingToasts: options.contains("keep-toasts"))
        case "open-menu":
            if try value(0) == "primary" {
                app.primaryMenu.openMenu()
                try await waitUntil("the primary menu") { app.primaryMenu.isMenuOpen && app.primaryMenu.menuPopover?.isMapped == true }
            } else {
                stack.showHistoryMenu()
                try await waitUntil("the history menu") { stack.historyMenu.isOpen && stack.historyMenu.isMapped }
            }
        case "close-menu":
            if try value(0) == "primary" {
                app.primaryMenu.closeMenu()
                try await waitUntil("the menu closed") { !app.primaryMenu.isMenuOpen }
            } else {
                stack.historyMenu.popdown()
                try await waitUntil("the history menu closed") { !stack.historyMenu.isOpen }
            }
        case "resize":
            // The main window narrowed or widened within a part (`resize 360`), or back to the part's
            // width (`resize part`): what a split view does as the user drags the window's edge.
            let text = try value(0)
            if widthBeforeResize == nil { widthBeforeResize = main.width }
            guard let width = text == "part" ? part?.width ?? widthBeforeResize ?? main.width : Int(text) else {
                throw ReviewError(message: "review resize needs a width in pixels or “part”")
            }
            var current: Int32 = 0, defaultHeight: Int32 = 0
            gtk_window_get_default_size(main.pointer(), &current, &defaultHeight)
            let height = Int(defaultHeight)
            // As a user drags the window's edge: 40 px at a time, each laid out (and the stack's
            // breakpoints switched) before the next. A bar is only as narrow as its items allow until
            // they move into its overflow menu at a narrower layout, so one jump could stop short.
            var step = main.width
            while abs(step - width) > 40 {
                step += step < width ? 40 : -40
                main.setDefaultSize(width: step, height: height)
                let target = step
                try await waitUntil("width \(target)") { abs(main.width - target) <= 24 }
                try await Task.sleep(for: .milliseconds(30))
            }
            main.setDefaultSize(width: width, height: height)
            try await waitUntil("width \(width)") { abs(main.width - width) <= 24 }
            try await Task.sleep(for: .milliseconds(100))
            try await waitUntil("the stack at rest") { stack.transition == .idle && !stack.view.isTransitionRunning && !stack.isSwitchingBreakpoint }
        case "text-scale":
            // GNOME's Large Text is a text scaling factor of 1.25 (`text-scale 1.25`; `text-scale 1` undoes it).
            guard let factor = Double(try value(0)), factor > 0 else { throw ReviewError(message: "review text-scale needs a factor") }
            DesktopStyle.textDPI = 96 * factor
            // Laid out at the new text size, and a breakpoint that now matches (sp lengths) switched.
            try await Task.sleep(for: .milliseconds(150))
            try await waitUntil("the stack at rest") { stack.transition == .idle && !stack.view.isTransitionRunning && !stack.isSwitchingBreakpoint }
        case "swipe-back":
            // Held where it is until end-swipe: every style and direction is saved mid-swipe.
            guard let progress = Double(try value(0)), stack.beginSwipeBack() else {
                throw ReviewError(message: "review swipe-back: no swipe back from \(stack.visiblePage?.title ?? "nothing")")
            }
            stack.updateSwipeBack(progress: progress)
        case "end-swipe":
            stack.endSwipeBack(commit: false)
            try await waitUntil("the swipe gone back") { !stack.isSwipingBack && stack.transition == .idle }
        case "add-post":
            // My Profile shows it as the store tells.
            try app.store.addNow(photo: Photo(path: app.library.directory.appending(try value(0))), comment: try value(1),
                                 author: Identity.localID, profile: Identity.localID)
        case "refuse-posts":
            // A post the database refuses (as a full disk would): the error shows and the text stays.
            try app.store.execute("CREATE TRIGGER review_refuse BEFORE INSERT ON posts BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        case "accept-posts":
            try app.store.execute("DROP TRIGGER review_refuse")
            let page = try commentPage(name)
            try await waitUntil("the failure") { page.errorLabel.isVisible && page.postButton.isSensitive }
            page.errorLabel.isVisible = false
        case "draft-status":
            // The draft can't be kept (a full disk): what the page says while Postcard keeps trying.
            let page = try commentPage(name)
            page.showDraftStatus(try value(0) == "saved" ? .saved : .notSaved(reason: localized("the disk is full")))
        case "near-the-limit":
            let page = try commentPage(name)
            typedComment = page.commentView.text
            page.commentView.insertAtCursor(" " + String(repeating: "More about this coffee. ", count: 87))
        case "restore-comment":
            try commentPage(name).commentView.text = typedComment
        case "snapshot-more-menu":
            try await saveMoreMenu(of: try flowDialog(name), as: try value(0))
        case "scroll-feed":
            let offset = Double(try value(0)) ?? 0
            if offset > 0 {
                // The new post's row drawn with its photo first: a list keeps the row at the top in place
                // when one is inserted above it, so scrolling earlier would land a post further down.
                let newest = try app.store.posts(onProfile: Identity.localID, limit: 1).first?.comment
                try await waitUntil("the newest post's row") {
                    app.myProfile.feedItems.first?.commentLabel.text == newest && app.myProfile.feedItems.first?.isPhotoLoaded == true
                }
                try await waitUntil("the feed taller than the window") { app.myProfile.scroller.maximumVerticalOffset >= offset }
                // After a layout: the profile puts its top back in the first layout after an insert (GTK's
                // list anchor), and main-actor jobs run before the frame clock's layout, so a scroll set in
                // the same main-loop turn as the insert was undone by it.
                await nextLayout(of: app.myProfile.list)
                app.myProfile.scroller.verticalOffset = offset
                try await waitUntil("scrolled") { abs(app.myProfile.scroller.verticalOffset - offset) < 1 }
            } else {
                app.myProfile.scroller.verticalOffset = 0
            }
        case "library":
            _ = library
            switch try value(0) {
            case "empty":
                let empty = app.store.directory.appending("review-empty-library")
                try Files.makeDirectory(empty)
                app.switchLibrary(to: PhotoLibrary(directory: empty))
            case "damaged":
                let damaged = app.store.directory.appending("review-damaged-library")
                try Files.makeDirectory(damaged)
                try Files.writeText("not a photo", to: damaged.appending("damaged.jpg"))
                try Files.copy(library.directory.appending("chelsea.png"), to: damaged.appending("chelsea.png"))
                app.switchLibrary(to: PhotoLibrary(directory: damaged))
            default:
                app.switchLibrary(to: library)
            }
        case "snapshot-missing-camera":
            // The problem state, as a camera that is not there shows it.
            let missing = CameraPage(settings: CameraSettings(sources: [.device(path: "/dev/video99")],
                                                              captureDirectory: app.camera.captureDirectory))
            let missingDialog = ModalDialog(over: app.myProfile, presenting: missing)
            missingDialog.present()
            _ = try await waitForCamera(in: nil, page: missing)
            try await save(window(of: missingDialog), try value(0))
            missingDialog.dismiss()
        case "scroll-web":
            guard let page = stack.visiblePage as? WebPage else { throw ReviewError(message: "no web page is shown") }
            _ = try await page.evaluateJavaScript("window.scrollTo(0, \(Int(try value(0)) ?? 0)); 0")
        case "present-guide":
            guard let page = app.flowDialog?.stack.visiblePage,
                  let guide = app.presentGuide(section: try value(0), over: page) else {
                throw ReviewError(message: "the guide is missing")
            }
            try await waitForWebPage(guide.root as! WebPage)
        case "dismiss-guide":
            app.presentedWebPage?.dismiss()
        case "push-failing-web-page":
            let failing = try WebPage(uri: "http://127.0.0.1:9/")  // a port WebKit refuses
            stack.push(failing)
            try await waitUntil("the error page") { failing.loadError != nil && stack.transition == .idle }
        case "pop-to-root":
            stack.popToRoot()
            try await waitUntil("My Profile") { stack.pages.count == 1 && stack.transition == .idle }
        case "add-post-on-friend":
            let friend = app.people.friendPeople[0]
            _ = try app.store.addNow(photo: Photo(path: app.library.directory.appending(try value(0))),
                                             comment: "For \(friend.name): postcard://profile/\(friend.id)",
                                             author: Identity.localID, profile: friend.id)
        case "open-link":
            let route = try Route(link: try value(0))
            try await waitUntil("nothing open over the main window") { app.presented == nil }
            app.open(link: route.link)
            let depth = 1 + app.backPath(for: route).count
            try await waitUntil("\(route.link) open") { stack.pages.count == depth && stack.transition == .idle }
        case "camera-photo":
            app.switchCamera(to: .image(path: app.library.directory.appending(try value(0)).string ?? ""))
        case "camera-code":
            app.switchCamera(to: try codePicture(try value(0), of: try value(1)))
        case "camera-friend-code":
            app.switchCamera(to: try codePicture(try value(0), of: FriendCode(id: try value(1), name: try value(2)).link))
        case "camera-none":
            app.switchCamera(to: .device(path: "/dev/video-review-none"))
        case "present-scanner":
            try await waitUntil("nothing open over the main window") { app.presented == nil }
            guard app.presentScanner() != nil else { throw ReviewError(message: "Scan a Code was not presented") }
            let dialog = try await presented { app.presentedScanner }
            let page = dialog.root as! ScanCodePage
            let wanted = try value(0)
            try await waitUntil("Scan a Code \(wanted)") {
                switch page.state {
                case .looking: wanted == "looking"
                case .read: wanted == "read"
                case .problem: wanted == "problem"
                default: false
                }
            }
        case "present-my-code":
            try await waitUntil("nothing open over the main window") { app.presented == nil }
            guard app.presentMyCode() != nil else { throw ReviewError(message: "My Code was not presented") }
            _ = try await presented { app.presentedMyCode }
        case "close-dialog":
            guard let dialog = app.presentedScanner ?? app.presentedMyCode else { throw ReviewError(message: "no dialog is open") }
            dialog.dismiss()
            try await waitUntil("closed") { app.presented == nil }
        case "start-add-friend":
            app.startAddFriend()
            try await waitUntil("Add Friend") { app.flowDialog?.stack.visiblePage is AddFriendPage && app.flowDialog?.stack.transition == .idle }
        case "scan":
            let dialog = try flowDialog(name)
            guard let page = dialog.stack.visiblePage as? AddFriendPage else { throw ReviewError(message: "Add Friend is not shown") }
            page.scanButton.activate()
            if try value(0) == "refused" {
                try await waitUntil("refused") {
                    guard let page = dialog.stack.visiblePage as? ScanCodePage, dialog.stack.transition == .idle else { return false }
                    if case .refused = page.state { return true }
                    return false
                }
            } else {
                try await waitUntil("New Friend") { dialog.stack.visiblePage is NewFriendPage && dialog.stack.transition == .idle }
            }
        case "back-in-flow":
            let dialog = try flowDialog(name)
            dialog.stack.goBack()
            try await waitUntil("the page before") { dialog.stack.transition == .idle && dialog.stack.visiblePage is AddFriendPage }
        case "cancel-flow":
            try flowDialog(name).cancelButton.activate()
            try await waitUntil("canceled") { app.presented == nil }
        default:
            throw ReviewError(message: "review \(name) is not a step the review gallery knows")
        }
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
        await MainLoopBridge.sleep(for: .seconds(0.6))  // painted
    }

}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
