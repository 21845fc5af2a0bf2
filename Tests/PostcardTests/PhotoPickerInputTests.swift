import CGtk
import CXTest
import Foundation
import Gtk
import GtkTesting
import PhotoPosting
import PostcardModel
@testable import PostcardStore
import XCTest

/// Choosing a photo without the grid's mouse: keyboard alone, a file dragged in, a paste.
final class PhotoPickerInputTests: GtkTestCase, @unchecked Sendable {
    @MainActor
    private func openPicker(_ library: FilePath = FilePath(PhotoFixtures.samples)) -> FlowHarness {
        let harness = FlowHarness(library: library)
        harness.onFlowMade = { [weak self] in self?.track($0) }
        show(harness.host.window)
        harness.start()
        spin(until: { harness.picker?.hasSettled == true }, "picker settled")
        spin(until: { harness.dialog.map { gtk_window_is_active($0.window.pointer()) != 0 } ?? false }, "dialog active")
        return harness
    }

    func testTilesAreReachableAndChosenByKeyboardAlone() {
        onMain {
            let harness = openPicker()
            let picker = harness.picker!
            spin(until: { picker.boundTiles.first?.tile.listItem?.hasFocus == true }, "the first tile has focus")
            pressKey(XK_Right)
            spin(until: { picker.boundTiles.first { $0.position == 1 }?.tile.listItem?.hasFocus == true }, "the second tile has focus")
            pressKey(XK_Return)
            spin(until: { harness.commentPage != nil }, "Add a Comment")
            XCTAssertEqual(harness.commentPage?.photo, picker.photos[1], "Return chose the focused photo")
        }
    }

    /// What a screen reader hears, read over AT-SPI by a separate process (`Scripts/atspi_names.py`):
    /// each tile is a cell named by its file name, once — its picture and caption, which would only say
    /// the name again (Orca 43 read "astronaut.png" three times), are hidden from it; the grid is named
    /// after its page, not read by its type name.
    func testTilesReadTheirFileNamesOnceOverAtSpi() throws {
        try onMain {
            _ = openPicker()
            let lines = try readAccessibilityTree()
            for name in ["coffee.png", "rocket.jpg", "astronaut.png"] {
                XCTAssertEqual(lines.filter { $0.hasSuffix("|\(name)") }, ["table cell|\(name)"], "tile \(name), once: \(lines)")
            }
            XCTAssertFalse(lines.contains { $0.contains("|Gtk") }, "nothing reads as its type: \(lines)")
        }
    }

    func testPastingAnImageFileChoosesIt() {
        onMain {
            let harness = openPicker()
            let heic = PhotoFixtures.formatsFolder + "/phone.heic"
            Clipboard.setFiles([heic.uri])
            pressKey(XK_v, modifiers: [XK_Control_L])
            spin(until: { harness.commentPage != nil }, "Add a Comment")
            XCTAssertEqual(harness.commentPage?.photo, Photo(path: heic))
            spin(until: { harness.commentPage?.preview.texture != nil }, "the HEIC shows")
        }
    }

    func testPastingAnImageChoosesItAsAPNG() {
        onMain {
            let harness = openPicker()
            Clipboard.setImage(Texture.solid(width: 40, height: 30, rgba: 0xE01B24FF))
            pressKey(XK_v, modifiers: [XK_Control_L])
            spin(until: { harness.commentPage != nil }, "Add a Comment")
            let photo = harness.commentPage!.photo
            XCTAssertTrue(photo.fileName.hasPrefix("Pasted image") && photo.fileName.hasSuffix(".png"), photo.fileName)
            spin(until: { harness.commentPage?.preview.texture != nil }, "the pasted image shows")
            XCTAssertEqual(harness.commentPage?.preview.texture?.width, 40)
        }
    }

    func testPastingTextSaysThereIsNothingToPaste() {
        onMain {
            let harness = openPicker()
            let clipboard = gdk_display_get_clipboard(gdk_display_get_default())
            gdk_clipboard_set_text(clipboard, "just words")
            pressKey(XK_v, modifiers: [XK_Control_L])
            spin(until: { harness.picker?.messageLabel.isVisible == true }, "message")
            XCTAssertEqual(harness.picker?.messageLabel.text, "There is no image or image file to paste.")
            XCTAssertNil(harness.commentPage)
        }
    }

    /// A real drag through the X server: a file dragged from another window (as from Files) and dropped
    /// on Choose a Photo is chosen.
    func testDroppingAnImageFileFromAnotherWindowChoosesIt() throws {
        try onMain {
            let harness = openPicker()
            let dialog = harness.dialog!.window
            // Named with bytes that are not UTF-8: the drop hands over the file itself, not a look-alike.
            let folder = makeTemporaryDirectory()
            PhotoFixtures.createFile(rawName: [0xFF, 0xFE] + Array(".webp".utf8), in: folder,
                                     contents: try Data(contentsOf: URL(fileURLWithPath: PhotoFixtures.formatsFolder + "/photo.webp")))
            let photoPath = FilePath(folder).appending(FilePath(bytes: [0xFF, 0xFE] + Array(".webp".utf8)))
            // The drag source: a window beside the dialog offering the file, as a file manager does.
            let source = Gtk.Window()
            let handle = Label("photo.webp")
            handle.setSizeRequest(width: 200, height: 120)
            source.setChild(handle)
            // Its own window group, as another app's window: the dialog's modality does not block it.
            let group = gtk_window_group_new()!
            gtk_window_group_add_window(group, source.pointer())
            defer { g_object_unref(UnsafeMutableRawPointer(group)) }
            var list: UnsafeMutablePointer<GSList>? = g_slist_prepend(nil, UnsafeMutableRawPointer(photoPath.withCString { g_file_new_for_path($0) }))
            var value = GValue()
            g_value_init(&value, gdk_file_list_get_type())
            g_value_take_boxed(&value, UnsafeRawPointer(gdk_file_list_new_from_list(list)))
            g_slist_free_full(list, g_object_unref)
            list = nil
            let drag = gtk_drag_source_new()!
            gtk_drag_source_set_content(drag, gdk_content_provider_new_for_value(&value))
            g_value_unset(&value)
            gtk_drag_source_set_actions(drag, GDK_ACTION_COPY)
            gtk_widget_add_controller(handle.widget, drag)
            source.present()
            spin(until: { source.isMapped }, "source shown")
            let display = try XCTUnwrap(postcard_test_xdisplay())
            postcard_test_move_window(display, UnsafeMutableRawPointer(source.gobject), Int32(dialog.width) + 40, 0)
            settle()
            postcard_test_pointer(display, UnsafeMutableRawPointer(source.gobject), 100, 60, 1, 1)
            settle()
            for step in 1...12 {  // past GTK's drag threshold, then across to the dialog
                postcard_test_pointer(display, UnsafeMutableRawPointer(source.gobject), 100 - Int32(step) * 8, 60, 0, 0)
                settle()
            }
            for step in 1...10 {
                postcard_test_pointer(display, UnsafeMutableRawPointer(dialog.gobject), Int32(dialog.width / 2 + (10 - step) * 30),
                                      Int32(dialog.height / 2), 0, 0)
                settle()
            }
            postcard_test_pointer(display, UnsafeMutableRawPointer(dialog.gobject), Int32(dialog.width / 2), Int32(dialog.height / 2), 1, 0)
            spin(until: { harness.commentPage != nil }, "Add a Comment")
            XCTAssertEqual(harness.commentPage?.photo, Photo(path: photoPath))
            spin(until: { harness.commentPage?.preview.texture != nil }, "the dropped photo shows")
            source.destroy()
        }
    }

    /// Open File… in a library folder and on a file whose names are not UTF-8: the chooser starts in
    /// that folder, and the file chosen is the one opened (GTK's own chooser dialog here: no portal).
    func testOpenFileWithNamesThatAreNotUTF8() throws {
        try onMain {
            let library = FilePath(makeTemporaryDirectory()).appending(FilePath(bytes: Array("Fotos ".utf8) + [0xE9]))
            try Files.makeDirectory(library)
            let photo = library.appending(FilePath(bytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)))
            try Files.copy(FilePath(bundledPhotos + "/rocket.jpg"), to: photo)
            let harness = openPicker(library)
            let picker = harness.picker!
            XCTAssertEqual(picker.photos.map(\.uri), [photo.uri], "the library folder is read as itself")
            picker.openFileButton.activate()
            var found: UnsafeMutablePointer<GtkWindow>?
            spin(until: {
                found = Gtk.Window.all().first { String(cString: navgtk_type_name_of(UnsafeMutableRawPointer($0))) == "GtkFileChooserDialog" }
                return found.map { gtk_widget_get_mapped(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) != 0 } ?? false
            }, "the file chooser")
            let chooser = try XCTUnwrap(found)
            // GTK's chooser reads its folder in the background: wait for it, and for the selection.
            @MainActor func path(_ file: OpaquePointer?) -> FilePath? {
                guard let file else { return nil }
                defer { g_object_unref(UnsafeMutableRawPointer(file)) }
                return g_file_get_path(file).map { path in defer { g_free(path) }; return FilePath(cString: path) }
            }
            spin(until: { path(gtk_file_chooser_get_current_folder(OpaquePointer(chooser))) == library },
                 "the chooser starts in the library folder")
            let file = photo.withCString { g_file_new_for_path($0)! }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            XCTAssertNotEqual(gtk_file_chooser_set_file(OpaquePointer(chooser), file, nil), 0)
            spin(until: { path(gtk_file_chooser_get_file(OpaquePointer(chooser))) == photo }, "the photo selected")
            gtk_dialog_response(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkDialog.self), GTK_RESPONSE_ACCEPT.rawValue)
            spin(until: { harness.commentPage != nil }, "Add a Comment")
            XCTAssertEqual(harness.commentPage?.photo, Photo(path: photo))
            spin(until: { harness.commentPage?.hasDecodedPhoto == true }, "the chosen photo shows")
        }
    }
}
