import CGStreamer
import CGtk
import Foundation
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import NavigationWeb
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Scan a Code, My Code and Add Friend, with the real parts: QR pictures made by the app's own encoder
/// (libqrencode) are read by GStreamer's `zbar` element through `--camera image:FILE`, and My Code as GTK
/// draws it is read by an independent decoder (`zbarimg`, Debian's zbar-tools).
final class FriendsAndCodesTests: GtkTestCase, @unchecked Sendable {
    private var dialog: ModalDialog? { MainActor.assumeIsolated { self.lastApp?.flowDialog } }

    /// The process's threads now (`/proc/self/task`).
    private var threadCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0 }

    /// A PNG of `text` as a QR code (the app's encoder), `module` pixels per module with its quiet zone,
    /// black on white.
    @MainActor
    private func qrPicture(_ text: String, module: Int = 8) throws -> String {
        let path = makeTemporaryDirectory() + "/code.png"
        XCTAssertTrue(try XCTUnwrap(QRCode(encoding: text).texture(modulePixels: module)).save(toPNG: FilePath(path)))
        XCTAssertEqual(try zbarimg(path), [text], "the picture holds the code (zbarimg agrees)")
        return path
    }

    /// What `zbarimg` reads in the picture at `path` (the symbols' text, one per line).
    private func zbarimg(_ path: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "-q", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    // MARK: - Codes as data

    func testAFriendCodeIsItsProfileLinkWithNameAndVersionAndHostileCodesAreRefused() throws {
        try onMain {
            let code = FriendCode(id: "0d6a2c1e-8b3f-4e57-9a10-c4f2e7b85d93", name: "Zoë O'Brien & <b>Co</b>")
            XCTAssertEqual(code.link, "postcard://profile/0d6a2c1e-8b3f-4e57-9a10-c4f2e7b85d93?name=Zo%C3%AB%20O%27Brien%20%26%20%3Cb%3ECo%3C%2Fb%3E&v=1")
            XCTAssertEqual(try FriendCode(reading: code.link), code, "read back, the name is text as given")
            XCTAssertEqual(try FriendCode(reading: "  " + code.link + "\n".dropLast()), code, "spaces around are ignored")
            XCTAssertEqual(try Route(link: code.link), .profile(code.id), "a code's link names the profile route")

            func refusal(_ text: String) -> FriendCodeError? {
                do { _ = try FriendCode(reading: text); return nil } catch { return error }
            }
            let long = "postcard://profile/abc?name=" + String(repeating: "a", count: 2100) + "&v=1"
            XCTAssertEqual(refusal(long), .tooLong(bytes: long.utf8.count))
            XCTAssertEqual(refusal("postcard://profile/abc?name=Ada%0ALovelace&v=1"), .controlCharacters, "an escaped newline")
            XCTAssertEqual(refusal("postcard://profile/abc?name=Ada\u{1B}[31m&v=1"), .controlCharacters, "a raw escape")
            XCTAssertEqual(refusal("postcard://profile/abc?name=Ada&v=2"), .unknownVersion("2"))
            XCTAssertEqual(refusal("postcard://profile/abc?name=%E2%80%AEevil&v=1"), .controlCharacters, "a right-to-left override")
            XCTAssertEqual(refusal("postcard://profile/abc?name=a%E2%81%A6b&v=1"), .controlCharacters, "a bidirectional isolate")
            XCTAssertEqual(refusal("postcard://profile/abc"), .notAPostcardCode, "a profile link without a name is not a code")
            XCTAssertEqual(refusal("https://example.org/"), .notAPostcardCode)
            XCTAssertEqual(refusal("hello"), .notAPostcardCode)
            XCTAssertEqual(refusal("postcard://profile/a%20b?name=Ada&v=1"), .invalidID)
            XCTAssertEqual(refusal("postcard://profile/me?name=Ada&v=1"), .invalidID, "the local key is nobody's id")
            XCTAssertEqual(refusal("postcard://profile/abc?name=%20&v=1"), .noName)
            XCTAssertEqual(refusal("postcard://profile/abc?name=%FF&v=1"), .notAPostcardCode, "a name that is not UTF-8")
            XCTAssertEqual(refusal("postcard://profile/abc?name=" + String(repeating: "x", count: 101) + "&v=1"), .nameTooLong)
            // --camera image:FILE (and POSTCARD_CAMERA) names a picture shown as a still camera.
            XCTAssertEqual(CameraSource(option: "image:/tmp/code.png"), .image(path: "/tmp/code.png"))
            XCTAssertNil(CameraSource(option: "image:"))
            for error in [FriendCodeError.tooLong(bytes: 3000), .controlCharacters, .notAPostcardCode, .unknownVersion("9"), .invalidID, .noName, .nameTooLong] {
                XCTAssertTrue(error.description.hasSuffix("."), "a sentence: \(error)")
            }
        }
    }

    func testANewStoreHasItsOwnIdentityAndAnOldOneKeepsTheSampleFriends() throws {
        try onMain {
            let first = try PostStore(directory: FilePath(makeTemporaryDirectory()))
            let second = try PostStore(directory: FilePath(makeTemporaryDirectory()))
            let a = try first.identity(), b = try second.identity()
            XCTAssertNotEqual(a.id, b.id, "each Postcard has its own id")
            XCTAssertTrue(FriendCode.isValidID(a.id) && a.id.count == 36, a.id)
            XCTAssertFalse(a.name.isEmpty)
            XCTAssertEqual(try first.friends().map(\.name), ["Ada Lovelace", "Grace Hopper", "Alan Turing"])

            // A store of schema 5 (before friends were data), with a post on Ada's profile.
            let directory = makeTemporaryDirectory()
            do {
                let old = try PostStore(directory: FilePath(directory))
                try old.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "For Ada", author: "me", profile: "ada")
                try old.execute("DROP TABLE identity; DROP TABLE friends; PRAGMA user_version = 5")
            }
            let migrated = try PostStore(directory: FilePath(directory))
            XCTAssertEqual(try migrated.storedVersion(), 6)
            XCTAssertEqual(try migrated.friends().map(\.id), ["ada", "grace", "alan"], "the sample friends are kept")
            XCTAssertEqual(try migrated.posts(onProfile: "ada").map(\.comment), ["For Ada"])
            XCTAssertNoThrow(try migrated.identity())
        }
    }

    // MARK: - My Code

    func testMyCodeAsGTKDrawsItReadsAsTheUsersLinkAtScale1And2() throws {
        try onMain {
            let identity = Identity.sample
            let link = FriendCode(identity).link
            // Scale 1 on the tests' display; scale 2 on a second connection to it opened with GDK_SCALE=2
            // (GDK reads it when a display opens).
            setenv("GDK_SCALE", "2", 1)
            let scaled = gdk_display_open(gdk_display_get_name(gdk_display_get_default()))
            unsetenv("GDK_SCALE")
            XCTAssertNotNil(scaled)
            for (scale, display) in [(1, gdk_display_get_default()), (2, scaled)] {
                let page = try MyCodePage(identity: identity)
                let window = Window()
                gtk_window_set_display(window.pointer(as: GtkWindow.self), display)
                window.setDefaultSize(width: 360, height: 640)
                window.setChild(page.view)
                show(window)
                spin(until: { page.codeView.view.isMapped && page.codeView.view.width > 0 }, "My Code shown")
                XCTAssertEqual(page.codeView.view.scaleFactor, scale)
                settle()
                let path = makeTemporaryDirectory() + "/my-code@\(scale)x.png"
                try window.saveSnapshot(toPNG: FilePath(path))
                XCTAssertEqual(try zbarimg(path), [link], "zbarimg reads the user's link at scale \(scale)")
                // Every module is whole device pixels: the sharpest the code can be.
                let module = QRCodeView.modulePixels(size: page.codeView.code.size, width: page.codeView.view.width,
                                                     height: page.codeView.view.height, scale: scale)
                XCTAssertGreaterThanOrEqual(module, Int(2 * scale), "at least two pixels a module")
                XCTAssertEqual(page.linkLabel.text, link)
                window.destroy()
            }
            settle()
            if let scaled { gdk_display_close(scaled) }
        }
    }

    // MARK: - Add Friend through the real pipeline

    func testScanningAFriendsCodeAddsThemOnceAndTheyShowOnMyProfile() throws {
        try onMain {
            let code = FriendCode(id: "5b1e9c7a-2f3d-4a8b-b6e0-91c4d7f2a358", name: "Grace Liu")
            let picture = try qrPicture(code.link)
            let app = try makeApp(cameras: [.image(path: picture)])
            var outcomes: [AddFriendFlow.Result] = []
            app.onFlowEnded = { if case .friend(let result) = $0 { outcomes.append(result) } }
            XCTAssertEqual(app.myProfile.friendButtons.map(\.label), ["Ada Lovelace", "Grace Hopper", "Alan Turing"])
            app.myProfile.addFriendButton!.activate()
            spin(until: { self.dialog?.stack.visiblePage is AddFriendPage }, "Add Friend")
            let choices = dialog!.stack.visiblePage as! AddFriendPage
            XCTAssertTrue(choices.scanButton.hasFocus || choices.scanButton.isMapped)
            choices.scanButton.activate()
            spin(until: { self.dialog?.stack.visiblePage is ScanCodePage }, "Scan Their Code pushed")
            let scanner = dialog!.stack.visiblePage as! ScanCodePage
            XCTAssertEqual(dialog!.stack.titleLabel.text, "Scan Their Code")
            XCTAssertFalse(scanner.isShowingStandaloneBar, "pushed: the flow's bar")
            spin(until: { self.dialog?.stack.visiblePage is NewFriendPage }, timeout: 20, "the code read: New Friend")
            let newFriend = dialog!.stack.visiblePage as! NewFriendPage
            XCTAssertEqual(newFriend.code, code)
            XCTAssertEqual(scanner.state, .read(ScannedCode(text: code.link, type: "QR-Code")))

            // Back to the scanner: the code, still in its picture, does not push New Friend again.
            dialog!.stack.goBack()
            spin(until: { self.dialog?.stack.visiblePage === scanner }, "back on the scanner")
            let frames = scanner.cameraPreview.camera?.frameCount ?? 0
            spin(until: { (scanner.cameraPreview.camera?.frameCount ?? 0) >= frames + 10 }, timeout: 10, "more frames of the code")
            XCTAssertTrue(dialog!.stack.visiblePage === scanner, "delivered once: nothing pushed after Back")
            scanner.scanAgainButton.activate()
            spin(until: { self.dialog?.stack.visiblePage is NewFriendPage }, timeout: 20, "Scan Again reads it again")
            let again = dialog!.stack.visiblePage as! NewFriendPage
            XCTAssertEqual(dialog!.stack.pages.filter { $0 is NewFriendPage }.count, 1)
            again.addButton.activate()
            spin(until: { outcomes.count == 1 }, "added")
            guard case .added(let friend) = outcomes[0] else { return XCTFail("\(outcomes)") }
            XCTAssertEqual([friend.id, friend.name], [code.id, code.name])
            XCTAssertEqual(try app.store.friends().last?.id, code.id, "a row in the store")
            XCTAssertEqual(app.myProfile.friendButtons.map(\.label).last, "Grace Liu", "a button on My Profile")
            spin(until: { app.toasts.toasts.map(\.title) == ["Grace Liu added"] }, "the toast")
            spin(until: { scanner.cameraPreview.camera == nil || scanner.cameraPreview.camera?.state == .released }, "the camera released")

            // Their profile opens from My Profile, and the same code again says they are a friend already.
            app.myProfile.friendButtons.last!.activate()
            spin(until: { (app.mainWindow.stack.visiblePage as? ProfilePage)?.person.id == code.id }, "their profile")
            app.mainWindow.stack.goBack()
            spin(until: { app.mainWindow.stack.visiblePage === app.myProfile }, "My Profile")
            app.myProfile.addFriendButton!.activate()
            spin(until: { self.dialog?.stack.visiblePage is AddFriendPage }, "Add Friend again")
            (dialog!.stack.visiblePage as! AddFriendPage).scanButton.activate()
            spin(until: { (self.dialog?.stack.visiblePage as? ScanCodePage).map { if case .refused = $0.state { true } else { false } } ?? false },
                 timeout: 20, "refused")
            let refusing = dialog!.stack.visiblePage as! ScanCodePage
            XCTAssertEqual(refusing.resultTitle.text, "Already a Friend")
            XCTAssertEqual(refusing.resultText.text, "Grace Liu is already your friend.")
            dialog!.cancelButton.activate()
            spin(until: { outcomes.count == 2 }, "canceled")
            XCTAssertEqual(outcomes[1], .canceled)
        }
    }

    func testTheScanCodePageIsPresentedAloneAndPushedUnderAFlowsBarAsAScreenReaderHearsIt() throws {
        try onMain {
            let picture = try qrPicture("Just some words")
            let app = try makeApp(cameras: [.image(path: picture)])
            let scanner = try XCTUnwrap(app.presentScanner())
            spin(until: { scanner.view.isMapped }, "Scan a Code presented")
            XCTAssertTrue(scanner.isShowingStandaloneBar, "presented alone: its own bar")
            XCTAssertEqual(scanner.titleView.titleLabel.text, "Scan a Code")
            spin(until: { if case .read = scanner.state { true } else { false } }, timeout: 20, "the text read")
            XCTAssertEqual(scanner.resultTitle.text, "Text")
            XCTAssertEqual(scanner.resultText.text, "Just some words", "other text is shown")
            XCTAssertTrue(scanner.copyButton.isVisible, "with Copy")
            var heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("push button|Close"), "\(heard)")
            XCTAssertFalse(heard.contains("push button|Back"), "\(heard)")
            XCTAssertTrue(heard.contains { $0.hasSuffix("|Scan a Code") }, "\(heard)")
            XCTAssertTrue(heard.contains("push button|Copy") && heard.contains("push button|Scan Again"), "\(heard)")
            scanner.copyButton.activate()
            spin(until: { self.clipboardText() == "Just some words" }, "copied")
            let camera = scanner.cameraPreview.camera
            app.presentedScanner!.closeButton.activate()
            spin(until: { app.presentedScanner == nil && camera?.state == .released }, "closed, the camera released")

            app.myProfile.addFriendButton!.activate()
            spin(until: { self.dialog?.stack.visiblePage is AddFriendPage }, "Add Friend")
            (dialog!.stack.visiblePage as! AddFriendPage).scanButton.activate()
            spin(until: { (self.dialog?.stack.visiblePage as? ScanCodePage).map { if case .refused = $0.state { true } else { false } } ?? false },
                 timeout: 20, "not a Postcard code")
            let pushed = dialog!.stack.visiblePage as! ScanCodePage
            XCTAssertFalse(pushed.isShowingStandaloneBar)
            XCTAssertEqual(pushed.resultTitle.text, "This Is Not a Postcard Code")
            XCTAssertFalse(pushed.copyButton.isVisible)
            heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("push button|Back") && heard.contains("push button|Cancel"), "\(heard)")
            XCTAssertTrue(heard.contains { $0.hasSuffix("|Scan Their Code") }, "\(heard)")
            let pushedCamera = pushed.cameraPreview.camera
            dialog!.stack.goBack()
            spin(until: { self.dialog?.stack.visiblePage is AddFriendPage && pushedCamera?.state == .released }, "Back: the camera released")
            dialog!.cancelButton.activate()
            spin(until: { app.flowDialog == nil }, "canceled")
        }
    }

    func testACodeIsDeliveredOnceOverManyFramesAndNeverAfterTheScannerIsLeft() throws {
        try onMain {
            let picture = try qrPicture("https://example.org/")
            let settings = CameraSettings(sources: [.image(path: picture)], captureDirectory: FilePath(makeTemporaryDirectory()))
            let root = Page(title: "Root")
            let window = NavigationWindow(application: nil, root: root)
            show(window.window)
            let scanner = ScanCodePage(settings: settings)
            var delivered: [ScannedCode] = []
            scanner.onCodeRead = { delivered.append($0) }
            let before = threadCount
            window.stack.push(scanner)
            spin(until: { delivered.count == 1 }, timeout: 20, "read")
            XCTAssertEqual(delivered, [ScannedCode(text: "https://example.org/", type: "QR-Code")],
                           "\(scanner.state), \(String(describing: scanner.cameraPreview.camera?.frameCount)), \(String(describing: scanner.cameraPreview.problem))")
            let frames = try XCTUnwrap(scanner.cameraPreview.camera).frameCount
            spin(until: { scanner.cameraPreview.camera!.frameCount >= frames + 15 }, timeout: 10, "15 more frames showing it")
            XCTAssertEqual(delivered.count, 1, "once, however many frames show it")
            scanner.scanAgainButton.activate()
            spin(until: { delivered.count == 2 }, timeout: 10, "Scan Again: the next one")
            // Scan Again, then Back in the same moment: nothing comes after the page is left.
            scanner.scanAgain()
            let camera = scanner.cameraPreview.camera
            window.stack.goBack()
            spin(until: { camera?.state == .released }, "popped: the camera released")
            settle()
            XCTAssertEqual(delivered.count, 2, "nothing after Back")
            spin(until: { self.threadCount <= before }, timeout: 8, "no thread of the camera left: \(threadCount) > \(before)")
            window.window.destroy()
        }
    }

    func testWhatACodeReadOnMyProfilesScanACodeDoesIsDecidedThere() throws {
        try onMain {
            let stranger = FriendCode(id: "9a4d2e6f-1c3b-4f7a-8e5d-0b2c6a9f4e17", name: "Noor Haddad")
            let app = try makeApp(posts: ["A post"])
            let post = try XCTUnwrap(app.store.posts(onProfile: Identity.localID).first)
            @MainActor func scan(_ text: String) throws -> ScanCodePage {
                app.switchCamera(to: .image(path: try qrPicture(text)))
                spin(until: { app.presented == nil }, "nothing open")
                return try XCTUnwrap(app.presentScanner(), "Scan a Code presented")
            }
            // A stranger's code: Add Friend opens on New Friend, its Add stores them.
            _ = try scan(stranger.link)
            spin(until: { self.dialog?.stack.visiblePage is NewFriendPage }, timeout: 20, "New Friend")
            XCTAssertNil(app.presentedScanner, "Scan a Code closed first")
            (dialog!.stack.visiblePage as! NewFriendPage).addButton.activate()
            spin(until: { app.people.friend(id: stranger.id) != nil && app.flowDialog == nil }, "added")
            // The same code again: their profile.
            _ = try scan(stranger.link)
            spin(until: { (app.mainWindow.stack.visiblePage as? ProfilePage)?.person.id == stranger.id }, timeout: 20, "their profile")
            app.mainWindow.stack.popToRoot()
            // My own code: said so, nothing opens.
            // A Postcard code that is refused says why (here, of a newer version).
            let newer = try scan("postcard://profile/v2-1?name=Vee&v=2")
            spin(until: { if case .refused = newer.state { true } else { false } }, timeout: 20, "a newer code refused")
            XCTAssertEqual(newer.resultTitle.text, "This Code Can't Be Read")
            XCTAssertEqual(newer.resultText.text, "This code was made by a newer Postcard (version 2). Update Postcard to read it.")
            app.presentedScanner?.closeButton.activate()
            let own = try scan(FriendCode(app.people.identity).link)
            spin(until: { own.resultTitle.text == "This Is Your Own Code" }, timeout: 20, "my own code")
            app.presentedScanner?.closeButton.activate()
            // A postcard:// link opens its screen; a web address is shown, and opens its Web Page only
            // when the user asks (Open): a code cannot act for the user.
            _ = try scan(Route.post(post.id).link)
            spin(until: { app.router.path == [.post(post.id)] }, timeout: 20, "the post")
            app.mainWindow.stack.popToRoot()
            spin(until: { app.router.path.isEmpty }, "My Profile")
            let web = try scan("https://example.org/scanned")
            spin(until: { web.resultTitle.text == "Web Address" }, timeout: 20, "the address shown")
            XCTAssertEqual(web.resultText.text, "https://example.org/scanned")
            XCTAssertTrue(web.actionButton.isVisible)
            XCTAssertEqual(web.actionButton.label, "Open")
            settle()
            XCTAssertEqual(app.router.path, [], "nothing opened by itself")
            XCTAssertNotNil(app.presentedScanner)
            XCTAssertTrue(web.scanAgainButton.hasFocus, "focus on Scan Again, not on Open")
            web.actionButton.activate()
            spin(until: { app.router.path == [.webPage("https://example.org/scanned")] }, timeout: 20, "the web page")
            XCTAssertTrue(app.mainWindow.stack.visiblePage is WebPage)
            XCTAssertNil(app.presentedScanner)
        }
    }

    func testAStrangersCodeOpenedAsALinkOffersToAddThemAndAFriendsOpensTheirProfile() throws {
        try onMain {
            let app = try makeApp()
            app.open(link: "postcard://profile/x1?name=Xu%20Li&v=1")
            spin(until: { (self.dialog?.stack.visiblePage as? NewFriendPage)?.code == FriendCode(id: "x1", name: "Xu Li") }, "New Friend")
            XCTAssertEqual(app.router.path, [], "no Not Found page behind it")
            dialog!.cancelButton.activate()
            spin(until: { app.flowDialog == nil }, "canceled")
            app.open(link: "postcard://profile/ada?name=Ada%20Lovelace&v=1")
            spin(until: { app.router.path == [.profile("ada")] }, "a friend's code: their profile")
            XCTAssertNil(app.flowDialog)
        }
    }

    /// A 100-character name from a code widened a 360-px window to 1,074 px, and U+2028 made a name of
    /// three lines: names are one line, cut with "…", and the window never grows because of data.
    func testANameFromACodeIsOneLineAndNeverWidensTheWindow() throws {
        XCTAssertThrowsError(try FriendCode(reading: "postcard://profile/x2?name=Xu%E2%80%A8Li%E2%80%A8Wei&v=1")) { error in
            XCTAssertEqual(error as? FriendCodeError, .controlCharacters, "a line separator is no name")
        }
        try onMain {
            let app = try makeApp(width: 360)
            spin(until: { app.mainWindow.window.width > 0 && app.mainWindow.window.width <= 384 }, "360 px")
            let width = app.mainWindow.window.width
            let long = String(repeating: "Wolfeschlegelsteinhausenbergerdorff", count: 3).prefix(100)
            let id = String(repeating: "a1b2c3d4", count: 8)  // the longest id, one word
            app.open(link: "postcard://profile/\(id)?name=\(long)&v=1")
            spin(until: { (self.dialog?.stack.visiblePage as? NewFriendPage)?.view.isMapped == true && self.dialog?.stack.transition == .idle },
                 "New Friend")
            let page = try XCTUnwrap(dialog?.stack.visiblePage as? NewFriendPage)
            settle()
            XCTAssertEqual(app.mainWindow.window.width, width, "the window did not grow")
            XCTAssertFalse(page.nameLabel.wraps)
            XCTAssertTrue(page.nameLabel.isEllipsized, "one line, cut with …")
            page.addButton.activate()
            spin(until: { app.flowDialog == nil && app.people.friend(id: id) != nil }, "added")
            spin(until: { app.myProfile.friendButtons.count == 4 }, "their button on My Profile")
            settle()
            XCTAssertEqual(app.mainWindow.window.width, width, "still 360 px with their name on My Profile")
            XCTAssertEqual(app.myProfile.friendButtons.last?.label, String(long))
        }
    }

    func testEnterTheirLinkRefusesWhatIsNotANewFriendsCode() throws {
        try onMain {
            let app = try makeApp()
            app.startAddFriend()
            spin(until: { self.dialog?.stack.visiblePage is AddFriendPage }, "Add Friend")
            (dialog!.stack.visiblePage as! AddFriendPage).enterLinkButton.activate()
            spin(until: { self.dialog?.stack.visiblePage is EnterLinkPage }, "Enter Their Link")
            let entry = dialog!.stack.visiblePage as! EnterLinkPage
            XCTAssertFalse(entry.continueButton.isSensitive, "nothing typed")
            for (text, message) in [("hello", "This is not a Postcard code. Ask your friend to open My Code in their Postcard."),
                                    (FriendCode(app.people.identity).link, "Scan your friend's code: it is on My Code in their Postcard."),
                                    ("postcard://profile/ada?name=Ada&v=1", "Ada is already your friend."),
                                    ("postcard://profile/x1?name=X&v=7", "This code was made by a newer Postcard (version 7). Update Postcard to read it.")] {
                entry.linkEntry.text = text
                entry.continueButton.activate()
                spin(until: { entry.problemLabel.isVisible }, "refused: \(text)")
                XCTAssertEqual(entry.problemLabel.text, message)
                XCTAssertFalse(entry.continueButton.isSensitive, "Continue waits for a change")
                XCTAssertTrue(dialog!.stack.visiblePage === entry, "stays on the entry")
            }
            entry.linkEntry.text = " postcard://profile/x1?name=Xu%20Li&v=1 "
            XCTAssertFalse(entry.problemLabel.isVisible, "typing hides the message")
            entry.continueButton.activate()
            spin(until: { (self.dialog?.stack.visiblePage as? NewFriendPage)?.code == FriendCode(id: "x1", name: "Xu Li") }, "New Friend")
            dialog!.cancelButton.activate()
            spin(until: { app.flowDialog == nil }, "canceled")
            XCTAssertNil(app.people.friend(id: "x1"), "nothing added")
        }
    }

    func testAFriendRemovedByAPostcardThatWasKilledIsGoneAtTheNextLaunch() throws {
        try onMain {
            let directory = FilePath(makeTemporaryDirectory())
            do {
                let store = try PostStore(directory: directory)
                let ada = try XCTUnwrap(store.friends().first)
                var done = false
                Task { try await store.markDeleted(.friend(ada.rowID)); done = true }
                spin(until: { done }, "marked")
                XCTAssertEqual(try store.friends().map(\.id), ["grace", "alan"], "left out at once")
                // The process ends here without the toast going (its lock is dropped, as a kill drops it).
            }
            let next = try PostStore(directory: directory)
            XCTAssertEqual(try next.friends().map(\.id), ["grace", "alan"])
            XCTAssertEqual(try next.integer("SELECT count(*) FROM friends WHERE person = 'ada'"), 0, "removed for good")
            XCTAssertEqual(try next.addFriendNow(id: "ada", name: "Ada Lovelace").id, "ada", "and can be added again")
        }
    }

    // MARK: - States

    func testEachStateOfTheScannerSaysWhatToDo() throws {
        try onMain {
            let directory = FilePath(makeTemporaryDirectory())
            // No camera: a device path where there is none, and a picture file that is not there.
            for (source, title) in [(CameraSource.device(path: "/dev/video-postcard-none"), "No Camera Found"),
                                    (.image(path: directory.appending("missing.png").text), "The Picture Can't Be Shown")] {
                let window = NavigationWindow(application: nil, root: Page(title: "Root"))
                show(window.window)
                let scanner = ScanCodePage(settings: CameraSettings(sources: [source], captureDirectory: directory))
                window.stack.push(scanner)
                spin(until: { if case .problem = scanner.state { true } else { false } }, timeout: 20, "\(source): a problem")
                XCTAssertEqual(scanner.state, .problem(.noCamera))
                XCTAssertEqual(scanner.cameraPreview.problemState.title, title)
                XCTAssertFalse(scanner.cameraPreview.problemState.text.isEmpty)
                window.window.destroy()
            }
            // Looking: the hint, while the picture has no code.
            let blank = try qrPicture("x").replacingOccurrences(of: "code.png", with: "blank.png")
            let white = [UInt8](repeating: 255, count: 64 * 64 * 3)
            let frame = try XCTUnwrap(white.withUnsafeBytes { PixelBuffer(copying: $0.baseAddress!, width: 64, height: 64, stride: 192) })
            XCTAssertTrue(Texture(frame).save(toPNG: FilePath(blank)))
            let window = NavigationWindow(application: nil, root: Page(title: "Root"))
            show(window.window)
            let scanner = ScanCodePage(settings: CameraSettings(sources: [.image(path: blank)], captureDirectory: directory))
            window.stack.push(scanner)
            spin(until: { scanner.state == .looking }, timeout: 20, "looking")
            XCTAssertTrue(scanner.hintLabel.isMapped)
            XCTAssertEqual(scanner.hintLabel.text, "Hold a QR code inside the picture.")
            window.window.destroy()

            // Busy, not permitted and unplugged, as GStreamer reports them for a V4L2 camera (this machine has
            // none to make busy): each a problem with its own words.
            var devices: [CameraDevice] = []
            Task { devices = await CameraDevice.available(for: [.device(path: "/dev/video0")]) }
            spin(until: { !devices.isEmpty }, "the device")
            let device = devices[0]
            let busy = CameraProblem(gstreamerError: "Device '/dev/video0' is busy", debug: "", resourceError: GST_RESOURCE_ERROR_BUSY,
                                     device: device, wasStreaming: false)
            XCTAssertEqual([busy.kind == .busy ? "busy" : "", busy.title], ["busy", "The Camera Is Busy"])
            let denied = CameraProblem(gstreamerError: "Could not open device '/dev/video0' for reading and writing.",
                                       debug: "system error: Permission denied", resourceError: GST_RESOURCE_ERROR_OPEN_READ_WRITE,
                                       device: device, wasStreaming: false)
            XCTAssertEqual(denied.kind, .notPermitted)
            let unplugged = CameraProblem(gstreamerError: "Could not read from resource.", debug: "poll error 1: No such device",
                                          resourceError: GST_RESOURCE_ERROR_READ, device: device, wasStreaming: true)
            XCTAssertEqual(unplugged.kind, .stopped)
            XCTAssertEqual(unplugged.title, "The Camera Stopped")
        }
    }

    // MARK: - Removing a friend, renaming

    func testRemovingAFriendOffersUndoAndMyCodeRenamesTheUser() throws {
        try onMain {
            let app = try makeApp()
            app.myProfile.friendButtons[0].activate()
            spin(until: { (app.mainWindow.stack.visiblePage as? ProfilePage)?.person.id == "ada" }, "Ada's profile")
            let remove = try XCTUnwrap(app.mainWindow.stack.visiblePage?.endBarItems.compactMap { $0 as? Button }
                .first { $0.hasAccessibleLabel("Remove Friend") }, "Remove Friend in her profile's bar")
            remove.activate()
            spin(until: { app.mainWindow.stack.visiblePage === app.myProfile }, "her profile is left")
            XCTAssertEqual(app.myProfile.friendButtons.map(\.label), ["Grace Hopper", "Alan Turing"])
            XCTAssertEqual(try app.store.friends().map(\.id), ["grace", "alan"])
            spin(until: { app.toasts.shownButton(labeled: "Undo") != nil }, "Undo offered")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Ada Lovelace removed from your friends"])
            app.toasts.shownButton(labeled: "Undo")!.activate()
            spin(until: { app.myProfile.friendButtons.map(\.label) == ["Ada Lovelace", "Grace Hopper", "Alan Turing"] }, "Undo brings her back")

            let page = try XCTUnwrap(app.presentMyCode())
            spin(until: { page.view.isMapped }, "My Code")
            XCTAssertTrue(page.isShowingStandaloneBar)
            XCTAssertFalse(page.renameButton.isSensitive, "the same name: nothing to change")
            page.nameEntry.text = "  "
            XCTAssertTrue(page.nameProblem.isVisible)
            XCTAssertFalse(page.renameButton.isSensitive)
            page.nameEntry.text = "Samira Rivera"
            page.renameButton.activate()
            spin(until: { app.myProfile.person.name == "Samira Rivera" }, "My Profile shows the new name")
            XCTAssertEqual(try app.store.identity().name, "Samira Rivera")
            XCTAssertEqual(try app.store.identity().id, Identity.sample.id, "the id stays")
            spin(until: { page.linkLabel.text.contains("name=Samira%20Rivera") }, "the code carries it")
        }
    }
}

extension FriendsAndCodesTests {
    /// The clipboard's text, read as a paste would (nil when it holds none).
    @MainActor
    private func clipboardText() -> String? {
        var text: String?
        var done = false
        Task { @MainActor in
            text = await Clipboard.readText()
            done = true
        }
        spin(until: { done }, "the clipboard")
        return text
    }
}
