import CGtk
import CXTest
import Foundation
import Gtk
import NavigationGtk
import XCTest

// What every GTK test of this package needs, the toolkit's (NavigationGtkTests) and the app's
// (PostcardTests, whose `GtkTestCase` adds the app): a test case that runs GTK on the main thread and
// fails on any GLib warning, real key and mouse presses through XTEST, what a screen reader hears over
// AT-SPI, and pages that count their lifetimes. Not a product: only this package's tests use it.

/// Base for tests that build real GTK widgets. They run on the main thread (XCTest runs synchronous
/// tests there) and spin the GLib main loop themselves; Swift concurrency's main-actor work runs inside
/// it through ``MainLoopBridge``. Without a display every test fails (it never skips).
open class ToolkitTestCase: XCTestCase, @unchecked Sendable {
    /// The application name GLib is given before GTK starts (what window lists and screen readers show).
    open class var displayName: String { "Navigation Toolkit Tests" }
    /// The program name GLib is given before GTK starts.
    open class var programName: String { "navigation-gtk-tests" }

    /// Called once per test on the main thread right after GTK is initialized, before the test: a
    /// subclass starts what its app starts with GTK. Default: with `NAVIGATION_GTK_TESTS_WITH_LIBADWAITA=1`,
    /// libadwaita (`adw_init`, its style sheet and style manager), loaded with `dlopen` so that the
    /// toolkit's tests link nothing beyond the toolkit: `make test-toolkit` runs them once as a plain GTK
    /// app uses the toolkit and once as an app built on libadwaita does.
    @MainActor
    open func gtkDidInitialize() {
        guard ProcessInfo.processInfo.environment["NAVIGATION_GTK_TESTS_WITH_LIBADWAITA"] == "1" else { return }
        guard let library = dlopen("libadwaita-1.so.0", RTLD_NOW | RTLD_GLOBAL), let symbol = dlsym(library, "adw_init") else {
            FileHandle.standardError.write(Data("NAVIGATION_GTK_TESTS_WITH_LIBADWAITA=1 but libadwaita-1.so.0 cannot be loaded: failing the run\n".utf8))
            exit(1)
        }
        unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
    }

    /// Runs `body` on the main actor (tests are called on the main thread).
    public func onMain(_ body: @MainActor () throws -> Void) rethrows {
        try MainActor.assumeIsolated(body)
    }

    /// The flows the current test started (``track(_:)``; the apps ``makeApp`` made report theirs),
    /// held weakly: each must be freed once its windows are gone.
    private var trackedFlows: [() -> Bool] = []

    /// Flow objects the current test started that are still alive.
    public var flowsAlive: Int { trackedFlows.filter { $0() }.count }

    /// Follows `flow`'s lifetime: the test fails if it is still alive after the test's windows are gone.
    public func track(_ flow: AnyObject) { trackedFlows.append({ [weak flow] in flow != nil }) }

    /// Without a display no GTK test can run: setUp ends the whole test process with this message and
    /// exit status 1, so `make test` (and `swift test`) fails. A thrown error would not do: swift-corelibs-
    /// xctest counts an error thrown from setUp as a failure *and* a skip, and later tests then crash.
    public static let noDisplayMessage = "GTK could not open a display: run the GTK tests with `make test` (it starts Xvfb); failing the run\n"

    /// Warnings and criticals GLib logged (not expected with ``expectCritical(_:domain:file:line:_:)``):
    /// each fails the test it came in. `G_DEBUG=fatal-warnings` makes them fatal too, but the Swift
    /// runtime's backtracer catches GLib's breakpoint trap and can let the process go on.
    /// Read and written only while holding `problemLock` (GLib logs from any thread).
    nonisolated(unsafe) public static var loggedProblems: [String] = []
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
                if g_main_context_is_owner(g_main_context_default()) != 0, let where_ = ToolkitTestCase.describeWidget(namedIn: message) {
                    message += " [\(where_)]"
                    FileHandle.standardError.write(Data("GTK warned about: \(where_)\n".utf8))
                }
                ToolkitTestCase.problemLock.lock()
                ToolkitTestCase.loggedProblems.append("\(domain): \(message)")
                ToolkitTestCase.problemLock.unlock()
            }
            return g_log_writer_default(level, fields, count, nil)
        }, nil, nil)
    }()

    /// Where the widget a GTK warning names ("Trying to snapshot GtkBox 0x55… without a current allocation")
    /// sits: its type, CSS classes and accessible label, then each ancestor's up to its window, so a warning
    /// seen once under load says which widget it was. Main thread only (the warning is logged while GTK
    /// holds the widget, inside the frame that draws it); nil when the message names no widget.
    private static func describeWidget(namedIn message: String) -> String? {
        guard message.hasPrefix("Trying to snapshot") || message.hasPrefix("Allocating size to"),
              let token = message.split(separator: " ").first(where: { $0.hasPrefix("0x") }),
              let address = UInt(token.dropFirst(2), radix: 16),
              let pointer = UnsafeMutablePointer<GtkWidget>(bitPattern: address),
              g_type_check_instance_is_a(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self), gtk_widget_get_type()) != 0
        else { return nil }
        var parts: [String] = []
        var current: UnsafeMutablePointer<GtkWidget>? = pointer
        while let widget = current, parts.count < 40 {
            var part = String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
            if let classes = gtk_widget_get_css_classes(widget) {
                var index = 0
                while let name = classes[index] { part += "." + String(cString: name); index += 1 }
                g_strfreev(classes)
            }
            if gtk_widget_get_mapped(widget) == 0 { part += "(unmapped)" }
            if gtk_widget_get_child_visible(widget) == 0 { part += "(child-invisible)" }
            parts.append(part)
            current = gtk_widget_get_parent(widget)
        }
        return parts.joined(separator: " < ")
    }

    open override func setUpWithError() throws {
        try super.setUpWithError()
        _ = Self.installWriter
        Self.problemLock.lock()
        Self.loggedProblems = []
        Self.problemLock.unlock()
        trackedFlows = []
        let ready = MainActor.assumeIsolated {
            if g_get_application_name() == nil { Application.setDisplayName(Self.displayName) }
            // As g_application_run does in the app. Without a program name, GLib 2.74 writes a recent file
            // (GTK's file chooser adds one) with no command and logs a critical (g_markup_escape_text).
            if g_get_prgname() == nil { g_set_prgname(Self.programName) }
            guard initializeGtk() else { return false }
            self.gtkDidInitialize()
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

    open override func tearDown() {
        defer {
            for directory in temporaryDirectories { try? FileManager.default.removeItem(atPath: directory) }
            temporaryDirectories = []
        }
        MainActor.assumeIsolated {
            // Re-list each time: destroying a parent also destroys its dialogs (destroy-with-parent).
            while let window = Gtk.Window.all().first { gtk_window_destroy(window) }
            MainLoopBridge.drain()
            // Every flow a test started has ended and been freed once its windows are gone.
            if !MainLoopBridge.run(until: { self.flowsAlive == 0 }, timeout: .seconds(5)) {
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
    public func expectCritical(_ pattern: String, domain: String = "NavigationGtk", file: StaticString = #filePath, line: UInt = #line,
                        _ body: () throws -> Void) rethrows {
        g_test_expect_message(domain, G_LOG_LEVEL_CRITICAL, pattern)
        try body()
        g_test_assert_expected_messages_internal(domain, "\(file)", Int32(line), "expectCritical")
    }

    /// Spins the main loop until `condition` holds; fails the test after `timeout` seconds. The timeout is
    /// only a bound for failure, so it is generous: `make test` runs its lanes side by side on two cores,
    /// where the sample photos' thumbnails once took more than 10 s to come and a GTK long press's timeout
    /// was seen to run late.
    @MainActor
    public func spin(until condition: () -> Bool, timeout: Double = 60, _ message: String = "condition",
              file: StaticString = #filePath, line: UInt = #line) {
        if !MainLoopBridge.run(until: condition, timeout: .seconds(timeout)) {
            XCTFail("timed out waiting for \(message)", file: file, line: line)
        }
    }

    /// Spins the main loop for `seconds`. Only for what is about time itself (a timeout that must not
    /// have fired yet, a pace a user keeps, a gesture's speed); every call says why in a comment. To wait
    /// for something to happen, use ``spin(until:timeout:_:file:line:)``, ``waitForNextFrame(of:file:line:)``
    /// or ``settle(file:line:)``.
    @MainActor
    public func spin(for seconds: Double) {
        let end = g_get_monotonic_time() + gint64(seconds * 1_000_000)
        MainLoopBridge.run(until: { g_get_monotonic_time() >= end }, timeout: .seconds(seconds + 1))
    }

    /// Waits until the next frame of `widget`'s window has been painted (a redraw is asked for first, so
    /// there is one): what it laid out and drew before is on screen. Fails after 10 s.
    @MainActor
    public func waitForNextFrame(of widget: Widget, file: StaticString = #filePath, line: UInt = #line) {
        var painted = false
        widget.afterNextPaint { painted = true }
        widget.queueDraw()
        spin(until: { painted }, "the next frame", file: file, line: line)
    }

    /// Waits until everything the main loop has ready has run and every shown window has painted a frame
    /// after it; then runs what those frames queued: a layout, a redraw, a signal's handlers and the idle
    /// work they started have happened. What comes from other threads or processes is waited for on its
    /// own event. Fails after 10 s.
    @MainActor
    public func settle(file: StaticString = #filePath, line: UInt = #line) {
        MainLoopBridge.drain()
        final class Painted { var value = false }
        var windows: [(widget: Widget, painted: Painted)] = []  // filled below, then only read
        for window in Gtk.Window.all() {
            let widget = Widget.widget(wrapping: UnsafeMutableRawPointer(window))
            guard widget.isMapped else { continue }
            let painted = Painted()
            widget.afterNextPaint { painted.value = true }
            widget.queueDraw()
            windows.append((widget, painted))
        }
        // A window that goes off screen meanwhile (a dialog closing) paints no more frames: it is not waited for.
        spin(until: { windows.allSatisfy { $0.painted.value || !$0.widget.isMapped } }, "a frame of every shown window",
             file: file, line: line)
        MainLoopBridge.drain()
    }

    /// Presents `window` and waits until it is mapped and has keyboard focus.
    @MainActor
    public func show(_ window: Gtk.Window, file: StaticString = #filePath, line: UInt = #line) {
        window.present()
        spin(until: { window.isMapped && gtk_window_is_active(window.pointer()) != 0 }, "window active",
             file: file, line: line)
    }

    /// Whether a file chooser's own window is on screen (GTK's `GtkFileChooserDialog`: where the desktop
    /// portal has no file chooser, as under Xvfb, `GtkFileChooserNative` falls back to it once the portal
    /// has said so, a moment after `show`).
    @MainActor
    public var isFileChooserShown: Bool {
        Gtk.Window.all().contains { window in
            let widget = UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)
            return gtk_widget_get_mapped(widget) != 0 && String(cString: navgtk_type_name_of(widget)) == "GtkFileChooserDialog"
        }
    }

    /// Waits until `button` no longer shows a keyboard press (`activate` shows it pressed, GTK's active
    /// state, and emits `clicked` when that ends, about 250 ms later), then ``settle(file:line:)``:
    /// what its `clicked` started has happened.
    @MainActor
    public func waitForPressShown(_ button: Widget, file: StaticString = #filePath, line: UInt = #line) {
        spin(until: { gtk_widget_get_state_flags(button.widget).rawValue & GTK_STATE_FLAG_ACTIVE.rawValue == 0 },
             "the press shown", file: file, line: line)
        settle(file: file, line: line)
    }

    /// Presses and releases a key through the X server (XTEST), as a user would; `modifiers` are keysyms
    /// held during the press (e.g. `XK_Control_L`). Events go to the focused window.
    @MainActor
    public func pressKey(_ keysym: Int32, modifiers: [Int32] = [], file: StaticString = #filePath, line: UInt = #line) {
        guard let display = postcard_test_xdisplay() else {
            XCTFail("key presses need an X11 display (Xvfb)", file: file, line: line); return
        }
        for modifier in modifiers { XTestFakeKeyEvent(display, UInt32(XKeysymToKeycode(display, KeySym(modifier))), 1, 0) }
        let code = UInt32(XKeysymToKeycode(display, KeySym(keysym)))
        XTestFakeKeyEvent(display, code, 1, 0)
        XTestFakeKeyEvent(display, code, 0, 0)
        for modifier in modifiers.reversed() { XTestFakeKeyEvent(display, UInt32(XKeysymToKeycode(display, KeySym(modifier))), 0, 0) }
        // XSync returns once the server has handled the presses: the events they made for this process's
        // windows came on the same connection before its answer, so they are in GDK's queue; settle()
        // dispatches them and waits for the frame they asked for.
        XSync(display, 0)
        settle(file: file, line: line)
    }

    /// Presses and releases mouse `button` (8 is "back") over `window`'s centre, through XTEST.
    @MainActor
    public func pressMouseButton(_ button: UInt32, over window: Gtk.Window, file: StaticString = #filePath, line: UInt = #line) {
        guard let display = postcard_test_xdisplay() else {
            XCTFail("mouse presses need an X11 display (Xvfb)", file: file, line: line); return
        }
        postcard_test_click(display, UnsafeMutableRawPointer(window.gobject), Int32(window.width / 2), Int32(window.height / 2), button)
    }

    /// What a screen reader hears: "role|name" lines for this process's cells, images, list items,
    /// windows, dialogs and buttons, read over AT-SPI by a separate process (`Scripts/atspi_names.py`,
    /// python3-pyatspi) while the main loop answers it.
    @MainActor
    public func readAccessibilityTree(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let (process, outputPath) = try startAccessibilityReader(pid: getpid())
        // Keep the main loop running: the script's questions are answered from it.
        spin(until: { !process.isRunning }, timeout: 30, "AT-SPI reader", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "the AT-SPI reader", file: file, line: line)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// What a screen reader says of the control with the keyboard focus in this process, read over AT-SPI:
    /// `role|name|description` of each focused object (Orca 43 says the description after the name).
    /// The reader waits for this process to be on the accessibility bus (the registry's event).
    @MainActor
    public func readFocusedOverAtSpi(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try readOverAtSpi(["--focused"], file: file, line: line)
    }

    /// Reads the focused control over AT-SPI (as ``readFocusedOverAtSpi(file:line:)``) once it reads as
    /// `expected`, waiting on AT-SPI's focus and description events (at most 10 s: then the last read).
    /// For a message announced on a control just focused, which becomes its description a moment later
    /// (`Window.announce`).
    @MainActor
    public func readFocusedOverAtSpi(becoming expected: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try readOverAtSpi(["--focused-becoming"] + expected, file: file, line: line)
    }

    /// Runs the AT-SPI reader on this process with `arguments` while the main loop answers it; its lines.
    @MainActor
    private func readOverAtSpi(_ arguments: [String], file: StaticString, line: UInt) throws -> [String] {
        let (process, outputPath) = try startAccessibilityReader(pid: getpid(), arguments: arguments)
        spin(until: { !process.isRunning }, timeout: 30, "AT-SPI reader", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "the AT-SPI reader", file: file, line: line)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The description a screen reader reads for the visible object with `role` and `name` in this process
    /// (Orca 43 says it after the name), read over AT-SPI.
    @MainActor
    public func readDescriptionOverAtSpi(role: String, name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let (process, outputPath) = try startAccessibilityReader(pid: getpid(), arguments: ["--describe", role, name])
        spin(until: { !process.isRunning }, timeout: 30, "AT-SPI reader", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "the AT-SPI reader finds the \(role) \(name)", file: file, line: line)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// Starts `Scripts/atspi_names.py` reading process `pid` (with `arguments` after the pid); returns it
    /// and the file it writes to.
    public func startAccessibilityReader(pid: Int32, arguments: [String] = []) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.accessibilityReaderScript, String(pid)] + arguments
        // The reader is the harness, not what is tested: a GLib critical in it (a misuse of AT-SPI's API)
        // still stops it, but not libatspi's warning about the bus it reads ("Error in GetItems … Object does
        // not exist at path /org/a11y/atspi/cache": the registry's cache not exported yet, beside busy
        // lanes), which made it exit with SIGTRAP under the tests' G_DEBUG=fatal-warnings.
        var environment = ProcessInfo.processInfo.environment
        environment["G_DEBUG"] = "fatal-criticals"
        process.environment = environment
        let outputPath = makeTemporaryDirectory() + "/atspi.txt"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        try process.run()
        return (process, outputPath)
    }

    /// A fresh, empty folder under the system temp dir.
    /// Removed when the test ends (tests hard-link fixtures by the thousand; a file can have at most
    /// 65,000 links, so folders left behind would break later runs).
    public func makeTemporaryDirectory() -> String {
        let template = strdup("/tmp/postcard-test-XXXXXX")!
        defer { free(template) }
        let path = String(cString: mkdtemp(template))
        temporaryDirectories.append(path)
        return path
    }

    /// The AT-SPI reader (`Scripts/atspi_names.py` beside this file; python3-pyatspi): `python3 SCRIPT PID
    /// [--focused | --describe ROLE NAME]` prints what a screen reader finds in process PID.
    public static let accessibilityReaderScript = ((#filePath as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent("Scripts/atspi_names.py")

    /// The repository's folder (two above this file's).
    public static let repositoryRoot = (((#filePath as NSString).deletingLastPathComponent as NSString)
        .deletingLastPathComponent as NSString).deletingLastPathComponent

    /// The bundled sample photos (the repository's Resources/photos).
    public var bundledPhotos: String { Self.repositoryRoot + "/Resources/photos" }
}


extension ToolkitTestCase {
    /// The first button under `root` whose label is `label` (as a screen reader would find it), or nil.
    @MainActor
    public func findButton(labeled label: String, in root: Gtk.Widget) -> Gtk.Widget? {
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
public final class LifeCounter {
    public var pagesAlive = 0
    public var viewsFinalized = 0
    public var flowsAlive = 0
    public init() {}
}

/// A page that reports its lifetime to a counter, and whose widgets report finalization.
@MainActor
open class CountedPage: Page {
    public let counter: LifeCounter
    public let button: Button?

    public init(_ title: String, counter: LifeCounter, focusable: Bool = true) {
        self.counter = counter
        button = focusable ? Button(label: "\(title) Action") : nil
        super.init(title: title)
        if let button { content.append(button) } else { content.append(Label("Nothing to focus here")) }
        counter.pagesAlive += 1
        view.whenFinalized { [counter] in counter.viewsFinalized += 1 }
    }

    isolated deinit { counter.pagesAlive -= 1 }
}

extension ToolkitTestCase {
    /// The colour at (`x`, `y`) of `widget` as GTK renders it now.
    @MainActor
    public func pixel(of widget: Widget, x: Int, y: Int) throws -> (red: UInt8, green: UInt8, blue: UInt8) {
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


/// SplitMix64: a small, seedable random number generator, so a random test's failure names a seed that
/// replays it (the stress tests, the bar soak).
public struct SplitMix64: RandomNumberGenerator {
    /// The generator's state; the seed at first.
    public var state: UInt64
    /// A generator starting from `state` (the seed).
    public init(state: UInt64) { self.state = state }
    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in `0..<bound` (0 when `bound` is below 1).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
