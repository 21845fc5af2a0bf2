import Adwaita
import CGtk
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Postcard in another language and direction: the German translation on screen (read over AT-SPI from
/// the real program run in `de_DE.UTF-8`), and nothing cut off or unmirrored when German runs right to
/// left at the windows' default sizes. (At 360 pixels the bars' titles are meant to shorten with "…",
/// in any language: the HIG's narrow-window behaviour.)
final class LocalizationTests: GtkTestCase, @unchecked Sendable {
    /// The German of `english`, from po/de.po (one-line entries), or nil.
    private func german(_ english: String) throws -> String? {
        let root = ((bundledPhotos as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let lines = try String(contentsOfFile: root + "/po/de.po", encoding: .utf8).components(separatedBy: "\n")
        guard let index = lines.firstIndex(of: "msgid \"\(english)\""), index + 1 < lines.count,
              lines[index + 1].hasPrefix("msgstr \"") else { return nil }
        return String(lines[index + 1].dropFirst("msgstr \"".count).dropLast())
    }

    func testThePostcardProgramSpeaksGermanInAGermanLocale() throws {
        let home = makeTemporaryDirectory()
        let environment: [String: String?] = ["LANG": "de_DE.UTF-8", "LC_ALL": nil, "LC_MESSAGES": nil, "LANGUAGE": nil,
                                              "XDG_DATA_HOME": home, "G_MESSAGES_DEBUG": "Postcard"]
        let help = try runPostcard(["--help"], environment: environment)
        let versionHelp = try XCTUnwrap(german("Show the version and quit"))
        XCTAssertTrue(help.output.contains(versionHelp), "--help in German:\n\(help.output)")

        let app = try startPostcard([], environment: environment, log: home + "/log")
        defer { if app.isRunning { app.terminate() } }
        try waitFor("Postcard in German", timeout: 30) {
            ((try? String(contentsOfFile: home + "/log", encoding: .utf8)) ?? "").contains("Started: ")
        }
        var heard: [String] = []
        try waitFor("My Profile's feed", timeout: 20) {
            heard = (try? readAccessibilityTree(ofProcess: app.processIdentifier)) ?? []
            return heard.contains { $0.hasPrefix("push button|") }
        }
        for (role, english) in [("push button", "New Post"), ("push button", "Quick Snap"), ("push button", "Messages"),
                                ("push button", "Main Menu"), ("label", "My Posts"), ("label", "Friends")] {
            let translated = try XCTUnwrap(german(english), "po/de.po translates “\(english)”")
            XCTAssertNotEqual(translated, english)
            XCTAssertTrue(heard.contains("\(role)|\(translated)"), "“\(translated)” on screen: \(heard)")
            XCTAssertFalse(heard.contains("\(role)|\(english)"), "no English “\(english)” left")
        }
    }

    func testGermanRightToLeftIsMirroredAndNothingIsCutOff() throws {
        try onMain {
            guard setlocale(LC_MESSAGES, "de_DE.UTF-8") != nil else {
                XCTFail("the de_DE.UTF-8 locale is missing: make deps generates it"); return
            }
            setenv("LANGUAGE", "de", 1)
            ResourceLocator.localeDirectory.withCString { _ = bindtextdomain("postcard", $0) }
            textdomain("postcard")  // as Localization.bind(domain:directory:) does at start-up
            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            defer {
                setlocale(LC_MESSAGES, "C")
                unsetenv("LANGUAGE")
                gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR)
            }
            XCTAssertEqual(localized("New Post"), try german("New Post"), "German is in use")
            // The toolkit's strings come from its own catalogue, compiled into the library.
            XCTAssertEqual(toolkitLocalized("Back"), "Zurück")
            let guide = HelpCoordinator.guidePage(in: FilePath(bundledPhotos + "/../guide"))
            XCTAssertTrue(guide.text.hasSuffix("/guide/de/index.html"), "the guide in German: \(guide)")
            XCTAssertTrue((Files.readText(guide) ?? "").contains("<html lang=\"de\">"))
            XCTAssertTrue(Localization.isRightToLeft)

            StyleSheet.load(path: bundledPhotos + "/../style.css")
            let store = try PostStore(directory: makeTemporaryDirectory())
            try store.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Kaffee", author: Identity.localID, profile: Identity.localID)
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: bundledPhotos), cameraSources: [.test])
            let window = app.mainWindow.window
            show(window)
            settle()
            assertNothingCutOff(in: window, "My Profile")

            let post = try XCTUnwrap(app.myProfile.posts.first)
            let detail = try XCTUnwrap(app.showPost(post))
            spin(until: { app.mainWindow.stack.transition == .idle && detail.view.isMapped }, "the post")
            settle()
            assertNothingCutOff(in: window, "Post")
            let back = app.mainWindow.stack.backButton
            XCTAssertTrue(back.isVisible)
            XCTAssertGreaterThan(bounds(of: back, in: window).midX, Double(window.width) / 2,
                                 "right to left: Back is at the right of the bar")

            app.showMessages()
            spin(until: { app.mainWindow.stack.transition == .idle }, "Messages")
            settle()
            assertNothingCutOff(in: window, "Messages")
            app.mainWindow.stack.pop(to: app.myProfile)
            spin(until: { app.mainWindow.stack.transition == .idle }, "back on My Profile")

            app.myProfile.postButton.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "Choose a Photo")
            let dialog = try XCTUnwrap(app.flowDialog)
            settle()
            assertNothingCutOff(in: dialog.window, "Choose a Photo")
            (dialog.stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
            spin(until: { dialog.stack.visiblePage is CommentPage && dialog.stack.transition == .idle }, "Add a Comment")
            settle()
            assertNothingCutOff(in: dialog.window, "Add a Comment")
            (dialog.stack.visiblePage as! CommentPage).commentView.text = "Entwurf"
            dialog.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "the discard question")
            settle()
            assertNothingCutOff(in: MessageDialog.shown()[0].window, "Discard this post?")
            MessageDialog.shown()[0].confirmButton.activate()
            spin(until: { dialog.isDismissed }, "discarded")
        }
    }

    /// Fails for every label shown in `window` whose text is shortened with "…" or that sticks out of
    /// the window sideways (text that does not fit, the usual result of a longer translation).
    @MainActor
    private func assertNothingCutOff(in window: Gtk.Window, _ screen: String, file: StaticString = #filePath, line: UInt = #line) {
        var checked = 0
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            guard gtk_widget_get_mapped(widget) != 0 else { return }
            if String(cString: navgtk_type_name_of(widget)) == "GtkLabel" {
                let label = OpaquePointer(widget)
                let text = String(cString: gtk_label_get_text(label))
                if !text.isEmpty {
                    checked += 1
                    let ellipsized = pango_layout_is_ellipsized(gtk_label_get_layout(label))
                    XCTAssertEqual(ellipsized, 0,
                                   "\(screen): “\(text)” is cut short", file: file, line: line)
                    var rect = graphene_rect_t()
                    if gtk_widget_compute_bounds(widget, window.widget, &rect) != 0 {
                        XCTAssertGreaterThanOrEqual(Double(rect.origin.x), -0.5, "\(screen): “\(text)” sticks out on the left", file: file, line: line)
                        XCTAssertLessThanOrEqual(Double(rect.origin.x + rect.size.width), Double(window.width) + 0.5,
                                                 "\(screen): “\(text)” sticks out on the right", file: file, line: line)
                    }
                }
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        visit(window.widget)
        XCTAssertGreaterThan(checked, 0, "\(screen): no text found", file: file, line: line)
    }

    @MainActor
    private func bounds(of widget: Gtk.Widget, in window: Gtk.Window) -> (midX: Double, width: Double) {
        var rect = graphene_rect_t()
        _ = gtk_widget_compute_bounds(widget.widget, window.widget, &rect)
        return (Double(rect.origin.x + rect.size.width / 2), Double(rect.size.width))
    }
}

/// The placeholders every translated text goes through (`localized`), as translators write them.
final class PlaceholderTests: XCTestCase {
    func testPlaceholdersAreReplacedInOrderOrByPositionAndPercentSignsSurvive() {
        XCTAssertEqual(Localization.substitute("Choose a Photo", []), "Choose a Photo")
        XCTAssertEqual(Localization.substitute("Choose a Photo", ["unused"]), "Choose a Photo")
        XCTAssertEqual(Localization.substitute("100% sure", []), "100% sure", "a lone % without arguments stays")
        XCTAssertEqual(Localization.substitute("50%% done", []), "50% done")
        XCTAssertEqual(Localization.substitute("Couldn't post: %s", ["disk full"]), "Couldn't post: disk full")
        XCTAssertEqual(Localization.substitute("%d of %d, %d%%", ["1", "3", "33"]), "1 of 3, 33%")
        XCTAssertEqual(Localization.substitute("%2$s an %1$s", ["Ada", "Foto"]), "Foto an Ada", "by position, as translations reorder")
        XCTAssertEqual(Localization.substitute("%s and %s", ["one"]), "one and %s", "a placeholder without an argument stays")
    }
}
