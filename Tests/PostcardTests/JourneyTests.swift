import CGtk
import Adwaita
import CXTest
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Journeys: what `postcard --record FILE` writes as the user goes, and `postcard --replay FILE`
/// replaying it into a new data folder through the same widgets.
final class JourneyTests: GtkTestCase, @unchecked Sendable {
    // MARK: - The journal's text

    func testAJournalReadsBackAsItWasWritten() throws {
        let journey = Journey(entries: [
            .init(time: 0, step: .window(width: 1280)),
            .init(time: 0.5, step: .path([])),
            .init(time: 1.25, step: .path([.profile("ada"), .post(12), .comments(12)])),
            .init(time: 2, step: .start(.newPost)),
            .init(time: 2.5, step: .choose("trips/Zoë's \"best\" photo.jpg")),
            .init(time: 3, step: .takePhoto), .init(time: 3.1, step: .shutter), .init(time: 3.2, step: .chooseInstead),
            .init(time: 4, step: .comment("Morning\n\t\"coffee\" \\ ☕ in Köln")),
            .init(time: 4.0006, step: .post), .init(time: 5, step: .back), .init(time: 6, step: .cancel),
            .init(time: 7, step: .keepEditing), .init(time: 8, step: .discard),
            .init(time: 9, step: .end(.post(12))), .init(time: 9, step: .end(.reply(3))),
            .init(time: 9, step: .end(.message(4))), .init(time: 9, step: .end(.caption(12))),
            .init(time: 9, step: .end(.friend("3e8c5d1a"))), .init(time: 9, step: .end(.canceled)),
            .init(time: 10, step: .start(.newMessage)), .init(time: 10.5, step: .recipient("grace")),
            .init(time: 11, step: .present(.myCode)), .init(time: 12, step: .dismiss(.scanner)),
        ])
        let text = journey.text
        XCTAssertTrue(text.hasPrefix("# Postcard journey 1\n0.000 window 1280\n0.500 path\n1.250 path postcard://profile/ada postcard://post/12 postcard://post/12/comments\n"), text)
        XCTAssertTrue(text.contains("\n4.000 comment \"Morning\\n\\t\\\"coffee\\\" \\\\ ☕ in Köln\"\n"), "C's escapes, UTF-8 as it is: \(text)")
        XCTAssertTrue(text.contains("\n2.500 choose \"trips/Zoë's \\\"best\\\" photo.jpg\"\n"), text)
        XCTAssertTrue(text.hasSuffix("12.000 dismiss scan-a-code\n"), "every line ends with its newline")
        let read = try Journey(text: text)
        XCTAssertEqual(read.entries.map(\.step), journey.entries.map(\.step))
        XCTAssertEqual(read.entries.map(\.line), Array(2...(journey.entries.count + 1)), "each entry knows its line")
        XCTAssertEqual(read.entries[9].time, 4.001, accuracy: 0.0001, "times are kept to the millisecond")
        // Comments, blank lines and a person's spacing are fine.
        let edited = try Journey(text: "# Postcard journey 1\n\n# my notes\n  1.5   start   new-post  \r\n2 post\n")
        XCTAssertEqual(edited.entries.map(\.step), [.start(.newPost), .post])
        XCTAssertEqual(edited.entries.map(\.line), [4, 5])
    }

    func testADamagedJournalIsRefusedNamingItsLineAndStep() {
        func error(_ text: String) -> JourneyError? {
            do { _ = try Journey(text: text); return nil } catch { return error as? JourneyError }
        }
        let header = "# Postcard journey 1\n"
        XCTAssertEqual(error(header + "0.0 start new-post\n1.0 comment \"Half a th"),
                       JourneyError(line: 3, step: "comment", reason: .cutOff), "a last line without its newline was cut off")
        XCTAssertEqual(error(header + "0.0 start new-post\n1.0 fly-away\n"), JourneyError(line: 3, step: "fly-away", reason: .unknownStep))
        XCTAssertEqual(error(header + "0.0 start new-spaceship\n"), JourneyError(line: 2, step: "start", reason: .badValue))
        XCTAssertEqual(error(header + "0.0 comment unquoted\n"), JourneyError(line: 2, step: "comment", reason: .badValue))
        XCTAssertEqual(error(header + "0.0 comment \"never closed\n"), JourneyError(line: 2, step: "comment", reason: .badValue))
        XCTAssertEqual(error(header + "0.0 path postcard://nowhere/1\n"), JourneyError(line: 2, step: "path", reason: .badValue))
        XCTAssertEqual(error(header + "0.0 post now\n"), JourneyError(line: 2, step: "post", reason: .badValue))
        XCTAssertEqual(error(header + "2.0 post\n1.0 post\n"), JourneyError(line: 3, step: "post", reason: .badTime), "time goes back")
        XCTAssertEqual(error(header + "soon post\n"), JourneyError(line: 2, step: "post", reason: .badTime))
        XCTAssertEqual(error(header + "1.0 end post -3\n"), JourneyError(line: 2, step: "end", reason: .badValue))
        XCTAssertEqual(JourneyError(line: 3, step: "comment", reason: .cutOff).description,
                       "line 3, step “comment”: the line was cut off (the recording ended in the middle of it)")
        XCTAssertEqual(JourneyError(line: 7, step: "choose", reason: .missingPhoto("gone.jpg")).description,
                       "line 7, step “choose”: no photo “gone.jpg” in the library")
    }

    // MARK: - Recorded through real input, replayed into a new data folder

    /// Clicks the middle of `widget` with the primary button, through the X server (XTEST), as a user would.
    @MainActor
    private func click(_ widget: Widget, file: StaticString = #filePath, line: UInt = #line) {
        guard let display = postcard_test_xdisplay(), let native = gtk_widget_get_native(widget.widget) else {
            return XCTFail("clicks need an X11 display (Xvfb) and a shown widget", file: file, line: line)
        }
        spin(until: { widget.isMapped && widget.isSensitive && widget.width > 0 }, "\(widget) to be there and laid out", file: file, line: line)
        var point = graphene_point_t()
        var centre = graphene_point_t(x: Float(widget.width) / 2, y: Float(widget.height) / 2)
        _ = gtk_widget_compute_point(widget.widget, UnsafeMutableRawPointer(native).assumingMemoryBound(to: GtkWidget.self), &centre, &point)
        var dx = 0.0, dy = 0.0
        gtk_native_get_surface_transform(native, &dx, &dy)
        postcard_test_click(display, UnsafeMutableRawPointer(native), Int32(Double(point.x) + dx), Int32(Double(point.y) + dy), 1)
        settle()
    }

    /// Types `text` (lowercase letters and spaces) key by key through XTEST into the focused widget.
    @MainActor
    private func type(_ text: String) {
        for character in text.unicodeScalars { pressKey(Int32(character.value)) }  // X keysyms of Latin-1 are their code points
    }

    /// Chooses the photo `steps` to the right of the first on the Choose a Photo shown, by keyboard.
    @MainActor
    private func choosePhoto(rightOf steps: Int, on stack: @escaping () -> NavigationStack?) -> Photo? {
        spin(until: { (stack()?.visiblePage as? PhotoPickerPage)?.hasSettled == true && stack()?.transition == .idle }, "Choose a Photo")
        guard let picker = stack()?.visiblePage as? PhotoPickerPage else { return nil }
        spin(until: { picker.boundTiles.first { $0.position == 0 }?.tile.listItem?.hasFocus == true }, "the first photo focused")
        for _ in 0..<steps { pressKey(XK_Right) }
        pressKey(XK_Return)
        spin(until: { stack()?.visiblePage is CommentPage && stack()?.transition == .idle }, "Add a Comment")
        return (stack()?.visiblePage as? CommentPage)?.photo
    }

    /// What a journey leaves in a store: my posts' comments and photos (the bytes of the store's copy),
    /// their replies, and the drafts.
    private struct StoreState: Equatable {
        var posts: [String]
        var photos: [Data?]
        var replies: [String]
        var drafts: Int
    }

    @MainActor
    private func state(of store: PostStore) throws -> StoreState {
        let posts = try store.posts(onProfile: Identity.localID)
        var replies: [String] = []
        for post in posts { replies += try store.replies(to: post).map(\.comment) }
        return StoreState(posts: posts.map(\.comment), photos: posts.map { FileManager.default.contents(atPath: $0.photoPath.displayName) },
                          replies: replies, drafts: try store.drafts().count)
    }

    func testAJourneyRecordedThroughRealInputReplaysToTheSameStoreAndPath() throws {
        try onMain {
            let journal = FilePath(makeTemporaryDirectory()).appending("journey.txt")
            let app = try makeApp()
            let stack = app.mainWindow.stack
            let recorder = try JourneyRecorder(app: app, path: journal)
            func written() -> String { Files.readText(journal) ?? "" }

            // My Profile → a friend → Back.
            let friend = app.people.friendPeople[0]
            click(app.myProfile.friendButtons[0])
            spin(until: { stack.pages.count == 2 && stack.transition == .idle }, "the friend's profile")
            XCTAssertTrue(written().hasSuffix(" path \(Route.profile(friend.id).link)\n"), "written as it happens:\n\(written())")
            click(stack.backButton)
            spin(until: { stack.pages.count == 1 && stack.transition == .idle }, "back on My Profile")

            // New Post → the second photo → type → Post.
            click(app.myProfile.postButton)
            let chosen = try XCTUnwrap(choosePhoto(rightOf: 1) { app.flowDialog?.stack })
            type("good morning")
            click(try XCTUnwrap(app.flowDialog?.stack.visiblePage as? CommentPage).postButton)
            spin(until: { app.activeFlow == nil && app.myProfile.feedItems.first?.card != nil }, "the new post on My Profile")
            let post = try XCTUnwrap(app.store.posts(onProfile: Identity.localID).first)
            XCTAssertEqual(post.comment, "good morning")

            // Its page → Comments → Reply with Photo → the third photo → type → Cancel → Discard.
            click(try XCTUnwrap(app.myProfile.feedItems.first?.card))
            spin(until: { stack.visiblePage is PhotoDetailPage && stack.transition == .idle }, "the post's page")
            let detail = try XCTUnwrap(stack.visiblePage as? PhotoDetailPage)
            click(try XCTUnwrap(findButton(labeled: "Comments", in: detail.content)))
            spin(until: { stack.visiblePage is CommentThreadPage && stack.transition == .idle }, "Comments")
            click(try XCTUnwrap(stack.visiblePage as? CommentThreadPage).replyButton)
            let replyPhoto = try XCTUnwrap(choosePhoto(rightOf: 2) { stack })
            type("meow")
            click(try XCTUnwrap(findButton(labeled: "Cancel", in: app.mainWindow.window), "the reply's Cancel"))
            spin(until: { !MessageDialog.shown().isEmpty }, "Discard This Post?")
            click(MessageDialog.shown()[0].confirmButton)
            spin(until: { app.activeFlow == nil && stack.visiblePage is CommentThreadPage && stack.transition == .idle }, "back in Comments")
            settle()
            recorder.stop()

            let recorded = try Journey(text: written())
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(app.mainWindow.window.pointer(), &width, &height)
            let library = app.library.directory.absolute
            XCTAssertEqual(recorded.entries.map(\.step), [
                .window(width: Int(width)),
                .path([]),
                .path([.profile(friend.id)]),
                .path([]),
                .start(.newPost), .choose(String(chosen.path.dropFirst(library.displayName.count + 1))), .comment("good morning"),
                .post, .end(.post(post.id)),
                .path([.post(post.id)]),
                .path([.post(post.id), .comments(post.id)]),
                .start(.replyWithPhoto), .choose(replyPhoto.fileName), .comment("meow"), .cancel, .discard, .end(.canceled),
            ], "the journey in the app's terms:\n\(written())")
            let expected = try state(of: app.store)
            XCTAssertEqual(expected, StoreState(posts: ["good morning"], photos: [FileManager.default.contents(atPath: chosen.path)],
                                                replies: [], drafts: 0))
            app.shutdown()
            app.mainWindow.window.destroy()

            // Replayed into a new data folder, as fast as the screens allow.
            let replayed = try makeApp()
            var outcome: Result<Void, Error>?
            let replayer = JourneyReplayer(app: replayed, journey: recorded, pace: .fast)
            var stepsSeen: [String] = []
            replayer.afterStep = { entry in stepsSeen.append(entry.step.name) }
            Task {
                do { try await replayer.run(); outcome = .success(()) } catch { outcome = .failure(error) }
            }
            spin(until: { outcome != nil }, timeout: 120, "the replay")
            if case .failure(let error) = outcome { XCTFail("the replay stopped: \(error)") }
            XCTAssertEqual(stepsSeen, recorded.entries.map(\.step.name), "every step replayed, in order")
            XCTAssertEqual(try state(of: replayed.store), expected, "the same posts, no reply, no draft")
            let newPost = try XCTUnwrap(replayed.store.posts(onProfile: Identity.localID).first)
            XCTAssertEqual(replayed.router.path, [.post(newPost.id), .comments(newPost.id)], "the same pages, with the new post's id")
            XCTAssertEqual(replayed.mainWindow.stack.pages.map(\.title), ["My Profile", "Post", "Comments"])
        }
    }

    /// A journal as the Postcard before this one wrote it (format 1, a message opened from Messages as a
    /// dialog: `present message 1`), replayed through the model at another width than it was recorded
    /// at: the same posts, message, deletion and Undo, and reply in the store, and the same last path.
    func testAJournalOfThePreviousFormatReplaysThroughTheModelAtAnotherWidth() throws {
        try onMain {
            let text = try XCTUnwrap(Files.readText(FilePath(PhotoFixtures.formatsFolder + "/recorded-before-the-model.journey")))
            let journey = try Journey(text: text)
            XCTAssertTrue(text.hasPrefix(Journey.header + "\n"), "today's version: the format did not change")
            XCTAssertTrue(journey.entries.contains { $0.step == .present(.message(1)) })
            let app = try makeApp(width: 360)
            let replayer = JourneyReplayer(app: app, journey: journey, pace: .fast)
            replayer.followsWindowSteps = false  // at 360 px, not the recorded 1280
            var outcome: Result<Void, Error>?
            var shownMessage = false
            let token = app.router.observePath { path in
                if path == [.messages, .message(1)] { shownMessage = app.mainWindow.stack.pages.count == 3 }  // pushed over the list
            }
            defer { token.cancel() }
            Task { do { try await replayer.run(); outcome = .success(()) } catch { outcome = .failure(error) } }
            spin(until: { outcome != nil }, timeout: 120, "the replay")
            if case .failure(let error) = outcome { XCTFail("the replay stopped: \(error)") }
            XCTAssertTrue(shownMessage, "the message was shown as a narrow window shows it")
            XCTAssertEqual(app.router.path, [.post(1), .comments(1)])
            let post = try XCTUnwrap(app.store.post(id: 1), "deleted, then brought back by Undo")
            XCTAssertEqual(post.comment, "Espresso")
            XCTAssertEqual(try app.store.message(id: 1)?.comment, "Look up")
            XCTAssertEqual(try app.store.message(id: 1)?.recipient, "grace")
            XCTAssertEqual(try app.store.replies(to: post).map(\.comment), ["meow"])
            XCTAssertNil(app.activeFlow)
            XCTAssertNil(app.presented)
        }
    }

    /// The other flows, driven through their widgets: a message (recipient, photo, text, Send), Edit
    /// Caption, Quick Snap's shutter, New Post through the camera and back (Take Photo, Back, a photo,
    /// Back, another), and My Code opened and closed. Recorded, then replayed into a new data folder with the
    /// same seed post: the same store.
    func testEveryFlowRecordedReplaysToTheSameStore() throws {
        try onMain {
            let journal = FilePath(makeTemporaryDirectory()).appending("journey.txt")
            let app = try makeApp(posts: ["Espresso"], cameras: [.test])
            let stack = app.mainWindow.stack
            spin(until: { app.mainWindow.window.width > 0 }, "laid out")
            let recorder = try JourneyRecorder(app: app, path: journal)
            @MainActor func idle(_ stack: NavigationStack?) -> Bool { stack?.transition == .idle }
            @MainActor func pick(_ name: String, on stack: @escaping () -> NavigationStack?) -> CommentPage? {
                spin(until: { (stack()?.visiblePage as? PhotoPickerPage)?.hasSettled == true && idle(stack()) }, "Choose a Photo")
                guard let picker = stack()?.visiblePage as? PhotoPickerPage else { return nil }
                picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == name }!)
                spin(until: { stack()?.visiblePage is CommentPage && idle(stack()) }, "Add a Comment")
                return stack()?.visiblePage as? CommentPage
            }

            // A message to the second friend.
            app.messagesButton.activate()
            spin(until: { stack.visiblePage is MessagesSplitView && idle(stack) }, "Messages")
            (stack.visiblePage as! MessagesSplitView).list.newMessageButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is ChooseRecipientPage && idle(app.flowDialog?.stack) }, "Choose Recipient")
            (app.flowDialog!.stack.visiblePage as! ChooseRecipientPage).friendButtons[1].activate()
            let note = try XCTUnwrap(pick("astronaut.png") { app.flowDialog?.stack })
            note.commentView.text = "Look who I met"
            postWhenReady(note)
            spin(until: { app.activeFlow == nil }, "sent")
            // The message opened from its row, beside the list.
            spin(until: { (stack.visiblePage as? MessagesSplitView)?.list.rows.isEmpty == false }, "the message's row")
            let list = (stack.visiblePage as! MessagesSplitView).list
            XCTAssertTrue(list.activateRow(ofMessage: try XCTUnwrap(list.messages.first?.id)))
            spin(until: { app.shownMessage?.view.isMapped == true && idle(stack) }, "the message")
            stack.backButton.activate()
            spin(until: { stack.pages.count == 1 && idle(stack) }, "My Profile")

            // Edit Caption on the seed post.
            app.myProfile.feedItems[0].card!.activate()
            spin(until: { stack.visiblePage is PhotoDetailPage && idle(stack) }, "the post")
            findButton(labeled: "Edit Caption", in: stack.headerBar)!.activate()
            spin(until: { stack.visiblePage is CommentPage && idle(stack) }, "Edit Caption")
            let caption = stack.visiblePage as! CommentPage
            caption.commentView.text = "Espresso, doppio"
            postWhenReady(caption)
            spin(until: { app.activeFlow == nil && stack.visiblePage is PhotoDetailPage && idle(stack) }, "saved")
            stack.backButton.activate()
            spin(until: { stack.pages.count == 1 && idle(stack) }, "My Profile")

            // Quick Snap: the test picture, posted.
            app.myProfile.quickSnapButton!.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? CameraPage)?.shutterButton.isSensitive == true }, timeout: 20, "the camera")
            (app.flowDialog!.stack.visiblePage as! CameraPage).shutterButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is CommentPage && idle(app.flowDialog?.stack) }, timeout: 20, "Add a Comment")
            let snap = app.flowDialog!.stack.visiblePage as! CommentPage
            snap.commentView.text = "Snapped"
            postWhenReady(snap)
            spin(until: { app.activeFlow == nil }, "posted")

            // New Post: Take Photo, Choose Instead, a photo, Back, another, Post.
            app.myProfile.postButton.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true && idle(app.flowDialog?.stack) }, "Choose a Photo")
            (app.flowDialog!.stack.visiblePage as! PhotoPickerPage).takePhotoButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is CameraPage && idle(app.flowDialog?.stack) }, "the camera")
            app.flowDialog!.stack.backButton.activate()  // back to the photos (Choose Instead shows only when the camera fails)
            _ = pick("rocket.jpg") { app.flowDialog?.stack }
            app.flowDialog!.stack.backButton.activate()
            let second = try XCTUnwrap(pick("grass.png") { app.flowDialog?.stack })
            second.commentView.text = "Green"
            postWhenReady(second)
            spin(until: { app.activeFlow == nil }, "posted")

            // My Code, opened from the main menu and closed.
            XCTAssertTrue(app.primaryMenu.activateItem("My Code"))
            spin(until: { app.presentedMyCode?.window.isMapped == true }, "My Code")
            app.presentedMyCode!.closeButton.activate()
            spin(until: { app.presentedMyCode == nil }, "My Code closed")
            // Keyboard Shortcuts and About, from the main menu, closed as the window manager closes them.
            for item in ["Keyboard Shortcuts", "About Postcard"] {
                XCTAssertTrue(app.primaryMenu.activateItem(item))
                let window = { item == "About Postcard" ? app.aboutWindow : app.shortcutsWindow }
                spin(until: { window()?.isMapped == true }, item)
                window()!.close()
                spin(until: { window()?.isMapped != true }, "\(item) closed")
            }
            settle()
            recorder.stop()

            let text = Files.readText(journal) ?? ""
            let recorded = try Journey(text: text)
            let grace = app.people.friendPeople[1].id
            XCTAssertEqual(recorded.entries.map(\.step).filter { if case .window = $0 { false } else { true } }, [
                .path([]), .path([.messages]),
                .start(.newMessage), .recipient(grace), .choose("astronaut.png"), .comment("Look who I met"), .post, .end(.message(1)),
                .path([.messages, .message(1)]),  // the message opened from its row: part of the path
                .path([]), .path([.post(1)]),
                .start(.editCaption), .comment("Espresso, doppio"), .post, .end(.caption(1)),
                .path([]),
                .start(.quickSnap), .shutter, .comment("Snapped"), .post, .end(.post(2)),
                .start(.newPost), .takePhoto, .back, .choose("rocket.jpg"), .back, .choose("grass.png"), .comment("Green"),
                .post, .end(.post(3)),
                .present(.myCode), .dismiss(.myCode),
                .present(.keyboardShortcuts), .dismiss(.keyboardShortcuts), .present(.about), .dismiss(.about),
            ], text)
            XCTAssertTrue(text.contains(" path postcard://messages postcard://messages/1\n") && text.contains(" dismiss keyboard-shortcuts\n"), text)
            @MainActor func state(_ store: PostStore) throws -> [String] {
                try store.posts(onProfile: Identity.localID).map(\.comment) + store.messages().map { "\($0.recipient): \($0.comment)" }
                    + ["drafts: \(try store.drafts().count)"]
            }
            let expected = try state(app.store)
            XCTAssertEqual(expected, ["Green", "Snapped", "Espresso, doppio", "\(grace): Look who I met", "drafts: 0"])
            app.shutdown()
            app.mainWindow.window.destroy()

            let replayed = try makeApp(posts: ["Espresso"], cameras: [.test])
            var outcome: Result<Void, Error>?
            // What each dialog step showed, once it was replayed.
            var shown: [String] = []
            let replayer = JourneyReplayer(app: replayed, journey: recorded)
            replayer.afterStep = { entry in
                switch entry.step {
                case .present, .dismiss:
                    let message = replayed.shownMessage.map { "message \($0.commentLabel.text)" }
                    let windows: [(String, Widget?)] = [("Keyboard Shortcuts", replayed.shortcutsWindow), ("About", replayed.aboutWindow),
                                                        ("My Code", replayed.presentedMyCode?.root.view)]
                    let mapped = windows.filter { $0.1?.isMapped == true }.map(\.0)
                    shown.append("\(entry.step.name): " + ([message].compactMap { $0 } + mapped).joined(separator: ", "))
                default: break
                }
            }
            Task {
                do { try await replayer.run(); outcome = .success(()) } catch { outcome = .failure(error) }
            }
            spin(until: { outcome != nil }, timeout: 180, "the replay")
            if case .failure(let error) = outcome { XCTFail("the replay stopped: \(error)") }
            // (The message is part of the path now, shown beside Messages: no dialog step.)
            XCTAssertEqual(shown, ["present: My Code", "dismiss: ",
                                   "present: Keyboard Shortcuts", "dismiss: ", "present: About", "dismiss: "],
                           "each dialog opened and closed as the journal says")
            XCTAssertEqual(try state(replayed.store), expected)
            XCTAssertEqual(replayed.router.path, [])
        }
    }

    /// Delete and Undo through their buttons: a post deleted on its page and brought back with the
    /// toast's Undo (its page opened in the same turn as the Undo), then deleted for good; a reply deleted on its row; a message deleted on its page
    /// (which closes it) and another on its row; a friend removed on their profile. Recorded as
    /// delete/undo steps, then replayed into a new data folder with the same seed: the same store (and a
    /// replay without them would keep all of it).
    func testDeletionsAndUndoRecordedReplayToTheSameStore() throws {
        try onMain {
            let journal = FilePath(makeTemporaryDirectory()).appending("journey.txt")
            @MainActor func seeded() throws -> AppController {
                let app = try makeApp(posts: ["Espresso", "Rocket"])
                let photo = Photo(path: bundledPhotos + "/grass.png")
                _ = try app.store.addReplyNow(to: try XCTUnwrap(app.store.post(id: 1)), photo: photo, comment: "Nice", author: Identity.localID)
                let friend = app.people.friendPeople[0].id
                _ = try app.store.addMessageNow(to: friend, photo: photo, comment: "First", author: Identity.localID)
                _ = try app.store.addMessageNow(to: friend, photo: photo, comment: "Second", author: Identity.localID)
                return app
            }
            @MainActor func state(_ store: PostStore) throws -> [String] {
                try store.posts(onProfile: Identity.localID).map(\.comment)
                    + store.replies(to: try XCTUnwrap(store.post(id: 1))).map { "reply: \($0.comment)" }
                    + store.messages().map { "message: \($0.comment)" } + store.friends().map { "friend: \($0.id)" }
            }
            let app = try seeded()
            let stack = app.mainWindow.stack
            let friend = app.people.friendPeople[0].id
            let before = try state(app.store)
            spin(until: { app.mainWindow.window.width > 0 }, "laid out")
            let recorder = try JourneyRecorder(app: app, path: journal)
            @MainActor func idle() -> Bool { stack.transition == .idle }
            @MainActor func undoButton() -> Button? { app.toasts.shownButton(labeled: "Undo") }
            @MainActor func openPost(_ id: Int64) -> PhotoDetailPage {
                app.router.setPath([.post(id)])
                spin(until: { (stack.visiblePage as? PhotoDetailPage)?.subject == AnyHashable(id) && idle() }, "post \(id)")
                return stack.visiblePage as! PhotoDetailPage
            }

            // Post 2 deleted on its page, Undo; then deleted again, for good.
            openPost(2).actionButton(labeled: "Delete")!.activate()
            spin(until: { undoButton() != nil && stack.pages.count == 1 && idle() }, "Undo")
            // Undo (Ctrl+Z: at once; the button is pressed for a moment first), and post 2 opened in the same
            // turn, before the store has brought it back (a quick user): the journal keeps the order of the
            // presses, so its replay opens the post after the Undo.
            XCTAssertNotNil(undoButton())
            app.undoToast!.activateAction()
            app.router.setPath([.post(2)])
            spin(until: { app.myProfile.feedItems.count == 2 }, "post 2 back on My Profile")
            openPost(2).actionButton(labeled: "Delete")!.activate()
            spin(until: { (try? app.store.post(id: 2)) == nil && stack.pages.count == 1 && idle() }, "post 2 deleted")
            // The reply on post 1, on its row in Comments.
            app.router.setPath([.post(1), .comments(1)])
            spin(until: { (stack.visiblePage as? CommentThreadPage)?.replyRows.first?.deleteButton.isMapped == true && idle() }, "the reply's row")
            (stack.visiblePage as! CommentThreadPage).replyRows[0].deleteButton.activate()
            spin(until: { (stack.visiblePage as? CommentThreadPage)?.replies.isEmpty == true }, "the reply deleted")
            // A message on its page (which closes), the other on its row.
            app.router.setPath([.messages])
            spin(until: { (stack.visiblePage as? MessagesSplitView)?.list.rows.count == 2 && idle() }, "Messages")
            let list = (stack.visiblePage as! MessagesSplitView).list
            XCTAssertTrue(list.activateRow(ofMessage: try XCTUnwrap(list.messages.first?.id)))
            spin(until: { app.shownMessage?.view.isMapped == true && idle() }, "the message")
            try XCTUnwrap(app.shownMessage?.actionButton(labeled: "Delete")).activate()
            spin(until: { app.shownMessage == nil && list.rows.count == 1 }, "the message deleted")
            list.rows[0].deleteButton.activate()
            spin(until: { list.rows.isEmpty == true }, "the other message deleted")
            // The friend, on their profile.
            app.router.setPath([.profile(friend)])
            spin(until: { (stack.visiblePage as? ProfilePage)?.person.id == friend && idle() }, "the friend's profile")
            stack.visiblePage!.endBarItems.first { $0.tooltip == "Remove Friend" }!.activate()
            spin(until: { app.people.friend(id: friend) == nil && stack.pages.count == 1 && idle() }, "the friend removed")
            settle()
            recorder.stop()

            let text = Files.readText(journal) ?? ""
            let recorded = try Journey(text: text)
            let deletions = recorded.entries.map(\.step).filter {
                switch $0 { case .delete, .undo: true; default: false }
            }
            XCTAssertEqual(deletions, [.delete(.post(2)), .undo(.post(2)), .delete(.post(2)), .delete(.reply(1)),
                                       .delete(.message(2)), .delete(.message(1)), .delete(.friend(friend))], text)
            XCTAssertTrue(text.contains(" delete friend \"\(friend)\"\n") && text.contains(" undo post 2\n"), text)
            let expected = try state(app.store)
            XCTAssertEqual(expected, before.filter { $0 != "Rocket" && !$0.hasPrefix("reply") && !$0.hasPrefix("message")
                && $0 != "friend: \(friend)" }, "what was deleted is gone, what was undone is back")
            app.shutdown()
            app.mainWindow.window.destroy()

            let replayed = try seeded()
            var outcome: Result<Void, Error>?
            let replayer = JourneyReplayer(app: replayed, journey: recorded)
            Task {
                do { try await replayer.run(); outcome = .success(()) } catch { outcome = .failure(error) }
            }
            spin(until: { outcome != nil }, timeout: 120, "the replay")
            if case .failure(let error) = outcome { XCTFail("the replay stopped: \(error)\n\(text)") }
            XCTAssertEqual(try state(replayed.store), expected)
            XCTAssertEqual(replayed.router.path, [])
            replayed.shutdown()
            replayed.mainWindow.window.destroy()
        }
    }

    /// Messages recorded in a narrow window (a message over the list, Back, another) replays in a wide one
    /// as the same path with the messages beside the list, and one recorded wide replays narrow with them
    /// pushed over it: a journey names screens, not their arrangement.
    func testAJourneyRecordedAtOneWidthReplaysAtTheOtherWithTheSameMessages() throws {
        try onMain {
            @MainActor func appWithTwoMessages(width: Int) throws -> (AppController, [Int64]) {
                let app = try makeApp(width: width)
                let ids = try ["brick.png", "astronaut.png"].map { photo in
                    try app.store.addMessageNow(to: "ada", photo: Photo(path: bundledPhotos + "/" + photo), comment: photo,
                                                author: Identity.localID).id
                }
                spin(until: { app.mainWindow.window.width > 0 && abs(app.mainWindow.window.width - width) <= 24 }, "\(width) px")
                return (app, ids)
            }
            @MainActor func settled(_ app: AppController) -> Bool {
                app.mainWindow.stack.transition == .idle && !app.mainWindow.stack.isSwitchingBreakpoint
            }
            @MainActor func record(width: Int, _ steps: (AppController, [Int64]) -> Void) throws -> (Journey, [Int64]) {
                let journal = FilePath(makeTemporaryDirectory()).appending("journey.txt")
                let (app, ids) = try appWithTwoMessages(width: width)
                let recorder = try JourneyRecorder(app: app, path: journal)
                steps(app, ids)
                settle()
                recorder.stop()
                app.shutdown()
                app.mainWindow.window.destroy()
                return (try Journey(text: Files.readText(journal) ?? ""), ids)
            }
            @MainActor func replay(_ journey: Journey, width: Int) throws -> AppController {
                let (app, _) = try appWithTwoMessages(width: width)
                let replayer = JourneyReplayer(app: app, journey: journey, pace: .fast)
                replayer.followsWindowSteps = false  // at this window's width, not the recorded one
                var outcome: Result<Void, Error>?
                Task { do { try await replayer.run(); outcome = .success(()) } catch { outcome = .failure(error) } }
                spin(until: { outcome != nil }, timeout: 60, "the replay")
                if case .failure(let error) = outcome { XCTFail("the replay stopped: \(error)") }
                spin(until: { settled(app) }, "at rest")
                return app
            }
            @MainActor func openRow(_ id: Int64, _ app: AppController) {
                spin(until: { app.messages?.list.activateRow(ofMessage: id) == true }, "message \(id)'s row")
                spin(until: { app.shownMessage?.subject == AnyHashable(id) && app.shownMessage?.view.isMapped == true && settled(app) },
                     "message \(id) shown")
            }

            // Narrow: Messages, the first message over the list, Back, the second.
            let (narrow, ids) = try record(width: 360) { app, ids in
                app.open(.messages)
                spin(until: { app.messages?.isCollapsed == true && settled(app) }, "Messages, collapsed")
                openRow(ids[0], app)
                XCTAssertEqual(app.mainWindow.stack.pages.count, 3, "over the list")
                click(app.mainWindow.stack.backButton)
                spin(until: { app.router.path == [.messages] && settled(app) }, "back to the list")
                openRow(ids[1], app)
            }
            // (The window may widen a little by itself at 360 px, to fit the bar's items: a `window` step.)
            func paths(_ journey: Journey) -> [JourneyStep] { journey.entries.map(\.step).filter { if case .path = $0 { true } else { false } } }
            XCTAssertEqual(narrow.entries.first?.step, .window(width: 360))
            XCTAssertEqual(paths(narrow), [
                .path([]), .path([.messages]), .path([.messages, .message(ids[0])]), .path([.messages]),
                .path([.messages, .message(ids[1])]),
            ])
            let wide = try replay(narrow, width: 1280)
            XCTAssertEqual(wide.router.path, [.messages, .message(ids[1])], "the same path")
            XCTAssertEqual(wide.messages?.isCollapsed, false)
            XCTAssertEqual(wide.mainWindow.stack.pages.count, 2, "the message beside the list, not pushed")
            XCTAssertEqual(wide.shownMessage?.subject, AnyHashable(ids[1]))
            XCTAssertEqual(wide.messages?.list.highlightedMessageID, ids[1])
            wide.shutdown()
            wide.mainWindow.window.destroy()

            // Wide: Messages, the first message beside the list, then the second in its place.
            let (wideJourney, _) = try record(width: 1280) { app, ids in
                app.open(.messages)
                spin(until: { app.messages?.isCollapsed == false && settled(app) }, "Messages, expanded")
                openRow(ids[0], app)
                openRow(ids[1], app)
                XCTAssertEqual(app.mainWindow.stack.pages.count, 2)
            }
            XCTAssertEqual(wideJourney.entries.first?.step, .window(width: 1280))
            XCTAssertEqual(paths(wideJourney), [
                .path([]), .path([.messages]), .path([.messages, .message(ids[0])]),
                .path([.messages, .message(ids[1])]),
            ])
            let phone = try replay(wideJourney, width: 360)
            XCTAssertEqual(phone.router.path, [.messages, .message(ids[1])], "the same path")
            XCTAssertEqual(phone.messages?.isCollapsed, true)
            XCTAssertEqual(phone.mainWindow.stack.pages.count, 3, "the message pushed over the list")
            XCTAssertTrue(phone.mainWindow.stack.visiblePage === phone.shownMessage)
            XCTAssertEqual(phone.shownMessage?.subject, AnyHashable(ids[1]))
            XCTAssertTrue(phone.mainWindow.stack.backButton.isVisible)
        }
    }

    func testAReplayStopsAtARouteWhoseSubjectIsGone() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            let journey = try Journey(text: "# Postcard journey 1\n0.0 path postcard://profile/ada\n0.1 path postcard://post/4242\n0.2 start new-post\n")
            var outcome: Result<Void, Error>?
            Task {
                do { try await JourneyReplayer(app: app, journey: journey).run(); outcome = .success(()) } catch { outcome = .failure(error) }
            }
            spin(until: { outcome != nil }, timeout: 60, "the replay")
            guard case .failure(let error) = outcome else { return XCTFail("a post that is not there replayed") }
            XCTAssertEqual("\(error)", "line 3, step “path”: postcard://post/4242 is gone")
            XCTAssertNil(app.activeFlow, "the steps after it are not tried")
            XCTAssertEqual(try app.store.posts(onProfile: Identity.localID).map(\.comment), ["Espresso"])
        }
    }

    func testAReplayAtTheRecordedPaceKeepsTheJournalsTimes() throws {
        try onMain {
            let app = try makeApp()
            let journey = try Journey(text: "# Postcard journey 1\n0.0 path postcard://profile/ada\n1.5 path\n")
            var visited: [(step: String, at: Int)] = []
            let start = g_get_monotonic_time()
            let replayer = JourneyReplayer(app: app, journey: journey, pace: .recorded)
            replayer.afterStep = { entry in visited.append((entry.step.name, g_get_monotonic_time() - start)) }
            var done = false
            Task { try? await replayer.run(); done = true }
            spin(until: { done }, timeout: 30, "the replay")
            XCTAssertEqual(visited.map(\.step), ["path", "path"])
            XCTAssertGreaterThanOrEqual(visited.last?.at ?? 0, 1_500_000, "Back no earlier than 1.5 s after the start, as recorded")
            XCTAssertEqual(app.router.path, [])
        }
    }

    // MARK: - `postcard --replay`

    private func writeJournal(_ body: String, cutOff: Bool = false) -> String {
        let path = makeTemporaryDirectory() + "/journey.txt"
        let text = "# Postcard journey 1\n0.000 window 900\n0.100 start new-post\n" + body
        FileManager.default.createFile(atPath: path, contents: Data((cutOff ? String(text.dropLast()) : text).utf8))
        return path
    }

    func testADamagedJournalStopsBeforeAnythingIsMadeNamingTheStep() throws {
        let damaged = [
            (writeJournal("0.200 choose \"coffee.png\"\n0.300 comment \"Cut off in the mid\"\n", cutOff: true),
             "line 5, step “comment”: the line was cut off"),
            (writeJournal("0.200 choose \"coffee.png\"\n0.300 teleport home\n"), "line 5, step “teleport”: not a step Postcard knows"),
            (writeJournal("0.200 choose \"holidays/no-such-photo.jpg\"\n0.300 post\n"),
             "line 4, step “choose”: no photo “holidays/no-such-photo.jpg” in the library"),
        ]
        for (journal, message) in damaged {
            let data = makeTemporaryDirectory() + "/data"
            let run = try runPostcard(["--replay", journal, "--data-dir", data])
            XCTAssertEqual(run.status, 2, "refused: \(run.errors)")
            XCTAssertTrue(run.errors.hasPrefix("postcard: \(journal): \(message)"), "names the line and step: \(run.errors)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: data), "nothing made for \(message)")
        }
        // A data folder with posts in it is not replayed into.
        let used = makeTemporaryDirectory()
        FileManager.default.createFile(atPath: used + "/posts.sqlite3", contents: Data("keep me".utf8))
        let run = try runPostcard(["--replay", writeJournal("0.200 cancel\n"), "--data-dir", used])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.errors.contains("is not empty"), run.errors)
        XCTAssertEqual(FileManager.default.contents(atPath: used + "/posts.sqlite3"), Data("keep me".utf8), "left as it was")
        let both = try runPostcard(["--replay", writeJournal(""), "--record", used + "/new.txt"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.errors.contains("--record and --replay can't be given together"), both.errors)
    }

    /// `postcard --record FILE`: the journal is on the disk as the user goes, so a process killed
    /// midway leaves every line before (each whole), and a replay of it refuses nothing.
    func testPostcardRecordsAsItGoesSoAKillKeepsWhatCameBefore() throws {
        let folder = makeTemporaryDirectory()
        let journal = folder + "/journey.txt"
        let log = folder + "/log"
        let app = try startPostcard(["--record", journal, "--data-dir", folder + "/data", "postcard://profile/ada"],
                                    environment: ["G_MESSAGES_DEBUG": "Postcard"], log: log)
        defer { if app.isRunning { app.terminate() } }
        func written() -> String { (try? String(contentsOfFile: journal, encoding: .utf8)) ?? "" }
        try waitFor("the journal", timeout: 30) { written().contains(" path postcard://profile/ada\n") }
        XCTAssertTrue(written().hasPrefix("# Postcard journey 1\n# Recorded by Postcard "), written())
        kill(app.processIdentifier, SIGKILL)  // no chance to close anything
        app.waitUntilExit()
        let text = written()
        XCTAssertTrue(text.hasSuffix("\n"), "every line written whole: \(text)")
        let steps = try MainActor.assumeIsolated { try Journey(text: text) }.entries.map(\.step.name)
        XCTAssertEqual(steps.first, "window", text)
        XCTAssertTrue(text.contains(" path postcard://profile/ada\n"), "the link given opened, and was recorded: \(text)")
        XCTAssertTrue(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Recording the journey in \(journal)"))

        // A journal that can't be written: the app says so and goes on.
        let refused = folder + "/no-such-folder/journey.txt"
        let other = try startPostcard(["--record", refused, "--data-dir", folder + "/data2"], environment: [:], log: log + "2")
        defer { if other.isRunning { other.terminate() } }
        try waitFor("the message", timeout: 30) {
            ((try? String(contentsOfFile: log + "2", encoding: .utf8)) ?? "").contains("postcard: ")
        }
        XCTAssertTrue(other.isRunning, "the app goes on without a journal")
        XCTAssertTrue(((try? String(contentsOfFile: log + "2", encoding: .utf8)) ?? "").contains(refused),
                      "names the file it can't write")
    }

    func testPostcardReplaysAJournalIntoANewDataFolder() throws {
        let journal = writeJournal("""
            0.200 choose "rocket.jpg"
            0.300 comment "From a journal"
            0.400 post
            0.500 end post 77
            0.600 path postcard://post/77

            """)
        let data = makeTemporaryDirectory() + "/data"
        let log = makeTemporaryDirectory() + "/log"
        let app = try startPostcard(["--replay", journal, "--fast", "--data-dir", data], environment: [:], log: log)
        defer { if app.isRunning { app.terminate() } }
        func output() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        try waitFor("the replay", timeout: 60) { output().contains("Replayed ") || output().contains("postcard: line") || !app.isRunning }
        XCTAssertTrue(output().contains("Replayed 7 steps; posts in \(data)"), output())
        app.terminate()
        app.waitUntilExit()
        try onMain {
            let store = try PostStore(directory: data)
            XCTAssertEqual(try state(of: store), StoreState(posts: ["From a journal"],
                                                            photos: [FileManager.default.contents(atPath: bundledPhotos + "/rocket.jpg")],
                                                            replies: [], drafts: 0))
        }
    }
}
