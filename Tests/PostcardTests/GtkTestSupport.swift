import Adwaita
import CGtk
import CSQLite
import CXTest
import Foundation
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Base for tests that build real GTK widgets. They run on the main thread (XCTest runs synchronous
/// tests there) and spin the GLib main loop themselves; Swift concurrency's main-actor work runs inside
/// it through ``MainLoopBridge``. Without a display every test fails (it never skips).
class GtkTestCase: XCTestCase, @unchecked Sendable {
    /// Runs `body` on the main actor (tests are called on the main thread).
    func onMain(_ body: @MainActor () throws -> Void) rethrows {
        try MainActor.assumeIsolated(body)
    }

    /// The flows the current test started (``track(_:)``; the apps ``makeApp`` made report theirs),
    /// held weakly: each must be freed once its windows are gone.
    private var trackedFlows: [() -> Bool] = []

    /// Flow objects the current test started that are still alive.
    var flowsAlive: Int { trackedFlows.filter { $0() }.count }

    /// Follows `flow`'s lifetime: the test fails if it is still alive after the test's windows are gone.
    func track(_ flow: AnyObject) { trackedFlows.append({ [weak flow] in flow != nil }) }

    /// The app ``makeApp`` made last in this test (its flows are tracked).
    weak var lastApp: AppController?

    /// Without a display no GTK test can run: setUp ends the whole test process with this message and
    /// exit status 1, so `make test` (and `swift test`) fails. A thrown error would not do: swift-corelibs-
    /// xctest counts an error thrown from setUp as a failure *and* a skip, and later tests then crash.
    static let noDisplayMessage = "GTK could not open a display: run the GTK tests with `make test` (it starts Xvfb); failing the run\n"

    /// Warnings and criticals GLib logged (not expected with ``expectCritical(_:domain:file:line:_:)``):
    /// each fails the test it came in. `G_DEBUG=fatal-warnings` makes them fatal too, but the Swift
    /// runtime's backtracer catches GLib's breakpoint trap and can let the process go on.
    /// Read and written only while holding `problemLock` (GLib logs from any thread).
    nonisolated(unsafe) static var loggedProblems: [String] = []
    private static let problemLock = NSLock()
    private static let installWriter: Void = {
        g_log_set_writer_func({ level, fields, count, _ in
            if level.rawValue & (G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue) != 0, let fields {
                var domain = "", message = ""
                for index in 0..<Int(count) {
                    let key = String(cString: fields[index].key)
                    guard key == "MESSAGE" || key == "GLIB_DOMAIN", let value = fields[index].value else { continue }
                    let text = fields[index].length < 0
                        ? String(cString: value.assumingMemoryBound(to: CChar.self))
                        : String(decoding: UnsafeRawBufferPointer(start: value, count: Int(fields[index].length)), as: UTF8.self)
                    if key == "MESSAGE" { message = text } else { domain = text }
                }
                GtkTestCase.problemLock.lock()
                GtkTestCase.loggedProblems.append("\(domain): \(message)")
                GtkTestCase.problemLock.unlock()
            }
            return g_log_writer_default(level, fields, count, nil)
        }, nil, nil)
    }()

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = Self.installWriter
        Self.problemLock.lock()
        Self.loggedProblems = []
        Self.problemLock.unlock()
        trackedFlows = []
        let ready = MainActor.assumeIsolated {
            if g_get_application_name() == nil { Application.setDisplayName("Postcard") }  // as the app does
            // As g_application_run does in the app. Without a program name, GLib 2.74 writes a recent file
            // (GTK's file chooser adds one) with no command and logs a critical (g_markup_escape_text).
            if g_get_prgname() == nil { g_set_prgname("postcard-tests") }
            guard initializeGtk() else { return false }
            // As the app's AdwApplication does at start-up: the app's tests see the app's look. The toolkit's
            // own tests run in a process of their own without it (make test), as a plain GTK app uses it.
            if ProcessInfo.processInfo.environment["POSTCARD_TESTS_WITHOUT_LIBADWAITA"] != "1" { Libadwaita.initialize() }
            return true
        }
        guard ready else {
            FileHandle.standardError.write(Data(Self.noDisplayMessage.utf8))
            exit(1)
        }
        continueAfterFailure = false
    }

    /// The folders ``makeTemporaryDirectory()`` made during the current test.
    private var temporaryDirectories: [String] = []

    override func tearDown() {
        defer {
            for directory in temporaryDirectories { try? FileManager.default.removeItem(atPath: directory) }
            temporaryDirectories = []
        }
        MainActor.assumeIsolated {
            // Re-list each time: destroying a parent also destroys its dialogs (destroy-with-parent).
            while let window = Gtk.Window.all().first { gtk_window_destroy(window) }
            MainLoopBridge.drain()
            // Every flow a test started has ended and been freed once its windows are gone.
            if !MainLoopBridge.run(until: { self.flowsAlive == 0 }, timeout: 5) {
                XCTFail("\(self.flowsAlive) flow object(s) still alive after the test")
            }
            trackedFlows = []
        }
        Self.problemLock.lock()
        let problems = Self.loggedProblems
        Self.loggedProblems = []
        Self.problemLock.unlock()
        for problem in problems { XCTFail("GLib logged a warning or critical: \(problem)") }
        super.tearDown()
    }

    /// Runs `body`, which must log exactly one `g_critical` matching `pattern` (a GLib glob) in the log
    /// `domain` (the toolkit's by default); the critical is then not fatal. A missing one aborts the
    /// test run (GLib's `g_test_expect_message` and `g_test_assert_expected_messages`).
    @MainActor
    func expectCritical(_ pattern: String, domain: String = "NavigationGtk", file: StaticString = #filePath, line: UInt = #line,
                        _ body: () throws -> Void) rethrows {
        g_test_expect_message(domain, G_LOG_LEVEL_CRITICAL, pattern)
        try body()
        g_test_assert_expected_messages_internal(domain, "\(file)", Int32(line), "expectCritical")
    }

    /// Spins the main loop until `condition` holds; fails the test after `timeout` seconds.
    @MainActor
    func spin(until condition: () -> Bool, timeout: Double = 10, _ message: String = "condition",
              file: StaticString = #filePath, line: UInt = #line) {
        if !MainLoopBridge.run(until: condition, timeout: timeout) {
            XCTFail("timed out waiting for \(message)", file: file, line: line)
        }
    }

    /// Spins the main loop for `seconds` (lets transitions and redraws finish).
    @MainActor
    func spin(for seconds: Double) {
        let end = g_get_monotonic_time() + gint64(seconds * 1_000_000)
        MainLoopBridge.run(until: { g_get_monotonic_time() >= end }, timeout: seconds + 1)
    }

    /// Presents `window` and waits until it is mapped and has keyboard focus.
    @MainActor
    func show(_ window: Gtk.Window, file: StaticString = #filePath, line: UInt = #line) {
        window.present()
        spin(until: { window.isMapped && gtk_window_is_active(window.pointer()) != 0 }, "window active",
             file: file, line: line)
    }

    /// Presses and releases a key through the X server (XTEST), as a user would; `modifiers` are keysyms
    /// held during the press (e.g. `XK_Control_L`). Events go to the focused window.
    @MainActor
    func pressKey(_ keysym: Int32, modifiers: [Int32] = [], file: StaticString = #filePath, line: UInt = #line) {
        guard let display = postcard_test_xdisplay() else {
            XCTFail("key presses need an X11 display (Xvfb)", file: file, line: line); return
        }
        for modifier in modifiers { XTestFakeKeyEvent(display, UInt32(XKeysymToKeycode(display, KeySym(modifier))), 1, 0) }
        let code = UInt32(XKeysymToKeycode(display, KeySym(keysym)))
        XTestFakeKeyEvent(display, code, 1, 0)
        XTestFakeKeyEvent(display, code, 0, 0)
        for modifier in modifiers.reversed() { XTestFakeKeyEvent(display, UInt32(XKeysymToKeycode(display, KeySym(modifier))), 0, 0) }
        XSync(display, 0)
        spin(for: 0.15)
    }

    /// Presses and releases mouse `button` (8 is "back") over `window`'s centre, through XTEST.
    @MainActor
    func pressMouseButton(_ button: UInt32, over window: Gtk.Window, file: StaticString = #filePath, line: UInt = #line) {
        guard let display = postcard_test_xdisplay() else {
            XCTFail("mouse presses need an X11 display (Xvfb)", file: file, line: line); return
        }
        postcard_test_click(display, UnsafeMutableRawPointer(window.gobject), window.width / 2, window.height / 2, button)
    }

    /// What a screen reader hears: "role|name" lines for this process's cells, images, list items,
    /// windows, dialogs and buttons, read over AT-SPI by a separate process (`Scripts/atspi_names.py`,
    /// python3-pyatspi) while the main loop answers it.
    @MainActor
    func readAccessibilityTree(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let (process, outputPath) = try startAccessibilityReader(pid: getpid())
        // Keep the main loop running: the script's questions are answered from it.
        spin(until: { !process.isRunning }, timeout: 30, "AT-SPI reader", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "the AT-SPI reader", file: file, line: line)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// What a screen reader says of the control with the keyboard focus in this process, read over AT-SPI:
    /// `role|name|description` of each focused object (Orca 43 says the description after the name).
    @MainActor
    func readFocusedOverAtSpi(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        // The first read in a test process may come before GTK has put the process on the accessibility
        // bus (the reader then finds no such application): it is asked again, for up to 10 s.
        for attempt in 1...20 {
            let (process, outputPath) = try startAccessibilityReader(pid: getpid(), arguments: ["--focused"])
            spin(until: { !process.isRunning }, timeout: 30, "AT-SPI reader", file: file, line: line)
            if process.terminationStatus != 0, attempt < 20 {
                spin(for: 0.5)
                continue
            }
            XCTAssertEqual(process.terminationStatus, 0, "the AT-SPI reader", file: file, line: line)
            let data = FileManager.default.contents(atPath: outputPath) ?? Data()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return []
    }

    /// Reads the focused control over AT-SPI (``readFocusedOverAtSpi(file:line:)``) until it reads as
    /// `expected`, for up to `timeout` seconds; returns the last read. For a message announced on a
    /// control just focused, which becomes its description a moment later (`Window.announce`).
    @MainActor
    func readFocusedOverAtSpi(becoming expected: [String], timeout: Double = 5,
                              file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var read = try readFocusedOverAtSpi(file: file, line: line)
        while read != expected, Date() < deadline {
            spin(for: 0.2)
            read = try readFocusedOverAtSpi(file: file, line: line)
        }
        return read
    }

    /// The description a screen reader reads for the visible object with `role` and `name` in this process
    /// (Orca 43 says it after the name), read over AT-SPI.
    @MainActor
    func readDescriptionOverAtSpi(role: String, name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let (process, outputPath) = try startAccessibilityReader(pid: getpid(), arguments: ["--describe", role, name])
        spin(until: { !process.isRunning }, timeout: 30, "AT-SPI reader", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "the AT-SPI reader finds the \(role) \(name)", file: file, line: line)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// Starts `Scripts/atspi_names.py` reading process `pid` (with `arguments` after the pid); returns it
    /// and the file it writes to.
    func startAccessibilityReader(pid: Int32, arguments: [String] = []) throws -> (Process, String) {
        let script = ((#filePath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("Scripts/atspi_names.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, String(pid)] + arguments
        let outputPath = makeTemporaryDirectory() + "/atspi.txt"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        try process.run()
        return (process, outputPath)
    }

    /// A fresh, empty folder under the system temp dir.
    /// Removed when the test ends (tests hard-link fixtures by the thousand; a file can have at most
    /// 65,000 links, so folders left behind would break later runs).
    func makeTemporaryDirectory() -> String {
        let template = strdup("/tmp/postcard-test-XXXXXX")!
        defer { free(template) }
        let path = String(cString: mkdtemp(template))
        temporaryDirectories.append(path)
        return path
    }

    /// The bundled sample photos (the repository's Resources/photos).
    var bundledPhotos: String {
        let root = ((#filePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        return ((root as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Resources/photos")
    }
}


extension GtkTestCase {
    /// The first button under `root` whose label is `label` (as a screen reader would find it), or nil.
    @MainActor
    func findButton(labeled label: String, in root: Gtk.Widget) -> Gtk.Widget? {
        func search(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
            if String(cString: navgtk_type_name_of(widget)) == "GtkButton",
               let text = gtk_button_get_label(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)), String(cString: text) == label,
               gtk_widget_is_drawable(widget) != 0 {
                return widget
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                if let found = search(current) { return found }
                child = gtk_widget_get_next_sibling(current)
            }
            return nil
        }
        return search(root.widget).map { Gtk.Widget.widget(wrapping: UnsafeMutableRawPointer($0)) }
    }
}

/// Counts live instances of test pages (Swift deinit) and finalized GObjects (weak refs).
@MainActor
final class LifeCounter {
    var pagesAlive = 0
    var viewsFinalized = 0
    var flowsAlive = 0
}

/// A page that reports its lifetime to a counter, and whose widgets report finalization.
@MainActor
final class CountedPage: Page {
    let counter: LifeCounter
    let button: Button?

    init(_ title: String, counter: LifeCounter, focusable: Bool = true) {
        self.counter = counter
        button = focusable ? Button(label: "\(title) Action") : nil
        super.init(title: title)
        if let button { content.append(button) } else { content.append(Label("Nothing to focus here")) }
        counter.pagesAlive += 1
        view.whenFinalized { [counter] in counter.viewsFinalized += 1 }
    }

    isolated deinit { counter.pagesAlive -= 1 }
}

extension GtkTestCase {
    /// Activates Post on `page` once it is enabled (after the chosen photo has decoded), as a user
    /// who waits for the photo to show would.
    @MainActor
    func postWhenReady(_ page: CommentPage, file: StaticString = #filePath, line: UInt = #line) {
        spin(until: { page.postButton.isSensitive }, "Post enabled (the photo decoded)", file: file, line: line)
        page.postButton.activate()
    }
}

// Tests name their temporary folders as text (always UTF-8 here); the app's API takes byte-exact
// ``FilePath``s. ByteExactNameTests covers names that are not UTF-8.
extension PostStore {
    convenience init(directory: String) throws { try self.init(directory: FilePath(directory)) }
}

extension PhotoLibrary {
    init(directory: String) { self.init(directory: FilePath(directory)) }
}

extension Photo {
    init(path: String) { self.init(path: FilePath(path)) }
}

extension FilePath {
    /// The path as text, for Foundation's file APIs in tests (every test folder's name is UTF-8).
    var text: String { string! }
}

extension String {
    /// The `file://` URI of this path (made absolute).
    var uri: String { FilePath(self).uri }
}

@MainActor
extension StyleSheet {
    static func load(path: String) { load(path: FilePath(path)) }
}

extension ImageMetadata {
    static func write(dateTaken date: Int64? = nil, orientation: Int32? = nil, toFileAt path: String) throws {
        try write(dateTaken: date, orientation: orientation, toFileAt: FilePath(path))
    }
}

extension GtkTestCase {
    /// The colour at (`x`, `y`) of `widget` as GTK renders it now.
    @MainActor
    func pixel(of widget: Widget, x: Int, y: Int) throws -> (red: UInt8, green: UInt8, blue: UInt8) {
        let rendered = try XCTUnwrap(widget.renderedTexture())
        defer { withExtendedLifetime(rendered) {} }
        let texture = rendered.opaque
        let stride = Int(gdk_texture_get_width(texture)) * 4
        var bytes = [UInt8](repeating: 0, count: stride * Int(gdk_texture_get_height(texture)))
        gdk_texture_download(texture, &bytes, gsize(stride))  // Cairo ARGB32 in memory order B, G, R, A
        let offset = y * stride + x * 4
        return (bytes[offset + 2], bytes[offset + 1], bytes[offset])
    }
}

extension GtkTestCase {
    /// The app over a new store in a temporary folder (or `dataDirectory`), offering the bundled photos,
    /// with its main window shown: `width` pixels wide when given, the app's own size otherwise. Each of
    /// `posts` becomes a post on My Profile, oldest first, its photo in turn coffee.png, rocket.jpg and
    /// chelsea.png. The cameras are `cameras`, or what the environment says (`POSTCARD_CAMERA`).
    @MainActor
    func makeApp(posts: [String] = [], cameras: [CameraSource]? = nil, width: Int32? = nil,
                 dataDirectory: String? = nil) throws -> AppController {
        StyleSheet.load(path: bundledPhotos + "/../style.css")  // a CSS error would be a fatal warning
        let store = try PostStore(directory: dataDirectory ?? makeTemporaryDirectory())
        if dataDirectory == nil { try store.setIdentityNow(.sample) }
        for (index, comment) in posts.enumerated() {
            let photo = ["coffee.png", "rocket.jpg", "chelsea.png"][index % 3]
            try store.addNow(photo: Photo(path: bundledPhotos + "/" + photo), comment: comment,
                          author: "me", profile: "me")
        }
        let library = PhotoLibrary(directory: bundledPhotos)
        let app = cameras.map { AppController(application: nil, store: store, library: library, cameraSources: $0) }
            ?? AppController(application: nil, store: store, library: library)
        if let width { app.mainWindow.window.setDefaultSize(width: width, height: 720) }
        app.onFlowStarted = { [weak self] started in self?.track(started.flow) }
        lastApp = app
        show(app.mainWindow.window)
        return app
    }
}

extension GtkTestCase {
    /// Runs `sql` on a connection of its own to the store's database in `folder`, as another program
    /// (`sqlite3`) would; fails the test when SQLite refuses it.
    func runSQL(_ sql: String, inStoreAt folder: String, file: StaticString = #filePath, line: UInt = #line) {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open(folder + "/posts.sqlite3", &db) == SQLITE_OK else {
            return XCTFail("can't open the store in \(folder)", file: file, line: line)
        }
        sqlite3_busy_timeout(db, 5000)
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            XCTFail("\(sql): \(message.map { String(cString: $0) } ?? "failed")", file: file, line: line)
            sqlite3_free(message)
        }
    }
}

extension Identity {
    /// The user the tests' stores have (the name the app's pictures and fixtures show).
    static let sample = Identity(id: "0d6a2c1e-8b3f-4e57-9a10-c4f2e7b85d93", name: "Sam Rivera")
}

/// WebKit's web processes as `/proc` shows them, for the tests of how many a page or a link storm starts.
enum WebProcesses {
    /// The live (not yet reaped zombies excluded) processes named WebKitWebProcess that descend from
    /// process `ancestor` (WebKit starts them through `bwrap`, so they may be grandchildren), by id.
    static func descending(from ancestor: Int32) -> Set<Int32> {
        func stat(of pid: Int32) -> (state: Character, parent: Int32)? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
            return (state, parent)
        }
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return Set(all.compactMap(Int32.init).filter { pid in
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
                  name.hasPrefix("WebKitWebProces"), let own = stat(of: pid), own.state != "Z", own.state != "X" else { return false }
            var current = own.parent
            for _ in 0..<8 {
                if current == ancestor { return true }
                guard current > 1, let up = stat(of: current) else { return false }
                current = up.parent
            }
            return false
        })
    }
}
