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

/// Issue 22, 2: a photo file far larger than its pixels (a small JPEG padded with thousands of metadata
/// segments and data after its end, as some cameras and editors write) costs memory for its pixels, not
/// its size, while it is listed, thumbnailed, shown, posted and shown in the feed.
final class HugePhotoFileTests: GtkTestCase, @unchecked Sendable {
    /// rocket.jpg (640 × 427, turned by no tag) with `segments` APP1 (XMP extension) and as many APP2
    /// (ICC profile) segments of 64 KiB after its own header, and `trailing` bytes after its end.
    private func writePaddedJPEG(at path: String, segments: Int, trailing: Int) throws {
        let source = [UInt8](FileManager.default.contents(atPath: bundledPhotos + "/rocket.jpg")!)
        var headerEnd = 2
        while source[headerEnd] == 0xFF, (0xE0...0xEF).contains(source[headerEnd + 1]) {
            headerEnd += 2 + (Int(source[headerEnd + 2]) << 8 | Int(source[headerEnd + 3]))
        }
        func segment(_ marker: UInt8, _ prefix: String) -> [UInt8] {
            let payload = Array(prefix.utf8) + [UInt8](repeating: 0x20, count: 65_000)
            let length = payload.count + 2
            return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        let xmp = segment(0xE1, "http://ns.adobe.com/xmp/extension/\0"), icc = segment(0xE2, "ICC_PROFILE\0")
        FileManager.default.createFile(atPath: path, contents: nil)
        let file = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        defer { try? file.close() }
        file.write(Data(source[..<headerEnd]))
        let block = Data((0..<64).flatMap { _ in xmp + icc })
        for _ in 0..<(segments / 64) { file.write(block) }
        file.write(Data(source[headerEnd...]))
        file.write(Data(count: trailing))
    }

    /// This process's resident memory now and at its peak since ``resetPeakMemory()``, in MiB.
    private func memory() -> (resident: Double, peak: Double) {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func value(_ key: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
        }
        return (value("VmRSS:"), value("VmHWM:"))
    }

    /// Starts measuring the peak again from now (Linux: "5" to /proc/self/clear_refs).
    private func resetPeakMemory() {
        let file = fopen("/proc/self/clear_refs", "w")
        XCTAssertNotNil(file, "Linux's peak-memory reset")
        if let file { fputs("5", file); fclose(file) }
    }

    /// The JPEG stream that leaves metadata out decodes the same pixels GdkPixbuf decodes from the whole
    /// file: baseline, progressive, restart markers, CMYK, an EXIF orientation, and the padded file.
    func testTheBoundedJPEGStreamDecodesTheSamePixelsAsGdkPixbuf() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            let sideways = folder + "/sideways.jpg"
            try Files.copy(FilePath(bundledPhotos + "/rocket.jpg"), to: FilePath(sideways))
            try ImageMetadata.write(orientation: 6, toFileAt: sideways)
            let padded = folder + "/padded.jpg"
            try writePaddedJPEG(at: padded, segments: 64, trailing: 1 << 20)
            let fixtures = PhotoFixtures.formatsFolder
            for path in [bundledPhotos + "/rocket.jpg", bundledPhotos + "/hubble_deep_field.jpg", fixtures + "/cmyk.jpg",
                         fixtures + "/progressive.jpg", fixtures + "/restart-markers.jpg", sideways, padded] {
                let ours = try ImageDecoder.decodeNow(uri: FilePath(path).uri, fit: .contain(width: 100_000, height: 100_000))
                let whole = try XCTUnwrap(gdk_pixbuf_new_from_file(path, nil), path)
                let reference = try XCTUnwrap(gdk_pixbuf_apply_embedded_orientation(whole))
                g_object_unref(UnsafeMutableRawPointer(whole))
                defer { g_object_unref(UnsafeMutableRawPointer(reference)) }
                let pixbuf = ours.pixbufPointer
                XCTAssertEqual(gdk_pixbuf_get_width(pixbuf), gdk_pixbuf_get_width(reference), path)
                XCTAssertEqual(gdk_pixbuf_get_height(pixbuf), gdk_pixbuf_get_height(reference), path)
                XCTAssertEqual(gdk_pixbuf_get_byte_length(pixbuf), gdk_pixbuf_get_byte_length(reference), path)
                XCTAssertEqual(memcmp(gdk_pixbuf_read_pixels(pixbuf), gdk_pixbuf_read_pixels(reference), Int(gdk_pixbuf_get_byte_length(pixbuf))), 0,
                               "the same pixels: \(path)")
                let header = try ImageDecoder.header(uri: FilePath(path).uri)
                XCTAssertEqual(header.format, "jpeg")
            }
        }
    }

    /// Reading a JPEG's size decodes none of its pixels: a 4000 × 3000 photo (36 MB decoded) costs a few.
    func testReadingAJPEGsSizeDecodesNoPixels() throws {
        try onMain {
            let path = makeTemporaryDirectory() + "/big.jpg"
            let original = try XCTUnwrap(gdk_pixbuf_new_from_file(bundledPhotos + "/rocket.jpg", nil))
            let big = try XCTUnwrap(gdk_pixbuf_scale_simple(original, 4000, 3000, GDK_INTERP_NEAREST))
            var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil], values: [UnsafeMutablePointer<CChar>?] = [strdup("90"), nil]
            XCTAssertNotEqual(gdk_pixbuf_savev(big, path, "jpeg", &keys, &values, nil), 0)
            free(keys[0]); free(values[0])
            g_object_unref(UnsafeMutableRawPointer(big))
            g_object_unref(UnsafeMutableRawPointer(original))
            settle()
            let before = memory().resident
            resetPeakMemory()
            for _ in 0..<3 {
                let header = try ImageDecoder.header(uri: FilePath(path).uri)
                XCTAssertEqual(header.width, 4000)
                XCTAssertEqual(header.height, 3000)
            }
            XCTAssertLessThan(memory().peak - before, 12, "the header only, not 36 MB of pixels")
        }
    }

    func testAPhotoFileFarLargerThanItsPixelsCostsMemoryForItsPixelsNotItsSize() throws {
        try onMain {
            let library = makeTemporaryDirectory()
            let padded = library + "/padded.jpg"
            try writePaddedJPEG(at: padded, segments: 2_048, trailing: 48 << 20)  // 256 MiB + 48 MiB
            let fileSize = Double(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: padded)[.size] as? Int)) / 1_048_576
            XCTAssertGreaterThan(fileSize, 300)
            StyleSheet.load(path: bundledPhotos + "/../style.css")
            let store = try PostStore(directory: FilePath(makeTemporaryDirectory()))
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: FilePath(library)))
            show(app.mainWindow.window)
            settle()
            let before = memory().resident
            resetPeakMemory()

            // Listed (its EXIF date read) and thumbnailed, on a cold cache: its file is new.
            app.myProfile.postButton.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
            let picker = app.flowDialog!.stack.visiblePage as! PhotoPickerPage
            XCTAssertEqual(picker.photos.map(\.fileName), ["padded.jpg"])
            spin(until: { picker.boundTiles.first?.tile.isSettled == true }, timeout: 30, "its thumbnail")
            XCTAssertNotNil(picker.boundTiles.first?.tile.picture.texture, "the thumbnail shows")
            XCTAssertNil(picker.failure(of: picker.photos[0]))
            // Shown on Add a Comment (Post waits for it), then posted: the whole file copied, as it is.
            picker.grid.activateItem(at: 0)
            spin(until: { app.flowDialog?.stack.visiblePage is CommentPage }, "Add a Comment")
            let page = app.flowDialog!.stack.visiblePage as! CommentPage
            page.commentView.text = "Big file, small photo"
            spin(until: { page.hasDecodedPhoto }, timeout: 30, "the photo shown")
            XCTAssertEqual(page.preview.texture?.width, 640)
            postWhenReady(page)
            spin(until: { app.flowDialog == nil }, timeout: 60, "posted")
            let posted = try XCTUnwrap(try store.posts(onProfile: "me").first)
            XCTAssertEqual(FileManager.default.contentsEqual(atPath: posted.photoPath.text, andPath: padded), true,
                           "the stored copy is the file, byte for byte")
            // And shown in the feed, from the stored copy.
            spin(until: { app.myProfile.feedItems.first?.isPhotoLoaded == true }, timeout: 30, "the feed's photo")

            let growth = memory().peak - before
            XCTAssertLessThan(growth, 80, "peak memory grew \(Int(growth)) MiB for a \(Int(fileSize)) MiB file of 640 × 427 pixels")
        }
    }
}
