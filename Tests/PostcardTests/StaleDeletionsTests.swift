import CSQLite
import CXTest
import Foundation
import GLib
import Glibc
import Gtk
import GtkTesting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// A data folder's `instances/<id>.deletions` is obeyed only as far as it can be checked (issue 57): a
/// folder copied from another machine or restored from a backup, a file made up by hand, a symbolic link or
/// a file that can't be read now must never delete what the user kept, and a real last choice still stands.
/// Real stores on real folders; an instance is "gone" once its store is freed (its lock released).
final class StaleDeletionsTests: GtkTestCase, @unchecked Sendable {
    /// A folder with three posts (each with its photo), a message and the three sample friends; its store's
    /// identity id and the posts' photo files.
    @MainActor
    private func makeFolder() throws -> (folder: String, store: String, photos: [String], created: [Int64]) {
        let folder = makeTemporaryDirectory()
        let store = try PostStore(directory: FilePath(folder))
        var photos: [String] = [], created: [Int64] = []
        for comment in ["One", "Two", "Three"] {
            let post = try store.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: comment, author: "me", profile: "me")
            photos.append(post.photoPath.displayName)
            created.append(post.createdAt)
        }
        _ = try store.addMessageNow(to: "grace", photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Hi", author: "me")
        return (folder, try store.identity().id, photos, created)
    }

    private func write(_ text: String, instance: String, in folder: String) {
        XCTAssertTrue(FileManager.default.createFile(atPath: "\(folder)/instances/\(instance).deletions", contents: Data(text.utf8)))
    }

    /// Everything still there: rows unmarked and photos on disk.
    private func assertNothingDeleted(in folder: String, photos: [String], _ message: String, line: UInt = #line) {
        XCTAssertEqual(rowCount("posts", inStoreAt: folder), 3, message, line: line)
        XCTAssertEqual(rowCount("messages", inStoreAt: folder), 1, message, line: line)
        XCTAssertEqual(rowCount("friends", inStoreAt: folder), 3, message, line: line)
        XCTAssertEqual(rowCount("posts", where: "deleted_by IS NOT NULL", inStoreAt: folder), 0, message, line: line)
        for photo in photos { XCTAssertTrue(FileManager.default.fileExists(atPath: photo), message, line: line) }
    }

    /// Files that were not written for this store by the instance they name — an old one without its first
    /// line, another store's, one named for another instance, Deletes without or with the wrong creation
    /// time — delete nothing, and are read once (gone after the start that ignored them).
    func testDeletionsNotWrittenForThisStoreDeleteNothing() throws {
        try onMain {
            let (folder, store, photos, created) = try makeFolder()
            let everything = (1...3).map { "delete posts \($0)\n" }.joined() + "delete messages 1\n" + (1...3).map { "delete friends \($0)\n" }.joined()
            let withTimes = (1...3).map { "delete posts \($0) \(created[$0 - 1])\n" }.joined()
            let cases = [
                ("00000000-0000-4000-8000-000000000001", everything),  // no first line (as a hand-made or old file)
                ("00000000-0000-4000-8000-000000000002", "postcard-deletions 2 store=someone-else instance=00000000-0000-4000-8000-000000000002\n" + withTimes),
                ("00000000-0000-4000-8000-000000000003", "postcard-deletions 2 store=\(store) instance=00000000-0000-4000-8000-000000000009\n" + withTimes),
                ("00000000-0000-4000-8000-000000000004", "postcard-deletions 2 store=\(store) instance=00000000-0000-4000-8000-000000000004\n" + everything),
                ("00000000-0000-4000-8000-000000000005", "postcard-deletions 2 store=\(store) instance=00000000-0000-4000-8000-000000000005\n"
                    + (1...3).map { "delete posts \($0) \(created[$0 - 1] + 1)\n" }.joined()),
            ]
            for (instance, text) in cases { write(text, instance: instance, in: folder) }
            do { _ = try PostStore(directory: FilePath(folder)) }
            assertNothingDeleted(in: folder, photos: photos, "no stale or foreign choice is carried out")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/instances").filter { $0.hasSuffix(".deletions") }
            XCTAssertEqual(left, [], "each was read and dropped")
        }
    }

    /// The last choice of an instance that was killed between the press and the store's write still
    /// stands: its Delete (with the row's creation time) deletes that post for good, its Undo brings back
    /// the post it had marked; nothing else changes.
    func testARealLastChoiceOfAGoneInstanceStillStands() throws {
        try onMain {
            let (folder, _, photos, _) = try makeFolder()
            do {
                let store = try PostStore(directory: FilePath(folder))
                XCTAssertTrue(store.recordChoice(.delete, for: .post(1)))  // pressed; killed before the writer marked it
                try store.execute("UPDATE posts SET deleted_by = '\(store.instanceID)' WHERE id = 2")  // marked; then Undo pressed
                XCTAssertTrue(store.recordChoice(.restore, for: .post(2)))
                store.waitForWrites()
            }  // freed without its quit: the lock goes as a killed process's does
            do { _ = try PostStore(directory: FilePath(folder)) }
            XCTAssertEqual(rowCount("posts", inStoreAt: folder), 2, "the Delete stands")
            XCTAssertEqual(rowCount("posts", where: "id = 1", inStoreAt: folder), 0)
            XCTAssertFalse(FileManager.default.fileExists(atPath: photos[0]), "with its photo")
            XCTAssertEqual(rowCount("posts", where: "id = 2 AND deleted_by IS NULL", inStoreAt: folder), 1, "the Undo stands")
            XCTAssertTrue(FileManager.default.fileExists(atPath: photos[1]))
        }
    }

    /// A deletions file that is a symbolic link is never followed, even to a file whose choices would
    /// be obeyed; the link is removed and its target left as it was.
    func testASymbolicLinkIsNeverFollowed() throws {
        try onMain {
            let (folder, store, photos, created) = try makeFolder()
            let instance = "00000000-0000-4000-8000-000000000006"
            let target = makeTemporaryDirectory() + "/elsewhere"
            let text = "postcard-deletions 2 store=\(store) instance=\(instance)\ndelete posts 1 \(created[0])\n"
            try text.write(toFile: target, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: "\(folder)/instances/\(instance).deletions", withDestinationPath: target)
            do { _ = try PostStore(directory: FilePath(folder)) }
            assertNothingDeleted(in: folder, photos: photos, "a link is not obeyed")
            XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/instances/\(instance).deletions"), "the link removed")
            XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), text, "its target untouched")
        }
    }

    /// A deletions file that can't be read at one start (its permissions) is kept, not removed unread: once
    /// it can be read, its Undo is carried out.
    func testAnUnreadableFileIsKeptForTheNextStart() throws {
        try onMain {
            let (folder, _, photos, _) = try makeFolder()
            var file = ""
            do {
                let store = try PostStore(directory: FilePath(folder))
                try store.execute("UPDATE posts SET deleted_by = '\(store.instanceID)' WHERE id = 3")  // deleted, then Undo pressed
                XCTAssertTrue(store.recordChoice(.restore, for: .post(3)))
                file = "\(folder)/instances/\(store.instanceID).deletions"
                store.waitForWrites()
            }
            // The data folder (a temporary folder of this test's) readable and writable by all, the file by nobody.
            XCTAssertEqual(try runProgram("/bin/chmod", ["-R", "a+rwX", folder]).status, 0)
            XCTAssertEqual(chmod(file, 0), 0)
            // As root the mode alone would not stop a read: this thread opens files as nobody meanwhile
            // (setfsuid also drops the capabilities that override permissions, for this thread only).
            let previous = postcard_test_set_file_user(65534)
            do { _ = try PostStore(directory: FilePath(folder)) } catch { XCTFail("\(error)") }
            _ = postcard_test_set_file_user(previous)
            XCTAssertTrue(FileManager.default.fileExists(atPath: file), "kept, not removed unread")
            XCTAssertEqual(chmod(file, 0o600), 0)
            do { _ = try PostStore(directory: FilePath(folder)) }
            XCTAssertEqual(rowCount("posts", where: "deleted_by IS NULL", inStoreAt: folder), 3, "the Undo carried out once it could be read")
            for photo in photos { XCTAssertTrue(FileManager.default.fileExists(atPath: photo)) }
            XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        }
    }

    /// When the choice can't be written (the data folder's `instances` can't be written), Delete says so
    /// in its toast instead of saying nothing.
    func testADeleteThatCantBeNotedSaysSo() throws {
        try onMain {
            let data = makeTemporaryDirectory()
            let app = try makeApp(posts: ["Delete me"], dataDirectory: data)
            let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
            // `instances` replaced by a file: nothing can be written in it, as root too.
            XCTAssertEqual(rename(data + "/instances", data + "/instances-aside"), 0)
            XCTAssertTrue(FileManager.default.createFile(atPath: data + "/instances", contents: Data()))
            app.open(.post(post.id))
            spin(until: { app.mainWindow.stack.pages.count == 2 && app.mainWindow.stack.transition == .idle }, "the post's page")
            try XCTUnwrap(findButton(labeled: "Delete", in: app.mainWindow.stack.visiblePage!.content)).activate()
            spin(until: { !app.toasts.toasts.isEmpty }, "the toast")
            let title = try XCTUnwrap(app.toasts.toasts.first?.title)
            XCTAssertTrue(title.hasPrefix("Post deleted, but not noted on disk"), title)
        }
    }

    /// A photo whose row was lost (a damaged database log, here the row deleted behind the store's back)
    /// and a stray file are removed at the next start, off the main thread; the photos rows and drafts
    /// name, and one of a row marked deleted (Undo may bring it back), are kept. While another Postcard
    /// copies a photo in (the writers' lock held shared), nothing is removed.
    func testPhotosNothingNamesAreSweptAtStart() throws {
        try onMain {
            let (folder, _, photos, _) = try makeFolder()
            runSQL("DELETE FROM posts WHERE id = 1; UPDATE posts SET deleted_by = 'running-instance' WHERE id = 2", inStoreAt: folder)
            // Post 2 deleted by a Postcard still running (its lock held), its Undo still offered.
            let running = open(folder + "/instances/running-instance.lock", O_RDWR | O_CREAT, 0o600)
            defer { close(running) }
            XCTAssertEqual(flock(running, LOCK_EX | LOCK_NB), 0)
            let stray = folder + "/photos/stray.jpg"
            XCTAssertTrue(FileManager.default.createFile(atPath: stray, contents: Data([1, 2, 3])))
            let drafted = folder + "/photos/drafted.png"
            try FileManager.default.copyItem(atPath: bundledPhotos + "/coffee.png", toPath: drafted)
            runSQL("INSERT INTO drafts (id, instance, kind, target, photo_uri, comment, updated_at) VALUES ('d1', '', 'post', 'me', '\(drafted.uri)', 'Draft', 1)",
                   inStoreAt: folder)

            // Another Postcard copying a photo in: left for a later start.
            let copying = open(folder + "/photos.lock", O_RDWR)
            XCTAssertEqual(flock(copying, LOCK_SH), 0)
            do {
                let store = try PostStore(directory: FilePath(folder))
                store.waitForWrites()
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: photos[0]), "nothing removed while another copies")
            XCTAssertTrue(FileManager.default.fileExists(atPath: stray))
            close(copying)

            do {
                let store = try PostStore(directory: FilePath(folder))
                store.waitForWrites()
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: photos[0]), "the lost post's photo removed")
            XCTAssertFalse(FileManager.default.fileExists(atPath: stray), "and the stray file")
            XCTAssertTrue(FileManager.default.fileExists(atPath: photos[1]), "a post marked deleted keeps its photo")
            XCTAssertTrue(FileManager.default.fileExists(atPath: photos[2]))
            XCTAssertTrue(FileManager.default.fileExists(atPath: drafted), "a draft's photo kept")
            XCTAssertEqual(rowCount("messages", inStoreAt: folder), 1)
        }
    }

    /// The lock file of a Postcard that crashed is removed by a later start once it is older than a
    /// minute; a held one (a running Postcard) and a new one (one starting now) are kept.
    func testTheLocksOfCrashedInstancesAreRemoved() throws {
        try onMain {
            let (folder, _, _, _) = try makeFolder()
            let instances = folder + "/instances"
            let dead = instances + "/00000000-0000-4000-8000-00000000000a.lock"
            let held = instances + "/00000000-0000-4000-8000-00000000000b.lock"
            let new = instances + "/00000000-0000-4000-8000-00000000000c.lock"
            for path in [dead, held, new] { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data())) }
            let old = Date().addingTimeInterval(-3600)
            for path in [dead, held] { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path) }
            let holder = open(held, O_RDWR)
            defer { close(holder) }
            XCTAssertEqual(flock(holder, LOCK_EX | LOCK_NB), 0)
            do { _ = try PostStore(directory: FilePath(folder)) }
            XCTAssertFalse(FileManager.default.fileExists(atPath: dead), "a dead instance's lock removed")
            XCTAssertTrue(FileManager.default.fileExists(atPath: held), "a running one's kept")
            XCTAssertTrue(FileManager.default.fileExists(atPath: new), "a new one's kept")
        }
    }
}
