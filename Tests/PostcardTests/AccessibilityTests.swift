import Adwaita
import CGtk
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
@testable import PostcardReview
import PostcardModel
import PostcardResources
@testable import PostcardStore
import Synchronization
import XCTest

/// What a screen reader (Orca) hears, read over AT-SPI from a separate process, not from GTK properties.
final class AccessibilityTests: GtkTestCase, @unchecked Sendable {
    func testEveryButtonReadsItsNameOnce() throws {
        try onMain {
            StyleSheet.load(path: bundledPhotos + "/../style.css")
            let store = try PostStore(directory: makeTemporaryDirectory())
            try store.setIdentityNow(.sample)
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: bundledPhotos),
                                    cameraSources: [.test])
            app.myProfile.content.append(Button(label: "_Save Draft"))  // a mnemonic: reads without its mark
            show(app.mainWindow.window)
            app.myProfile.postButton.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "the photo flow")
            let lines = try readAccessibilityTree()
            let buttons = lines.filter { $0.hasPrefix("push button|") || $0.hasPrefix("toggle button|") }
                .map { String($0.split(separator: "|", maxSplits: 1)[1]) }
            for name in ["New Post", "Quick Snap", "Messages", "Ada Lovelace", "Grace Hopper", "Alan Turing",
                         "Cancel", "Open File…", "Take Photo", "Help", "Save Draft"] {
                XCTAssertTrue(buttons.contains(name), "a button reads “\(name)”: \(buttons)")
            }
            for name in buttons where !name.isEmpty {
                let words = name.split(separator: " ")
                let half = words.count / 2
                XCTAssertFalse(words.count >= 2 && words.count % 2 == 0 && Array(words[..<half]) == Array(words[half...]),
                               "“\(name)” is read twice")
                XCTAssertFalse(name.contains("_"), "“\(name)” reads its mnemonic mark")
            }
            XCTAssertTrue(lines.contains("frame|Postcard"), "the main window: \(lines.filter { $0.hasPrefix("frame") })")
            XCTAssertTrue(lines.contains("dialog|Choose a Photo"), "the flow is announced as a dialog: \(lines.filter { $0.hasPrefix("dialog") || $0.hasPrefix("frame") })")
            XCTAssertTrue(lines.contains("image|Sam Rivera"), "the avatar is an image that reads the name: \(lines.filter { $0.hasPrefix("image") })")
            XCTAssertFalse(lines.contains("label|SR"), "not the initials")

            // The discard question is an alert dialog (GTK 4.8 exposes GTK_ACCESSIBLE_ROLE_ALERT_DIALOG as a
            // `dialog`), not a frame.
            let picker = app.flowDialog!.stack.visiblePage as! PhotoPickerPage
            picker.grid.activateItem(at: 0)
            spin(until: { app.flowDialog?.stack.visiblePage is CommentPage }, "Add a Comment")
            (app.flowDialog!.stack.visiblePage as! CommentPage).commentView.text = "Draft"
            app.flowDialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "the discard question")
            let question = try readAccessibilityTree()
            XCTAssertTrue(question.contains("dialog|Discard this post?") || question.contains("alert|Discard this post?"),
                          "announced as a dialog: \(question.filter { $0.hasPrefix("alert") || $0.hasPrefix("frame") || $0.hasPrefix("dialog") })")
            MessageDialog.shown()[0].keepButton.activate()
        }
    }
}

/// The app's style follows the desktop's preference through libadwaita's style manager: dark, light and
/// high contrast, changed while the app runs. The tests run on GSettings' memory backend
/// (`GSETTINGS_BACKEND=memory`, set by `make test`) without the Settings portal (`ADW_DISABLE_PORTAL=1`),
/// so libadwaita reads the same keys the portal reads on GNOME: `org.gnome.desktop.interface color-scheme`
/// and `org.gnome.desktop.a11y.interface high-contrast`.
final class StyleManagerTests: GtkTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["GSETTINGS_BACKEND"] == "memory" else {
            throw XCTSkip("changes the desktop's settings: run with GSETTINGS_BACKEND=memory (make test sets it)")
        }
    }

    func testTheStyleFollowsTheDesktopsChangedPreference() {
        onMain {
            let interface = g_settings_new("org.gnome.desktop.interface")!
            let accessibility = g_settings_new("org.gnome.desktop.a11y.interface")!
            defer {
                g_settings_reset(interface, "color-scheme")
                g_settings_reset(accessibility, "high-contrast")
                g_object_unref(UnsafeMutableRawPointer(interface))
                g_object_unref(UnsafeMutableRawPointer(accessibility))
                spin(until: { !StyleManager.default.isDark && !StyleManager.default.isHighContrast }, "light again")
            }
            let style = StyleManager.default
            XCTAssertEqual(style.colorScheme, .followDesktop, "the app follows the desktop unless told otherwise")
            XCTAssertTrue(style.systemSupportsColorSchemes, "libadwaita found the desktop's preference")
            let page = Page(title: "Style")
            let name = Label("Text")
            page.content.append(name)
            let window = NavigationWindow(root: page)
            show(window.window)
            @MainActor func textBrightness() -> Float {
                var color = GdkRGBA()
                gtk_style_context_get_color(gtk_widget_get_style_context(name.widget), &color)
                return (color.red + color.green + color.blue) / 3
            }
            XCTAssertFalse(style.isDark)
            XCTAssertLessThan(textBrightness(), 0.5, "light style: dark text")
            var changes = 0
            let token = style.observeChanges { changes += 1 }
            g_settings_set_string(interface, "color-scheme", "prefer-dark")
            spin(until: { style.isDark && textBrightness() > 0.5 }, "the desktop prefers dark: light text on dark")
            XCTAssertTrue(StyleSheet.isDarkVariantApplied, "the toolkit's dark sheet follows libadwaita's dark style")
            XCTAssertGreaterThan(changes, 0, "observers heard the change")
            g_settings_set_boolean(accessibility, "high-contrast", 1)
            spin(until: { style.isHighContrast }, "the desktop asks for high contrast")
            g_settings_set_string(interface, "color-scheme", "default")
            spin(until: { !style.isDark && textBrightness() < 0.5 }, "back to light, still high contrast")
            XCTAssertTrue(style.isHighContrast)
            token.cancel()
        }
    }

    /// Error text (a failed post) reads at WCAG AA's 4.5:1 against its window, light and dark.
    func testErrorTextIsReadableInBothStyles() throws {
        try onMain {
            defer { StyleManager.default.colorScheme = .followDesktop }
            let error = Label("Couldn't post: database or disk is full")
            error.addCSSClass("error")
            let window = Gtk.Window()
            window.setDefaultSize(width: 420, height: 120)
            window.setChild(error)
            show(window)
            for dark in [false, true] {
                StyleManager.default.colorScheme = dark ? .forceDark : .forceLight
                spin(until: { StyleManager.default.isDark == dark }, "the style applied")
                settle()
                var color = GdkRGBA()
                gtk_style_context_get_color(gtk_widget_get_style_context(error.widget), &color)
                let back = try pixel(of: window, x: 8, y: 8)  // the window's background, above the (centred) label
                func luminance(_ r: Double, _ g: Double, _ b: Double) -> Double {
                    func linear(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
                    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
                }
                let text = luminance(Double(color.red), Double(color.green), Double(color.blue))
                let background = luminance(Double(back.red) / 255, Double(back.green) / 255, Double(back.blue) / 255)
                let contrast = (max(text, background) + 0.05) / (min(text, background) + 0.05)
                XCTAssertGreaterThanOrEqual(contrast, 4.5, "\(dark ? "dark" : "light"): error text contrast \(contrast):1")
            }
        }
    }
}

/// Every screen of the review tour as a screen reader hears it: the role and name of every control
/// (buttons, toggles, text fields, combo boxes, links, menu items), window, dialog and image, read over
/// AT-SPI at each screenshot and compared with `Fixtures/accessibility-tour.txt`.
///
/// After a deliberate change, the test writes what it heard to `.build/accessibility-tour.actual.txt`;
/// review the difference and copy it over the fixture.
final class AccessibilityTourTests: GtkTestCase, @unchecked Sendable {
    static let roles: Set<String> = ["push button", "toggle button", "text", "combo box", "link", "menu item", "check box",
                                     "radio button", "dialog", "alert", "frame", "window", "image"]

    func testEveryScreenOfTheReviewTourReadsAsExpected() throws {
        try onMain {
            StyleSheet.load(path: bundledPhotos + "/../style.css")
            let store = try PostStore(directory: makeTemporaryDirectory())
            try store.setIdentityNow(.sample)
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: bundledPhotos), cameraSources: [.test])
            app.present()
            var heard: [String] = []
            var succeeded: Bool?
            // No pictures: what is read over AT-SPI needs none, nor their waits (a scroll indicator's fade).
            ReviewTour.run(app: app, into: FilePath(makeTemporaryDirectory()), variants: [], onScreen: { screen in
                let lines = await self.readAccessibilityTreeWhileRunning()
                heard.append("## \(screen)")
                heard += lines.filter { line in Self.roles.contains(String(line.prefix { $0 != "|" })) }.map(Self.masked)
            }, finish: { succeeded = $0 })
            spin(until: { succeeded != nil }, timeout: 400, "the review tour")
            XCTAssertEqual(succeeded, true, "the tour ran to the end")

            for line in heard where !line.hasPrefix("## ") && !line.hasPrefix("frame|") {
                XCTAssertFalse(line.hasSuffix("|"), "a control without a name: \(line)")
                XCTAssertFalse(line.contains("|Gtk") || line.contains("|Adw"), "a control read by its type name: \(line)")
            }
            let root = ((bundledPhotos as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            let fixture = (try? String(contentsOfFile: root + "/Tests/PostcardTests/Fixtures/accessibility-tour.txt", encoding: .utf8)) ?? ""
            let actual = heard.joined(separator: "\n") + "\n"
            if actual != fixture {
                try? actual.write(toFile: root + "/.build/accessibility-tour.actual.txt", atomically: true, encoding: .utf8)
                let expected = fixture.components(separatedBy: "\n")
                let got = actual.components(separatedBy: "\n")
                let first = Array(zip(expected, got)).firstIndex { $0 != $1 } ?? min(expected.count, got.count)
                XCTFail("""
                    what a screen reader hears changed at line \(first + 1) (expected “\(first < expected.count ? expected[first] : "end")”, \
                    heard “\(first < got.count ? got[first] : "end")”); all of it is in .build/accessibility-tour.actual.txt
                    """)
            }
        }
    }

    /// Digits masked: times and dates in names (post times, camera shots) change from run to run.
    static func masked(_ line: String) -> String {
        var result = ""
        for character in line {
            if character.isNumber {
                if !result.hasSuffix("#") { result.append("#") }
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// ``readAccessibilityTree(file:line:)`` from async code: the reader runs while the main loop goes on.
    @MainActor
    func readAccessibilityTreeWhileRunning() async -> [String] {
        guard let (process, outputPath) = try? startAccessibilityReader(pid: getpid()) else {
            return ["error|can't start the AT-SPI reader"]
        }
        // Until the reader has exited (its termination handler runs on another thread; the main actor
        // resumes here). The script bounds its own waits, so it always exits.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Mutex(false)
            let resume: @Sendable () -> Void = {
                if resumed.withLock({ done in defer { done = true }; return !done }) { continuation.resume() }
            }
            process.terminationHandler = { _ in resume() }
            if !process.isRunning { resume() }  // it ended before the handler was set
        }
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
