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

/// Issue 22, 4: a draft that can't be saved (here on a real full file system: a small tmpfs, mounted as
/// root) is said on the page, in words a screen reader reads, retried, and said again once it is saved.
final class FullDiskTests: GtkTestCase, @unchecked Sendable {
    private var mounts: [String] = []

    /// A fresh tmpfs of `kilobytes` at a new folder. Skips the test when it can't be mounted (not root).
    private func mountSmallFileSystem(kilobytes: Int) throws -> String {
        let folder = makeTemporaryDirectory()
        let run = try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder])
        guard run.status == 0 else {
            throw XCTSkip("A full disk is made with a tmpfs, which needs root to mount: \(run.errors)")
        }
        mounts.append(folder)
        return folder
    }

    override func tearDown() {
        for folder in mounts { _ = try? runProgram("/bin/umount", ["-l", folder]) }
        mounts = []
        super.tearDown()
    }

    /// Fills the file system holding `folder` until it has no space left; returns the filler's path.
    private func fill(_ folder: String) throws -> String {
        let filler = folder + "/filler"
        _ = try runProgram("/bin/dd", ["if=/dev/zero", "of=" + filler, "bs=4k"])  // stops at "No space left"
        var stats = statvfs()
        XCTAssertEqual(statvfs(folder, &stats), 0)
        XCTAssertEqual(stats.f_bavail, 0, "the disk is full")
        return filler
    }

    /// The comment of the one draft in the store at `folder`, read as another program would.
    private func draftComment(inStoreAt folder: String) -> String? {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(folder + "/posts.sqlite3", &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT comment FROM drafts", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
        return String(cString: text)
    }

    func testADraftThatCantBeSavedOnAFullDiskIsSaidOnThePageRetriedAndSaidSavedAgain() throws {
        let data = try mountSmallFileSystem(kilobytes: 2048)
        try onMain {
            let app = try makeApp(dataDirectory: data)
            app.myProfile.postButton.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
            let picker = app.flowDialog!.stack.visiblePage as! PhotoPickerPage
            picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == "rocket.jpg" }!)
            spin(until: { app.flowDialog?.stack.visiblePage is CommentPage }, "Add a Comment")
            let page = app.flowDialog!.stack.visiblePage as! CommentPage
            let storedComment = { self.draftComment(inStoreAt: data) }
            page.commentView.text = "First words"
            spin(until: { storedComment() == "First words" }, "the first draft saved")
            XCTAssertFalse(page.draftStatusLabel.isVisible, "nothing to say while it is saved")

            let filler = try fill(data)
            // A comment near the limit: SQLite appends its page to the write-ahead log, which the full disk refuses.
            let long = "A long comment typed while the disk is full. " + String(repeating: "Every word matters. ", count: 95)
            page.commentView.text = long
            spin(until: { page.draftStatusLabel.isVisible }, timeout: 15, "the page says the draft isn't saved")
            let failing = "Your comment isn't saved yet: the disk is full. Postcard keeps trying."
            XCTAssertEqual(page.draftStatusLabel.text, failing)
            XCTAssertEqual(storedComment(), "First words", "the store still has the last draft it could keep")
            XCTAssertTrue(try readAccessibilityTree().contains("alert|" + failing),
                          "a screen reader finds it as an alert, by its words")
            XCTAssertEqual(page.commentView.text, long, "what was typed stays on the page")

            try FileManager.default.removeItem(atPath: filler)
            // Nothing typed since: the retry alone saves it.
            spin(until: { page.draftStatusLabel.text == "Your comment is saved again." }, timeout: 15, "saved again")
            XCTAssertTrue(page.draftStatusLabel.isVisible)
            XCTAssertEqual(storedComment(), long, "everything typed is in the store: a crash now loses nothing")
            XCTAssertTrue(try readAccessibilityTree().contains("alert|Your comment is saved again."))
        }
    }
}
