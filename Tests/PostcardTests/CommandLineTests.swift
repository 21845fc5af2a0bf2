import CGtk
import CXTest
import Foundation
import Gtk
import GtkTesting
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// The command line as GApplication and GOption parse it, and the real `postcard` program: its
/// `--version` and `--help`, a second launch handing its options and photos to the running instance,
/// `gapplication action`, and its GLib log.
final class CommandLineTests: GtkTestCase, @unchecked Sendable {
    /// Parses `arguments` with GApplication's own option parsing (what `postcard` does before it starts),
    /// returning the exit status and the options the app would use (nil when parsing stopped first).
    @MainActor
    private func parse(_ arguments: [String]) -> (status: Int32, options: Result<AppOptions, Error>?) {
        let application = Application(id: "io.github.postcard.ParseTests", unique: false)
        application.addMainOptions(AppOptions.commandLineOptions)
        var result: Result<AppOptions, Error>?
        application.onHandleLocalOptions { parsed in
            result = Result { try AppOptions(options: parsed, resolve: \.absolute, uri: CommandLineOptions.localURI(forArgument:)) }
            return 0  // stop here: nothing is started
        }
        return (application.run(arguments: ["postcard"] + arguments), result)
    }

    func testOptionsAreParsedByGOptionInBothSpellings() throws {
        try onMain {
            let options = try XCTUnwrap(parse(["--data-dir=relative/dir", "--library", "pics", "--camera", "test", "photo one.jpg"]).options).get()
            XCTAssertEqual(options.dataDirectory, FilePath(FileManager.default.currentDirectoryPath + "/relative/dir"))
            XCTAssertEqual(options.library, .folder(FilePath(FileManager.default.currentDirectoryPath + "/pics")))
            XCTAssertEqual(options.camera, .test)
            XCTAssertEqual(options.files, [(FileManager.default.currentDirectoryPath + "/photo one.jpg").uri])
            XCTAssertTrue(options.needsOwnInstance, "another data folder is another Postcard")

            let forwarded = try XCTUnwrap(parse(["--library=/srv/photos", "--camera=/dev/video2", "a.jpg"]).options).get()
            XCTAssertEqual(forwarded.library, .folder("/srv/photos"))
            XCTAssertEqual(forwarded.camera, .device(path: "/dev/video2"))
            XCTAssertFalse(forwarded.needsOwnInstance, "library, camera and photos go to the running Postcard")
            XCTAssertEqual(try XCTUnwrap(parse(["--pictures"]).options).get().library, .pictures)

            XCTAssertThrowsError(try XCTUnwrap(parse(["--camera", "webcam"]).options).get())
            XCTAssertThrowsError(try XCTUnwrap(parse(["--data-dir="]).options).get(), "an empty folder name")
            let unknown = parse(["--frobnicate"])
            XCTAssertEqual(unknown.status, 1, "GOption refuses an unknown option")
            XCTAssertNil(unknown.options, "and the app never starts")
            XCTAssertNil(parse(["--library"]).options, "--library without a folder")
        }
    }

    func testVersionHelpAndBadValuesFromTheProgram() throws {
        let version = try runPostcard(["--version"])
        XCTAssertEqual(version.status, 0)
        let expected = MainActor.assumeIsolated { "Postcard \(AppController.version)\n" }
        XCTAssertEqual(version.output, expected)

        let help = try runPostcard(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.hasPrefix("Usage:\n  postcard [OPTION…] [PHOTO…] [LINK]\n"), help.output)
        for line in ["  --library=FOLDER", "  --camera=SOURCE", "  --version", "--help-gapplication"] {
            XCTAssertTrue(help.output.contains(line), "GOption's help lists \(line):\n\(help.output)")
        }
        for tool in ["--review-tour", "--compare", "--measure-startup", "--measure-navigation", "POSTCARD_REVIEW"] {
            XCTAssertFalse(help.output.contains(tool), "the shipped program has no \(tool) (postcard-review and postcard-measure do):\n\(help.output)")
        }
        let refused = try runPostcard(["--review-tour", makeTemporaryDirectory()])
        XCTAssertNotEqual(refused.status, 0, "postcard does not run the review tour")
        let reviewHelp = try runProgram(postcardPath + "-review", ["--help"], environment: [:])
        XCTAssertTrue(reviewHelp.output.contains("--review-tour=FOLDER"), reviewHelp.output)

        let badCamera = try runPostcard(["--camera", "webcam"])
        XCTAssertEqual(badCamera.status, 2)
        XCTAssertTrue(badCamera.errors.contains("--camera needs"), badCamera.errors)
        // A bad link is refused before anything starts, saying why (exit status 2, as for a bad option).
        for (link, reason) in [("postcard://pots/12", "Postcard has no screen at postcard://pots/12"),
                               ("postcard://post/%C3%28", "the link has percent escapes that are not text (UTF-8)"),
                               ("postcard://profile/" + String(repeating: "a", count: 2100), "Postcard reads links of up to 2000")] {
            let bad = try runPostcard([link])
            XCTAssertEqual(bad.status, 2, link)
            XCTAssertTrue(bad.errors.hasPrefix("postcard: can't open postcard://"), bad.errors)
            XCTAssertTrue(bad.errors.contains(reason), bad.errors)
        }
        let noDisplay = try runPostcard([], environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        XCTAssertEqual(noDisplay.status, 1)
        XCTAssertTrue(noDisplay.errors.contains("can't open a display"), noDisplay.errors)
    }

    func testASecondLaunchHandsItsOptionsAndPhotoToTheRunningPostcard() throws {
        let home = makeTemporaryDirectory()
        let library = home + "/second-library"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: bundledPhotos + "/coffee.png", toPath: library + "/coffee.png")
        // gapplication finds the app through its desktop file.
        try FileManager.default.createDirectory(atPath: home + "/share/applications", withIntermediateDirectories: true)
        let desktopFile = ((bundledPhotos as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            + "/data/io.github.postcard.Postcard.desktop"
        try FileManager.default.copyItem(atPath: desktopFile, toPath: home + "/share/applications/io.github.postcard.Postcard.desktop")
        let environment: [String: String?] = ["XDG_DATA_HOME": home + "/data", "XDG_DATA_DIRS": home + "/share:/usr/share",
                                              "G_MESSAGES_DEBUG": "Postcard"]
        let logPath = home + "/primary.log"
        let primary = try startPostcard([], environment: environment, log: logPath)
        defer { if primary.isRunning { primary.terminate() } }
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try waitFor("the running Postcard", timeout: 30) { log().contains("Started: posts in ") }

        // A relative --library, resolved against the second launch's folder; it ends at once.
        let second = try runPostcard(["--library", "second-library"], environment: environment, directory: home)
        XCTAssertEqual(second.status, 0, second.errors)
        try waitFor("the library switch") { log().contains("Photo library switched to \(library)") }
        XCTAssertTrue(primary.isRunning)

        let newPost = try runProgram("/usr/bin/gapplication", ["action", PostcardMain.applicationID, "new-post"], environment: environment)
        XCTAssertEqual(newPost.status, 0, newPost.errors)
        try waitFor("New Post over D-Bus") { log().contains("Flow started: New Post") }
        let chooser = try readAccessibilityTree(ofProcess: primary.processIdentifier)
        XCTAssertTrue(chooser.contains("table cell|coffee.png"), "Choose a Photo offers the new library:\n\(chooser.joined(separator: "\n"))")
        XCTAssertFalse(chooser.contains("table cell|rocket.jpg"), "and not the sample photos")

        XCTAssertEqual(try runProgram("/usr/bin/gapplication", ["action", PostcardMain.applicationID, "close-window"],
                                      environment: environment).status, 0)
        try waitFor("the flow to end as canceled") { log().contains("Flow ended: ") && log().contains("canceled") }

        // A photo given to a second launch opens New Post on Add a Comment in the running Postcard.
        let withPhoto = try runPostcard(["second-library/coffee.png"], environment: environment, directory: home)
        XCTAssertEqual(withPhoto.status, 0, withPhoto.errors)
        try waitFor("New Post with the photo") { log().components(separatedBy: "Flow started: New Post").count == 3 }
        try waitFor("Add a Comment with the forwarded photo", timeout: 20) {
            (try? self.readAccessibilityTree(ofProcess: primary.processIdentifier))?.contains("push button|Post") == true
        }

        XCTAssertEqual(try runProgram("/usr/bin/gapplication", ["action", PostcardMain.applicationID, "quit"],
                                      environment: environment).status, 0)
        try waitFor("quit") { !primary.isRunning }
        XCTAssertEqual(primary.terminationStatus, 0)
        XCTAssertEqual(log().components(separatedBy: "Flow ended: ").count, 3, "quitting ends the open flow:\n\(log())")
        XCTAssertFalse(log().contains("WARNING") || log().contains("CRITICAL"), log())
    }
}

/// `postcard://` links given to the real program: at start-up, and forwarded by later launches to the
/// running Postcard, each route opening with its back path.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread,
/// and the state they touch is the main actor's.)
final class LinkCommandLineTests: GtkTestCase, @unchecked Sendable {
    /// A logout sends SIGTERM: Postcard died at once, skipping its quit (the open pages were not kept,
    /// nor anything else the quit keeps). It quits as Ctrl+Q does.
    func testSIGTERMQuitsThroughTheQuitPath() throws {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        let logPath = home + "/term.log"
        let environment: [String: String?] = ["XDG_DATA_HOME": home + "/xdg", "G_MESSAGES_DEBUG": "Postcard"]
        let process = try startPostcard(["--data-dir", data, "postcard://messages"], environment: environment, log: logPath)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let text = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try waitFor("Messages open", timeout: 30) { text().contains("Opened postcard://messages") }
        kill(process.processIdentifier, SIGTERM)
        try waitFor("the quit", timeout: 20) { !process.isRunning }
        XCTAssertEqual(process.terminationReason, .exit, "ended by its own quit, not by the signal")
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(Files.readText(FilePath(data + "/navigation.gvariant")), "{'path': <['postcard://messages']>}",
                       "what the quit keeps was kept")
    }

    func testALinkOpensItsScreenAtStartUpAndEachLaterOneInTheRunningPostcard() throws {
        let home = makeTemporaryDirectory()
        try onMain {
            let store = try PostStore(directory: home + "/data/postcard")
            let photo = Photo(path: bundledPhotos + "/coffee.png")
            _ = try store.addNow(photo: photo, comment: "Mine", author: "me", profile: "me")             // 1
            _ = try store.addNow(photo: photo, comment: "On Ada's", author: "me", profile: "ada")       // 2
            _ = try store.addMessageNow(to: "grace", photo: photo, comment: "Hi", author: "me")         // 1
        }
        let environment: [String: String?] = ["XDG_DATA_HOME": home + "/data", "G_MESSAGES_DEBUG": "Postcard"]
        let screens: [(String, String)] = [
            ("postcard://profile/ada", "My Profile › Ada Lovelace (Back: My Profile)"),
            ("postcard://post/1", "My Profile › Post (Back: My Profile)"),
            ("postcard://post/2/comments", "My Profile › Ada Lovelace › Post › Comments (Back: Post)"),
            ("postcard://messages", "My Profile › Messages (Back: My Profile)"),
            ("postcard://messages/1", "My Profile › Messages › Message (Back: My Profile)"),  // beside the list (720 px)
            ("postcard://guide/posting", "My Profile › Guide (Back: My Profile)"),
            ("postcard://post/77", "My Profile › Not Found (Back: My Profile)"),
            ("postcard://profile/me", "My Profile"),
        ]
        // Each at start-up, in a Postcard of its own (--data-dir runs one), which the link opens in.
        for (index, (link, shown)) in screens.enumerated() {
            let startLog = home + "/start-\(index).log"
            let own = try startPostcard(["--data-dir", home + "/data/postcard", link], environment: environment, log: startLog)
            defer { if own.isRunning { own.terminate(); own.waitUntilExit() } }
            let text = { (try? String(contentsOfFile: startLog, encoding: .utf8)) ?? "" }
            try waitFor("\(link) at start-up", timeout: 30) { text().contains("Opened \(link): \(shown)") }
            XCTAssertFalse(text().contains("Restored the open pages"), "a link opens instead of the pages kept at quit")
        }
        // A stranger's Postcard code on the command line opens Add Friend on New Friend, as the README
        // says (it opened Not Found); a later launch hands its options to the same start.
        let stranger = "postcard://profile/x9?name=Xu%20Li&v=1"
        let codeLog = home + "/code.log"
        let coded = try startPostcard(["--data-dir", home + "/data/postcard", stranger], environment: environment, log: codeLog)
        let codeText = { (try? String(contentsOfFile: codeLog, encoding: .utf8)) ?? "" }
        try waitFor("Add Friend for a stranger's code", timeout: 30) { codeText().contains("Flow started: Add Friend") }
        XCTAssertFalse(codeText().contains("Not Found"), codeText())
        if coded.isRunning { coded.terminate(); coded.waitUntilExit() }

        let logPath = home + "/primary.log"
        let primary = try startPostcard(["postcard://post/2"], environment: environment, log: logPath)
        defer { if primary.isRunning { primary.terminate() } }
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try waitFor("the link at start-up", timeout: 30) {
            log().contains("Opened postcard://post/2: My Profile › Ada Lovelace › Post (Back: Ada Lovelace)")
        }
        try waitFor("the window named after the post", timeout: 10) {
            (try? self.readAccessibilityTree(ofProcess: primary.processIdentifier))?.contains("frame|Post – Postcard") == true
        }

        // Then each handed to the running Postcard by a later launch.
        for (link, shown) in screens {
            let run = try runPostcard([link], environment: environment)
            XCTAssertEqual(run.status, 0, "\(link): \(run.errors)")
            // (A message shown before is beside Messages, not a dialog: the next link opens at once.)
            do {
                try waitFor("\(link) forwarded", timeout: 20) { log().contains("Opened \(link): \(shown)") }
            } catch {
                print(log())
                throw error
            }
        }
        // A bad link to the running Postcard: the launching process says why; the running one goes on.
        let bad = try runPostcard(["postcard://pots/1"], environment: environment)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.errors.contains("Postcard has no screen at postcard://pots/1"), bad.errors)
        XCTAssertTrue(primary.isRunning)
        XCTAssertFalse(log().contains("WARNING") || log().contains("CRITICAL"), log())
    }

    /// The real program showing the guide (a web page) runs WebKitGTK's memory-pressure monitor (its thread
    /// "PressureMonitor"), even when the environment asks WebKit to turn it off
    /// (`WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR=1`, which Postcard removes): without it WebKit also turns off
    /// each web process's own handler, which ends a page's process past `WebPage.webProcessMemoryLimit`
    /// (issue 57; `HostileWebPageTests`). Its idle cost is in bench/navigation.md.
    func testAWebPageRunsTheMemoryPressureMonitorWhateverTheEnvironmentSays() throws {
        let home = makeTemporaryDirectory()
        for disable in [false, true] {
            var environment: [String: String?] = ["XDG_DATA_HOME": home + "/data", "G_MESSAGES_DEBUG": "Postcard"]
            if disable { environment["WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR"] = "1" }
            let logPath = home + "/guide-\(disable).log"
            let postcard = try startPostcard(["--data-dir", home + "/data/postcard", "postcard://guide"], environment: environment, log: logPath)
            defer { if postcard.isRunning { postcard.terminate(); postcard.waitUntilExit() } }
            let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
            try waitFor("the guide", timeout: 30) { log().contains("Opened postcard://guide: My Profile › Guide") }
            let pid = postcard.processIdentifier
            func threadNames() -> [String] { ProcessThreads.all(ofProcess: pid).map(\.name) }
            try waitFor("WebKit's memory-pressure monitor in Postcard", timeout: 20) { threadNames().contains("PressureMonitor") }
        }
    }
}

/// Nothing typed is lost when the app is killed: the real program, SIGKILL mid-comment, and the next
/// launch offering the draft.
final class DraftSurvivalTests: GtkTestCase, @unchecked Sendable {
    func testACommentTypedBeforeAKillIsOfferedAtTheNextLaunch() throws {
        let home = makeTemporaryDirectory()
        let environment: [String: String?] = ["XDG_DATA_HOME": home + "/data", "G_MESSAGES_DEBUG": "Postcard"]
        let logPath = home + "/first.log"
        let first = try startPostcard([], environment: environment, log: logPath)
        defer { if first.isRunning { first.terminate() } }
        func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        try waitFor("Postcard", timeout: 30) { log(logPath).contains("Started: posts in ") }
        // A photo handed to the running Postcard opens Add a Comment, the comment field focused.
        XCTAssertEqual(try runPostcard([bundledPhotos + "/coffee.png"], environment: environment).status, 0)
        try waitFor("Add a Comment with its photo") { log(logPath).contains("Add a Comment: the photo is shown") }
        let text = "kept after a crash"
        MainActor.assumeIsolated {
            for character in text.unicodeScalars { pressKey(Int32(character.value)) }  // XTEST: a user typing
        }
        try waitFor("the draft saved", timeout: 10) { log(logPath).contains("Draft saved: post me, \(text.count) characters") }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationReason, .uncaughtSignal)

        let secondLog = home + "/second.log"
        let second = try startPostcard([], environment: environment, log: secondLog)
        defer { if second.isRunning { second.terminate() } }
        try waitFor("Postcard again", timeout: 30) { log(secondLog).contains("Started: posts in ") }
        var heard: [String] = []
        try waitFor("the unfinished post offered", timeout: 20) {
            heard = (try? readAccessibilityTree(ofProcess: second.processIdentifier)) ?? []
            return heard.contains("label|You have an unfinished post")
        }
        XCTAssertTrue(heard.contains("label|\(text)"), "the comment is quoted: \(heard)")
        XCTAssertTrue(heard.contains("push button|Resume"))
        XCTAssertTrue(heard.contains("push button|Discard"))
    }
}

/// A post killed mid-copy leaves no half photo visible and no row; the next launch removes the leftover.
final class KilledMidCopyTests: GtkTestCase, @unchecked Sendable {
    func testAPostKilledMidCopyLeavesNothingAndTheNextLaunchSweepsUp() throws {
        let home = makeTemporaryDirectory()
        // A real photo followed by 400 MB of padding: it decodes at once (decoders stop at its end) but
        // takes a while to copy, so the kill lands mid-copy.
        let big = home + "/big.jpg"
        var photo = try Data(contentsOf: URL(fileURLWithPath: bundledPhotos + "/rocket.jpg"))
        photo.append(Data(count: 400 * 1024 * 1024))
        try photo.write(to: URL(fileURLWithPath: big))
        photo = Data()
        let environment: [String: String?] = ["XDG_DATA_HOME": home + "/data", "G_MESSAGES_DEBUG": "Postcard"]
        let logPath = home + "/log"
        let app = try startPostcard([big], environment: environment, log: logPath)
        defer { if app.isRunning { app.terminate() } }
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try waitFor("Add a Comment with the big photo", timeout: 30) { log().contains("Add a Comment: the photo is shown") }
        MainActor.assumeIsolated {
            for character in "big".unicodeScalars { pressKey(Int32(character.value)) }
            pressKey(XK_Return, modifiers: [XK_Control_L])  // Post
        }
        try waitFor("the copy to start", timeout: 10) { log().contains("into the store") }
        kill(app.processIdentifier, SIGKILL)
        app.waitUntilExit()
        XCTAssertFalse(log().contains("Stored post"), "killed before the row was written")

        let photos = home + "/data/postcard/photos"
        let left = try FileManager.default.contentsOfDirectory(atPath: photos)
        XCTAssertTrue(left.contains { $0.hasPrefix(".incoming-") }, "the half copy is only under a hidden temporary name: \(left)")
        XCTAssertFalse(left.contains { !$0.hasPrefix(".") }, "no half photo under a visible name: \(left)")
        try onMain {
            let store = try PostStore(directory: home + "/data/postcard")  // the next launch
            XCTAssertEqual(try store.count(), 0, "and no row")
            let after = try FileManager.default.contentsOfDirectory(atPath: photos)
            XCTAssertFalse(after.contains { $0.hasPrefix(".incoming-") }, "the leftover is swept: \(after)")
        }
    }
}

/// File names are bytes: a photo whose name is not UTF-8, given on the command line, opens.
final class ByteExactNameTests: GtkTestCase, @unchecked Sendable {
    func testAPhotoWhoseNameIsNotUTF8OpensFromTheCommandLine() throws {
        let home = makeTemporaryDirectory()
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: bundledPhotos + "/rocket.jpg"))
        PhotoFixtures.createFile(rawName: [0xFF, 0xFE] + Array(".jpg".utf8), in: home, contents: jpeg)
        let environment: [String: String?] = ["XDG_DATA_HOME": home + "/data", "G_MESSAGES_DEBUG": "Postcard"]
        let logPath = home + "/log"
        let app = try startPostcard([], environment: environment, log: logPath)
        defer { if app.isRunning { app.terminate() } }
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try waitFor("Postcard", timeout: 30) { log().contains("Started: posts in ") }
        // The shell passes the name's raw bytes (a Swift String could not hold them).
        let run = try runProgram("/bin/sh", ["-c", #"exec "$0" "$(printf '%s/\377\376.jpg' "$1")""#, postcardPath, home],
                                 environment: environment)
        XCTAssertEqual(run.status, 0, run.errors)
        try waitFor("New Post with the photo") { log().contains("Flow started: New Post") }
        XCTAssertTrue(log().contains("New Post with the photo " + home.uri + "/%FF%FE.jpg"),
                      "the running Postcard got the name's own bytes:\n\(log())")
        var heard: [String] = []
        do {
            try waitFor("Add a Comment showing the photo", timeout: 20) {
                heard = (try? readAccessibilityTree(ofProcess: app.processIdentifier)) ?? []
                return heard.contains("image|\u{FFFD}\u{FFFD}.jpg") && heard.contains("push button|Post")
            }
        } catch {
            XCTFail("heard: \(heard)\nlog: \(log())")
            throw error
        }
        XCTAssertFalse(heard.contains { $0.contains("can't be opened") }, "the photo opened: \(heard)")
    }
}

extension ByteExactNameTests {
    /// A folder named `name` (raw bytes, not UTF-8) in `parent`.
    private func folder(_ parent: String, _ name: [UInt8]) throws -> FilePath {
        let path = FilePath(parent).appending(FilePath(bytes: name))
        try Files.makeDirectory(path)
        return path
    }

    private func symlink(_ target: String, at path: FilePath) {
        XCTAssertEqual(path.withCString { Glibc.symlink(target, $0) }, 0)
    }

    /// `--data-dir` and `--library` with names that are not UTF-8, and resources found through
    /// `POSTCARD_RESOURCES` with such a name: each is used as that very folder.
    func testDataLibraryAndResourceFoldersWhoseNamesAreNotUTF8() throws {
        let home = makeTemporaryDirectory()
        let data = FilePath(home).appending(FilePath(bytes: [0xFF] + Array("-data".utf8)))  // made by Postcard
        let library = try folder(home, [0xFE] + Array("-library".utf8))
        try Files.copy(FilePath(bundledPhotos + "/coffee.png"), to: library.appending("coffee.png"))
        let resources = try folder(home, [0xFD] + Array("-resources".utf8))
        symlink(bundledPhotos, at: resources.appending("photos"))
        symlink(bundledPhotos + "/../guide", at: resources.appending("guide"))
        let logPath = home + "/log"
        // The shell hands over the raw bytes (a Swift String could not hold them).
        let app = try startProgram("/bin/sh", ["-c", #"POSTCARD_RESOURCES="$(printf '%s/\375-resources' "$1")" exec "$0" --data-dir "$(printf '%s/\377-data' "$1")" --library "$(printf '%s/\376-library' "$1")""#,
                                               postcardPath, home],
                                   environment: ["XDG_DATA_HOME": home + "/xdg", "G_MESSAGES_DEBUG": "Postcard"], log: logPath)
        defer { if app.isRunning { app.terminate() } }
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try waitFor("Postcard", timeout: 30) { log().contains("Started: posts in ") }
        XCTAssertTrue(Files.exists(data.appending("posts.sqlite3")), "the store is in the --data-dir folder itself:\n\(log())")
        XCTAssertEqual(Files.names(inDirectory: FilePath(home))?.filter { $0.displayName.hasSuffix("-data") }.count, 1,
                       "and no look-alike folder was made beside it")
        XCTAssertTrue(log().contains("Started: posts in \(data.displayName), photos from \(library.displayName)"), log())
        app.terminate()
        app.waitUntilExit()

        // Without --library: the bundled photos, from the POSTCARD_RESOURCES folder (not the checkout's).
        let secondLog = home + "/second.log"
        let second = try startProgram("/bin/sh", ["-c", #"POSTCARD_RESOURCES="$(printf '%s/\375-resources' "$1")" exec "$0" --data-dir "$(printf '%s/\377-data' "$1")""#,
                                                  postcardPath, home],
                                      environment: ["XDG_DATA_HOME": home + "/xdg", "G_MESSAGES_DEBUG": "Postcard"], log: secondLog)
        defer { if second.isRunning { second.terminate() } }
        func secondOutput() -> String { (try? String(contentsOfFile: secondLog, encoding: .utf8)) ?? "" }
        try waitFor("Postcard", timeout: 30) { secondOutput().contains("Started: posts in ") }
        XCTAssertTrue(secondOutput().contains("photos from \(resources.appending("photos").displayName)"), secondOutput())
    }

    /// The default data folder under an `XDG_DATA_HOME` whose name is not UTF-8, and an installed
    /// Postcard whose prefix has such a name (its resources are found beside the executable).
    func testXDGDataHomeAndInstallPrefixWhoseNamesAreNotUTF8() throws {
        // Beside the build (same file system), so the program can be hard-linked rather than copied.
        let build = URL(fileURLWithPath: postcardPath).deletingLastPathComponent().path
        let home = build + "/byte-exact-\(getpid())"
        try? FileManager.default.removeItem(atPath: home)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let xdgData = try folder(home, [0xFC] + Array("-xdg".utf8))
        let prefix = try folder(home, [0xFB] + Array("-prefix".utf8))
        try Files.makeDirectory(prefix.appending("bin"))
        try Files.makeDirectory(prefix.appending("share", "postcard"))
        let installed = prefix.appending("bin", "postcard")
        XCTAssertEqual(installed.withCString { link(postcardPath, $0) }, 0, "hard-linked: /proc/self/exe names the link")
        symlink(bundledPhotos, at: prefix.appending("share", "postcard", "photos"))
        symlink(bundledPhotos + "/../guide", at: prefix.appending("share", "postcard", "guide"))
        let logPath = home + "/log"
        let app = try startProgram("/bin/sh", ["-c", #"XDG_DATA_HOME="$(printf '%s/\374-xdg' "$1")" exec "$(printf '%s/\373-prefix/bin/postcard' "$1")""#,
                                               "sh", home],
                                   environment: ["G_MESSAGES_DEBUG": "Postcard", "POSTCARD_RESOURCES": nil], log: logPath)
        defer { if app.isRunning { app.terminate() } }
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try waitFor("Postcard", timeout: 30) { log().contains("Started: posts in ") }
        XCTAssertTrue(Files.exists(xdgData.appending("postcard", "posts.sqlite3")), "the store is under XDG_DATA_HOME itself:\n\(log())")
        XCTAssertTrue(log().contains("photos from \(prefix.appending("share", "postcard", "photos").displayName)"),
                      "the resources beside the installed program:\n\(log())")
    }
}

/// A wait that ran out (the test has already failed).
struct TimedOut: Error { let what: String }

/// Running the built `postcard` program (beside the test bundle) and other programs.
extension GtkTestCase {
    struct ProgramRun {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The `postcard` executable built with the tests.
    var postcardPath: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("postcard").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("postcard").path
    }

    private func configure(_ process: Process, environment: [String: String?], directory: String?) {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    }

    /// Runs `program` with `arguments` to the end (at most 30 seconds) and returns what it printed.
    func runProgram(_ program: String, _ arguments: [String], environment: [String: String?] = [:],
                    directory: String? = nil) throws -> ProgramRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        configure(process, environment: environment, directory: directory)
        let folder = makeTemporaryDirectory()
        _ = FileManager.default.createFile(atPath: folder + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: folder + "/err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: folder + "/out")
        process.standardError = FileHandle(forWritingAtPath: folder + "/err")
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }  // polls for the exit; bounded above
        if process.isRunning { process.terminate(); XCTFail("\(program) \(arguments) did not end in 30 s") }
        process.waitUntilExit()
        return ProgramRun(status: process.terminationStatus,
                          output: (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "",
                          errors: (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "")
    }

    /// Runs `postcard` with `arguments` to the end.
    func runPostcard(_ arguments: [String], environment: [String: String?] = [:], directory: String? = nil) throws -> ProgramRun {
        try runProgram(postcardPath, arguments, environment: environment, directory: directory)
    }

    /// Starts `postcard` with `arguments`, its standard output and error going to `log`.
    func startPostcard(_ arguments: [String], environment: [String: String?], log: String) throws -> Process {
        try startProgram(postcardPath, arguments, environment: environment, log: log)
    }

    /// Starts `program` with `arguments`, its standard output and error going to `log`.
    func startProgram(_ program: String, _ arguments: [String], environment: [String: String?], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        configure(process, environment: environment, directory: nil)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = FileHandle(forWritingAtPath: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    /// Waits (without a main loop: the app under test is another process) until `condition` holds.
    func waitFor(_ what: String, timeout: Double = 60, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else {
                XCTFail("timed out waiting for \(what)", file: file, line: line)
                throw TimedOut(what: what)
            }
            usleep(50_000)  // polls the condition (a log line, a file, the accessibility tree); bounded above
        }
    }

    /// What a screen reader hears from another process (`role|name` lines, see ``readAccessibilityTree(file:line:)``).
    func readAccessibilityTree(ofProcess pid: Int32) throws -> [String] {
        let script = ToolkitTestCase.accessibilityReaderScript
        let run = try runProgram("/usr/bin/python3", [script, String(pid)])
        guard run.status == 0 else { throw TimedOut(what: "the AT-SPI reader: \(run.errors)") }
        return run.output.split(separator: "\n").map(String.init)
    }
}
