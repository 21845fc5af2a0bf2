import CGtk
import CSQLite
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// The store's change stream (``PostStore/changes``): each write told once with what changed, rows
/// another Postcard on the same folder stores told within a second, and the pages that follow it (a
/// feed, a thread, Messages, the friends) showing what changed without anyone telling them by hand.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread.)
final class StoreChangeTests: GtkTestCase, @unchecked Sendable {
    func testEachWriteIsToldOnceWithWhatChangedAndAnotherStoresRowsToo() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            let store = try PostStore(directory: FilePath(folder))
            var told: [StoreChange] = []
            let token = store.changes.add { told.append($0) }
            defer { token.cancel() }
            let photo = Photo(path: bundledPhotos + "/coffee.png")

            let post = try store.addNow(photo: photo, comment: "Mine", author: "me", profile: "me")
            var edited: Post?
            var done = false
            Task { @MainActor in
                try? await store.updateComment(ofPost: post.id, to: "Mine, edited")
                edited = try? store.post(id: post.id)
                try? await store.markDeleted(.post(post.id))
                try? await store.restoreDeleted(.post(post.id))
                _ = try? await store.addFriend(id: "lin", name: "Lin")
                done = true
            }
            spin(until: { done }, "the writes")
            spin(for: 0.4)  // about time itself: GIO reports the log file's change a moment later; nothing is told twice within it
            XCTAssertEqual(told, [.postAdded(post), .postEdited(try XCTUnwrap(edited)), .deleted(.post(post.id)),
                                  .restored(.post(post.id)), .friendAdded(try XCTUnwrap(store.friends().last))])

            // Another connection on the folder (as another Postcard has): its post is told here, once.
            told = []
            let other = try PostStore(directory: FilePath(folder))
            let theirs = try other.addNow(photo: photo, comment: "Theirs", author: "me", profile: "me")
            spin(until: { !told.isEmpty }, timeout: 1, "their post told within a second")
            spin(for: 0.4)  // about time itself: GIO reports the log file's change a moment later; nothing is told twice within it
            XCTAssertEqual(told, [.postAdded(theirs)])
        }
    }

    func testAnotherPostcardsPostShowsOnMyProfileWithinASecond() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        try onMain {
            let app = try makeApp(dataDirectory: data)
            XCTAssertTrue(app.store.isPrimary)
            XCTAssertEqual(app.myProfile.posts.count, 0)

            // A second Postcard on the folder, a real process, posts a photo with a comment.
            let logPath = home + "/second.log"
            let second = try startPostcard(["--data-dir", data, bundledPhotos + "/coffee.png"],
                                           environment: ["XDG_DATA_HOME": home + "/xdg", "G_MESSAGES_DEBUG": "Postcard"], log: logPath)
            defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
            func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
            spin(until: { log().contains("Flow started: New Post") }, timeout: 30, "the second Postcard on Add a Comment")
            let script = ToolkitTestCase.accessibilityReaderScript
            let words = "From the other window"
            spin(until: { (try? self.runProgram("/usr/bin/python3", [script, String(second.processIdentifier), "--set-text", "Comment", words]))?.status == 0 },
                 timeout: 20, "the comment typed over AT-SPI")
            spin(until: { (try? self.runProgram("/usr/bin/python3", [script, String(second.processIdentifier), "--press", "Post"]))?.status == 0 },
                 timeout: 20, "Post pressed over AT-SPI")

            // From the moment the row is on disk, My Profile shows it within a second, with no reload.
            spin(until: { self.comments(in: data).contains(words) }, timeout: 20, "the post stored")
            let stored = g_get_monotonic_time()
            spin(until: { app.myProfile.posts.map(\.comment) == [words] }, timeout: 5, "My Profile showing it")
            let seconds = Double(g_get_monotonic_time() - stored) / 1_000_000
            XCTAssertLessThan(seconds, 1, "seen \(seconds) s after it was stored")
            spin(until: { app.myProfile.feedItems.count == 1 }, "its row")
            XCTAssertEqual(app.myProfile.feedItems.first?.post?.comment, words)
            kill(second.processIdentifier, SIGTERM)
            second.waitUntilExit()
        }
    }

    func testPagesFollowTheStoreWithoutBeingToldByHand() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            let photo = Photo(path: bundledPhotos + "/rocket.jpg")
            let post = try XCTUnwrap(app.myProfile.posts.first)
            app.open(.comments(post.id))
            spin(until: { app.mainWindow.stack.visiblePage is CommentThreadPage && app.mainWindow.stack.transition == .idle }, "Comments")
            let thread = try XCTUnwrap(app.mainWindow.stack.visiblePage as? CommentThreadPage)
            // Stored by anything (here: the store directly, as a tool or another Postcard would).
            let reply = try app.store.addReplyNow(to: post, photo: photo, comment: "A reply", author: "ada")
            XCTAssertEqual(thread.replies.map(\.id), [reply.id], "the thread shows it")
            XCTAssertEqual(thread.subtitle, "1 reply")
            try app.store.addNow(photo: photo, comment: "Another", author: "me", profile: "me")
            XCTAssertEqual(app.myProfile.posts.map(\.comment), ["Another", "Espresso"], "My Profile, under the thread, too")
            try app.store.addNow(photo: photo, comment: "On Ada's page", author: "me", profile: "ada")
            XCTAssertEqual(app.myProfile.posts.count, 2, "not on My Profile: on Ada's")

            app.open(.messages)
            spin(until: { app.messages != nil && app.mainWindow.stack.transition == .idle }, "Messages")
            let message = try app.store.addMessageNow(to: "grace", photo: photo, comment: "Hi", author: "me")
            XCTAssertEqual(app.messages?.list.messages.map(\.id), [message.id])

            var renamed = false
            Task { @MainActor in
                _ = try? await app.store.addFriend(id: "lin", name: "Lin Yu")
                try? await app.store.rename(to: "Sam Renamed")
                renamed = true
            }
            spin(until: { renamed }, "the friend and the name")
            XCTAssertEqual(app.people.friend(id: "lin")?.name, "Lin Yu", "the people follow the store")
            XCTAssertEqual(app.people.identity.name, "Sam Renamed")
        }
    }

    /// The comments of the posts in the store in `folder`, read as another program would.
    private func comments(in folder: String) -> [String] {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(folder + "/posts.sqlite3", &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT comment FROM posts", -1, &statement, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(statement) }
        var comments: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { comments.append(String(cString: sqlite3_column_text(statement, 0))) }
        return comments
    }
}
