import Adwaita
import CGtk
import CSQLite
import CXTest
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// The app's four flow callers, the Post detail shown both ways, Edit Caption, quitting with a flow open,
/// and the feed under the translucent bar.
final class AppNavigationTests: GtkTestCase, @unchecked Sendable {
    @MainActor
    private func settle(_ app: AppController, depth: Int) {
        spin(until: { app.mainWindow.stack.pages.count == depth && app.mainWindow.stack.transition == .idle }, "\(depth) pages")
    }

    /// Opens the first post of My Profile's feed (pushed detail page), as a click on its card would.
    @MainActor
    @discardableResult
    private func openFirstPost(_ app: AppController) -> PhotoDetailPage {
        app.myProfile.feedItems[0].card!.activate()
        settle(app, depth: 2)
        return app.mainWindow.stack.visiblePage as! PhotoDetailPage
    }

    /// Opens the first post, then its Edit Caption; returns the editor (Add a Comment, reused) once shown.
    @MainActor
    @discardableResult
    private func openEditCaption(_ app: AppController) -> CommentPage? {
        openFirstPost(app)
        findButton(labeled: "Edit Caption", in: app.mainWindow.stack.headerBar)!.activate()
        settle(app, depth: 3)
        return app.mainWindow.stack.visiblePage as? CommentPage
    }

    /// Opens the first post's Comments (pushed thread page).
    @MainActor
    private func openFirstThread(_ app: AppController) -> CommentThreadPage {
        let detail = openFirstPost(app)
        findButton(labeled: "Comments", in: detail.content)!.activate()
        settle(app, depth: 3)
        return app.mainWindow.stack.visiblePage as! CommentThreadPage
    }

    func testOpeningAFriendAPostOrCommentsTwiceInARowOpensItOnce() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            let stack = app.mainWindow.stack
            // A double click: two clicks, the second a moment after the first.
            let ada = app.myProfile.friendButtons[0]
            ada.activate()
            spin(for: 0.05)  // about time itself: a double click's pace
            ada.activate()
            settle(app, depth: 2)
            waitForPressShown(ada)
            XCTAssertEqual(stack.pages.count, 2, "Ada's profile is pushed once")
            stack.goBack()
            settle(app, depth: 1)

            // Two activations in one frame: a post's card, then its Comments.
            app.myProfile.feedItems[0].card!.activate()
            app.myProfile.feedItems[0].card!.activate()
            settle(app, depth: 2)
            let detail = try XCTUnwrap(stack.visiblePage as? PhotoDetailPage)
            let comments = try XCTUnwrap(findButton(labeled: "Comments", in: detail.content))
            comments.activate()
            comments.activate()
            settle(app, depth: 3)
            waitForPressShown(comments)
            XCTAssertEqual(stack.pages.count, 3, "one post page and one thread: \(stack.pages.map(\.title))")
            XCTAssertEqual(stack.backButton.tooltip, detail.title, "Back returns to the post")
        }
    }

    func testWindowTitlesFollowThePagesTheyShow() throws {
        try onMain {
            let app = try makeApp()
            let stack = app.mainWindow.stack
            XCTAssertEqual(app.mainWindow.window.title, "Postcard")
            app.myProfile.friendButtons[0].activate()
            settle(app, depth: 2)
            XCTAssertEqual(app.mainWindow.window.title, "Ada Lovelace – Postcard")
            stack.goBack()
            settle(app, depth: 1)
            XCTAssertEqual(app.mainWindow.window.title, "Postcard")

            app.myProfile.postButton.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "Choose a Photo")
            let dialog = try XCTUnwrap(app.flowDialog)
            XCTAssertEqual(dialog.window.title, "Choose a Photo")
            (dialog.stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
            spin(until: { dialog.stack.visiblePage is CommentPage }, "Add a Comment")
            XCTAssertEqual(dialog.window.title, "Add a Comment", "the dialog's title follows its page")
            let heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("dialog|Add a Comment"), "a screen reader hears the page's name: \(heard.filter { $0.hasPrefix("dialog") })")
            dialog.stack.goBack()
            spin(until: { dialog.stack.visiblePage is PhotoPickerPage }, "back")
            XCTAssertEqual(dialog.window.title, "Choose a Photo")
            dialog.cancelButton.activate()
            spin(until: { dialog.isDismissed }, "closed")
        }
    }

    func testADraftFromAnEarlierRunIsOfferedAndResumedWhereItWasLeft() throws {
        try onMain {
            StyleSheet.load(path: bundledPhotos + "/../style.css")
            let folder = makeTemporaryDirectory()
            do {
                let earlier = try PostStore(directory: folder)
                try earlier.saveDraftNow(.post, target: "ada", photoURI: (bundledPhotos + "/chelsea.png").uri,
                                      comment: "For Ada,\nwith love")
            }
            let store = try PostStore(directory: folder)
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: bundledPhotos))
            show(app.mainWindow.window)
            app.offerDraft()
            let banner = try XCTUnwrap(app.myProfile.draftButtons, "My Profile offers the unfinished post")
            banner.resume.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? CommentPage)?.hasDecodedPhoto == true }, "Add a Comment again")
            XCTAssertNil(app.myProfile.draftBanner, "the banner goes")
            XCTAssertEqual(app.mainWindow.stack.visiblePage?.title, "Ada Lovelace", "on Ada's profile, where it was left")
            let dialog = try XCTUnwrap(app.flowDialog)
            let page = try XCTUnwrap(dialog.stack.visiblePage as? CommentPage)
            XCTAssertEqual(page.photo.fileName, "chelsea.png")
            XCTAssertEqual(page.commentView.text, "For Ada,\nwith love")
            postWhenReady(page)
            spin(until: { dialog.isDismissed && app.activeFlow == nil }, "posted")
            XCTAssertEqual(try store.posts(onProfile: "ada").first?.comment, "For Ada,\nwith love")
            XCTAssertEqual(try store.drafts(), [], "posting removes the draft")

            // Discard forgets it.
            app.mainWindow.stack.popToRoot()
            settle(app, depth: 1)
            try store.saveDraftNow(.reply, target: "999", photoURI: (bundledPhotos + "/coffee.png").uri, comment: "Gone")
            app.offerDraft()
            try XCTUnwrap(app.myProfile.draftButtons).discard.activate()
            spin(until: { app.myProfile.draftBanner == nil }, "the banner goes")
            XCTAssertEqual(try store.drafts(), [])
        }
    }

    func testClosingTheMainWindowWithAFlowOpenClosesItAndKeepsTheDraft() throws {
        try onMain {
            let app = try makeApp()
            let (dialog, page) = try openAddAComment(app)
            page.commentView.text = "Half a thought"
            gtk_window_close(app.mainWindow.window.pointer())  // the window's close button, Alt+F4
            spin(until: { dialog.isDismissed && app.activeFlow == nil }, "the flow ends with the window")
            XCTAssertFalse(app.mainWindow.window.isMapped, "the main window closed")
            XCTAssertEqual(try app.store.drafts().map(\.comment), ["Half a thought"], "what was typed is kept")
        }
    }

    func testPostingRunsOffTheMainThreadWhileThePageShowsItIsPosting() throws {
        try onMain {
            let app = try makeApp()
            let (dialog, page) = try openAddAComment(app)
            page.commentView.text = "Slow disk"
            // Another writer holds the database: the post waits for it (busy timeout) off the main thread.
            try app.store.execute("BEGIN IMMEDIATE")
            postWhenReady(page)
            var ticks = 0
            let started = g_get_monotonic_time()
            spin(until: { ticks += 1; return g_get_monotonic_time() - started > 600_000 }, "the window keeps running")
            XCTAssertGreaterThan(ticks, 10, "the main loop ran while the post waited")
            XCTAssertTrue(page.isBusy && page.busySpinner.isSpinning, "the page shows it is posting")
            XCTAssertFalse(dialog.isDismissed)
            try app.store.execute("COMMIT")
            spin(until: { dialog.isDismissed && app.activeFlow == nil }, "posted once the database is free")
            XCTAssertEqual(try app.store.posts(onProfile: "me").map(\.comment), ["Slow disk"])
        }
    }

    func testAFlowInANarrowWindowIsABottomSheetAndInAWideOneADialogEachEndingOnce() throws {
        try onMain {
            let app = try makeApp()
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            let main = app.mainWindow.window
            settle()
            main.setDefaultSize(width: 360, height: 700)
            spin(until: { abs(main.width - 360) <= 12 }, "a phone-sized window")
            let (dialog, page) = try openAddAComment(app)
            XCTAssertEqual(dialog.style, .bottomSheet)
            XCTAssertFalse(dialog.window.isMapped, "no window of its own")
            XCTAssertTrue(dialog.sheet?.isMapped == true, "drawn inside the main window")
            XCTAssertTrue(main.hasModalChild, "the window behind it takes no input")
            XCTAssertFalse(app.mainWindow.stack.view.isSensitive)
            spin(until: { !dialog.isSheetMoving }, "the sheet has come up")
            let sheetTop = try XCTUnwrap(dialog.sheet?.bounds(in: main)).y
            XCTAssertEqual(sheetTop, Double(ModalDialog.sheetTopGap), accuracy: 2, "the dimmed window shows above it")
            let heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("dialog|Add a Comment"), "a screen reader hears a dialog named after its page: \(heard.filter { $0.hasPrefix("dialog") })")

            // Dragging the handle down asks to leave, so the flow asks first about the typed comment.
            page.commentView.text = "Half a thought"
            let handle = try XCTUnwrap(dialog.sheetDragGesture).unsafeGObjectPointer
            navgtk_emit_drag(handle, "drag-begin", 180, 6)
            navgtk_emit_drag(handle, "drag-update", 0, 60)
            XCTAssertEqual(dialog.sheetDragOffset, 60, "the sheet follows the finger")
            navgtk_emit_drag(handle, "drag-end", 0, 150)
            spin(until: { !MessageDialog.shown().isEmpty }, "Discard this post?")
            spin(until: { !dialog.isSheetMoving }, "the sheet goes back")
            XCTAssertEqual(dialog.sheetDragOffset, 0, "back in place while it asks")
            MessageDialog.shown()[0].keepButton.activate()
            spin(until: { MessageDialog.shown().isEmpty }, "kept editing")
            XCTAssertTrue(dialog.sheet?.isMapped == true)
            postWhenReady(page)
            spin(until: { !outcomes.isEmpty }, "posted")
            spin(until: { app.activeFlow == nil }, "ended")
            XCTAssertFalse(main.hasModalChild, "the window takes input again")
            XCTAssertTrue(app.mainWindow.stack.view.isSensitive)
            XCTAssertNil(dialog.sheet?.rootWindow, "the sheet is gone")

            // Wide: a floating dialog window, as before; a click on Cancel ends it, once.
            main.setDefaultSize(width: 1280, height: 720)
            spin(until: { abs(main.width - 1280) <= 12 }, "a wide window")
            app.myProfile.postButton.activate()
            spin(until: { app.flowDialog?.window.isMapped == true }, "the dialog window")
            let wide = try XCTUnwrap(app.flowDialog)
            XCTAssertEqual(wide.style, .window)
            XCTAssertNil(wide.sheet)
            wide.cancelButton.activate()
            spin(until: { outcomes.count == 2 && app.activeFlow == nil }, "canceled")
            guard case .post(.posted(let post)) = outcomes[0] else { return XCTFail("\(outcomes)") }
            XCTAssertEqual(post.comment, "Half a thought")
            XCTAssertEqual(outcomes[1], .post(.canceled), "each flow's result exactly once")
        }
    }

    func testClosingANarrowWindowWithASheetOpenEndsTheFlowAndKeepsTheDraft() throws {
        try onMain {
            let app = try makeApp()
            let main = app.mainWindow.window
            settle()
            main.setDefaultSize(width: 360, height: 700)
            spin(until: { abs(main.width - 360) <= 12 }, "a phone-sized window")
            let (dialog, page) = try openAddAComment(app)
            XCTAssertEqual(dialog.style, .bottomSheet)
            page.commentView.text = "Typed in a sheet"
            gtk_window_close(main.pointer())  // the window manager's close
            spin(until: { app.activeFlow == nil }, "the flow ends with the window")
            XCTAssertTrue(dialog.isDismissed)
            XCTAssertEqual(try app.store.drafts().map(\.comment), ["Typed in a sheet"], "what was typed is kept")
            XCTAssertFalse(main.hasModalChild, "no sheet is counted for a window that is gone")
        }
    }

    func testKeepingADraftNeverMakesTheWindowWaitForTheDatabase() throws {
        try onMain {
            let app = try makeApp()
            let (_, page) = try openAddAComment(app)
            // Another Postcard holds the database (a long write): keeping the draft waits for it, off
            // the main thread.
            let other = try PostStore(directory: app.store.directory)
            try other.execute("BEGIN IMMEDIATE")
            page.commentView.text = "Typed while the database is busy"
            var longest: Int64 = 0, last = Int64(g_get_monotonic_time())
            let started = last
            spin(until: {
                let now = Int64(g_get_monotonic_time())
                longest = max(longest, now - last)
                last = now
                return now - started > 1_500_000  // past the save's 0.5 s delay, well into the busy wait
            }, "the window keeps running")
            // A main thread that waited for the database would stop from the save (0.5 s) to the end of the
            // spin at least: a second. Below that, an iteration is long because the machine is busy (264 ms
            // once, with make test's lanes side by side), not because of the database.
            XCTAssertLessThan(longest, 700_000, "no main-loop iteration waited for the database (longest \(longest) µs)")
            try other.execute("COMMIT")
            XCTAssertEqual(try app.store.drafts().map(\.comment), ["Typed while the database is busy"], "kept once it was free")
            // Posting removes it, in order after the save (the draft does not come back).
            page.commentView.text = "Typed while the database is busy, then posted"
            postWhenReady(page)
            spin(until: { app.activeFlow == nil }, "posted")
            XCTAssertEqual(try app.store.drafts(), [], "posting removed the draft, after every save before it")
        }
    }

    func testAnEditedCaptionIsKeptWhenTheWindowGoesAndResumedAtTheNextLaunch() throws {
        try onMain {
            let app = try makeApp(posts: ["Original"])
            openFirstPost(app)
            findButton(labeled: "Edit Caption", in: app.mainWindow.stack.headerBar)!.activate()
            spin(until: { app.mainWindow.stack.visiblePage is CommentPage && app.mainWindow.stack.transition == .idle }, "Edit Caption")
            let editor = app.mainWindow.stack.visiblePage as! CommentPage
            editor.commentView.text = "Original, then rewritten"
            app.mainWindow.window.destroy()  // the app quits
            spin(until: { app.activeFlow == nil }, "ended with the window")
            XCTAssertEqual(try app.store.drafts().map(\.comment), ["Original, then rewritten"])
            XCTAssertEqual(try app.store.posts(onProfile: "me").first?.comment, "Original", "not saved: only kept as a draft")

            let next = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(next.mainWindow.window)
            next.offerDraft()
            next.myProfile.draftButtons!.resume.activate()
            spin(until: { (next.mainWindow.stack.visiblePage as? CommentPage)?.commentView.text == "Original, then rewritten" },
                 "Edit Caption again, with the rewritten caption")
            postWhenReady(next.mainWindow.stack.visiblePage as! CommentPage)  // Save
            spin(until: { next.activeFlow == nil }, "saved")
            XCTAssertEqual(try app.store.posts(onProfile: "me").first?.comment, "Original, then rewritten")
            XCTAssertEqual(try app.store.drafts(), [], "saving removes the draft")
        }
    }

    func testAMessageBeingWrittenIsKeptAndResumedForTheSameRecipient() throws {
        try onMain {
            let app = try makeApp()
            app.showMessages()
            settle(app, depth: 2)
            let messages = try XCTUnwrap((app.mainWindow.stack.visiblePage as? MessagesSplitView)?.list)
            messages.newMessageButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is ChooseRecipientPage }, "Choose Recipient")
            (app.flowDialog!.stack.visiblePage as! ChooseRecipientPage).friendButtons[1].activate()  // Grace
            chooseAndType(on: { app.flowDialog?.stack }, photo: "rocket.jpg", comment: "Look, Grace")
            spin(until: { (try? app.store.drafts().first?.comment) == "Look, Grace" }, "kept a moment later")
            app.mainWindow.window.destroy()  // the app quits
            spin(until: { app.activeFlow == nil }, "ended")
            let draft = try XCTUnwrap(try app.store.drafts().first)
            XCTAssertEqual(draft.kind, .message)
            XCTAssertEqual(draft.target, "grace")

            let next = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(next.mainWindow.window)
            next.offerDraft()
            next.myProfile.draftButtons!.resume.activate()
            spin(until: { (next.flowDialog?.stack.visiblePage as? CommentPage)?.hasDecodedPhoto == true }, "Add a Comment again")
            let page = next.flowDialog!.stack.visiblePage as! CommentPage
            XCTAssertEqual(page.commentView.text, "Look, Grace")
            XCTAssertEqual(page.photo.fileName, "rocket.jpg")
            postWhenReady(page)
            spin(until: { next.activeFlow == nil }, "sent")
            XCTAssertEqual(try app.store.messages().map(\.recipient), ["grace"], "sent to the same recipient")
            XCTAssertEqual(try app.store.drafts(), [])
        }
    }

    func testThePagesOpenAtQuitComeBackAtTheNextLaunchWithoutOnesWhoseSubjectIsGone() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            _ = openFirstThread(app)
            XCTAssertEqual(app.mainWindow.stack.pages.map(\.title), ["My Profile", "Post", "Comments"])
            app.shutdown()  // quit

            let next = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(next.mainWindow.window)
            next.restoreNavigation()
            settle(next, depth: 3)
            XCTAssertEqual(next.mainWindow.stack.pages.map(\.title), ["My Profile", "Post", "Comments"], "as they were")
            XCTAssertEqual((next.mainWindow.stack.visiblePage as? CommentThreadPage)?.post.comment, "Espresso")
            next.shutdown()

            // The post is deleted meanwhile: its page and the thread above it are skipped.
            try app.store.execute("DELETE FROM posts")
            let third = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(third.mainWindow.window)
            third.restoreNavigation()
            settle()
            XCTAssertEqual(third.mainWindow.stack.pages.map(\.title), ["My Profile"])
        }
    }

    /// New Post on My Profile, the first photo chosen: the flow's dialog and its Add a Comment page.
    @MainActor
    private func openAddAComment(_ app: AppController) throws -> (ModalDialog, CommentPage) {
        app.myProfile.postButton.activate()
        spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "Choose a Photo")
        let dialog = try XCTUnwrap(app.flowDialog)
        (dialog.stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
        spin(until: { dialog.stack.visiblePage is CommentPage }, "Add a Comment")
        return (dialog, dialog.stack.visiblePage as! CommentPage)
    }

    /// Chooses `photo` and types `comment` on a photo flow showing on `stack`, without posting.
    @MainActor
    private func chooseAndType(on stack: @escaping () -> NavigationStack?, photo: String, comment: String) {
        spin(until: { (stack()?.visiblePage as? PhotoPickerPage)?.hasSettled == true && stack()?.transition == .idle }, "picker")
        let picker = stack()!.visiblePage as! PhotoPickerPage
        picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == photo }!)
        spin(until: { stack()?.visiblePage is CommentPage && stack()?.transition == .idle }, "comment page")
        (stack()!.visiblePage as! CommentPage).commentView.text = comment
    }

    /// Chooses `photo` and posts `comment` on a photo flow showing on `stack`.
    @MainActor
    private func postThroughFlow(on stack: @escaping () -> NavigationStack?, photo: String, comment: String) {
        spin(until: { (stack()?.visiblePage as? PhotoPickerPage)?.hasSettled == true && stack()?.transition == .idle }, "picker")
        let picker = stack()!.visiblePage as! PhotoPickerPage
        picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == photo }!)
        spin(until: { stack()?.visiblePage is CommentPage && stack()?.transition == .idle }, "comment page")
        let page = stack()!.visiblePage as! CommentPage
        page.commentView.text = comment
        postWhenReady(page)
    }

    func testPostDetailIsPushedFromTheFeedWithTheStacksBar() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            let detail = openFirstPost(app)
            XCTAssertTrue(app.myProfile.feedItems[0].card!.hasAccessibleLabel("Espresso"))
            XCTAssertFalse(detail.isShowingStandaloneBar, "pushed: its own bar is hidden")
            XCTAssertEqual(app.mainWindow.stack.titleLabel.text, "Post")
            XCTAssertEqual(app.mainWindow.stack.titleView.subtitleLabel.text, "by Sam Rivera")
            XCTAssertTrue(app.mainWindow.stack.backButton.isMapped)
            XCTAssertEqual(detail.commentLabel.text, "Espresso")
            XCTAssertNotNil(findButton(labeled: "Edit Caption", in: app.mainWindow.stack.headerBar))
        }
    }

    func testEditCaptionReusesAddACommentAndSavesTheCaption() throws {
        try onMain {
            let app = try makeApp(posts: ["Old caption"])
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            let detail = openFirstPost(app)
            findButton(labeled: "Edit Caption", in: app.mainWindow.stack.headerBar)!.activate()
            settle(app, depth: 3)
            let editor = try XCTUnwrap(app.mainWindow.stack.visiblePage as? CommentPage, "the Add a Comment page, reused")
            XCTAssertEqual(app.mainWindow.stack.titleLabel.text, "Edit Caption")
            XCTAssertEqual(editor.commentView.text, "Old caption")
            XCTAssertEqual(editor.postButton.label, "Save")
            editor.commentView.text = "New caption"
            postWhenReady(editor)
            spin(until: { outcomes.count == 1 }, "saved")
            guard case .caption(.saved(let saved)) = outcomes[0] else { return XCTFail("\(outcomes)") }
            XCTAssertEqual(saved.comment, "New caption", "the flow's result is the post with its new caption")
            XCTAssertEqual(try app.store.post(id: saved.id), saved)
            settle(app, depth: 2)
            XCTAssertTrue(app.mainWindow.stack.visiblePage === detail)
            XCTAssertEqual(detail.commentLabel.text, "New caption")
            XCTAssertEqual(try app.store.posts(onProfile: "me").map(\.comment), ["New caption"])
            XCTAssertEqual(app.myProfile.feedItems[0].commentLabel.text, "New caption")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Caption saved"], "a toast says it was saved")
        }
    }

    func testCommentThreadRepliesWithTheFlowPushedInPlace() throws {
        try onMain {
            let app = try makeApp(posts: ["A post"])
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            let stack = app.mainWindow.stack
            let thread = openFirstThread(app)
            XCTAssertTrue(thread.statusLabel.isVisible)
            thread.replyButton.activate()
            settle(app, depth: 4)
            XCTAssertEqual(Gtk.Window.all().count, 1, "no dialog: pushed onto the main stack")
            XCTAssertEqual(stack.titleLabel.text, "Choose a Photo")
            postThroughFlow(on: { stack }, photo: "grass.png", comment: "Nice texture")
            spin(until: { outcomes.count == 1 }, "reply flow ended")
            guard case .reply(.posted(let reply)) = outcomes[0] else { return XCTFail("\(outcomes)") }
            XCTAssertEqual(reply.comment, "Nice texture")
            XCTAssertEqual(try app.store.replies(to: thread.post).last, reply, "the flow's result is the reply stored")
            settle(app, depth: 3)
            XCTAssertTrue(stack.visiblePage === thread, "back exactly on the thread")
            XCTAssertEqual(thread.replyRows.map(\.commentLabel.text), ["Nice texture"])
            XCTAssertEqual(thread.subtitle, "1 reply")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Reply posted"], "a toast says it was posted")
            XCTAssertNil(app.toasts.toasts.first?.buttonLabel, "no action: the thread shows the reply already")
        }
    }

    func testMessageRunsChooseRecipientThenThePhotoFlowAsAStepAndOpensModally() throws {
        try onMain {
            let app = try makeApp()
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            let stack = app.mainWindow.stack
            XCTAssertTrue(app.messagesButton.hasAccessibleLabel("Messages"))
            app.messagesButton.activate()
            settle(app, depth: 2)
            let messages = (stack.visiblePage as! MessagesSplitView).list
            messages.newMessageButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is ChooseRecipientPage }, "Choose Recipient")
            let dialog = app.flowDialog!
            XCTAssertEqual(dialog.stack.titleLabel.text, "Choose Recipient")
            let recipients = dialog.stack.visiblePage as! ChooseRecipientPage
            recipients.friendButtons[1].activate()
            spin(until: { dialog.stack.visiblePage is PhotoPickerPage && dialog.stack.transition == .idle }, "photo step")
            XCTAssertEqual(Gtk.Window.all().count, 2, "the step runs in the same dialog")
            var cancels = 0
            @MainActor func countCancels(_ widget: UnsafeMutablePointer<GtkWidget>) {
                if String(cString: navgtk_type_name_of(widget)) == "GtkButton",
                   let label = gtk_button_get_label(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)),
                   String(cString: label) == "Cancel", gtk_widget_get_visible(widget) != 0 { cancels += 1 }
                var child = gtk_widget_get_first_child(widget)
                while let current = child { countCancels(current); child = gtk_widget_get_next_sibling(current) }
            }
            countCancels(dialog.stack.headerBar.widget)
            XCTAssertEqual(cancels, 1, "one Cancel, the dialog's")

            dialog.stack.backButton.activate()  // Back past the step's first page: back to Choose Recipient
            spin(until: { dialog.stack.visiblePage is ChooseRecipientPage && dialog.stack.transition == .idle }, "recipient again")
            XCTAssertTrue(outcomes.isEmpty, "the composed flow goes on")
            recipients.friendButtons[0].activate()
            postThroughFlow(on: { dialog.stack }, photo: "astronaut.png", comment: "Look!")
            spin(until: { outcomes.count == 1 }, "sent")
            settle()
            XCTAssertEqual(outcomes.count, 1)
            guard case .message(.sent(let message)) = outcomes[0] else { return XCTFail("\(outcomes)") }
            XCTAssertEqual(message.recipient, "ada")
            XCTAssertEqual(message.comment, "Look!")
            XCTAssertEqual(try app.store.messages().first, message, "the flow's result is the message stored")
            XCTAssertTrue(dialog.isDismissed)
            XCTAssertEqual(try app.store.messages().map(\.recipient), ["ada"])
            XCTAssertEqual(messages.rows.map(\.recipientLabel.text), ["To Ada Lovelace"])
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Message sent to Ada Lovelace"], "a toast says it was sent")

            // Activating the message's row shows the same detail page type beside the list (the window is
            // wide), with its own bar; no dialog, and the list stays with the row highlighted.
            let id = try XCTUnwrap(messages.messages.first?.id)
            XCTAssertTrue(messages.activateRow(ofMessage: id))
            spin(until: { app.shownMessage?.view.isMapped == true }, "message shown")
            let detail = try XCTUnwrap(app.shownMessage)
            XCTAssertTrue(detail.isShowingStandaloneBar)
            XCTAssertEqual(detail.titleView.titleLabel.text, "Message")
            XCTAssertEqual(detail.titleView.subtitleLabel.text, "to Ada Lovelace")
            XCTAssertFalse(app.mainWindow.window.hasModalChild)
            XCTAssertTrue(messages.view.isMapped, "the list beside it")
            XCTAssertEqual(messages.highlightedMessageID, id)
            spin(until: { messages.rows.first { $0.message?.id == id }?.view.hasCSSClass("shown-message") == true }, "its row highlighted")
            XCTAssertEqual(app.router.path, [.messages, .message(id)])
        }
    }

    func testComposedFlowCancelAsksOnceWhenTheStepHasAComment() throws {
        try onMain {
            let app = try makeApp()
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            app.showMessages()!.list.newMessageButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is ChooseRecipientPage }, "Choose Recipient")
            let dialog = app.flowDialog!
            (dialog.stack.visiblePage as! ChooseRecipientPage).friendButtons[0].activate()
            spin(until: { (dialog.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "step")
            let picker = dialog.stack.visiblePage as! PhotoPickerPage
            picker.grid.activateItem(at: 0)
            spin(until: { dialog.stack.visiblePage is CommentPage && dialog.stack.transition == .idle }, "comment")
            (dialog.stack.visiblePage as! CommentPage).commentView.text = "typed"
            dialog.cancelButton.activate()
            spin(until: { MessageDialog.shown().count == 1 }, "one question")
            XCTAssertEqual(MessageDialog.shown()[0].heading, "Discard this message?", "it names what is thrown away")
            MessageDialog.shown()[0].confirmButton.activate()
            spin(until: { outcomes.count == 1 }, "ended")
            settle()
            XCTAssertEqual(outcomes, [.message(.canceled)])
            XCTAssertTrue(MessageDialog.shown().isEmpty)
            XCTAssertEqual(Gtk.Window.all().count, 1)
            XCTAssertTrue(try app.store.messages().isEmpty)
        }
    }

    func testQuittingTheAppWithADialogOpenResolvesItsFlowOnce() throws {
        try onMain {
            let app = try makeApp()
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            app.myProfile.postButton.activate()
            spin(until: { app.flowDialog?.window.isMapped == true }, "dialog")
            app.shutdown()
            spin(until: { outcomes.count == 1 }, "resolved")
            settle()
            XCTAssertEqual(outcomes, [.post(.canceled)])
            XCTAssertTrue(Gtk.Window.all().isEmpty)
        }
    }

    func testQuittingTheAppWithAPushedFlowResolvesItOnce() throws {
        try onMain {
            let app = try makeApp(posts: ["A post"])
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            openFirstThread(app).replyButton.activate()
            settle(app, depth: 4)
            app.shutdown()
            spin(until: { outcomes.count == 1 }, "resolved")
            settle()
            XCTAssertEqual(outcomes, [.reply(.canceled)])
        }
    }

    func testFeedStartsBelowTheTranslucentBarAtLoadAndAfterResizingAndScrollsUnderIt() throws {
        try onMain {
            let app = try makeApp(posts: ["One", "Two", "Three"])
            let window = app.mainWindow
            let bar = window.stack.headerBar
            XCTAssertTrue(bar.hasCSSClass("translucent-bar"))
            XCTAssertTrue(app.myProfile.extendsUnderTopBar)
            @MainActor func expectFirstItemBelowBar(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
                settle()
                let barBottom = bar.bounds(in: window.window)!.y + Double(bar.height)
                let item = app.myProfile.feedItems[0].card!.bounds(in: window.window)!
                let header = app.myProfile.postButton.bounds(in: window.window)!
                XCTAssertGreaterThanOrEqual(header.y, barBottom, "the profile starts below the bar: \(what)", file: file, line: line)
                XCTAssertGreaterThanOrEqual(item.y, barBottom, "first item below the bar: \(what)", file: file, line: line)
                let scroller = app.myProfile.scroller.bounds(in: window.window)!
                XCTAssertGreaterThanOrEqual(scroller.y, barBottom, "the scrollbar is not under the bar: \(what)", file: file, line: line)
                let stackTop = window.stack.view.bounds(in: window.overlay)!.y
                XCTAssertEqual(Int(stackTop), window.topInset, "pages placed at the inset", file: file, line: line)
                XCTAssertEqual(window.topInset, Int(bar.naturalHeight(forWidth: window.overlay.width)), "inset = the bar's height",
                               file: file, line: line)
            }
            expectFirstItemBelowBar("at load")
            for (width, height): (Int, Int) in [(360, 640), (1280, 720), (720, 800)] {
                window.window.setDefaultSize(width: width, height: height)
                spin(until: { abs(window.window.width - width) <= 12 }, "resized to \(width)")
                expectFirstItemBelowBar("at \(width)×\(height)")
            }
            let scroller = app.myProfile.scroller
            spin(until: { scroller.maximumVerticalOffset > 200 }, "feed taller than the window")
            scroller.verticalOffset = 200
            settle()
            let barBottom = bar.bounds(in: window.window)!.y + Double(bar.height)
            XCTAssertLessThan(app.myProfile.postButton.bounds(in: window.window)!.y, barBottom,
                              "scrolled content moves up under the bar")
        }
    }

    func testPopToRootUnderAPushedFlowWithATypedCommentEndsItWithoutAskingAndFreesTheApp() throws {
        try onMain {
            let app = try makeApp(posts: ["A post"])
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            let stack = app.mainWindow.stack
            openFirstThread(app).replyButton.activate()
            spin(until: { (stack.visiblePage as? PhotoPickerPage)?.hasSettled == true && stack.transition == .idle }, "picker")
            (stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
            spin(until: { stack.visiblePage is CommentPage && stack.transition == .idle }, "comment page")
            (stack.visiblePage as! CommentPage).commentView.text = "typed"
            stack.popToRoot()  // code, not the user: the pages are gone, nothing to keep editing
            spin(until: { outcomes.count == 1 }, "flow ended")
            XCTAssertEqual(outcomes, [.reply(.canceled)])
            XCTAssertTrue(MessageDialog.shown().isEmpty, "no question over pages that no longer exist")
            spin(until: { app.activeFlow == nil }, "app free for the next flow")
            app.myProfile.postButton.activate()
            spin(until: { app.flowDialog != nil }, "New Post works again")
        }
    }

    func testQuittingDuringEditCaptionEndsIt() throws {
        try onMain {
            let app = try makeApp(posts: ["Old"])
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            openEditCaption(app)
            app.shutdown()
            spin(until: { outcomes.count == 1 }, "ended")
            XCTAssertEqual(outcomes, [.caption(.canceled)])
            spin(until: { app.activeFlow == nil }, "no flow left running")
        }
    }

    func testEditCaptionWhoseSaveFailsAfterTheWindowWentEndsOnceAndKeepsTheCaption() throws {
        try onMain {
            let app = try makeApp(posts: ["Old caption"])
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            let editor = try XCTUnwrap(openEditCaption(app))
            editor.commentView.text = "New caption"
            // The disk is full, and another process holds the database while Save waits for it.
            runSQL("CREATE TRIGGER refuse BEFORE UPDATE ON posts BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
                   inStoreAt: app.store.directory.text)
            var other: OpaquePointer?
            XCTAssertEqual(sqlite3_open(app.store.directory.text + "/posts.sqlite3", &other), SQLITE_OK)
            defer { sqlite3_close(other) }
            XCTAssertEqual(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil), SQLITE_OK)
            postWhenReady(editor)
            spin(until: { editor.isBusy }, "saving")
            app.mainWindow.window.destroy()  // the app quits while the caption is being saved
            settle()
            XCTAssertEqual(sqlite3_exec(other, "COMMIT", nil, nil, nil), SQLITE_OK)
            spin(until: { outcomes.count == 1 }, timeout: 10, "the flow ends once the save has failed")
            XCTAssertEqual(outcomes, [.caption(.canceled)])
            spin(until: { app.activeFlow == nil }, "no flow left running")
            let draft = try XCTUnwrap(try app.store.drafts().first, "what was typed is kept")
            XCTAssertEqual(draft.kind, .caption)
            XCTAssertEqual(draft.comment, "New caption")
        }
    }
}

/// The toasts that say what happened (libadwaita's `AdwToastOverlay` over the main window), read the way a
/// screen reader reads them, and their actions pressed as a user would.
extension AppNavigationTests {
    /// The toast's action button, as libadwaita drew it in the main window.
    @MainActor
    private func toastButton(_ label: String, in app: AppController) -> Gtk.Widget? {
        findButton(labeled: label, in: app.toasts)
    }

    func testPostingSaysPostedAndViewOpensTheNewPost() throws {
        try onMain {
            let app = try makeApp(posts: ["Older"])
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            app.myProfile.postButton.activate()
            postThroughFlow(on: { app.flowDialog?.stack }, photo: "coffee.png", comment: "Fresh")
            spin(until: { outcomes.count == 1 }, "posted")
            guard case .post(.posted(let post)) = outcomes[0] else { return XCTFail("\(outcomes)") }
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Posted"])
            spin(until: { self.toastButton("View", in: app) != nil }, "the toast's View")
            let heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("label|Posted"), "a screen reader finds the toast: \(heard.filter { $0.hasPrefix("label|P") })")
            XCTAssertEqual(heard.filter { $0 == "push button|View" }.count, 1, "its action, read once: \(heard.filter { $0.contains("View") })")
            // Orca 43 says nothing of a toast: the result is where focus comes back, New Post, and said there
            // (with no window manager under Xvfb, nothing makes the main window active again to read it so).
            XCTAssertTrue(app.mainWindow.window.focusWidget == app.myProfile.postButton.widget, "focus is back on New Post")
            XCTAssertEqual(try readDescriptionOverAtSpi(role: "push button", name: "New Post"),
                           "Posted. It is the first post on this page.", "what a screen reader says as focus comes back")
            XCTAssertEqual(app.mainWindow.stack.pages.count, 1, "nothing opened by itself")
            try XCTUnwrap(toastButton("View", in: app), "the toast's View").activate()
            settle(app, depth: 2)
            XCTAssertEqual(app.mainWindow.stack.visiblePage?.subject, AnyHashable(post.id), "View opens the new post")
            XCTAssertTrue(app.mainWindow.stack.visiblePage is PhotoDetailPage)
            spin(until: { app.toasts.toasts.isEmpty }, "the toast goes once its action is used")
        }
    }

    func testAToastGoesByItselfAndTheNextReplacesIt() throws {
        try onMain {
            let app = try makeApp(posts: ["A post"])
            app.copyLink(to: .post(1))
            let first = try XCTUnwrap(app.toasts.toasts.first)
            app.open(link: "postcard://pots/1")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Can't open the link: Postcard has no screen at postcard://pots/1"],
                           "the next one replaced it: one toast")
            XCTAssertTrue(first === app.toasts.toasts.first, "in place, a toast with no action")
            let second = app.toasts.toasts[0]
            spin(until: { second.isDismissed }, timeout: 8, "gone after libadwaita's 5 seconds")
            XCTAssertTrue(app.toasts.toasts.isEmpty)
            XCTAssertFalse(second.wasActionUsed)
        }
    }

    func testSendingAMessageSaysSoAndViewOpensTheMessage() throws {
        try onMain {
            let app = try makeApp()
            app.messagesButton.activate()
            settle(app, depth: 2)
            let messages = (app.mainWindow.stack.visiblePage as! MessagesSplitView).list
            messages.newMessageButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is ChooseRecipientPage }, "Choose Recipient")
            (app.flowDialog!.stack.visiblePage as! ChooseRecipientPage).friendButtons[1].activate()
            postThroughFlow(on: { app.flowDialog?.stack }, photo: "astronaut.png", comment: "Look!")
            spin(until: { app.activeFlow == nil && app.toastButtonShown(self, "View") }, "sent, with View")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Message sent to Grace Hopper"])
            toastButton("View", in: app)!.activate()
            spin(until: { app.shownMessage?.view.isMapped == true }, "View opens the message")
            let detail = try XCTUnwrap(app.shownMessage)
            XCTAssertEqual(detail.titleView.subtitleLabel.text, "to Grace Hopper")
        }
    }

    /// The window resized slowly across Messages' 600 sp, with a message shown and a comment typed in
    /// New Message: the message collapses over the list (with Back) and comes back beside it, its row
    /// highlighted only when beside it, the path the same throughout, and the flow and what was typed
    /// untouched.
    func testResizingAcrossTheBreakpointKeepsTheMessageAndTheDraft() throws {
        try onMain {
            let app = try makeApp()
            let message = try app.store.addMessageNow(to: "ada", photo: Photo(path: bundledPhotos + "/brick.png"), comment: "Bricks",
                                                      author: Identity.localID)
            app.open(.message(message.id))
            settle(app, depth: 2)
            let split = try XCTUnwrap(app.mainWindow.stack.visiblePage as? MessagesSplitView)
            spin(until: { app.shownMessage?.view.isMapped == true }, "the message beside the list")
            split.list.newMessageButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is ChooseRecipientPage }, "Choose Recipient")
            (app.flowDialog!.stack.visiblePage as! ChooseRecipientPage).friendButtons[1].activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true && app.flowDialog?.stack.transition == .idle }, "picker")
            let picker = app.flowDialog!.stack.visiblePage as! PhotoPickerPage
            picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == "astronaut.png" }!)
            spin(until: { app.flowDialog?.stack.visiblePage is CommentPage && app.flowDialog?.stack.transition == .idle }, "comment page")
            let comment = app.flowDialog!.stack.visiblePage as! CommentPage
            comment.commentView.text = "Half a thought"
            let window = app.mainWindow.window
            var height: Int32 = 0, start: Int32 = 0
            gtk_window_get_default_size(window.pointer(), &start, &height)
            let path: [Route] = [.messages, .message(message.id)]
            // Slowly, 40 px at a time, down to 360 px and back.
            for width in Array(stride(from: 900, through: 360, by: -40)) + Array(stride(from: 360, through: 900, by: 40)) {
                window.setDefaultSize(width: width, height: Int(height))
                spin(until: { abs(window.width - width) <= 24 }, "\(width) px")
                settle()
                XCTAssertEqual(app.router.path, path, "the same path at \(width) px")
                let collapsed = split.isCollapsed
                XCTAssertEqual(collapsed, Double(split.view.width) < 600 || Double(app.mainWindow.stack.view.width) < 600,
                               "collapsed exactly below 600 sp (\(width) px)")
                if collapsed {
                    XCTAssertTrue(app.mainWindow.stack.visiblePage === app.shownMessage, "over the list at \(width) px")
                    XCTAssertTrue(app.mainWindow.stack.backButton.isVisible)
                    XCTAssertNil(split.list.highlightedMessageID, "no highlight when the list is its own screen")
                } else {
                    XCTAssertTrue(app.mainWindow.stack.visiblePage === split, "beside the list at \(width) px")
                    XCTAssertEqual(split.list.highlightedMessageID, message.id)
                }
                XCTAssertEqual(app.shownMessage?.subject, AnyHashable(message.id))
            }
            XCTAssertTrue(app.flowDialog?.stack.visiblePage === comment, "the flow is where it was")
            XCTAssertEqual(comment.commentView.text, "Half a thought", "what was typed is kept")
        }
    }
}

/// The flow's bar fits a phone: at 360 px each page's title is whole, what does not fit is in the bar's
/// overflow menu (named, read once, reachable by keyboard), Cancel is always there and the affirmative
/// action is last; at 1280 px everything is in the bar.
extension AppNavigationTests {
    @MainActor
    private func endItemsShown(_ bar: HeaderBar) -> [String] {
        bar.endItems.filter { gtk_widget_is_ancestor($0.widget, bar.widget) != 0 && $0.isVisible }
            .compactMap { ($0 as? Button).map { $0.label ?? $0.tooltip ?? "" } }
    }

    /// Opens the bar's More with the keyboard (focus, Return) and chooses `label` as a keyboard user
    /// does: the first item has focus, Down moves, Return chooses.
    @MainActor
    private func chooseWithTheKeyboard(_ label: String, fromMoreIn bar: HeaderBar, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(bar.moreButton.grabFocus(), "More is reached by keyboard", file: file, line: line)
        pressKey(XK_Return)
        spin(until: { bar.moreButton.isMenuOpen }, "Return opens More", file: file, line: line)
        settle()
        guard let index = bar.moreButton.itemLabels.firstIndex(of: label) else {
            return XCTFail("“\(label)” is not in More: \(bar.moreButton.itemLabels)", file: file, line: line)
        }
        for _ in 0..<index { pressKey(XK_Down) }
        pressKey(XK_Return)
    }

    func testTheFlowsBarShowsWholeTitlesAt360WithTheRestInItsOverflowMenuAndEverythingAt1280() throws {
        try onMain {
            for width: Int in [360, 1280] {
                let app = try makeApp(width: width)
                let main = app.mainWindow.window
                spin(until: { abs(main.width - width) <= 12 }, "\(width) px")
                app.myProfile.postButton.activate()
                spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "Choose a Photo")
                let dialog = try XCTUnwrap(app.flowDialog)
                let bar = dialog.stack.headerBar
                settle()
                spin(until: { !dialog.stack.titleLabel.isEllipsized }, "“Choose a Photo” whole at \(width) px")
                XCTAssertTrue(dialog.cancelButton.isMapped, "Cancel always reachable")
                XCTAssertLessThanOrEqual(bar.width, dialog.stack.view.width + 2, "the bar fits")
                if width == 360 {
                    XCTAssertGreaterThan(bar.overflowCount, 0, "something moved into the overflow menu")
                    XCTAssertTrue(bar.moreButton.isMapped, "More at the end of the bar")
                    XCTAssertEqual(bar.moreButton.itemLabels + endItemsShown(bar).filter { $0 != "More" } ,
                                   bar.moreButton.itemLabels + endItemsShown(bar), "each item once, in the menu or the bar")
                    XCTAssertEqual(Set(bar.moreButton.itemLabels + endItemsShown(bar)), ["Help", "Take Photo", "Open File…"])
                    let heard = try readAccessibilityTree()
                    XCTAssertEqual(heard.filter { $0.hasSuffix("|More") }.count, 1, "More is read once: \(heard.filter { $0.contains("More") })")
                    // Keyboard: More takes focus, Return opens its menu, and each moved item is a menu item read once.
                    XCTAssertTrue(bar.moreButton.grabFocus(), "More is reached by keyboard")
                    pressKey(XK_Return)
                    spin(until: { bar.moreButton.isMenuOpen }, "Return opens the menu")
                    let menu = try readAccessibilityTree()
                    for label in bar.moreButton.itemLabels {
                        XCTAssertEqual(menu.filter { $0 == "menu item|" + label }.count, 1, "“\(label)” read once in the menu: \(menu.filter { $0.hasPrefix("menu item") })")
                    }
                    XCTAssertTrue(menu.contains("menu item|Take Photo"), "Take Photo is in More: \(bar.moreButton.itemLabels)")
                    // Chosen with the keyboard (the first item has focus; Down moves; Return chooses), a moved
                    // item does what its button does: Take Photo pushes the Camera.
                    if let index = bar.moreButton.itemLabels.firstIndex(of: "Take Photo") {
                        settle()
                        for _ in 0..<index { pressKey(XK_Down) }
                        pressKey(XK_Return)
                        spin(until: { dialog.stack.visiblePage is CameraPage && dialog.stack.transition == .idle }, "the Camera")
                        settle()
                        spin(until: { !dialog.stack.titleLabel.isEllipsized }, "“Camera” whole")
                        dialog.stack.goBack()
                        spin(until: { dialog.stack.visiblePage is PhotoPickerPage && dialog.stack.transition == .idle }, "back")
                    }
                } else {
                    XCTAssertEqual(bar.overflowCount, 0, "nothing moved at 1280 px")
                    XCTAssertFalse(bar.moreButton.isMapped)
                    XCTAssertEqual(Set(endItemsShown(bar)), ["Help", "Take Photo", "Open File…"])
                    // The flow's own window made as narrow as a phone, then wide again: the buttons move into
                    // More, then all come back.
                    let (dialogWidth, dialogHeight) = (dialog.window.width, dialog.window.height)
                    dialog.window.setDefaultSize(width: 360, height: dialogHeight)
                    spin(until: { bar.overflowCount > 0 && bar.moreButton.isMapped }, "buttons in More at 360 px")
                    spin(until: { !dialog.stack.titleLabel.isEllipsized }, "the title whole in the narrowed window")
                    dialog.window.setDefaultSize(width: dialogWidth, height: dialogHeight)
                    spin(until: { bar.overflowCount == 0 && !bar.moreButton.isMapped }, "every button back in the bar")
                    XCTAssertEqual(Set(endItemsShown(bar)), ["Help", "Take Photo", "Open File…"])
                }
                let picker = dialog.stack.visiblePage as! PhotoPickerPage
                picker.grid.activateItem(at: 0)
                spin(until: { dialog.stack.visiblePage is CommentPage && dialog.stack.transition == .idle }, "Add a Comment")
                settle()
                let comment = dialog.stack.visiblePage as! CommentPage
                spin(until: { !dialog.stack.titleLabel.isEllipsized }, "“Add a Comment” whole at \(width) px")
                XCTAssertTrue(comment.postButton.isMapped, "Post stays in the bar")
                XCTAssertTrue(dialog.stack.backButton.isMapped, "Back: there is a page to go back to")
                let post = try XCTUnwrap(comment.postButton.bounds(in: bar))
                for item in bar.endItems where item !== comment.postButton && item.isMapped && item is Button {
                    let other = try XCTUnwrap(item.bounds(in: bar))
                    XCTAssertGreaterThan(post.x, other.x, "Post is last (the affirmative action at the end)")
                }
                if width == 360 {
                    // Back, the title and Post fit once Help and, last, Cancel are in the menu; Cancel stays reachable there.
                    XCTAssertEqual(bar.moreButton.itemLabels, ["Help", "Cancel"])
                    XCTAssertFalse(dialog.cancelButton.isMapped)
                    dialog.stack.goBack()
                    spin(until: { dialog.stack.visiblePage is PhotoPickerPage && dialog.stack.transition == .idle }, "back")
                    spin(until: { dialog.cancelButton.isMapped }, "no Back on the first page: Cancel is back in the bar")
                    XCTAssertFalse(bar.moreButton.itemLabels.contains("Cancel"))
                    (dialog.stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
                    spin(until: { dialog.stack.visiblePage is CommentPage && dialog.stack.transition == .idle }, "Add a Comment again")
                    spin(until: { bar.moreButton.itemLabels.contains("Cancel") }, "Cancel in the menu again")
                    // Chosen with the keyboard from the menu rebuilt for this page.
                    chooseWithTheKeyboard("Cancel", fromMoreIn: bar)
                } else {
                    XCTAssertEqual(bar.overflowCount, 0)
                    XCTAssertTrue(dialog.cancelButton.isMapped)
                    dialog.cancelButton.activate()
                }
                spin(until: { app.activeFlow == nil }, "cancelled")
                main.destroy()
            }
        }
    }
}

extension AppController {
    /// Whether the main window's toast shows an action button labelled `label` (for waiting in tests).
    @MainActor
    fileprivate func toastButtonShown(_ test: GtkTestCase, _ label: String) -> Bool {
        test.findButton(labeled: label, in: toasts) != nil
    }
}

/// Pages pushed on the main window's stack at 360 px: Comments, and a flow pushed on it (Reply with
/// Photo), show their whole titles (Add a Comment's whole or shortened with "…"); the flow's Cancel goes into More while Back shows, and the suggested
/// action shows its shorter label only while the bar is that narrow.
extension AppNavigationTests {
    func testPushedPagesAndAPushedFlowShowWholeTitlesAt360() throws {
        try onMain {
            let app = try makeApp(posts: ["A coffee"], width: 360)
            let main = app.mainWindow.window
            let stack = app.mainWindow.stack
            let bar = stack.headerBar
            spin(until: { abs(main.width - 360) <= 12 }, "360 px")
            let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
            app.open(.comments(post.id))
            spin(until: { stack.visiblePage is CommentThreadPage && stack.transition == .idle }, "Comments")
            let thread = stack.visiblePage as! CommentThreadPage
            spin(until: { !stack.titleLabel.isEllipsized && thread.replyButton.label == "Reply" }, "“Comments” whole, beside Reply")
            XCTAssertTrue(thread.replyButton.isMapped, "the affirmative action stays in the bar")
            XCTAssertTrue(try readAccessibilityTree().contains("push button|Reply"), "read as it shows")

            thread.replyButton.activate()
            spin(until: { (stack.visiblePage as? PhotoPickerPage)?.hasSettled == true && stack.transition == .idle }, "Choose a Photo pushed")
            spin(until: { !stack.titleLabel.isEllipsized && stack.titleLabel.text == "Choose a Photo" }, "“Choose a Photo” whole")
            XCTAssertTrue(bar.moreButton.itemLabels.contains("Cancel"), "the flow's Cancel in More while Back shows: \(bar.moreButton.itemLabels)")
            (stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
            spin(until: { stack.visiblePage is CommentPage && stack.transition == .idle }, "Add a Comment")
            // Whole, or shortened with "…": the bar no longer holds the window wider (it was 430 px here, the
            // bar's minimum with Post counted in it), so at about 360 px the title gives way, not Back or Post.
            spin(until: { stack.titleLabel.text == "Add a Comment" && stack.titleLabel.isMapped }, "“Add a Comment”")
            XCTAssertTrue(stack.titleLabel.isEllipsized || stack.titleLabel.width >= stack.titleLabel.naturalWidth - 24,
                          "whole or shortened with “…”")
            XCTAssertLessThan(main.width, 400, "not held wider by the bar")
            // Cancel chosen from More with the keyboard ends the flow: back on Comments.
            spin(until: { bar.moreButton.itemLabels.contains("Cancel") && bar.moreButton.isMapped }, "Cancel in More")
            chooseWithTheKeyboard("Cancel", fromMoreIn: bar)
            spin(until: { stack.visiblePage === thread && stack.transition == .idle }, "the flow cancelled, Comments again")
            XCTAssertFalse(bar.moreButton.itemLabels.contains("Cancel"))

            // Wide again: the whole label comes back.
            main.setDefaultSize(width: 1280, height: 720)
            spin(until: { thread.replyButton.label == "Reply with Photo" }, "“Reply with Photo” at 1280 px")
            settle()
            XCTAssertFalse(stack.titleLabel.isEllipsized, "the title whole beside the whole label")
            XCTAssertEqual(thread.replyButton.label, "Reply with Photo", "and it stays")
            main.destroy()
        }
    }
}
