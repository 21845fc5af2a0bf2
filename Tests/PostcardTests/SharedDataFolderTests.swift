import Adwaita
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

/// Two Postcards on one data folder (a second launch with the same `--data-dir` runs as its own instance):
/// a real first process types a comment (through AT-SPI, as a screen reader user types), and a second
/// Postcard on the same folder neither offers that live draft, nor overwrites it with its own, nor
/// removes it; once the first is killed, its comment is offered and resumed. Only the first keeps the
/// open pages.
final class SharedDataFolderTests: GtkTestCase, @unchecked Sendable {
    /// The comments of the drafts in the store in `folder`, read as another program would.
    private func draftComments(in folder: String) -> [String] {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(folder + "/posts.sqlite3", &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT comment FROM drafts ORDER BY comment", -1, &statement, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(statement) }
        var comments: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { comments.append(String(cString: sqlite3_column_text(statement, 0))) }
        return comments
    }

    func testTwoPostcardsOnOneFolderKeepTheirOwnDraftsAndAKilledOnesDraftIsOffered() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        let environment: [String: String?] = ["XDG_DATA_HOME": home + "/xdg", "G_MESSAGES_DEBUG": "Postcard"]
        let logPath = home + "/first.log"
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        let first = try startPostcard(["--data-dir", data, bundledPhotos + "/coffee.png"], environment: environment, log: logPath)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        try waitFor("the first Postcard on Add a Comment", timeout: 30) { log().contains("Flow started: New Post") }
        let script = ToolkitTestCase.accessibilityReaderScript
        let typed = "The first one's words"
        try waitFor("the comment typed over AT-SPI", timeout: 20) {
            (try? runProgram("/usr/bin/python3", [script, String(first.processIdentifier), "--set-text", "Comment", typed]))?.status == 0
        }
        try waitFor("the first one's draft kept", timeout: 10) { draftComments(in: data) == [typed] }

        try onMain {
            let second = try makeApp(dataDirectory: data)
            XCTAssertFalse(second.store.isPrimary, "the first Postcard keeps the open pages")
            XCTAssertFalse(second.offerDraft(), "a draft the first Postcard is still editing is not offered")
            XCTAssertEqual(try second.store.drafts(), [])
            // What the second Postcard types is its own draft, beside the first one's.
            second.myProfile.postButton.activate()
            spin(until: { (second.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "Choose a Photo")
            let picker = second.flowDialog!.stack.visiblePage as! PhotoPickerPage
            picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == "rocket.jpg" }!)
            spin(until: { second.flowDialog?.stack.visiblePage is CommentPage }, "Add a Comment")
            (second.flowDialog!.stack.visiblePage as! CommentPage).commentView.text = "The second one's words"
            spin(until: { draftComments(in: data).count == 2 }, "the second one's draft kept")
            XCTAssertEqual(draftComments(in: data), ["The first one's words", "The second one's words"])
            // Nothing the second does removes the first one's draft, even asked to by its id.
            let firstsDraft = try XCTUnwrap(second.store.query("SELECT id, instance FROM drafts WHERE comment = ?1", bind: { sqlite3_bind_text($0, 1, typed, -1, postcard_sqlite_transient()) }) { statement in
                Draft(id: second.store.text(statement, 0), owner: second.store.text(statement, 1), kind: .post, target: "me",
                      photoURI: "", comment: typed, updatedAt: 0)
            }.first)
            second.store.removeDraft(id: firstsDraft.id)
            second.store.discardDraft(firstsDraft)
            second.store.waitForWrites()
            XCTAssertTrue(draftComments(in: data).contains(typed), "the first one's draft is still there")
            second.mainWindow.window.destroy()  // the second Postcard quits, keeping its own draft
            spin(until: { second.activeFlow == nil }, "the second one's flow ended")
            second.shutdown()
            XCTAssertFalse(Files.exists(FilePath(data + "/navigation.gvariant")), "only the first Postcard keeps the open pages")
        }
        XCTAssertTrue(first.isRunning)
        XCTAssertEqual(draftComments(in: data), ["The first one's words", "The second one's words"], "both drafts kept")

        kill(first.processIdentifier, SIGKILL)  // the first Postcard crashes
        first.waitUntilExit()
        try onMain {
            let third = try makeApp(dataDirectory: data)
            XCTAssertTrue(third.store.isPrimary, "with the first one gone, the next Postcard keeps the open pages")
            let offered = try third.store.drafts()
            XCTAssertEqual(Set(offered.map(\.comment)), ["The first one's words", "The second one's words"], "nobody is editing either now")
            XCTAssertTrue(third.offerDraft())
            third.resume(try XCTUnwrap(offered.first { $0.comment == typed }))
            spin(until: { (third.flowDialog?.stack.visiblePage as? CommentPage)?.commentView.text == typed }, "the killed one's comment, resumed")
            third.flowDialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "Discard this post?")
            MessageDialog.shown()[0].confirmButton.activate()
            spin(until: { third.activeFlow == nil }, "discarded")
            // The removal is the store writer's: waited for (it landed after the flow's end under make test's load).
            spin(until: { self.draftComments(in: data) == ["The second one's words"] }, "discarding the resumed draft removes it, and only it")
        }
    }
}

/// A store this Postcard can't use, as a user who started it from the launcher meets it: a window says
/// what is wrong, where and what to do (not only standard error), and nothing in the store changes.
final class StartupErrorTests: GtkTestCase, @unchecked Sendable {
    func testAStoreFromANewerPostcardIsExplainedInAWindowAndLeftUntouched() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        try onMain {
            let newer = try PostStore(directory: FilePath(data))
            try newer.addNow(photo: Photo(path: FilePath(bundledPhotos + "/coffee.png")), comment: "From the future", author: "me", profile: "me")
            try newer.execute("PRAGMA user_version = 99")
        }
        runSQL("PRAGMA journal_mode = DELETE", inStoreAt: data)
        let file = data + "/posts.sqlite3"
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let logPath = home + "/log"
        let postcard = try startPostcard(["--data-dir", data], environment: ["XDG_DATA_HOME": home + "/xdg"], log: logPath)
        defer { if postcard.isRunning { postcard.terminate() } }
        var heard: [String] = []
        try waitFor("the window saying why", timeout: 30) {
            heard = (try? readAccessibilityTree(ofProcess: postcard.processIdentifier)) ?? []
            return heard.contains("label|Can't Open Your Posts")
        }
        XCTAssertTrue(heard.contains("frame|Postcard Can't Start"), "\(heard)")
        let message = try XCTUnwrap(heard.first { $0.hasPrefix("label|") && $0.contains("newer Postcard") }, "\(heard)")
        XCTAssertTrue(message.contains(file), "it names the database: \(message)")
        XCTAssertTrue(message.contains("--data-dir"), "and what to do: \(message)")
        let script = ToolkitTestCase.accessibilityReaderScript
        XCTAssertEqual(try runProgram("/usr/bin/python3", [script, String(postcard.processIdentifier), "--press", "Close"]).status, 0)
        try waitFor("Postcard to end", timeout: 10) { !postcard.isRunning }
        XCTAssertEqual(postcard.terminationStatus, 1, "it ends with a failure status")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "not a byte of the store changed")
    }

    /// The window saying why, as a screen reader reads it, once its message shows.
    private func waitForTheWindowSayingWhy(_ postcard: Process) throws -> [String] {
        var heard: [String] = []
        try waitFor("the window saying why", timeout: 30) {
            heard = (try? readAccessibilityTree(ofProcess: postcard.processIdentifier)) ?? []
            return heard.contains("label|Can't Open Your Posts")
        }
        return heard
    }

    /// Presses Try Again over AT-SPI and waits for the main window (My Profile's New Post) in its place.
    private func tryAgainOpens(_ postcard: Process) throws {
        let script = ToolkitTestCase.accessibilityReaderScript
        XCTAssertEqual(try runProgram("/usr/bin/python3", [script, String(postcard.processIdentifier), "--press", "Try Again"]).status, 0)
        var heard: [String] = []
        try waitFor("the main window", timeout: 30) {
            heard = (try? readAccessibilityTree(ofProcess: postcard.processIdentifier)) ?? []
            return heard.contains("push button|New Post")
        }
        XCTAssertFalse(heard.contains("label|Can't Open Your Posts"), "the window saying why is gone: \(heard)")
        XCTAssertTrue(postcard.isRunning)
    }

    /// Another program holds the database exclusively (SQLite's exclusive locking mode): the window says
    /// so and offers Try Again, never "move it aside"; once the other lets go, Try Again opens the posts.
    func testADatabaseHeldByAnotherProgramOffersTryAgainAndOpensOnceFree() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        try onMain {
            let store = try PostStore(directory: FilePath(data))
            try store.addNow(photo: Photo(path: FilePath(bundledPhotos + "/coffee.png")), comment: "Still here", author: "me", profile: "me")
        }
        var other: OpaquePointer?
        XCTAssertEqual(sqlite3_open(data + "/posts.sqlite3", &other), SQLITE_OK)
        defer { sqlite3_close(other) }
        XCTAssertEqual(sqlite3_exec(other, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM posts;", nil, nil, nil), SQLITE_OK)
        let postcard = try startPostcard(["--data-dir", data], environment: ["XDG_DATA_HOME": home + "/xdg"], log: home + "/log")
        defer { if postcard.isRunning { postcard.terminate() } }
        let heard = try waitForTheWindowSayingWhy(postcard)
        let message = try XCTUnwrap(heard.first { $0.hasPrefix("label|") && $0.contains("Another program is using") }, "\(heard)")
        XCTAssertFalse(message.contains("Move it aside"), message)
        XCTAssertTrue(heard.contains("push button|Try Again"), "\(heard)")
        XCTAssertEqual(sqlite3_exec(other, "COMMIT", nil, nil, nil), SQLITE_OK)
        sqlite3_close(other)
        other = nil
        try tryAgainOpens(postcard)
    }

    /// A data folder that can't be written (immutable, as a read-only mount is: root can't write it
    /// either) is said to be read-only, with what to do and Try Again, never "move it aside"; once it is
    /// writable again, Try Again opens the posts.
    func testAReadOnlyDataFolderIsSaidToBeSoAndTryAgainOpensOnceWritable() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        try onMain {
            let store = try PostStore(directory: FilePath(data))
            try store.addNow(photo: Photo(path: FilePath(bundledPhotos + "/coffee.png")), comment: "Still here", author: "me", profile: "me")
        }
        XCTAssertEqual(try runProgram("/usr/bin/chattr", ["-R", "+i", data]).status, 0)
        defer { _ = try? runProgram("/usr/bin/chattr", ["-R", "-i", data]) }
        let postcard = try startPostcard(["--data-dir", data], environment: ["XDG_DATA_HOME": home + "/xdg"], log: home + "/log")
        defer { if postcard.isRunning { postcard.terminate() } }
        let heard = try waitForTheWindowSayingWhy(postcard)
        let message = try XCTUnwrap(heard.first { $0.hasPrefix("label|") && $0.contains("can't be written to") }, "\(heard)")
        XCTAssertTrue(message.contains(data), "it names the folder: \(message)")
        XCTAssertFalse(message.contains("Move it aside"), message)
        XCTAssertTrue(heard.contains("push button|Try Again"), "\(heard)")
        XCTAssertEqual(try runProgram("/usr/bin/chattr", ["-R", "-i", data]).status, 0)
        try tryAgainOpens(postcard)
    }

    /// A data folder that can't be written can still be opened read-only from the window saying why: the
    /// main window says so in its title and shows the posts — one only in the write-ahead log too (the
    /// folder of a Postcard that was killed) — and nothing in the folder is made or changed.
    func testAReadOnlyDataFolderOpensReadOnly() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        // Another connection open as the store closes: the log is not folded into the file or removed.
        var other: OpaquePointer?
        defer { sqlite3_close(other) }
        try onMain {
            let store = try PostStore(directory: FilePath(data))
            try store.addNow(photo: Photo(path: FilePath(bundledPhotos + "/coffee.png")), comment: "Still here", author: "me", profile: "me")
        }
        XCTAssertEqual(sqlite3_open(data + "/posts.sqlite3", &other), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(other, "SELECT count(*) FROM posts", nil, nil, nil), SQLITE_OK)
        try onMain {
            let store = try PostStore(directory: FilePath(data))
            try store.addNow(photo: Photo(path: FilePath(bundledPhotos + "/rocket.jpg")), comment: "Only in the log", author: "me", profile: "me")
        }
        var log = stat()
        XCTAssertEqual(stat(data + "/posts.sqlite3-wal", &log), 0)
        XCTAssertGreaterThan(log.st_size, 0, "a log to replay")
        let before = try FileManager.default.contentsOfDirectory(atPath: data).sorted()
        XCTAssertEqual(try runProgram("/usr/bin/chattr", ["-R", "+i", data]).status, 0)
        defer { _ = try? runProgram("/usr/bin/chattr", ["-R", "-i", data]) }
        let postcard = try startPostcard(["--data-dir", data], environment: ["XDG_DATA_HOME": home + "/xdg"], log: home + "/log")
        defer { if postcard.isRunning { postcard.terminate() } }
        let heard = try waitForTheWindowSayingWhy(postcard)
        XCTAssertTrue(heard.contains("push button|Open Read-Only"), "\(heard)")
        let script = ToolkitTestCase.accessibilityReaderScript
        XCTAssertEqual(try runProgram("/usr/bin/python3", [script, String(postcard.processIdentifier), "--press", "Open Read-Only"]).status, 0)
        var opened: [String] = []
        do {
            try waitFor("the main window, read-only", timeout: 30) {
                opened = (try? readAccessibilityTree(ofProcess: postcard.processIdentifier)) ?? []
                return opened.contains("frame|Postcard (Read-Only)")
            }
        } catch {
            XCTFail("heard \(opened); log: \((try? String(contentsOfFile: home + "/log", encoding: .utf8)) ?? "")")
            throw error
        }
        XCTAssertTrue(opened.contains { $0.contains("Still here") }, "the posts are shown: \(opened)")
        XCTAssertTrue(opened.contains { $0.contains("Only in the log") }, "the one in the log too: \(opened)")
        postcard.terminate()
        postcard.waitUntilExit()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data).sorted(), before, "nothing made in the folder")
    }
}
