import CSQLite
import GLib
import PostcardModel
@testable import PostcardStore
import GtkTesting
import XCTest

/// The store's one write path: every write goes through its writer thread, in the order asked for, and
/// the main thread never waits for a busy database.
final class StoreWritePathTests: GtkTestCase, @unchecked Sendable {
    /// Another process's connection to the store's database (what a second Postcard, or `sqlite3`, is).
    private func openOtherConnection(_ folder: String) -> OpaquePointer? {
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(folder + "/posts.sqlite3", &db), SQLITE_OK)
        sqlite3_busy_timeout(db, 5000)
        return db
    }

    private func exec(_ db: OpaquePointer?, _ sql: String) {
        XCTAssertEqual(sqlite3_exec(db, sql, nil, nil, nil), SQLITE_OK, String(cString: sqlite3_errmsg(db)))
    }

    func testACaptionThenADraftRemovalThenAPostLandInThatOrderOnABusyDatabase() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            let store = try PostStore(directory: FilePath(folder))
            let post = try store.addNow(photo: Photo(path: FilePath(bundledPhotos + "/coffee.png")), comment: "Espresso", author: "me", profile: "me")
            try store.saveDraftNow(.caption, id: "caption-draft", target: String(post.id), photoURI: post.photoPath.uri, comment: "Espresso, doppio")
            let other = openOtherConnection(folder)
            defer { sqlite3_close(other) }
            // What lands, in the order it lands.
            exec(other, """
                CREATE TABLE landed (seq INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT NOT NULL);
                CREATE TRIGGER caption_landed AFTER UPDATE OF comment ON posts BEGIN INSERT INTO landed (what) VALUES ('caption'); END;
                CREATE TRIGGER draft_landed AFTER DELETE ON drafts BEGIN INSERT INTO landed (what) VALUES ('draft removed'); END;
                CREATE TRIGGER post_landed AFTER INSERT ON posts BEGIN INSERT INTO landed (what) VALUES ('post'); END;
                """)
            exec(other, "BEGIN IMMEDIATE")  // the database is busy: another process holds its write lock

            var captionSaved = false, posted: Post?
            Task { try await store.updateComment(ofPost: post.id, to: "Espresso, doppio"); captionSaved = true }
            settle()
            store.removeDraft(id: "caption-draft")
            Task { posted = try await store.add(photo: Photo(path: FilePath(bundledPhotos + "/chelsea.png")), comment: "Cat", author: "me", profile: "me") }
            // The main loop keeps running while the writer waits for the lock: a timer still fires on time.
            let waitStarted = DateText.monotonicMicroseconds
            spin(for: 0.8)  // about time itself: a timer fires on time while the writer waits for the lock
            XCTAssertLessThan(DateText.monotonicMicroseconds - waitStarted, 3_000_000, "the main thread did not wait for the database")
            XCTAssertFalse(captionSaved, "nothing lands while the other process holds the lock")
            XCTAssertNil(posted)
            exec(other, "COMMIT")

            spin(until: { captionSaved && posted != nil }, "the writes land once the lock is released")
            var order: [String] = []
            var statement: OpaquePointer?
            XCTAssertEqual(sqlite3_prepare_v2(other, "SELECT what FROM landed ORDER BY seq", -1, &statement, nil), SQLITE_OK)
            while sqlite3_step(statement) == SQLITE_ROW { order.append(String(cString: sqlite3_column_text(statement, 0))) }
            sqlite3_finalize(statement)
            XCTAssertEqual(order, ["caption", "draft removed", "post"])
            XCTAssertEqual(try store.post(id: post.id)?.comment, "Espresso, doppio")
            XCTAssertEqual(try store.drafts(), [])
            XCTAssertEqual(try store.posts(onProfile: "me").map(\.comment), ["Cat", "Espresso, doppio"])
        }
    }

    func testADraftOfAKindThisPostcardDoesNotKnowIsKeptAndNotOfferedAsAPost() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            let store = try PostStore(directory: FilePath(folder))
            try store.saveDraftNow(.reply, target: "12", photoURI: "file:///tmp/a.jpg", comment: "Known")
            let other = openOtherConnection(folder)
            defer { sqlite3_close(other) }
            exec(other, "INSERT INTO drafts (id, instance, kind, target, photo_uri, comment, updated_at) VALUES ('n1', '', 'story', 'me', 'file:///tmp/b.jpg', 'From a newer Postcard', 9999999999)")
            let drafts = try store.drafts()
            XCTAssertEqual(drafts.map(\.comment), ["Known"], "the unknown kind is not offered, as a post or otherwise")
            XCTAssertEqual(drafts.first?.kind, .reply)
            for draft in drafts { store.discardDraft(draft) }  // discarding what is offered: not the unknown one
            store.waitForWrites()
            XCTAssertEqual(try store.integer("SELECT count(*) FROM drafts WHERE kind = 'story'"), 1, "kept untouched")
        }
    }

    func testWritesQueuedBeforeTheStoreGoesStillLand() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            do {
                let store = try PostStore(directory: FilePath(folder))
                store.saveDraft(.post, id: PostStore.newDraftID(), target: "ada", photoURI: "file:///tmp/a.jpg", comment: "For Ada")
            }  // the store goes at once; its writer finishes what was queued first
            let reopened = try PostStore(directory: FilePath(folder))
            XCTAssertEqual(try reopened.drafts().map(\.comment), ["For Ada"])
        }
    }
}
