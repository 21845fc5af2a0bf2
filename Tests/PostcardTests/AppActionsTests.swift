import CAdwaita
import CGtk
import CXTest
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
import PostcardResources
@testable import PostcardStore
import XCTest

/// Application actions and their shortcuts, through a registered GtkApplication and real key presses.
final class AppActionsTests: GtkTestCase, @unchecked Sendable {
    /// The app as `postcard` runs it, with a registered GtkApplication `id` (its actions and their
    /// accelerators), on an empty store, its main window shown with the keyboard focus.
    @MainActor
    private func makeRegisteredApp(id: String) throws -> (Application, AppController) {
        StyleSheet.load(path: bundledPhotos + "/../style.css")
        let application = Application(id: id, unique: false)
        try application.register()
        let store = try PostStore(directory: makeTemporaryDirectory())
        let app = AppController(application: application, store: store, library: PhotoLibrary(directory: bundledPhotos))
        show(app.mainWindow.window)
        return (application, app)
    }

    func testShortcutsMenuAndAbout() throws {
        try onMain {
            let (application, app) = try makeRegisteredApp(id: "io.github.postcard.Tests")
            for (action, keys) in [("new-post", "<Control>n"), ("shortcuts", "<Control>question"),
                                   ("close-window", "<Control>w"), ("quit", "<Control>q")] {
                XCTAssertEqual(application.accelerators(for: action), [keys], action)
            }
            XCTAssertEqual(application.accelerators(for: "help"), [], "F1 is the windows' own (one binding each), not the app's in every window")

            pressKey(XK_n, modifiers: [XK_Control_L])
            spin(until: { app.flowDialog?.window.isMapped == true }, "Ctrl+N starts New Post")
            let dialog = app.flowDialog!
            spin(until: { gtk_window_is_active(dialog.window.pointer()) != 0 }, "the dialog has focus")
            pressKey(XK_w, modifiers: [XK_Control_L])
            spin(until: { dialog.isDismissed }, "Ctrl+W closes the dialog (nothing typed: it leaves at once)")

            XCTAssertEqual(app.primaryMenu.itemLabels, ["Keyboard Shortcuts", "Help", "Scan a Code", "My Code", "Copy Link to My Profile", "About Postcard"])
            show(app.mainWindow.window)  // focus back on the main window
            pressKey(XK_F10)
            spin(until: { app.primaryMenu.isMenuOpen }, "F10 opens the primary menu (GNOME HIG)")
            pressKey(XK_Escape)
            spin(until: { !app.primaryMenu.isMenuOpen }, "Escape closes it")
            pressKey(XK_question, modifiers: [XK_Control_L, XK_Shift_L])
            spin(until: { app.shortcutsWindow?.isMapped == true }, "Ctrl+? shows Keyboard Shortcuts")
            XCTAssertEqual(app.shortcutsWindow?.typeName, "GtkShortcutsWindow")
            app.shortcutsWindow?.destroy()

            app.primaryMenu.activateItem("About Postcard")
            spin(until: { app.aboutWindow?.isMapped == true }, "About")
            XCTAssertEqual(app.aboutWindow?.typeName, "AdwAboutWindow", "libadwaita's About window")
            let about = OpaquePointer(app.aboutWindow!.gobject)
            XCTAssertEqual(String(cString: adw_about_window_get_application_name(about)), "Postcard")
            XCTAssertEqual(String(cString: adw_about_window_get_version(about)), AppController.version)
            let lines = try readAccessibilityTree()
            // Every part a screen reader reaches has a name, none a type name (GTK 4.8 reads libadwaita's
            // version button and the text views of the Troubleshooting and What's New pages as "GtkButton"
            // and "GtkTextView" unless the window is repaired).
            let heardInAbout = Array(lines.drop(while: { !$0.hasPrefix("dialog|") }))
            XCTAssertFalse(heardInAbout.isEmpty, "About is read: \(lines)")
            XCTAssertEqual(heardInAbout.filter { $0.contains("|Gtk") || $0.contains("|Adw") || $0.hasSuffix("|") }, [],
                           "nothing in About is read by its type name, or without a name")
            XCTAssertTrue(heardInAbout.contains("push button|\(AppController.version)"), "the version button reads the version")
            XCTAssertTrue(heardInAbout.contains("text|Debugging Information"), "the debugging text is named by its page's title")
            XCTAssertTrue(lines.contains("dialog|About Postcard") || lines.contains { $0.hasPrefix("dialog|") },
                          "About is announced as a dialog: \(lines.filter { $0.hasPrefix("dialog") || $0.hasPrefix("frame") })")
            app.aboutWindow?.destroy()
        }
    }

    /// About, Keyboard Shortcuts and New Post asked for at once (the application's actions, as the desktop or
    /// D-Bus activates them) while My Code is presented: none is dropped without a word. They wait, the
    /// toast says so, and each is presented in turn as the one before is closed.
    func testActionsAskedForWhileADialogIsOpenWaitAndOpenInTurn() throws {
        try onMain {
            let (application, app) = try makeRegisteredApp(id: "io.github.postcard.WaitingTests")
            XCTAssertNotNil(app.presentMyCode())
            XCTAssertEqual(app.presented, .myCode)
            for action in ["about", "shortcuts", "new-post", "about"] {
                application.activateAction(action)
            }
            XCTAssertEqual(app.presented, .myCode, "one at a time")
            XCTAssertEqual(app.waitingPresentations, [.about, .keyboardShortcuts, .flow(.newPost)], "each once, in the order asked")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Waiting: what you asked for opens when you close what is open now"])
            app.dismissPresented()
            spin(until: { app.aboutWindow?.isMapped == true }, "About, once My Code has gone")
            XCTAssertEqual(app.presented, .about)
            app.aboutWindow?.close()
            spin(until: { app.shortcutsWindow?.isMapped == true }, "then Keyboard Shortcuts")
            app.shortcutsWindow?.close()
            spin(until: { app.flowDialog?.window.isMapped == true }, "then New Post")
            XCTAssertEqual(app.waitingPresentations, [])
            spin(until: { app.toasts.toasts.isEmpty }, "the waiting toast gone")
            app.flowDialog?.cancelButton.activate()
            spin(until: { app.flowDialog == nil }, "the flow ended")
        }
    }

    /// F1 in a flow's window shows the flow's help over it (its page's section of the guide), as its
    /// Help button does; it does not push the guide on the main window behind the flow, as an
    /// application accelerator for F1 did (GTK handles those in every window of the app before any widget).
    func testF1InAFlowShowsTheFlowsHelpOverIt() throws {
        try onMain {
            let (_, app) = try makeRegisteredApp(id: "io.github.postcard.HelpKeyTests")
            pressKey(XK_n, modifiers: [XK_Control_L])
            spin(until: { app.flowDialog.map { gtk_window_is_active($0.window.pointer()) != 0 } == true }, "New Post again, with focus")
            pressKey(XK_F1)
            spin(until: { app.presentedWebPage?.window.isMapped == true }, "F1 in the flow: its help over it")
            XCTAssertEqual(app.mainWindow.stack.pages.count, 1, "nothing pushed on the main window behind the flow")
            try XCTUnwrap(app.presentedWebPage).closeButton.activate()
            spin(until: { app.presentedWebPage == nil }, "the help closed")
            app.flowDialog?.cancelButton.activate()
            spin(until: { app.flowDialog == nil }, "the flow ended")
        }
    }

    func testAPhotoGivenToTheAppOpensNewPostOnAddAComment() throws {
        try onMain {
            // GApplication's open signal (the command line, or a file manager's Open With) gives the URIs.
            let application = Application(id: "io.github.postcard.OpenTests", unique: false)
            try application.register()
            var opened: [String] = []
            application.onOpen { opened = $0 }
            let coffee = bundledPhotos + "/coffee.png"
            let file = g_file_new_for_path(coffee)
            var files: [OpaquePointer?] = [file]
            g_application_open(application.pointer(as: GApplication.self), &files, 1, "")
            g_object_unref(UnsafeMutableRawPointer(file))
            XCTAssertEqual(opened, [coffee.uri])

            let store = try PostStore(directory: makeTemporaryDirectory())
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: bundledPhotos))
            show(app.mainWindow.window)
            app.startNewPost(with: opened[0])
            spin(until: { app.flowDialog?.stack.visiblePage is CommentPage }, "Add a Comment with the photo")
            let dialog = app.flowDialog!
            XCTAssertEqual((dialog.stack.visiblePage as? CommentPage)?.photo.fileName, "coffee.png")
            dialog.stack.goBack()
            spin(until: { dialog.stack.visiblePage is PhotoPickerPage }, "Back chooses another photo")
            dialog.cancelButton.activate()
            spin(until: { dialog.isDismissed }, "closed")
        }
    }

    func testTheStyleSheetIsCompiledIntoTheApp() throws {
        XCTAssertTrue(CompiledPostcardResources.isRegistered)
        var size: gsize = 0
        let bytes = try XCTUnwrap(g_resources_lookup_data("/io/github/postcard/Postcard/style.css", G_RESOURCE_LOOKUP_FLAGS_NONE, nil))
        defer { g_bytes_unref(bytes) }
        let data = g_bytes_get_data(bytes, &size)!
        let compiled = Data(bytes: data, count: Int(size))
        let source = try Data(contentsOf: URL(fileURLWithPath: bundledPhotos + "/../style.css"))
        XCTAssertEqual(compiled, source, "the compiled-in style sheet is Resources/style.css")
    }
}
