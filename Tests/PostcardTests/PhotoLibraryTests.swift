import CGtk
import CXTest
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Choose a Photo over real libraries: every format, hostile files, nested folders, odd names,
/// orientation, a deleted photo, an empty folder, and thousands of photos in a recycled grid.
final class PhotoLibraryTests: GtkTestCase, @unchecked Sendable {
    /// Starts the photo flow on `library` and waits until the grid has settled.
    @MainActor
    private func openPicker(_ library: String, timeout: Double = 30) -> FlowHarness {
        let harness = FlowHarness(library: library)
        harness.onFlowMade = { [weak self] in self?.track($0) }
        show(harness.host.window)
        harness.start()
        spin(until: { harness.picker?.hasSettled == true }, timeout: timeout, "picker settled")
        return harness
    }

    @MainActor
    private func tile(named name: String, in picker: PhotoPickerPage) -> PhotoTile? {
        picker.boundTiles.first { picker.photos[$0.position].fileName == name }?.tile
    }

    @MainActor
    private func decode(_ path: String, _ fit: ImageDecoder.Fit) async -> Result<Texture, Error> {
        do { return .success(try await Texture.load(uri: path.uri, fit: fit)) } catch { return .failure(error) }
    }

    @MainActor
    private func decodeNow(_ path: String, _ fit: ImageDecoder.Fit) -> Result<Texture, Error>? {
        var result: Result<Texture, Error>?
        Task { result = await decode(path, fit) }
        spin(until: { result != nil }, "decoded \(path)")
        return result
    }

    func testEveryFormatPeopleHaveOpensScaledAndNotBlank() {
        onMain {
            let names = ["phone.heic", "photo.webp", "photo.avif", "animated.gif", "deep-16bit.png", "cmyk.jpg",
                         "scan.tiff", "old.bmp", "drawing.svg", "gray-alpha.png"]
            for name in names {
                guard case .success(let texture) = decodeNow(PhotoFixtures.formatsFolder + "/" + name,
                                                             .contain(width: 64, height: 64)) else {
                    XCTFail("\(name) does not open"); continue
                }
                XCTAssertLessThanOrEqual(max(texture.width, texture.height), 64, name)
                XCTAssertGreaterThan(min(texture.width, texture.height), 0, name)
                XCTAssertFalse(texture.isSingleColor && name != "gray-alpha.png", "\(name) decodes to real pixels")
            }
        }
    }

    func testHostileImagesAreRefusedOrBoundedAndNeverEnlarged() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            try PhotoFixtures.pngHeader(width: 16000, height: 16000).write(to: URL(fileURLWithPath: folder + "/huge.png"))
            try PhotoFixtures.pngHeader(width: 100_000, height: 100_000).write(to: URL(fileURLWithPath: folder + "/absurd.png"))
            PhotoFixtures.writePNG(width: 8, height: 8, to: folder + "/tiny.png")
            PhotoFixtures.writePNG(width: 1, height: 4000, to: folder + "/sliver.png")
            for name in ["huge.png", "absurd.png"] {
                guard case .failure(let error as ImageLoadError) = decodeNow(folder + "/" + name, .contain(width: 720, height: 720)) else {
                    XCTFail("\(name) must be refused"); continue
                }
                XCTAssertEqual(error.kind, .tooLarge, name)
            }
            guard case .success(let tiny) = decodeNow(folder + "/tiny.png", .contain(width: 1280, height: 1280)) else {
                return XCTFail("tiny.png")
            }
            XCTAssertEqual([tiny.width, tiny.height], [8, 8], "never enlarged")
            guard case .success(let sliver) = decodeNow(folder + "/sliver.png", .contain(width: 720, height: 720)) else {
                return XCTFail("sliver.png")
            }
            XCTAssertEqual([sliver.width, sliver.height], [1, 720], "scaled to fit, no huge intermediate")
            guard case .success(let cover) = decodeNow(folder + "/sliver.png", .cover(width: 144, height: 144)) else {
                return XCTFail("sliver.png cover")
            }
            XCTAssertEqual([cover.width, cover.height], [1, 4000], "cover never enlarges: GtkPicture crops it")
        }
    }

    /// Thumbnails go to the shared freedesktop cache (`$XDG_CACHE_HOME/thumbnails/large`, named by the MD5
    /// of the URI, tagged with it), where Files finds them and the next run reads them instead of decoding
    /// again; a photo that cannot be read is recorded under `fail/` and says why.
    func testThumbnailsAreSharedThroughTheFreedesktopCache() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            let fm = FileManager.default
            try fm.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: folder + "/rocket.jpg")
            try fm.copyItem(atPath: PhotoFixtures.samples + "/coffee.png", toPath: folder + "/coffee.png")
            try fm.copyItem(atPath: PhotoFixtures.formatsFolder + "/phone.heic", toPath: folder + "/phone.heic")
            XCTAssertTrue(fm.createFile(atPath: folder + "/notes.jpg", contents: Data("not a photo at all".utf8)))
            func photo(_ name: String, _ type: String) -> LibraryPhoto {
                let path = folder + "/" + name
                var info = stat()
                stat(path, &info)
                return LibraryPhoto(photo: Photo(uri: path.uri), date: 0, isDateTaken: false,
                                    modified: UInt64(info.st_mtim.tv_sec), mimeType: type)
            }
            func cacheFile(_ kind: String, _ photo: LibraryPhoto) -> String {
                let md5 = g_compute_checksum_for_string(G_CHECKSUM_MD5, photo.photo.uri, -1)!
                defer { g_free(md5) }
                return String(cString: g_get_user_cache_dir()) + "/thumbnails/\(kind)/" + String(cString: md5) + ".png"
            }
            let photos = [photo("rocket.jpg", "image/jpeg"), photo("coffee.png", "image/png"), photo("phone.heic", "image/heif")]
            let loader = ThumbnailLoader()
            for photo in photos {
                XCTAssertFalse(fm.fileExists(atPath: cacheFile("large", photo)), "a new photo has no thumbnail yet")
                var texture: Texture?
                Task { texture = try? await loader.thumbnail(for: photo) }
                spin(until: { texture != nil }, "thumbnail of \(photo.photo.fileName)")
                let stored = gdk_pixbuf_new_from_file(cacheFile("large", photo), nil)
                XCTAssertNotNil(stored, "\(photo.photo.fileName)'s thumbnail is in the shared cache")
                if let stored {
                    let storedEdges = (gdk_pixbuf_get_width(stored), gdk_pixbuf_get_height(stored))
                    XCTAssertLessThanOrEqual(Int(max(storedEdges.0, storedEdges.1)), ThumbnailLoader.size, "the cache's large size")
                    // In memory, only what a tile shows: covering 144 × 144, never more than the thumbnail.
                    XCTAssertEqual(min(texture!.width, texture!.height), min(loader.textureEdge, Int(min(storedEdges.0, storedEdges.1))),
                                   photo.photo.fileName)
                    XCTAssertEqual(gdk_pixbuf_get_option(stored, "tEXt::Thumb::URI").map { String(cString: $0) },
                                   photo.photo.uri, "tagged with the photo's URI, as the specification says")
                    g_object_unref(UnsafeMutableRawPointer(stored))
                }
            }
            // Another run (a new loader, nothing in memory) reads them from the cache.
            let nextRun = ThumbnailLoader()
            for photo in photos {
                var texture: Texture?, looked = false
                Task { texture = await nextRun.cachedThumbnail(for: photo); looked = true }
                spin(until: { looked }, "cache lookup of \(photo.photo.fileName)")
                XCTAssertNotNil(texture, "\(photo.photo.fileName) comes from the cache without being made again")
            }
            let broken = photo("notes.jpg", "image/jpeg")
            var failure: Error?
            Task { do { _ = try await loader.thumbnail(for: broken) } catch { failure = error } }
            spin(until: { failure != nil }, "notes.jpg fails")
            XCTAssertEqual((failure as? ImageLoadError)?.kind, .unreadable)
            XCTAssertTrue(fm.fileExists(atPath: cacheFile("fail/gnome-thumbnail-factory", broken)),
                          "the failure is recorded as GNOME apps do, so it is not tried again")
        }
    }

    /// A library tree with nested folders, bad files, a symlink loop and odd names opens; good photos show
    /// (those in subfolders too), bad ones show their placeholder, nothing crashes or warns.
    func testALibraryTreeWithBadFilesOpensAndEverythingGoodShows() throws {
        try onMain {
            let root = makeTemporaryDirectory()
            let fm = FileManager.default
            try fm.createDirectory(atPath: root + "/2024/summer/beach", withIntermediateDirectories: true)
            try fm.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: root + "/2024/summer/beach/rocket.jpg")
            try fm.copyItem(atPath: PhotoFixtures.samples + "/coffee.png", toPath: root + "/coffee.png")
            try fm.copyItem(atPath: PhotoFixtures.formatsFolder + "/phone.heic", toPath: root + "/2024/phone.heic")
            XCTAssertTrue(fm.createFile(atPath: root + "/empty.jpg", contents: Data()))
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: PhotoFixtures.samples + "/rocket.jpg"))
            XCTAssertTrue(fm.createFile(atPath: root + "/truncated.jpg", contents: jpeg.prefix(600)))
            XCTAssertTrue(fm.createFile(atPath: root + "/notes.jpg", contents: Data("not a photo at all".utf8)))
            try PhotoFixtures.pngHeader(width: 100_000, height: 100_000).write(to: URL(fileURLWithPath: root + "/absurd.png"))
            try fm.createSymbolicLink(atPath: root + "/2024/loop", withDestinationPath: "..")
            try fm.createSymbolicLink(atPath: root + "/dangling.jpg", withDestinationPath: root + "/nowhere.jpg")
            XCTAssertTrue(fm.createFile(atPath: root + "/readme.txt", contents: Data("hello".utf8)))
            PhotoFixtures.createFile(rawName: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8), in: root, contents: jpeg)

            let harness = openPicker(root)
            let picker = harness.picker!
            let names = picker.photos.map(\.fileName)
            XCTAssertEqual(names.count, Set(picker.photos).count, "the symlink loop lists nothing twice")
            for name in ["rocket.jpg", "coffee.png", "phone.heic", "caf\u{FFFD}.jpg", "empty.jpg", "notes.jpg",
                         "truncated.jpg", "absurd.png", "dangling.jpg"] {
                XCTAssertTrue(names.contains(name), "\(name) is in the grid: \(names)")
            }
            XCTAssertFalse(names.contains("readme.txt"), "what is not an image at all is skipped")
            // Bigger than the grid shows at once? Scroll each into view and let it settle.
            for (index, photo) in picker.photos.enumerated() {
                picker.grid.scrollToItem(at: index)
                spin(until: { picker.hasSettled && self.tile(named: photo.fileName, in: picker)?.root.isMapped == true },
                     "tile \(photo.fileName)")
                let tile = tile(named: photo.fileName, in: picker)!
                switch photo.fileName {
                case "rocket.jpg", "coffee.png", "phone.heic", "caf\u{FFFD}.jpg":
                    XCTAssertNotNil(tile.picture.texture, "\(photo.fileName) shows its thumbnail")
                    XCTAssertNil(picker.failure(of: photo))
                case "absurd.png":
                    XCTAssertEqual(tile.problemLabel.text, "Too large to show")
                    XCTAssertTrue(tile.tooltip!.contains("100000 × 100000"), tile.tooltip!)
                case "empty.jpg", "notes.jpg", "dangling.jpg":
                    XCTAssertEqual(tile.problemLabel.text, "Can't open this photo", photo.fileName)
                    XCTAssertTrue(tile.problemLabel.isVisible)
                    XCTAssertNotEqual(tile.tooltip, photo.fileName, "the reason is in the tooltip")
                default:
                    break  // truncated.jpg: shown as far as it decodes, or as a placeholder
                }
            }
            picker.grid.scrollToItem(at: names.firstIndex(of: "empty.jpg")!)
            spin(until: { self.tile(named: "empty.jpg", in: picker)?.root.isMapped == true && picker.hasSettled }, "empty.jpg")
            XCTAssertEqual(tile(named: "empty.jpg", in: picker)?.tooltip, "empty.jpg: The file is empty")
            picker.grid.scrollToItem(at: names.firstIndex(of: "dangling.jpg")!)
            spin(until: { self.tile(named: "dangling.jpg", in: picker)?.root.isMapped == true && picker.hasSettled }, "dangling.jpg")
            XCTAssertEqual(tile(named: "dangling.jpg", in: picker)?.tooltip, "dangling.jpg: The file no longer exists")
            // Placeholders keep the tiles' height: every tile on screen is as tall as the others.
            XCTAssertEqual(Set(picker.boundTiles.filter { $0.tile.root.isMapped }.map { $0.tile.root.height }).count, 1)

            // The photo with the name that is not UTF-8 is chosen and posted byte for byte.
            picker.grid.activateItem(at: names.firstIndex(of: "caf\u{FFFD}.jpg")!)
            spin(until: { harness.commentPage != nil }, "Add a Comment")
            harness.commentPage!.commentView.text = "Café"
            postWhenReady(harness.commentPage!)
            spin(until: { !harness.results.isEmpty }, "posted")
            guard case .posted(let posted) = harness.results.first else { return XCTFail("not posted") }
            let photo = posted.photo
            let store = try PostStore(directory: makeTemporaryDirectory())
            let post = try store.addNow(photo: photo, comment: "Café", author: "me", profile: "me")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: post.photoPath.text)), jpeg, "the stored copy keeps the original bytes")
        }
    }

    func testNewestFirstByDateTakenElseModificationTime() throws {
        try onMain {
            let root = makeTemporaryDirectory()
            let fm = FileManager.default
            try fm.createDirectory(atPath: root + "/old", withIntermediateDirectories: true)
            for name in ["a.jpg", "b.jpg", "old/c.jpg"] {
                try fm.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: root + "/" + name)
            }
            // a.jpg was taken most recently, though its file is oldest.
            try ImageMetadata.write(dateTaken: 1_750_000_000, toFileAt: root + "/a.jpg")
            for (name, modified) in [("a.jpg", 1_600_000_000), ("b.jpg", 1_700_000_000), ("old/c.jpg", 1_650_000_000)] {
                PhotoFixtures.setModified(root + "/" + name, modified)
            }
            let picker = openPicker(root).picker!
            XCTAssertEqual(picker.photos.map(\.fileName), ["a.jpg", "b.jpg", "c.jpg"])
            XCTAssertEqual(picker.libraryPhotos.map(\.isDateTaken), [true, false, false])
        }
    }

    func testAPhotoTurnedByItsOrientationTagShowsUpright() throws {
        try onMain {
            let root = makeTemporaryDirectory()
            try FileManager.default.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: root + "/sideways.jpg")
            try ImageMetadata.write(orientation: 6, toFileAt: root + "/sideways.jpg")  // 640 × 427 stored, turned a quarter
            let harness = openPicker(root)
            let tile = tile(named: "sideways.jpg", in: harness.picker!)!
            let thumbnail = tile.picture.texture!
            XCTAssertLessThan(thumbnail.width, thumbnail.height, "upright in the grid")
            harness.picker!.grid.activateItem(at: 0)
            spin(until: { harness.commentPage?.preview.texture != nil }, "Add a Comment preview")
            let preview = harness.commentPage!.preview.texture!
            XCTAssertLessThan(preview.width, preview.height, "upright on Add a Comment")
        }
    }

    func testChoosingAPhotoDeletedWhileTheGridIsOpenSaysItIsGone() throws {
        try onMain {
            let root = makeTemporaryDirectory()
            try FileManager.default.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: root + "/rocket.jpg")
            let harness = openPicker(root)
            let picker = harness.picker!
            try FileManager.default.removeItem(atPath: root + "/rocket.jpg")
            picker.grid.activateItem(at: 0)
            spin(until: { picker.messageLabel.isVisible }, "gone message")
            XCTAssertEqual(picker.messageLabel.text, "“rocket.jpg” is no longer there: it was moved or deleted.")
            spin(until: { self.tile(named: "rocket.jpg", in: picker)?.problemLabel.isVisible == true }, "placeholder")
            XCTAssertTrue(harness.picker === picker, "nothing was chosen")
            XCTAssertNil(harness.commentPage)
        }
    }

    /// Opened again in the same run, Choose a Photo shows the last listing at once, in order, then brings
    /// it up to date: a photo added since appears, one deleted since goes.
    func testReopeningShowsTheLastListingAtOnceThenUpdatesIt() throws {
        try onMain {
            let root = makeTemporaryDirectory()
            let fm = FileManager.default
            for (name, modified) in [("old.jpg", 1_600_000_000), ("keep.jpg", 1_700_000_000)] {
                try fm.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: root + "/" + name)
                PhotoFixtures.setModified(root + "/" + name, modified)
            }
            let first = openPicker(root)
            XCTAssertEqual(first.picker!.photos.map(\.fileName), ["keep.jpg", "old.jpg"])
            first.dialog!.cancelButton.activate()
            spin(until: { first.results.count == 1 }, "closed")
            try fm.removeItem(atPath: root + "/old.jpg")
            try fm.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: root + "/new.jpg")
            PhotoFixtures.setModified(root + "/new.jpg", 1_800_000_000)

            let page = PhotoPickerPage(library: PhotoLibrary(directory: root))
            XCTAssertEqual(page.photos.map(\.fileName), ["keep.jpg", "old.jpg"], "the last listing, before any reading")
            XCTAssertTrue(page.isInOrder)
            let window = NavigationWindow(root: page, width: 560, height: 640)
            show(window.window)
            spin(until: { page.hasSettled }, "updated")
            XCTAssertEqual(page.photos.map(\.fileName), ["new.jpg", "keep.jpg"], "up to date, newest first")
        }
    }

    func testAnEmptyLibraryShowsAnEmptyStateWithOpenFile() {
        onMain {
            let harness = openPicker(makeTemporaryDirectory())
            let picker = harness.picker!
            XCTAssertTrue(picker.emptyState.isMapped)
            XCTAssertTrue(picker.emptyState.text.hasPrefix("No photos in"), picker.emptyState.text)
            XCTAssertNotNil(findButton(labeled: "Open File…", in: picker.emptyState), "Open File… in the empty state")
            XCTAssertTrue(picker.openFileButton.isMapped, "and in the bar")
        }
    }

    /// Thousands of photos: tiles are recycled (a screenful exists), only what is shown loads, and the
    /// in-memory thumbnail cache stays bounded while scrolling to the end.
    func testThousandsOfPhotosAreRecycledAndLoadOnlyWhatIsShown() throws {
        try onMain {
            let root = makeTemporaryDirectory()
            let fm = FileManager.default
            let count = 2_000
            for folder in 0..<10 {
                try fm.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
            }
            for index in 0..<count {
                XCTAssertEqual(link(PhotoFixtures.formatsFolder + "/cmyk.jpg", "\(root)/\(index % 10)/photo-\(index).jpg"), 0,
                               "hard link \(index): \(String(cString: strerror(errno)))")
            }
            let harness = openPicker(root, timeout: 60)
            let picker = harness.picker!
            XCTAssertEqual(picker.photos.count, count, "every photo of every subfolder is listed")
            let loader = ThumbnailLoader.shared
            XCTAssertLessThan(picker.boundTiles.count, 300, "only tiles near the screen exist")
            XCTAssertLessThanOrEqual(picker.grid.maximumColumns, 8, "columns follow the width")
            picker.grid.scrollToItem(at: count - 1)
            spin(until: { picker.boundTiles.contains { $0.position == count - 1 && $0.tile.root.isMapped } && picker.hasSettled },
                 timeout: 30, "the last tile on screen")
            let last = picker.boundTiles.first { $0.position == count - 1 }!.tile
            XCTAssertNotNil(last.picture.texture, "the last photo shows its thumbnail")
            XCTAssertLessThan(picker.boundTiles.count, 300, "still a screenful of tiles after scrolling")
            XCTAssertLessThanOrEqual(loader.cachedCount, loader.cacheCapacity, "textures stay bounded")
            // GTK keeps the tile with keyboard focus while it is scrolled away, so focus is not lost.
            let far = picker.boundTiles.filter { $0.position < count - 300 && $0.tile.listItem?.hasFocus != true }
            XCTAssertEqual(far.map(\.position), [], "the first tiles were recycled")
        }
    }

    /// The grid shows photos as the scan finds them and puts them in order at its end. Someone who has
    /// not scrolled still sees the newest photos then, from the top, with focus on the first: GTK's grid
    /// would follow the photo that was first to wherever the order moved it.
    func testTheGridStaysAtItsTopWhenThePhotosArePutInOrder() throws {
        try onMain {
            let root = makeTemporaryDirectory()
            let fm = FileManager.default
            try fm.createDirectory(atPath: root + "/newer", withIntermediateDirectories: true)
            // The root folder is read first, so its older photos are shown before the newer ones exist.
            for index in 0..<40 {
                for (folder, name, base) in [("", "old", 1_600_000_000), ("/newer", "new", 1_800_000_000)] {
                    let path = "\(root)\(folder)/\(name)-\(index).jpg"
                    try fm.copyItem(atPath: PhotoFixtures.formatsFolder + "/cmyk.jpg", toPath: path)
                    PhotoFixtures.setModified(path, base + index)
                }
            }
            let harness = openPicker(root)
            let picker = harness.picker!
            XCTAssertEqual(picker.photos.count, 80)
            XCTAssertEqual(picker.photos.first?.fileName, "new-39.jpg", "newest first")
            XCTAssertEqual(picker.scrollOffset, 0, "still at the top, showing the newest photos")
            let first = picker.boundTiles.first { $0.position == 0 }
            XCTAssertEqual(first?.tile.root.isMapped, true, "the newest photo's tile is shown")
            XCTAssertEqual(first?.tile.listItem?.hasFocus, true, "keyboard focus is on the newest photo")
            spin(until: { harness.dialog.map { gtk_window_is_active($0.window.pointer()) != 0 } ?? false }, "dialog active")
            pressKey(XK_Right)
            spin(until: { picker.boundTiles.first { $0.position == 1 }?.tile.listItem?.hasFocus == true },
                 "the arrow keys go on from the newest photo")
        }
    }

    func testPhotosDeepInTheLibraryAreListedAndFoldersBeyondTheBoundAreNamed() throws {
        try onMain {
            let library = makeTemporaryDirectory()
            // A photo 40 folders down (an earlier Postcard stopped at 32), and one beyond the safety bound.
            var deep = library
            for level in 1...(PhotoLibrary.maximumDepth + 1) {
                deep += "/d"
                if level == 40 {
                    try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
                    try FileManager.default.copyItem(atPath: bundledPhotos + "/coffee.png", toPath: deep + "/forty-deep.png")
                }
            }
            try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: bundledPhotos + "/rocket.jpg", toPath: deep + "/too-deep.jpg")
            let harness = openPicker(library)
            let picker = try XCTUnwrap(harness.picker)
            XCTAssertEqual(picker.photos.map(\.fileName), ["forty-deep.png"], "listed 40 folders down; not beyond the bound")
            XCTAssertTrue(picker.messageLabel.isVisible, "what was left out is said")
            XCTAssertEqual(picker.messageLabel.text, "1 folder more than 256 levels deep in the library was not read.")
        }
    }
}
