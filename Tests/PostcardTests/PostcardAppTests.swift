import Adwaita
import CGtk
import CSQLite
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// The whole app: main window, profiles, the flow from both profile callers, and the store.
final class PostcardAppTests: GtkTestCase, @unchecked Sendable {
    private var dialog: ModalDialog? { MainActor.assumeIsolated { self.lastApp?.flowDialog } }

    /// New Post → choose `photo` → type `comment` → Post, through the widgets.
    @MainActor
    private func post(_ comment: String, photo: String, from page: ProfilePage, in app: AppController) {
        page.postButton.activate()  // New Post
        spin(until: { (self.dialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
        let picker = dialog!.stack.visiblePage as! PhotoPickerPage
        picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == photo }!)
        spin(until: { self.dialog?.stack.visiblePage is CommentPage }, "comment page")
        let commentPage = dialog!.stack.visiblePage as! CommentPage
        commentPage.commentView.text = comment
        postWhenReady(commentPage)
    }

    func testMainWindowShowsMyProfileWithNewPostAndFriends() throws {
        try onMain {
            let app = try makeApp()
            XCTAssertEqual(app.mainWindow.stack.titleLabel.text, "My Profile")
            XCTAssertFalse(app.mainWindow.stack.backButton.isVisible)
            XCTAssertTrue(app.myProfile.postButton.hasAccessibleLabel("New Post"))
            XCTAssertEqual(app.myProfile.postButton.label, "New Post")
            XCTAssertEqual(app.myProfile.friendButtons.count, 3)
            XCTAssertTrue(app.myProfile.feedStatus.isVisible, "an empty feed says so")
            XCTAssertTrue(app.myProfile.feedItems.isEmpty)
        }
    }

    func testNewPostEndToEndStoresAndShowsItFirstInMyFeed() throws {
        try onMain {
            let app = try makeApp()
            var results: [CommentedPhotoFlow<Post>.Result] = []
            app.onFlowEnded = { if case .post(let result) = $0 { results.append(result) } }
            post("Old one", photo: "chelsea.png", from: app.myProfile, in: app)
            spin(until: { results.count == 1 }, "first post")
            post("A cup of coffee", photo: "coffee.png", from: app.myProfile, in: app)
            spin(until: { results.count == 2 }, "second post")
            settle()
            XCTAssertEqual(results.count, 2, "each flow resolves once")
            guard case .posted(let posted) = results[1] else { return XCTFail("not posted: \(results)") }
            XCTAssertEqual(posted.comment, "A cup of coffee")
            XCTAssertTrue(posted.photoPath.text.hasSuffix(".png"), posted.photoPath.text)
            XCTAssertNil(dialog, "the dialog is gone")
            XCTAssertEqual(Gtk.Window.all().count, 1)

            let rows = try app.store.posts(onProfile: "me")
            XCTAssertEqual(rows.first, posted, "the flow's result is the post stored, as the feed shows it")
            XCTAssertEqual(rows.map(\.comment), ["A cup of coffee", "Old one"], "newest first")
            XCTAssertEqual(try app.store.count(), 2)
            XCTAssertEqual(rows[0].author, "me")
            XCTAssertTrue(FileManager.default.fileExists(atPath: rows[0].photoPath.text))
            XCTAssertTrue(rows[0].photoPath.hasPrefix(app.store.photosDirectory), "a copy in the store's folder")
            XCTAssertEqual(FileManager.default.contents(atPath: rows[0].photoPath.text),
                           FileManager.default.contents(atPath: bundledPhotos + "/coffee.png"))

            XCTAssertEqual(app.myProfile.feedItems.first?.commentLabel.text, "A cup of coffee")
            XCTAssertFalse(app.myProfile.feedStatus.isVisible)
            spin(until: { app.myProfile.feedItems.first?.isPhotoLoaded == true }, "feed photo")
            XCTAssertTrue(app.myProfile.feedItems[0].picture.isMapped)
        }
    }

    func testFriendProfilePushesAndPostsGoToTheirFeed() throws {
        try onMain {
            let app = try makeApp()
            var results: [CommentedPhotoFlow<Post>.Result] = []
            app.onFlowEnded = { if case .post(let result) = $0 { results.append(result) } }
            app.myProfile.friendButtons[0].activate()
            spin(until: { app.mainWindow.stack.transition == .idle && app.mainWindow.stack.pages.count == 2 }, "pushed")
            let friend = app.mainWindow.stack.visiblePage as! ProfilePage
            XCTAssertEqual(friend.person.name, "Ada Lovelace")
            XCTAssertEqual(app.mainWindow.stack.titleLabel.text, "Ada Lovelace")
            XCTAssertTrue(app.mainWindow.stack.backButton.isVisible)
            XCTAssertEqual(app.mainWindow.stack.backButton.tooltip, "My Profile")
            XCTAssertTrue(friend.postButton.hasAccessibleLabel("Post to Their Profile"))

            post("For Ada", photo: "astronaut.png", from: friend, in: app)
            spin(until: { results.count == 1 }, "posted")
            XCTAssertEqual(try app.store.posts(onProfile: "ada").map(\.comment), ["For Ada"])
            XCTAssertTrue(try app.store.posts(onProfile: "me").isEmpty, "not on my feed")
            XCTAssertEqual(friend.feedItems.first?.commentLabel.text, "For Ada")
            XCTAssertTrue(friend.feedItems.first!.detailLabel.text.hasPrefix("Posted by me"))
            XCTAssertTrue(app.myProfile.feedItems.isEmpty)

            app.mainWindow.stack.backButton.activate()
            spin(until: { app.mainWindow.stack.transition == .idle && app.mainWindow.stack.pages.count == 1 }, "popped")
            XCTAssertEqual(app.mainWindow.stack.titleLabel.text, "My Profile")
        }
    }

    func testFailedPostKeepsTheDraftAndLeavesNothingHalfWritten() throws {
        try onMain {
            let app = try makeApp()
            var results: [CommentedPhotoFlow<Post>.Result] = []
            app.onFlowEnded = { if case .post(let result) = $0 { results.append(result) } }
            // The database refuses the row (as a full disk or locked file would).
            try app.store.execute("CREATE TRIGGER refuse BEFORE INSERT ON posts BEGIN SELECT RAISE(ABORT, 'database is full'); END")
            post("Keep me", photo: "rocket.jpg", from: app.myProfile, in: app)
            let page = dialog!.stack.visiblePage as! CommentPage
            spin(until: { page.errorLabel.isVisible }, "error shown")
            XCTAssertTrue(page.errorLabel.text.contains("Can't save the post: the post database is not laid out as this Postcard expects"),
                          page.errorLabel.text)
            XCTAssertFalse(page.errorLabel.text.contains("database is full"), "SQLite's own words are for the log")
            XCTAssertEqual(page.commentView.text, "Keep me")
            XCTAssertNotNil(dialog, "the dialog stays open")
            XCTAssertTrue(results.isEmpty)
            XCTAssertEqual(try app.store.count(), 0)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: app.store.photosDirectory.text), [],
                           "the copied photo was removed")

            try app.store.execute("DROP TRIGGER refuse")
            postWhenReady(page)
            spin(until: { results.count == 1 }, "posted after retry")
            XCTAssertEqual(try app.store.count(), 1)
            XCTAssertEqual(app.myProfile.feedItems.first?.commentLabel.text, "Keep me")
        }
    }

    func testPhotoCopyFailureIsShownAndStoresNothing() throws {
        try onMain {
            let app = try makeApp()
            try FileManager.default.removeItem(atPath: app.store.photosDirectory.text)
            XCTAssertTrue(FileManager.default.createFile(atPath: app.store.photosDirectory.text, contents: Data()))
            post("No room", photo: "grass.png", from: app.myProfile, in: app)
            let page = dialog!.stack.visiblePage as! CommentPage
            spin(until: { page.errorLabel.isVisible }, "error shown")
            XCTAssertTrue(page.errorLabel.text.contains("Can't copy the photo"), page.errorLabel.text)
            XCTAssertEqual(try app.store.count(), 0)
            dialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "discard question")
            MessageDialog.shown()[0].confirmButton.activate()
            spin(until: { self.dialog == nil }, "closed")
        }
    }

    func testPostsAreStillThereAfterRestart() throws {
        try onMain {
            let directory = makeTemporaryDirectory()
            do {
                let app = try makeApp(dataDirectory: directory)
                var done = false
                app.onFlowEnded = { _ in done = true }
                post("Survives restarts", photo: "brick.png", from: app.myProfile, in: app)
                spin(until: { done }, "posted")
                app.mainWindow.window.destroy()
            }
            let reopened = try makeApp(dataDirectory: directory)
            XCTAssertEqual(reopened.myProfile.feedItems.map(\.commentLabel.text), ["Survives restarts"])
        }
    }

    func testStoredPhotosFollowTheDataFolderWhenItMoves() throws {
        try onMain {
            let parent = makeTemporaryDirectory()
            do {
                let store = try PostStore(directory: parent + "/before")
                try store.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Moved", author: "me", profile: "me")
            }
            try FileManager.default.moveItem(atPath: parent + "/before", toPath: parent + "/after")
            let moved = try PostStore(directory: parent + "/after")
            let post = try XCTUnwrap(try moved.posts(onProfile: "me").first)
            XCTAssertTrue(post.photoPath.text.hasPrefix(parent + "/after/photos/"), post.photoPath.text)
            XCTAssertTrue(FileManager.default.fileExists(atPath: post.photoPath.text))
        }
    }

    func testAnUnusableDatabaseSaysWhereAndWhatToDo() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/posts.sqlite3", contents: Data(repeating: 7, count: 4096)))
            XCTAssertThrowsError(try PostStore(directory: folder)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(folder + "/posts.sqlite3"), text)
                XCTAssertTrue(text.contains("--data-dir"), text)
                XCTAssertTrue(text.contains("the file is damaged or is not a Postcard database"), text)
                XCTAssertFalse(text.contains("file is not a database"), "in plain words, not SQLite's: \(text)")
            }
        }
    }

    /// Issue 22, 6: SQLite's errors reach the user in plain words. Another program (here a second real
    /// SQLite connection) holds the database longer than the writer waits: Post says so, keeps the comment,
    /// and posts once the other lets go.
    func testAPostWhileAnotherProgramHoldsTheDatabaseSaysSoInPlainWords() throws {
        try onMain {
            let app = try makeApp()
            var other: OpaquePointer?
            XCTAssertEqual(sqlite3_open((app.store.directory.text + "/posts.sqlite3"), &other), SQLITE_OK)
            defer { sqlite3_close(other) }
            XCTAssertEqual(sqlite3_exec(other, "BEGIN EXCLUSIVE", nil, nil, nil), SQLITE_OK)
            var results: [CommentedPhotoFlow<Post>.Result] = []
            app.onFlowEnded = { if case .post(let result) = $0 { results.append(result) } }
            post("Held", photo: "rocket.jpg", from: app.myProfile, in: app)
            let page = dialog!.stack.visiblePage as! CommentPage
            spin(until: { page.errorLabel.isVisible }, timeout: 20, "the error")
            XCTAssertEqual(page.errorLabel.text,
                           "Couldn't post: Can't save the post: another program is using the post database. Try again in a moment")
            XCTAssertEqual(page.commentView.text, "Held")
            XCTAssertEqual(sqlite3_exec(other, "COMMIT", nil, nil, nil), SQLITE_OK)
            postWhenReady(page)
            spin(until: { results.count == 1 }, "posted once the other program let go")
            XCTAssertEqual(try app.store.posts(onProfile: "me").map(\.comment), ["Held"])
        }
    }

    func testAStoreFromBeforeVersioningMigratesWithNothingLost() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            do {
                // What an early Postcard left: tables, user_version 0, one photo path kept absolute.
                let early = try PostStore(directory: folder)
                let post = try early.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Espresso", author: "me", profile: "me")
                try early.addReplyNow(to: post, photo: Photo(path: bundledPhotos + "/chelsea.png"), comment: "Cat", author: "ada")
                try early.addMessageNow(to: "grace", photo: Photo(path: bundledPhotos + "/rocket.jpg"), comment: "Launch", author: "me")
                try early.execute("UPDATE posts SET photo_path = '\(folder)/' || photo_path")
                try early.execute("DROP TABLE drafts")  // an early store had only posts, replies, messages
                try early.execute("PRAGMA user_version = 0")
            }
            runSQL("PRAGMA journal_mode = DELETE", inStoreAt: folder)  // once the store (and its writer) closed
            let store = try PostStore(directory: folder)
            XCTAssertEqual(try store.integer("PRAGMA user_version"), Int64(PostStore.schemaVersion))
            XCTAssertEqual(try store.integer("PRAGMA foreign_keys"), 1)
            let post = try XCTUnwrap(try store.posts(onProfile: "me").first)
            XCTAssertEqual(post.comment, "Espresso")
            XCTAssertTrue(FileManager.default.fileExists(atPath: post.photoPath.text), post.photoPath.text)
            XCTAssertEqual(try store.integer("SELECT count(*) FROM posts WHERE photo_path LIKE '/%'"), 0, "made relative")
            XCTAssertEqual(try store.replies(to: post).map(\.comment), ["Cat"])
            XCTAssertEqual(try store.messages().map(\.comment), ["Launch"])
            XCTAssertEqual(try store.drafts(), [], "and it keeps drafts now")
        }
    }

    func testAStoreFromANewerPostcardIsRefusedAndLeftUntouched() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            do {
                let newer = try PostStore(directory: folder)
                try newer.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "From the future", author: "me", profile: "me")
                try newer.execute("PRAGMA user_version = 99")
            }
            runSQL("PRAGMA journal_mode = DELETE", inStoreAt: folder)  // once the store (and its writer) closed
            let file = folder + "/posts.sqlite3"
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            XCTAssertThrowsError(try PostStore(directory: folder)) { error in
                XCTAssertTrue("\(error)".contains("newer Postcard"), "\(error)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "not a byte changed")
            XCTAssertFalse(FileManager.default.fileExists(atPath: file + "-wal"), "not even switched to WAL")
        }
    }

    func testStoredPhotoPathsOutsideTheDataFolderAreRefused() throws {
        try onMain {
            let store = try PostStore(directory: makeTemporaryDirectory())
            try store.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Escaping", author: "me", profile: "me")
            for path in ["/etc/passwd", "photos/../../secret.png"] {
                try store.execute("UPDATE posts SET photo_path = '\(path)'")
                let post = try XCTUnwrap(try store.posts(onProfile: "me").first)
                XCTAssertTrue(post.photoPath.text.hasPrefix(store.directory.text + "/"), "\(path) read as \(post.photoPath)")
                XCTAssertFalse(post.photoPath.text.contains(".."))
                XCTAssertFalse(FileManager.default.fileExists(atPath: post.photoPath.text), "shown as unavailable")
            }
        }
    }

    func testInterruptedPhotoCopiesAreSweptAtLaunchAndNoStoredPhotoIsEverReplaced() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            let store = try PostStore(directory: folder)
            let post = try store.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Kept", author: "me", profile: "me")
            let photos = folder + "/photos"
            let stale = photos + "/.incoming-1700000000-1.jpg", fresh = photos + "/.incoming-1700000001-2.jpg"
            _ = FileManager.default.createFile(atPath: stale, contents: Data(count: 1000))
            _ = FileManager.default.createFile(atPath: fresh, contents: Data(count: 1000))
            let hoursAgo = Date().addingTimeInterval(-Double(PostStore.leftoverAge) - 60)
            try FileManager.default.setAttributes([.modificationDate: hoursAgo], ofItemAtPath: stale)
            // Another Postcard is writing into the folder (it holds the writers' lock): only old leftovers go.
            let otherWriter = try XCTUnwrap(PostStore.lockWriters(in: FilePath(photos), exclusively: false))
            _ = try PostStore(directory: folder)  // a launch meanwhile
            XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "an interrupted copy is removed")
            XCTAssertTrue(FileManager.default.fileExists(atPath: fresh), "a copy another Postcard may still be making is kept")
            close(otherWriter)
            _ = try PostStore(directory: folder)  // the next launch, no writer anywhere: every leftover goes
            XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "no writer holds it: it was interrupted")
            XCTAssertTrue(FileManager.default.fileExists(atPath: post.photoPath.text), "stored photos are kept")
            _ = FileManager.default.createFile(atPath: fresh, contents: Data(count: 1000))

            // The final move never replaces a file.
            let original = try Data(contentsOf: URL(fileURLWithPath: post.photoPath.text))
            XCTAssertThrowsError(try Files.moveWithoutReplacing(FilePath(fresh), to: post.photoPath))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: post.photoPath.text)), original, "the stored photo is untouched")
            XCTAssertTrue(FileManager.default.fileExists(atPath: fresh), "and the source stays where it was")
        }
    }

    func testANamedPipeNamedLikeAPhotoIsRefusedWithoutBlocking() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            let pipe = folder + "/pipe.jpg"
            XCTAssertEqual(mkfifo(pipe, 0o644), 0)
            // Opening a pipe nobody writes to blocks forever: it must never be opened.
            XCTAssertThrowsError(try ImageDecoder.header(uri: pipe.uri)) { error in
                XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
            }
            XCTAssertThrowsError(try Files.copy(uri: pipe.uri, to: FilePath(folder + "/copy.jpg")))
            let page = CommentPage(photo: Photo(path: pipe))
            let window = Gtk.Window()
            window.setChild(page.view)
            show(window)
            page.commentView.text = "A pipe"
            spin(until: { !page.isPhotoReadable }, timeout: 5, "the page says it cannot open it")
            XCTAssertFalse(page.postButton.isSensitive)
            XCTAssertTrue(page.errorLabel.text.contains("not a regular file"), page.errorLabel.text)
            let store = try PostStore(directory: folder + "/data")
            XCTAssertThrowsError(try store.addNow(photo: Photo(path: pipe), comment: "x", author: "me", profile: "me"), "the store refuses it too")
            XCTAssertEqual(try store.count(), 0)
        }
    }

    func testAFileThatIsNotAnImageCannotBePosted() {
        onMain {
            let folder = makeTemporaryDirectory()
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/notes.png", contents: Data("text".utf8)))
            let page = CommentPage(photo: Photo(path: folder + "/notes.png"))
            let window = Gtk.Window()
            window.setChild(page.view)
            show(window)
            page.commentView.text = "Looks like a photo"
            XCTAssertFalse(page.postButton.isSensitive, "Post waits for the photo to decode: a quick Ctrl+Return can't post it")
            spin(until: { !page.isPhotoReadable }, "decode failure noticed")
            XCTAssertFalse(page.postButton.isSensitive, "Post stays off for a file that is not an image")
            XCTAssertTrue(page.errorLabel.isVisible)
            XCTAssertTrue(page.errorLabel.text.contains("can't be opened"), page.errorLabel.text)
        }
    }

    func testTimesHaveNoPaddingBeforeOneDigitDays() {
        onMain {
            // 2026-08-07 12:00 UTC: the 7th in every time zone from UTC-11 to UTC+11.
            let text = TimeText.dateAndTime(1_786_104_000)
            XCTAssertTrue(text.hasPrefix("7 Aug 2026"), text)
            XCTAssertFalse(text.contains("\u{2007}") || text.contains("  "), text)
        }
    }

    func testTimesFollowTheDesktopsTwelveOrTwentyFourHourClock() {
        onMain {
            let saved = DateText.interfaceSettings
            defer { DateText.interfaceSettings = saved }
            let settings = navgtk_settings_in_memory("org.gnome.desktop.interface")!
            DateText.interfaceSettings = Object(UnsafeMutableRawPointer(settings), transfer: .full)
            // 2026-08-07 12:00 UTC; its local hour is whatever the machine's time zone makes it.
            let seconds: Int64 = 1_786_104_000
            g_settings_set_string(settings, "clock-format", "24h")
            let twentyFour = TimeText.dateAndTime(seconds)
            XCTAssertEqual(twentyFour, DateText.format(unixSeconds: seconds, "%-d %b %Y, %H:%M"))
            XCTAssertFalse(twentyFour.hasSuffix("AM") || twentyFour.hasSuffix("PM"), twentyFour)
            g_settings_set_string(settings, "clock-format", "12h")
            let twelve = TimeText.dateAndTime(seconds)
            XCTAssertTrue(twelve.hasSuffix("AM") || twelve.hasSuffix("PM"), "12-hour clock: \(twelve)")
            XCTAssertNotEqual(twelve, twentyFour)
        }
    }
}
