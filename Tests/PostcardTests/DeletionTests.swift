import Adwaita
import CGtk
import CSQLite
import CXTest
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Delete with Undo: a post from its page, a reply from its row, a message from its row; the page showing
/// it popped, Undo bringing it back, the row and its photo gone for good once the undo time passes, and
/// nothing half deleted after a kill -9 in between.
final class DeletionTests: GtkTestCase, @unchecked Sendable {
    @MainActor
    private func settle(_ app: AppController, depth: Int) {
        spin(until: { app.mainWindow.stack.pages.count == depth && app.mainWindow.stack.transition == .idle }, "\(depth) pages")
    }

    /// The Undo buttons drawn in the main window's toasts that a click reaches (a toast sliding away, or
    /// one gone and still drawn for a moment, takes no clicks: libadwaita and `ToastOverlay`).
    @MainActor
    private func undoButtons(in app: AppController) -> [Gtk.Widget] {
        var found: [Gtk.Widget] = []
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            guard gtk_widget_get_can_target(widget) != 0 else { return }
            if String(cString: navgtk_type_name_of(widget)) == "GtkButton", gtk_widget_is_drawable(widget) != 0,
               let label = gtk_button_get_label(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)),
               String(cString: label) == "Undo" {
                found.append(Gtk.Widget.widget(wrapping: UnsafeMutableRawPointer(widget)))
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child { visit(current); child = gtk_widget_get_next_sibling(current) }
        }
        visit(UnsafeMutableRawPointer(app.toasts.unsafeGObjectPointer).assumingMemoryBound(to: GtkWidget.self))
        return found
    }

    @MainActor
    private func toastButton(_ label: String, in app: AppController) -> Gtk.Widget? { findButton(labeled: label, in: app.toasts) }

    func testDeletingAPostPopsItsPageAndUndoBringsItBack() throws {
        try onMain {
            let data = makeTemporaryDirectory()
            let app = try makeApp(posts: ["Keep me", "Delete me"], dataDirectory: data)
            let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
            XCTAssertEqual(post.comment, "Delete me")
            app.open(.post(post.id))
            settle(app, depth: 2)
            let detail = try XCTUnwrap(app.mainWindow.stack.visiblePage as? PhotoDetailPage)
            try XCTUnwrap(findButton(labeled: "Delete", in: detail.content), "Delete on my own post's page").activate()
            settle(app, depth: 1)
            XCTAssertTrue(app.mainWindow.stack.visiblePage === app.myProfile, "the deleted post's page is popped")
            spin(until: { app.myProfile.posts.map(\.comment) == ["Keep me"] }, "the feed without it")
            XCTAssertEqual(try app.store.posts(onProfile: "me").map(\.comment), ["Keep me"])
            XCTAssertNil(try app.store.post(id: post.id), "left out of every read")
            XCTAssertEqual(rowCount("posts", where: "id = \(post.id) AND deleted_by IS NOT NULL", inStoreAt: data), 1,
                           "marked, not removed: Undo can bring it back")
            XCTAssertTrue(FileManager.default.fileExists(atPath: post.photoPath.displayName))
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Post deleted"])
            spin(until: { self.toastButton("Undo", in: app) != nil }, "Undo")
            XCTAssertTrue(try readAccessibilityTree().contains("push button|Undo"), "Undo read over AT-SPI")
            toastButton("Undo", in: app)!.activate()
            spin(until: { app.myProfile.posts.map(\.comment) == ["Delete me", "Keep me"] }, "back in the feed")
            XCTAssertEqual(try app.store.post(id: post.id), post, "back in the store, as it was")
            spin(until: { app.toasts.toasts.isEmpty }, "the toast goes")
            app.store.waitForWrites()
            XCTAssertEqual(rowCount("posts", where: "deleted_by IS NOT NULL", inStoreAt: data), 0, "nothing marked")
            XCTAssertTrue(FileManager.default.fileExists(atPath: post.photoPath.displayName), "its photo kept")
        }
    }

    /// Opens `post`'s page and presses its Delete, as a user does; returns once the page has gone.
    @MainActor
    private func deleteFromItsPage(_ post: Post, in app: AppController) throws {
        app.open(.post(post.id))
        settle(app, depth: 2)
        let detail = try XCTUnwrap(app.mainWindow.stack.visiblePage as? PhotoDetailPage)
        try XCTUnwrap(findButton(labeled: "Delete", in: detail.content), "Delete on my own post's page").activate()
        settle(app, depth: 1)
    }

    /// Undo from the keyboard as GNOME apps have it: Ctrl+Z while the toast shows, which a screen reader
    /// is told where focus lands (Orca 43 says nothing of the toast itself); nothing once it has gone.
    func testCtrlZUndoesADeletionWhileItsToastShowsAndAScreenReaderIsToldSo() throws {
        try onMain {
            let app = try makeApp(posts: ["Keep me", "Delete me"])
            let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
            try deleteFromItsPage(post, in: app)
            spin(until: { app.myProfile.posts.map(\.comment) == ["Keep me"] }, "the feed without it")
            spin(until: { app.toasts.toasts.map(\.title) == ["Post deleted"] }, "the toast")
            let deleted = ["push button|New Post|Post deleted. Press Ctrl+Z to undo."]
            XCTAssertEqual(try readFocusedOverAtSpi(becoming: deleted), deleted,
                           "focus on the page's first control, which says what happened and how to undo it")
            pressKey(XK_z, modifiers: [XK_Control_L])
            spin(until: { app.myProfile.posts.map(\.comment) == ["Delete me", "Keep me"] }, "Ctrl+Z brings it back")
            XCTAssertEqual(try app.store.post(id: post.id), post)
            let restored = ["push button|New Post|Post restored"]
            XCTAssertEqual(try readFocusedOverAtSpi(becoming: restored), restored, "and that it came back")
            spin(until: { app.toasts.toasts.isEmpty }, "the toast goes, its action used")

            // Deleted again, the toast gone (its time up): Ctrl+Z does nothing.
            try deleteFromItsPage(post, in: app)
            spin(until: { app.toasts.toasts.map(\.title) == ["Post deleted"] }, "the second toast")
            app.toasts.toasts.first?.dismiss()
            spin(until: { app.toasts.toasts.isEmpty }, "gone")
            pressKey(XK_z, modifiers: [XK_Control_L])
            settle()
            XCTAssertEqual(app.myProfile.posts.map(\.comment), ["Keep me"], "nothing to undo once the toast has gone")
        }
    }

    func testADeletedPostGoesForGoodWithItsPhotoAndRepliesOnceTheUndoTimePasses() throws {
        try onMain {
            let data = makeTemporaryDirectory()
            let app = try makeApp(posts: ["Going"], dataDirectory: data)
            let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
            let reply = try app.store.addReplyNow(to: post, photo: Photo(path: bundledPhotos + "/grass.png"), comment: "A reply", author: "me")
            app.open(.comments(post.id))
            settle(app, depth: 3)
            app.open(.post(post.id))
            settle(app, depth: 2)
            try XCTUnwrap(findButton(labeled: "Delete", in: (app.mainWindow.stack.visiblePage as! PhotoDetailPage).content)).activate()
            settle(app, depth: 1)
            let toast = try XCTUnwrap(app.toasts.toasts.first)
            spin(until: { toast.isDismissed }, timeout: 8, "the toast's time passes (libadwaita's 5 seconds)")
            app.store.waitForWrites()
            XCTAssertEqual(rowCount("posts", where: "id = \(post.id)", inStoreAt: data), 0, "the row is gone")
            XCTAssertEqual(rowCount("replies", where: "id = \(reply.id)", inStoreAt: data), 0, "its replies too")
            XCTAssertFalse(FileManager.default.fileExists(atPath: post.photoPath.displayName), "its photo is gone")
            XCTAssertFalse(FileManager.default.fileExists(atPath: reply.photoPath.displayName), "and its replies' photos")
            XCTAssertTrue(app.myProfile.posts.isEmpty)
        }
    }

    func testARepliesAndAMessagesDeleteRemoveThemWithUndo() throws {
        try onMain {
            let data = makeTemporaryDirectory()
            let app = try makeApp(posts: ["With replies"], dataDirectory: data)
            let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
            let photo = Photo(path: bundledPhotos + "/grass.png")
            _ = try app.store.addReplyNow(to: post, photo: photo, comment: "First reply", author: "me")
            _ = try app.store.addReplyNow(to: post, photo: photo, comment: "Second reply", author: "me")
            app.open(.comments(post.id))
            settle(app, depth: 3)
            let thread = try XCTUnwrap(app.mainWindow.stack.visiblePage as? CommentThreadPage)
            spin(until: { thread.replyRows.count == 2 }, "two replies")
            let second = try XCTUnwrap(thread.replyRows.first { $0.reply?.comment == "Second reply" })
            XCTAssertTrue(try readAccessibilityTree().filter { $0 == "push button|Delete Reply" }.count == 2, "each reply's Delete is named")
            second.deleteButton.activate()
            spin(until: { thread.replies.map(\.comment) == ["First reply"] }, "the reply goes from the thread")
            XCTAssertEqual(thread.subtitle, "1 reply")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Reply deleted"])

            _ = try app.store.addMessageNow(to: "ada", photo: photo, comment: "Hello Ada", author: "me")
            app.open(.messages)
            settle(app, depth: 2)
            let messages = try XCTUnwrap((app.mainWindow.stack.visiblePage as? MessagesSplitView)?.list)
            spin(until: { messages.rows.count == 1 }, "the message")
            messages.rows[0].deleteButton.activate()
            spin(until: { messages.messages.isEmpty }, "the message goes from the list")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Message deleted"], "it replaced the reply's toast")
            app.store.waitForWrites()
            XCTAssertEqual(rowCount("replies", where: "comment = 'Second reply'", inStoreAt: data), 0,
                           "the reply's deletion was finished when the next toast replaced its toast")
            // The reply's toast is still drawn a moment (it came less than half a second ago) and while it
            // slides away, taking no clicks: press the Undo of the one showing.
            spin(until: { self.undoButtons(in: app).count == 1 }, "one toast with Undo")
            undoButtons(in: app)[0].activate()
            spin(until: { messages.messages.map(\.comment) == ["Hello Ada"] }, "Undo brings the message back")
        }
    }

    /// Ctrl+Z (Undo), then Ctrl+Q in the same turn, before the Undo's task has run (as when both keys come
    /// in one burst): the post the user brought back stays, photo included, though the quit cancels the
    /// task and then removes for good what is still marked deleted (the choice, written at the press, is
    /// carried out first).
    func testUndoThenQuitInTheSameTurnKeepsThePost() throws {
        try onMain {
            let data = makeTemporaryDirectory()
            let app = try makeApp(posts: ["Bring me back"], dataDirectory: data)
            let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
            app.open(.post(post.id))
            settle(app, depth: 2)
            let detail = try XCTUnwrap(app.mainWindow.stack.visiblePage as? PhotoDetailPage)
            try XCTUnwrap(findButton(labeled: "Delete", in: detail.content)).activate()
            spin(until: { app.undoToast != nil }, "the toast with Undo")
            app.undoToast!.activateAction()  // Ctrl+Z
            app.shutdown()  // Ctrl+Q's handler (Application.quit() ends in it), before the Undo's task ran
            let next = try PostStore(directory: FilePath(data))
            XCTAssertEqual(try next.post(id: post.id)?.comment, "Bring me back", "the Undo stands")
            XCTAssertTrue(FileManager.default.fileExists(atPath: post.photoPath.displayName), "with its photo")
        }
    }

    /// A real Postcard deletes a post (Delete pressed over AT-SPI) and is killed with SIGKILL while its
    /// Undo is still offered: the next store to open the folder finishes the deletion, row and photo.
    func testAPostcardKilledWhileUndoIsOfferedLeavesNothingHalfDeleted() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        let photo: String
        do {
            let store = try MainActor.assumeIsolated { try PostStore(directory: FilePath(data)) }
            let post = try MainActor.assumeIsolated {
                try store.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Killed mid-undo", author: "me", profile: "me")
            }
            photo = post.photoPath.displayName
            XCTAssertEqual(post.id, 1)
        }
        let postcard = try startPostcard(["--data-dir", data, "postcard://post/1"], environment: ["XDG_DATA_HOME": home + "/xdg"],
                                         log: home + "/postcard.log")
        defer { if postcard.isRunning { kill(postcard.processIdentifier, SIGKILL) } }
        try waitFor("the post's page", timeout: 30) {
            (try? readAccessibilityTree(ofProcess: postcard.processIdentifier))?.contains("push button|Delete") == true
        }
        let script = ToolkitTestCase.accessibilityReaderScript
        XCTAssertEqual(try runProgram("/usr/bin/python3", [script, String(postcard.processIdentifier), "--press", "Delete"]).status, 0)
        try waitFor("the toast with Undo", timeout: 10) {
            let heard = (try? readAccessibilityTree(ofProcess: postcard.processIdentifier)) ?? []
            return heard.contains("label|Post deleted") && heard.contains("push button|Undo")
        }
        XCTAssertEqual(rowCount("posts", where: "deleted_by IS NOT NULL", inStoreAt: data), 1, "marked while Undo is offered")
        XCTAssertTrue(FileManager.default.fileExists(atPath: photo))
        kill(postcard.processIdentifier, SIGKILL)
        postcard.waitUntilExit()
        XCTAssertEqual(rowCount("posts", inStoreAt: data), 1, "killed: the row is still there, marked")

        try onMain {
            let store = try PostStore(directory: FilePath(data))
            XCTAssertNil(try store.post(id: 1))
            XCTAssertEqual(rowCount("posts", inStoreAt: data), 0, "the next launch finished the deletion")
            XCTAssertFalse(FileManager.default.fileExists(atPath: photo), "and removed its photo")
        }
    }
}
