import CGtk
import CXTest
import Foundation
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Take Photo and Quick Snap with a real GStreamer pipeline: `videotestsrc` (pattern ball, 1280 × 720)
/// stands in for a webcam, so preview, capture, post and every teardown path run for real.
final class CameraTests: GtkTestCase, @unchecked Sendable {
    /// The device monitor's lists handed over by GStreamer are freed with every element (the toolkit's
    /// list walk, `consumeObjectList`), and only the devices returned are kept.
    func testAHundredCameraProbesLeaveNoDeviceBehind() async {
        // Without a camera the monitor lists none; with one, each probe's list and references are freed.
        var last: [CameraDevice] = []
        for _ in 0..<100 { last = await CameraDevice.available(for: [.automatic]) }
        let again = await CameraDevice.available(for: [.automatic])
        XCTAssertEqual(last.map(\.name), again.map(\.name), "each probe sees the same cameras")
    }

    private var dialog: ModalDialog? { MainActor.assumeIsolated { self.lastApp?.flowDialog } }

    /// The process's threads now (`/proc/self/task`).
    private var threadCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0 }

    /// The names of the process's threads now.
    private var threadNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }.sorted()
    }

    /// New Post → Take Photo; returns the Camera page once it shows frames.
    @MainActor
    private func openCamera(in app: AppController) -> CameraPage {
        app.myProfile.postButton.activate()
        spin(until: { (self.dialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
        let picker = dialog!.stack.visiblePage as! PhotoPickerPage
        XCTAssertTrue(picker.takePhotoButton.isVisible, "Take Photo is offered in Choose a Photo's bar")
        picker.takePhotoButton.activate()
        spin(until: { self.dialog?.stack.visiblePage is CameraPage }, "camera page")
        let camera = dialog!.stack.visiblePage as! CameraPage
        spin(until: { (camera.camera?.frameCount ?? 0) >= 3 && camera.shutterButton.isSensitive }, timeout: 20, "frames")
        return camera
    }

    func testTakePhotoPostsAFullSizeJPEGAndShowsItFirstInMyFeed() throws {
        try onMain {
            let app = try makeApp(cameras: [.test])
            var results: [CommentedPhotoFlow<Post>.Result] = []
            app.onFlowEnded = { if case .post(let result) = $0 { results.append(result) } }
            let camera = openCamera(in: app)
            XCTAssertFalse(camera.isShowingStandaloneBar, "pushed: no bar of its own")
            XCTAssertEqual(dialog?.stack.titleLabel.text, "Camera", "the dialog's bar shows its title")
            XCTAssertTrue(dialog!.stack.backButton.isVisible)
            XCTAssertTrue(camera.shutterButton.hasAccessibleLabel("Take Photo"))
            XCTAssertEqual(camera.shutterButton.iconName, "camera-photo-symbolic")
            XCTAssertNotNil(camera.preview.texture)
            XCTAssertEqual(camera.preview.texture?.width, 1280)
            XCTAssertFalse(camera.preview.texture!.isSingleColor, "the preview shows a picture")
            XCTAssertTrue(camera.shutterButton.hasFocus, "the shutter has focus: Space takes a photo")
            pressKey(XK_space)
            spin(until: { self.dialog?.stack.visiblePage is CommentPage }, "Add a Comment")
            let commentPage = dialog!.stack.visiblePage as! CommentPage
            XCTAssertTrue(commentPage.photo.path.hasPrefix(app.camera.captureDirectory.text), commentPage.photo.path)
            commentPage.commentView.text = "Snapped"
            postWhenReady(commentPage)
            spin(until: { results.count == 1 }, "posted")
            guard case .posted(let posted) = results[0] else { return XCTFail("\(results)") }
            let photo = commentPage.photo

            let row = try app.store.posts(onProfile: "me")[0]
            XCTAssertEqual(row.comment, "Snapped")
            XCTAssertEqual(posted, row, "the flow's result is the post stored")
            var width: Int32 = 0, height: Int32 = 0
            let format = row.photoPath.withCString { gdk_pixbuf_get_file_info($0, &width, &height) }
            XCTAssertEqual(format.map { String(cString: gdk_pixbuf_format_get_name($0)) }, "jpeg")
            XCTAssertEqual([width, height], [1280, 720], "the camera's full resolution")
            var stored: Texture?
            Task { stored = try? await Texture.load(path: row.photoPath, maxSize: 1280) }
            spin(until: { stored != nil }, "stored photo decodes")
            XCTAssertFalse(stored!.isSingleColor, "the stored photo is not blank")
            XCTAssertNotNil(ImageMetadata.dateTaken(uri: photo.uri), "EXIF date taken is set")
            XCTAssertEqual(app.myProfile.feedItems.first?.commentLabel.text, "Snapped", "first in my feed")
        }
    }

    func testQuickSnapPresentsTheSameCameraPageAloneWithItsOwnBar() throws {
        try onMain {
            let app = try makeApp(cameras: [.test])
            var results: [CommentedPhotoFlow<Post>.Result] = []
            app.onFlowEnded = { if case .post(let result) = $0 { results.append(result) } }
            XCTAssertTrue(app.myProfile.quickSnapButton!.hasAccessibleLabel("Quick Snap"))
            app.myProfile.quickSnapButton!.activate()
            spin(until: { ((self.dialog?.stack.visiblePage as? CameraPage)?.camera?.frameCount ?? 0) >= 3 }, timeout: 20, "quick snap")
            let dialog = self.dialog!
            let camera = dialog.stack.visiblePage as! CameraPage
            XCTAssertTrue(camera.isShowingStandaloneBar, "presented alone: its own bar")
            XCTAssertEqual(camera.titleView.titleLabel.text, "Quick Snap")
            XCTAssertTrue(camera.standaloneBar.contains(dialog.closeButton.widget), "Close at the start of its own bar")
            XCTAssertTrue(dialog.closeButton.isMapped)
            XCTAssertFalse(dialog.stack.headerBar.isVisible, "no second bar")
            XCTAssertFalse(dialog.cancelButton.isMapped)

            camera.shutterButton.activate()
            spin(until: { dialog.stack.visiblePage is CommentPage }, "Add a Comment in the same dialog")
            XCTAssertTrue(dialog.stack.headerBar.isVisible, "the pushed page shows the dialog's bar")
            XCTAssertFalse(camera.isShowingStandaloneBar)
            XCTAssertTrue(dialog.stack.backButton.isVisible)
            spin(until: { camera.camera?.state == .paused }, "a covered preview pauses")
            dialog.stack.goBack()
            spin(until: { camera.camera?.state == .playing }, "shown again, it plays")
            XCTAssertTrue(camera.isShowingStandaloneBar, "back on the camera, its own bar again")
            XCTAssertFalse(dialog.stack.headerBar.isVisible)
            spin(until: { camera.shutterButton.isSensitive }, "shutter ready")
            camera.shutterButton.activate()
            spin(until: { dialog.stack.visiblePage is CommentPage }, "Add a Comment again")
            let commentPage = dialog.stack.visiblePage as! CommentPage
            commentPage.commentView.text = "Quick one"
            postWhenReady(commentPage)
            spin(until: { results.count == 1 }, "posted")
            XCTAssertEqual(try app.store.posts(onProfile: "me").first?.comment, "Quick one")
            XCTAssertEqual(app.myProfile.feedItems.first?.commentLabel.text, "Quick one")

            // Close leaves at once (nothing typed), and the pipeline goes with the dialog.
            app.myProfile.quickSnapButton!.activate()
            spin(until: { (self.dialog?.stack.visiblePage as? CameraPage)?.camera?.state == .playing }, timeout: 20, "again")
            let second = self.dialog!
            weak let pipeline = (second.stack.visiblePage as? CameraPage)?.camera
            second.closeButton.activate()
            spin(until: { results.count == 2 }, "closed")
            XCTAssertEqual(results[1], .canceled)
            spin(until: { pipeline == nil || pipeline?.state == .released }, "released")
        }
    }

    func testEveryWayOutReleasesThePipelineAndItsThreads() throws {
        try onMain {
            let app = try makeApp(cameras: [.test])
            var ended = 0
            app.onFlowEnded = { _ in ended += 1 }
            let ways = ["Back", "Escape", "Cancel", "closing the dialog"]
            for way in ways {
                app.myProfile.postButton.activate()
                spin(until: { (self.dialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
                settle()
                let before = threadCount
                (dialog!.stack.visiblePage as! PhotoPickerPage).takePhotoButton.activate()
                spin(until: { ((self.dialog?.stack.visiblePage as? CameraPage)?.camera?.frameCount ?? 0) >= 3 }, timeout: 20, way)
                let page = dialog!.stack.visiblePage as! CameraPage
                let camera = page.camera!
                XCTAssertTrue(threadNames.contains { $0.hasPrefix("camera-source") },
                              "\(way): GStreamer streams on a thread of its own (named after the source's pad): \(threadNames)")
                switch way {
                case "Back": dialog!.stack.backButton.activate()
                case "Escape": pressKey(XK_Escape)  // on a pushed page, Escape goes back
                case "Cancel": dialog!.cancelButton.activate()
                default: dialog!.window.close()
                }
                spin(until: { camera.state == .released }, "\(way): pipeline in NULL")
                // Its streaming thread has ended (GLib's pool keeps idle threads; the camera ends them).
                spin(until: { !self.threadNames.contains { $0.hasPrefix("camera-source") } && self.threadCount <= before },
                     timeout: 5, "\(way): no streaming thread left: \(self.threadNames), \(self.threadCount) > \(before)")
                if let dialog {
                    XCTAssertTrue(dialog.stack.visiblePage is PhotoPickerPage, "\(way): back on Choose a Photo")
                    XCTAssertNil(page.navigationStack)
                    dialog.cancelButton.activate()
                }
                spin(until: { self.dialog == nil }, "\(way): flow ended")
            }
            XCTAssertEqual(ended, ways.count)
        }
    }

    func testHidingTheWindowOrQuittingReleasesTheCamera() throws {
        try onMain {
            let app = try makeApp(cameras: [.test])
            var results: [FlowOutcome] = []
            app.onFlowEnded = { results.append($0) }
            app.myProfile.quickSnapButton!.activate()
            spin(until: { (self.dialog?.stack.visiblePage as? CameraPage)?.camera?.state == .playing }, timeout: 20, "playing")
            let dialog = self.dialog!
            let page = dialog.stack.visiblePage as! CameraPage
            dialog.window.isVisible = false
            spin(until: { page.camera?.state == .released }, "a hidden window releases the camera")
            spin(until: { !self.threadNames.contains { $0.hasPrefix("camera-source") } }, "no streaming thread left: \(threadNames)")
            dialog.window.present()
            spin(until: { page.camera?.state == .playing && (page.camera?.frameCount ?? 0) > 0 }, timeout: 20, "shown again, it plays")
            weak let camera = page.camera
            app.shutdown()  // what quitting does
            spin(until: { results.count == 1 }, "the flow ends as the app quits")
            XCTAssertEqual(results, [.post(.canceled)])
            spin(until: { camera == nil || camera?.state == .released }, "released on quit")
            spin(until: { !self.threadNames.contains { $0.hasPrefix("camera-source") } }, "no streaming thread left")
        }
    }

    func testAMissingCameraSaysSoAndChooseAPhotoInsteadGoesBack() throws {
        try onMain {
            let app = try makeApp(cameras: [.device(path: "/dev/video99")])
            app.myProfile.postButton.activate()
            spin(until: { (self.dialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
            let picker = dialog!.stack.visiblePage as! PhotoPickerPage
            picker.takePhotoButton.activate()
            spin(until: { (self.dialog?.stack.visiblePage as? CameraPage)?.problem != nil }, timeout: 20, "problem")
            let camera = dialog!.stack.visiblePage as! CameraPage
            XCTAssertEqual(camera.problem?.kind, .noCamera)
            XCTAssertEqual(camera.problemTitle, "No Camera Found")
            XCTAssertTrue(camera.problemDetail.contains("/dev/video99"), camera.problemDetail)
            XCTAssertTrue(camera.chooseInsteadButton.isMapped)
            XCTAssertFalse(camera.shutterButton.isMapped, "no shutter without a picture")
            XCTAssertNil(camera.camera, "nothing left running")
            camera.chooseInsteadButton.activate()
            spin(until: { self.dialog?.stack.visiblePage === picker }, "back to Choose a Photo")
            picker.grid.activateItem(at: 0)
            spin(until: { self.dialog?.stack.visiblePage is CommentPage }, "the flow goes on with a chosen photo")
        }
    }

    /// `--camera image:FILE` with a FIFO froze the window as soon as the camera opened (GStreamer's blocking
    /// open on the main thread), and a 16000 × 16000 PNG (31 KB on disk) cost 2.6 GB before it failed: both
    /// are refused before GStreamer sees them, off the main thread, saying why, and the window stays live.
    func testAPictureCameraThatIsAFIFOOrHugeIsRefusedBeforeItIsOpened() throws {
        let folder = makeTemporaryDirectory()
        let fifo = folder + "/camera.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let huge = folder + "/huge.png"
        try PhotoFixtures.pngHeader(width: 16000, height: 16000).write(to: URL(fileURLWithPath: huge))
        for (path, why) in [(fifo, "It is not a regular file (a pipe or a device), so it is not opened"),
                            (huge, "it is 16000 × 16000 pixels; a picture shown as a camera is at most 4096 × 4096")] {
            try onMain {
                let app = try makeApp(cameras: [.image(path: path)])
                app.myProfile.postButton.activate()
                spin(until: { (self.dialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
                (dialog!.stack.visiblePage as! PhotoPickerPage).takePhotoButton.activate()
                var ticks = 0
                let ticking = MainLoopBridge.repeating(milliseconds: 10) { ticks += 1; return true }
                defer { MainLoopBridge.cancel(ticking) }
                spin(until: { (self.dialog?.stack.visiblePage as? CameraPage)?.problem != nil }, timeout: 10, "the problem")
                XCTAssertGreaterThan(ticks, 0, "the main loop kept running")
                let camera = dialog!.stack.visiblePage as! CameraPage
                XCTAssertEqual(camera.problemTitle, "The Picture Can't Be Shown")
                XCTAssertTrue(camera.problemDetail.contains(why), camera.problemDetail)
                XCTAssertNil(camera.camera, "nothing left running")
                dialog!.cancelButton.activate()
                spin(until: { app.activeFlow == nil }, "the flow canceled")
            }
        }
    }

    func testTwoCamerasShowASwitcher() throws {
        try onMain {
            let app = try makeApp(cameras: [.test, .test])
            let page = openCamera(in: app)
            let switcher = try XCTUnwrap(page.cameraSwitcher, "a switcher with two cameras")
            XCTAssertEqual(switcher.choices, ["Test Picture", "Test Picture 2"])
            XCTAssertTrue(switcher.isMapped, "in the bar showing the page")
            let first = page.camera
            switcher.selectedIndex = 1
            spin(until: { page.camera !== first && (page.camera?.frameCount ?? 0) >= 2 }, timeout: 20, "second camera")
            XCTAssertEqual(page.camera?.device.name, "Test Picture 2")
            XCTAssertNil(page.problem)
        }
    }

    func testAPhotoThatCannotBeSavedSaysWhyAndTheShutterStaysReady() throws {
        try onMain {
            let app = try makeApp(cameras: [.test])
            // A file where the capture folder should be: the folder cannot be made.
            XCTAssertTrue(FileManager.default.createFile(atPath: app.camera.captureDirectory.text, contents: Data("x".utf8)))
            let camera = openCamera(in: app)
            camera.shutterButton.activate()
            spin(until: { camera.errorLabel.isVisible }, "the failure is shown")
            XCTAssertTrue(camera.errorLabel.text.hasPrefix("Couldn't save the photo: Could not create folder"), camera.errorLabel.text)
            XCTAssertEqual(camera.errorLabel.text.components(separatedBy: "save the photo").count, 2, "said once")
            XCTAssertTrue(dialog?.stack.visiblePage === camera, "still on the camera")
            spin(until: { camera.shutterButton.isSensitive && camera.shutterButton.hasFocus }, "ready again, with focus")
            dialog?.cancelButton.activate()
        }
    }
}
