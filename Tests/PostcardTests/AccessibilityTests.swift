import CGtk
import Foundation
import Gtk
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import XCTest

/// What a screen reader (Orca) hears, read over AT-SPI from a separate process, not from GTK properties.
final class AccessibilityTests: GtkTestCase, @unchecked Sendable {
    func testEveryButtonReadsItsNameOnce() throws {
        try onMain {
            StyleSheet.load(path: bundledPhotos + "/../style.css")
            let store = try PostStore(directory: makeTemporaryDirectory())
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: bundledPhotos),
                                    cameraSources: [.test])
            app.myProfile.content.append(Button(label: "_Save Draft"))  // a mnemonic: reads without its mark
            show(app.mainWindow.window)
            app.myProfile.postButton.activate()
            spin(until: { (CommentedPhotoFlow.current?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "the photo flow")
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
            XCTAssertTrue(lines.contains("label|Sam Rivera"), "the avatar reads the name")
            XCTAssertFalse(lines.contains("label|SR"), "not the initials")

            // The discard question is an alert dialog (GTK 4.8 exposes GTK_ACCESSIBLE_ROLE_ALERT_DIALOG as a
            // `dialog`), not a frame.
            let picker = CommentedPhotoFlow.current!.stack.visiblePage as! PhotoPickerPage
            picker.grid.activateItem(at: 0)
            spin(until: { CommentedPhotoFlow.current?.stack.visiblePage is CommentPage }, "Add a Comment")
            (CommentedPhotoFlow.current!.stack.visiblePage as! CommentPage).commentView.text = "Draft"
            CommentedPhotoFlow.current!.cancelButton.activate()
            spin(until: { !ConfirmationDialog.open.isEmpty }, "the discard question")
            let question = try readAccessibilityTree()
            XCTAssertTrue(question.contains("dialog|Discard this post?") || question.contains("alert|Discard this post?"),
                          "announced as a dialog: \(question.filter { $0.hasPrefix("alert") || $0.hasPrefix("frame") || $0.hasPrefix("dialog") })")
            ConfirmationDialog.open[0].keepButton.activate()
        }
    }
}

/// The dark style follows the desktop's preference (org.gnome.desktop.interface color-scheme), watched.
final class DesktopStyleTests: GtkTestCase, @unchecked Sendable {
    func testTheDarkStyleFollowsTheDesktopsPreference() {
        onMain {
            let settings = postcard_settings_in_memory(DesktopStyle.schemaID)!
            let style = DesktopStyle(settings: UnsafeMutableRawPointer(settings))
            let page = Page(title: "Style")
            let label = Label("Text")
            page.content.append(label)
            let window = NavigationWindow(root: page)
            show(window.window)
            @MainActor func textBrightness() -> Float {
                var color = GdkRGBA()
                gtk_style_context_get_color(gtk_widget_get_style_context(label.widget), &color)
                return (color.red + color.green + color.blue) / 3
            }
            XCTAssertFalse(style.prefersDark)
            XCTAssertLessThan(textBrightness(), 0.5, "light style: dark text")
            g_settings_set_string(settings, "color-scheme", "prefer-dark")
            spin(until: { style.prefersDark && textBrightness() > 0.5 }, "the desktop prefers dark: light text on dark")
            g_settings_set_string(settings, "color-scheme", "default")
            spin(until: { !style.prefersDark && textBrightness() < 0.5 }, "back to light")
        }
    }
}
