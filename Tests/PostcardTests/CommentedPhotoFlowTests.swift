import Adwaita
import CGtk
import CXTest
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel
@testable import PostcardStore
import XCTest

/// Drives the real flow through its widgets, from a host window with one page.
@MainActor
final class FlowHarness {
    let rootPage = Page(title: "Host")
    let host: NavigationWindow
    let library: PhotoLibrary
    var results: [CommentedPhotoFlow<CommentedPhoto>.Result] = []
    var submitted: [String] = []
    var failSubmitWith: String?
    var task: Task<Void, Never>?
    /// What the flow kept as its draft: nil when removed (or never saved).
    var draft: (photo: String, comment: String)?
    var draftSaves = 0

    convenience init(library: String) { self.init(library: FilePath(library)) }

    init(library: FilePath) {
        self.library = PhotoLibrary(directory: library)
        let opener = Button(label: "Open Flow")
        rootPage.content.append(opener)
        host = NavigationWindow(root: rootPage, width: 800, height: 600)
    }

    private(set) var flow: CommentedPhotoFlow<CommentedPhoto>?
    /// Told of each flow made (the test follows its lifetime).
    var onFlowMade: ((AnyObject) -> Void)?

    func start() {
        let drafts = CommentDrafts(save: { [weak self] photo, comment, done in
            self?.draft = (photo.fileName, comment)
            self?.draftSaves += 1
            done(nil)
        }, remove: { [weak self] in self?.draft = nil })
        drafts.delay = 0.2
        let flow = CommentedPhotoFlow<CommentedPhoto>(library: library, drafts: drafts) { [weak self] photo, comment in
            if let message = self?.failSubmitWith { throw GLibError(message: message, domain: "test-error-quark") }
            self?.submitted.append(comment)
            return CommentedPhoto(photo: photo, comment: comment)
        }
        self.flow = flow
        onFlowMade?(flow)
        task = Task {
            let result = await flow.run(from: rootPage)
            results.append(result)
            self.flow = nil
        }
    }

    var dialog: ModalDialog? { flow?.dialog }
    var picker: PhotoPickerPage? { dialog?.stack.visiblePage as? PhotoPickerPage }
    var commentPage: CommentPage? { dialog?.stack.visiblePage as? CommentPage }
}

final class CommentedPhotoFlowTests: GtkTestCase, @unchecked Sendable {
    /// Shows the host, starts the flow, and waits for the picker with all thumbnails loaded.
    @MainActor
    private func startedFlow(library: String? = nil) -> FlowHarness {
        let harness = FlowHarness(library: library ?? bundledPhotos)
        harness.onFlowMade = { [weak self] in self?.track($0) }
        show(harness.host.window)
        harness.start()
        spin(until: { harness.picker != nil && harness.picker!.hasSettled == true }, "picker loaded")
        spin(until: { harness.dialog.map { gtk_window_is_active($0.window.pointer()) != 0 } ?? false }, "dialog active")
        return harness
    }

    /// Chooses the photo named `name` in the grid, as a click would, and waits for Add a Comment.
    @MainActor
    private func choose(_ name: String, in harness: FlowHarness) {
        let picker = harness.picker!
        let index = picker.photos.firstIndex { $0.fileName == name }!
        picker.grid.activateItem(at: index)
        spin(until: { harness.commentPage != nil && harness.dialog?.stack.transition == .idle }, "comment page")
    }

    @MainActor
    private func assertEndedOnce(_ harness: FlowHarness, _ expected: CommentedPhotoFlow<CommentedPhoto>.Result,
                                 file: StaticString = #filePath, line: UInt = #line) {
        spin(until: { !harness.results.isEmpty }, "flow result", file: file, line: line)
        settle()
        XCTAssertEqual(harness.results, [expected], file: file, line: line)
        XCTAssertNil(harness.dialog, "the dialog is gone", file: file, line: line)
        XCTAssertEqual(Gtk.Window.all().count, 1, "only the host window is left", file: file, line: line)
    }

    func testDialogIsModalTransientWithCancelAndAccessibleTiles() {
        onMain {
            let harness = startedFlow()
            let dialog = harness.dialog!
            XCTAssertTrue(dialog.window.isModal)
            XCTAssertEqual(dialog.window.transientParent, harness.host.window.pointer())
            XCTAssertEqual(dialog.stack.titleLabel.text, "Choose a Photo")
            XCTAssertTrue(dialog.cancelButton.hasAccessibleLabel("Cancel"))
            XCTAssertEqual(dialog.cancelButton.label, "Cancel")
            XCTAssertFalse(dialog.stack.backButton.isVisible, "no Back on the first page")
            let picker = harness.picker!
            XCTAssertTrue(picker.openFileButton.hasAccessibleLabel("Open File…"))
            XCTAssertTrue(picker.openFileButton.isMapped, "Open File… is in the dialog's bar")
            XCTAssertEqual(picker.photos.map(\.fileName).sorted(), [
                "astronaut.png", "brick.png", "chelsea.png", "coffee.png", "grass.png",
                "hubble_deep_field.jpg", "retina.jpg", "rocket.jpg"])
            XCTAssertEqual(picker.boundTiles.count, 8, "every tile of a small library exists")
            for (position, tile) in picker.boundTiles {
                let name = picker.photos[position].fileName
                XCTAssertEqual(tile.caption.text, name)
                XCTAssertTrue(tile.listItem!.hasAccessibleLabel(name), "tile of \(name)")
                XCTAssertTrue(tile.picture.isMapped && tile.picture.texture != nil, "\(name) shows its thumbnail")
            }
            XCTAssertTrue(picker.photos.allSatisfy { picker.failure(of: $0) == nil })
        }
    }

    func testCancelOnChooseAPhotoReturnsCanceledOnce() {
        onMain {
            let harness = startedFlow()
            harness.dialog!.cancelButton.activate()
            assertEndedOnce(harness, .canceled)
            XCTAssertTrue(harness.submitted.isEmpty)
        }
    }

    func testCancelOnAddACommentReturnsCanceledOnce() {
        onMain {
            let harness = startedFlow()
            choose("coffee.png", in: harness)
            XCTAssertTrue(harness.dialog!.cancelButton.isMapped, "the same Cancel is on page 2")
            harness.dialog!.cancelButton.activate()
            assertEndedOnce(harness, .canceled)
            XCTAssertTrue(MessageDialog.shown().isEmpty, "nothing typed: no question")
            XCTAssertTrue(harness.submitted.isEmpty)
        }
    }

    func testEscapeOnChooseAPhotoCancelsAndDoesNotTouchTheHost() {
        onMain {
            let harness = startedFlow()
            pressKey(XK_Escape)
            assertEndedOnce(harness, .canceled)
            XCTAssertEqual(harness.host.stack.pages.count, 1)
        }
    }

    func testClosingTheDialogWindowCancels() {
        onMain {
            let harness = startedFlow()
            harness.dialog!.window.close()  // what the window manager's close button does
            assertEndedOnce(harness, .canceled)
        }
    }

    func testPostReturnsPostedOnceAndClosesDialog() {
        onMain {
            let harness = startedFlow()
            choose("rocket.jpg", in: harness)
            let page = harness.commentPage!
            XCTAssertEqual(harness.dialog!.stack.titleLabel.text, "Add a Comment")
            XCTAssertTrue(page.commentView.hasFocus, "the comment field is focused")
            XCTAssertFalse(page.postButton.isSensitive, "nothing to post yet")
            XCTAssertTrue(page.postButton.hasAccessibleLabel("Post"))
            XCTAssertTrue(page.postButton.hasCSSClass("suggested-action"))
            page.commentView.text = "Liftoff!"
            XCTAssertTrue(page.postButton.isSensitive)
            postWhenReady(page)
            page.postButton.activate()  // a double-click posts once
            assertEndedOnce(harness, .posted(CommentedPhoto(photo: Photo(path: bundledPhotos + "/rocket.jpg"), comment: "Liftoff!")))
            XCTAssertEqual(harness.submitted, ["Liftoff!"])
        }
    }

    /// What an observer of the flow hears (a journey recorder): each report and request after the flow
    /// acted on it, in order, once each.
    func testAnObserverHearsEachChoiceCommentBackCancelAndDiscardAnswerInOrder() {
        onMain {
            let harness = startedFlow()
            var heard: [PhotoFlowEvent] = []
            let token = harness.flow!.observeEvents { event in
                heard.append(event)
                if case .photoChosen = event { XCTAssertNotNil(harness.commentPage, "heard after Add a Comment was pushed") }
            }
            choose("coffee.png", in: harness)
            harness.commentPage!.commentView.text = "first"
            harness.dialog!.stack.goBack()
            spin(until: { harness.picker != nil && harness.dialog!.stack.transition == .idle }, "back on Choose a Photo")
            choose("rocket.jpg", in: harness)
            harness.dialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "question")
            MessageDialog.shown()[0].keepButton.activate()
            spin(until: { MessageDialog.shown().isEmpty }, "question closed")
            harness.dialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "question again")
            MessageDialog.shown()[0].confirmButton.activate()
            assertEndedOnce(harness, .canceled)
            let coffee = Photo(path: FilePath(bundledPhotos).appending("coffee.png"))
            let rocket = Photo(path: FilePath(bundledPhotos).appending("rocket.jpg"))
            XCTAssertEqual(heard, [.photoChosen(coffee), .commentChanged("first"), .wentBack, .photoChosen(rocket),
                                   .cancelRequested, .discardQuestionAsked, .discardAnswered(.keepEditing),
                                   .cancelRequested, .discardQuestionAsked, .discardAnswered(.discard)])
            token.cancel()
        }
    }

    func testCancelAfterTypingAsksOnceKeepEditingKeepsTheCommentDiscardEnds() {
        onMain {
            let harness = startedFlow()
            choose("coffee.png", in: harness)
            let page = harness.commentPage!
            page.commentView.text = "typed but not posted"
            harness.dialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "question")
            let question = MessageDialog.shown()[0]
            XCTAssertEqual(question.heading, "Discard this post?")
            XCTAssertTrue(question.keepButton.hasAccessibleLabel("Keep Editing"))
            XCTAssertTrue(question.confirmButton.hasAccessibleLabel("Discard"))
            harness.dialog!.cancelButton.activate()  // a second Cancel while asking asks nothing more
            settle()
            XCTAssertEqual(MessageDialog.shown().count, 1)
            question.keepButton.activate()
            spin(until: { MessageDialog.shown().isEmpty }, "question closed")
            XCTAssertTrue(harness.results.isEmpty)
            XCTAssertEqual(page.commentView.text, "typed but not posted", "Keep Editing keeps the comment")
            XCTAssertTrue(harness.commentPage === page)

            _ = page.commentView.grabFocus()
            harness.dialog!.window.close()  // the window manager's close asks too
            spin(until: { !MessageDialog.shown().isEmpty }, "question again")
            pressKey(XK_Escape)  // Escape in the question means Keep Editing
            spin(until: { MessageDialog.shown().isEmpty }, "question closed by Escape")
            XCTAssertTrue(harness.results.isEmpty)
            spin(until: { harness.dialog!.window.isActive && page.commentView.isFocus }, timeout: 3,
                 "keyboard focus back where it was: the dialog's window active, the comment focused")

            harness.dialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "question a third time")
            MessageDialog.shown()[0].confirmButton.activate()
            assertEndedOnce(harness, .canceled)
            XCTAssertTrue(harness.submitted.isEmpty)
        }
    }

    func testDraftIsKeptWhenGoingBackToChooseAnotherPhoto() {
        onMain {
            let harness = startedFlow()
            choose("coffee.png", in: harness)
            harness.commentPage!.commentView.text = "A draft"
            harness.dialog!.stack.backButton.activate()
            spin(until: { harness.picker != nil && harness.dialog?.stack.transition == .idle }, "picker")
            choose("brick.png", in: harness)
            XCTAssertEqual(harness.commentPage?.commentView.text, "A draft")
            XCTAssertEqual(harness.commentPage?.photo.fileName, "brick.png")
        }
    }

    func testControlReturnPostsAndReturnInsertsNewline() {
        onMain {
            let harness = startedFlow()
            choose("chelsea.png", in: harness)
            let page = harness.commentPage!
            pressKey(XK_c)
            pressKey(XK_Return)
            pressKey(XK_a)
            XCTAssertEqual(page.commentView.text, "c\na", "Return inserts a newline")
            XCTAssertTrue(harness.results.isEmpty)
            spin(until: { page.hasDecodedPhoto }, "the photo shows")
            pressKey(XK_Return, modifiers: [XK_Control_L])
            assertEndedOnce(harness, .posted(CommentedPhoto(photo: Photo(path: bundledPhotos + "/chelsea.png"), comment: "c\na")))
        }
    }

    func testBackOnAddACommentReturnsToTheSameGrid() {
        onMain {
            let harness = startedFlow()
            let picker = harness.picker!
            choose("grass.png", in: harness)
            XCTAssertTrue(harness.dialog!.stack.backButton.isVisible)
            XCTAssertTrue(harness.dialog!.stack.backButton.hasAccessibleLabel("Back"))
            XCTAssertEqual(harness.dialog!.stack.backButton.tooltip, "Choose a Photo")
            harness.dialog!.stack.backButton.activate()
            spin(until: { harness.dialog?.stack.transition == .idle && harness.picker != nil }, "back on picker")
            XCTAssertTrue(harness.picker === picker, "the same picker page, not a new one")
            XCTAssertEqual(picker.photos.count, 8)
            XCTAssertEqual(picker.boundTiles.filter { $0.tile.picture.isMapped }.count, 8, "grid intact and shown")
            XCTAssertTrue(harness.results.isEmpty, "Back does not end the flow")
            choose("brick.png", in: harness)
            XCTAssertEqual(harness.commentPage?.photo.fileName, "brick.png")
        }
    }

    func testFailedSubmitKeepsDialogOpenWithCommentAndError() {
        onMain {
            let harness = startedFlow()
            harness.failSubmitWith = "The disk is full"
            choose("coffee.png", in: harness)
            let page = harness.commentPage!
            page.commentView.text = "Morning"
            postWhenReady(page)
            spin(until: { page.errorLabel.isVisible }, "error shown")
            XCTAssertTrue(page.errorLabel.text.contains("The disk is full"), page.errorLabel.text)
            XCTAssertEqual(page.commentView.text, "Morning", "the draft is kept")
            XCTAssertTrue(harness.results.isEmpty)
            XCTAssertNotNil(harness.dialog)
            XCTAssertTrue(page.postButton.isSensitive, "can try again")
            harness.failSubmitWith = nil
            postWhenReady(page)
            assertEndedOnce(harness, .posted(CommentedPhoto(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "Morning")))
        }
    }

    func testUnreadablePhotoShowsAsSuchAndTheRestStillWork() {
        onMain {
            let folder = makeTemporaryDirectory()
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/broken.png", contents: Data("not a png".utf8)))
            try? FileManager.default.copyItem(atPath: bundledPhotos + "/coffee.png", toPath: folder + "/coffee.png")
            let harness = startedFlow(library: folder)
            let picker = harness.picker!
            XCTAssertEqual(Set(picker.photos.map(\.fileName)), ["broken.png", "coffee.png"])
            let broken = picker.photos.firstIndex { $0.fileName == "broken.png" }!
            XCTAssertEqual(picker.photos.filter { picker.failure(of: $0) != nil }.map(\.fileName), ["broken.png"])
            let tile = picker.boundTiles.first { $0.position == broken }!.tile
            XCTAssertTrue(tile.problemLabel.isMapped)
            XCTAssertEqual(tile.problemLabel.text, "Can't open this photo")
            XCTAssertFalse(tile.picture.isMapped, "no thumbnail, a placeholder")
            picker.grid.activateItem(at: broken)
            settle()
            XCTAssertTrue(harness.picker === picker, "an unreadable photo cannot be chosen")
            choose("coffee.png", in: harness)
            XCTAssertNotNil(harness.commentPage)
        }
    }

    func testMissingLibraryFolderSaysSoAndOpenFileStillWorks() {
        onMain {
            let harness = startedFlow(library: "/nonexistent/photos")
            let picker = harness.picker!
            XCTAssertTrue(picker.emptyState.isVisible)
            XCTAssertTrue(picker.emptyState.text.contains("/nonexistent/photos"), picker.emptyState.text)
            XCTAssertTrue(picker.openFileButton.isSensitive)
            harness.dialog!.cancelButton.activate()
            assertEndedOnce(harness, .canceled)
        }
    }

    func testBackAndEscapeWaitWhilePostingSoAFailureIsSeen() {
        onMain {
            let root = Page(title: "Root")
            let host = NavigationWindow(root: root)
            show(host.window)
            var results: [CommentedPhotoFlow<CommentedPhoto>.Result] = []
            let flow = CommentedPhotoFlow<CommentedPhoto>(library: PhotoLibrary(directory: bundledPhotos)) { _, _ in
                try await Task.sleep(for: .milliseconds(600))
                throw GLibError(message: "disk full", domain: "test-error-quark")
            }
            track(flow)
            Task { [weak flow] in if let flow { results.append(await flow.run(from: root)) } }
            spin(until: { (flow.dialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
            let dialog = flow.dialog!
            spin(until: { dialog.window.isActive }, "dialog active")
            (dialog.stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
            spin(until: { dialog.stack.visiblePage is CommentPage && dialog.stack.transition == .idle }, "comment page")
            let page = dialog.stack.visiblePage as! CommentPage
            page.commentView.text = "important"
            postWhenReady(page)
            spin(until: { page.isBusy }, "posting")
            pressKey(XK_Escape)
            dialog.stack.backButton.activate()
            spin(until: { page.errorLabel.isVisible }, "failure shown")
            XCTAssertTrue(dialog.stack.visiblePage === page, "still on Add a Comment, where the error is")
            XCTAssertTrue(page.errorLabel.text.contains("disk full"))
            XCTAssertEqual(page.commentView.text, "important")
            XCTAssertTrue(results.isEmpty)
            dialog.window.destroy()
            spin(until: { results == [.canceled] }, "ended")
        }
    }

    func testTheTypedCommentIsKeptAsADraftAMomentAfterEachChange() {
        onMain {
            let harness = startedFlow()
            choose("coffee.png", in: harness)
            let page = harness.commentPage!
            page.commentView.text = "First"
            page.commentView.text = "First words"
            XCTAssertNil(harness.draft, "not written key by key")
            spin(until: { harness.draft != nil }, "saved a moment later")
            XCTAssertEqual(harness.draft?.comment, "First words")
            XCTAssertEqual(harness.draft?.photo, "coffee.png")
            XCTAssertEqual(harness.draftSaves, 1, "one save for a burst of changes")
            postWhenReady(page)
            assertEndedOnce(harness, .posted(CommentedPhoto(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "First words")))
            XCTAssertNil(harness.draft, "posting removes the draft")
        }
    }

    func testADraftIsKeptWhenTheWindowGoesAndRemovedWhenTheUserDiscardsIt() {
        onMain {
            let harness = startedFlow()
            choose("rocket.jpg", in: harness)
            harness.commentPage!.commentView.text = "Typed just now"
            harness.dialog!.window.destroy()  // the app quits, the window is closed under it
            spin(until: { !harness.results.isEmpty }, "ended")
            XCTAssertEqual(harness.results, [.canceled])
            XCTAssertEqual(harness.draft?.comment, "Typed just now", "saved at once, not lost with the pending save")
            XCTAssertEqual(harness.draft?.photo, "rocket.jpg")

            let second = startedFlow()
            choose("chelsea.png", in: second)
            second.commentPage!.commentView.text = "Not this one"
            spin(until: { second.draft != nil }, "saved")
            second.dialog!.cancelButton.activate()
            spin(until: { !MessageDialog.shown().isEmpty }, "the discard question")
            MessageDialog.shown()[0].confirmButton.activate()
            spin(until: { !second.results.isEmpty }, "ended")
            XCTAssertNil(second.draft, "the user discarded it")
        }
    }

}
