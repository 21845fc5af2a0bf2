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

/// Every way a flow can end resolves its `await` exactly once, dismisses what it showed, and leaves no
/// page or flow object alive.
final class FlowEndingTests: GtkTestCase, @unchecked Sendable {
    @MainActor
    private final class Run {
        let counter = LifeCounter()
        let host: NavigationWindow
        let anchor: CountedPage
        var results: [CommentedPhotoFlow<CommentedPhoto>.Result] = []
        var flow: CommentedPhotoFlow<CommentedPhoto>?
        var task: Task<Void, Never>?

        init(library: String, presentation: Presentation, pushAnchor: Bool = false) {
            let root = CountedPage("Root", counter: counter)
            host = NavigationWindow(root: root, width: 640, height: 520)
            anchor = pushAnchor ? CountedPage("Thread", counter: counter) : root
            if pushAnchor { host.stack.push(anchor) }
            let flow = CommentedPhotoFlow(library: PhotoLibrary(directory: library), presentation: presentation)
            self.flow = flow
            // Weak captures: a finished Task may keep its closure, which must not keep the flow alive.
            task = Task { [anchor, weak flow] in
                guard let flow else { return }
                let result = await flow.run(from: anchor)
                self.results.append(result)
                self.flow = nil
            }
        }

        var stack: NavigationStack? { flow?.stack }
    }

    /// A folder with one small photo, so hundreds of runs decode little.
    private var smallLibrary: String {
        let folder = makeTemporaryDirectory()
        try? FileManager.default.copyItem(atPath: bundledPhotos + "/brick.png", toPath: folder + "/brick.png")
        return folder
    }

    @MainActor
    private func started(_ presentation: Presentation = .modal, pushAnchor: Bool = false, library: String? = nil) -> Run {
        let run = Run(library: library ?? smallLibrary, presentation: presentation, pushAnchor: pushAnchor)
        if let flow = run.flow { track(flow) }
        show(run.host.window)
        spin(until: { run.stack?.visiblePage is PhotoPickerPage && run.stack?.transition == .idle }, "picker shown")
        return run
    }

    @MainActor
    private func expectEndedOnce(_ run: Run, _ expected: CommentedPhotoFlow<CommentedPhoto>.Result = .canceled, onAnchor: Bool = true,
                                 file: StaticString = #filePath, line: UInt = #line) {
        spin(until: { !run.results.isEmpty }, "result", file: file, line: line)
        settle()
        XCTAssertEqual(run.results, [expected], file: file, line: line)
        spin(until: { Gtk.Window.all().count == 1 }, "only the host window left", file: file, line: line)
        spin(until: { run.host.stack.transition == .idle }, "host settled", file: file, line: line)
        if onAnchor {
            XCTAssertTrue(run.host.stack.visiblePage === run.anchor, "back exactly where it started", file: file, line: line)
        }
        spin(until: { self.flowsAlive == 0 }, "flow freed", file: file, line: line)
    }

    @MainActor
    private func chooseFirstPhoto(_ run: Run) -> CommentPage {
        let picker = run.stack!.visiblePage as! PhotoPickerPage
        spin(until: { picker.hasSettled == true }, "thumbnails")
        picker.grid.activateItem(at: 0)
        spin(until: { run.stack?.visiblePage is CommentPage && run.stack?.transition == .idle }, "comment page")
        return run.stack!.visiblePage as! CommentPage
    }

    func testDoubleClickOnCancelResolvesOnce() {
        onMain {
            let run = started()
            run.flow!.dialog!.cancelButton.activate()
            run.flow?.dialog?.cancelButton.activate()
            expectEndedOnce(run)
        }
    }

    func testCancelDuringATransitionResolvesOnce() {
        onMain {
            let run = started()
            let picker = run.stack!.visiblePage as! PhotoPickerPage
            spin(until: { picker.hasSettled == true }, "thumbnails")
            let dialog = run.flow!.dialog!
            picker.grid.activateItem(at: 0)
            spin(until: { dialog.stack.transition.isRunning }, "push transition running")
            dialog.cancelButton.activate()
            expectEndedOnce(run)
        }
    }

    func testClosingTheDialogRightAfterPresentingResolvesOnce() {
        onMain {
            let counter = LifeCounter()
            let host = NavigationWindow(root: CountedPage("Root", counter: counter))
            show(host.window)
            var results: [CommentedPhotoFlow<CommentedPhoto>.Result] = []
            // The flow presents its dialog and the same main-actor turn closes it.
            Task {
                let flow = CommentedPhotoFlow(library: PhotoLibrary(directory: self.bundledPhotos))
                self.track(flow)
                Task { [weak flow] in
                    guard let flow else { return }
                    results.append(await flow.run(from: host.stack.visiblePage!))
                }
                await Task.yield()
                flow.dialog?.window.close()
                flow.dialog?.window.destroy()
            }
            spin(until: { !results.isEmpty }, "result")
            settle()
            XCTAssertEqual(results, [.canceled])
            XCTAssertEqual(Gtk.Window.all().count, 1)
        }
    }

    func testDestroyingTheDialogResolvesOnce() {
        onMain {
            let run = started()
            run.flow!.dialog!.window.destroy()
            expectEndedOnce(run)
        }
    }

    func testCancellingTheCallersTaskResolvesOnce() {
        onMain {
            let run = started()
            run.task!.cancel()
            expectEndedOnce(run)
        }
    }

    func testCancellingTheCallersTaskEndsAPushedFlowToo() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            XCTAssertEqual(run.host.stack.pages.count, 3)
            run.task!.cancel()
            expectEndedOnce(run)
            XCTAssertEqual(run.host.stack.pages.count, 2)
        }
    }

    func testReplacingTheStackUnderAPushedFlowEndsIt() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            let root = run.host.stack.pages[0]
            run.host.stack.replace(with: [root], animated: false)
            expectEndedOnce(run, onAnchor: false)
            XCTAssertEqual(run.host.stack.pages.map(\.title), ["Root"])
            XCTAssertNil(findButton(labeled: "Cancel", in: run.host.stack.headerBar), "Cancel gone with the flow")
        }
    }

    func testPoppingToAPageBelowAPushedFlowEndsIt() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            run.host.stack.popToRoot()
            expectEndedOnce(run, onAnchor: false)
            XCTAssertEqual(run.host.stack.pages.map(\.title), ["Root"], "the caller's own pop is kept")
        }
    }

    func testNoHandlerOrChooserOutlivesFiftyDialogs() {
        onMain {
            let root = Page(title: "Root")
            let host = NavigationWindow(root: root)
            show(host.window)
            /// The handlers connected to `signal` on the host window (found one by one: each found is
            /// blocked so the next search finds another, then all are unblocked).
            @MainActor func handlers(_ signal: String) -> Int {
                let instance = UnsafeMutableRawPointer(host.window.gobject)
                let id = g_signal_lookup(signal, gtk_widget_get_type())
                let mask = GSignalMatchType(rawValue: G_SIGNAL_MATCH_ID.rawValue | G_SIGNAL_MATCH_UNBLOCKED.rawValue)
                var found: [gulong] = []
                while case let handler = g_signal_handler_find(instance, mask, id, 0, nil, nil, nil), handler != 0 {
                    found.append(handler)
                    g_signal_handler_block(instance, handler)
                }
                for handler in found { g_signal_handler_unblock(instance, handler) }
                return found.count
            }
            let before = handlers("unrealize")
            for index in 0..<50 {
                do {
                    let dialog = ModalDialog(over: root, presenting: Page(title: "Dialog \(index)"))
                    dialog.present()
                    if index == 0 { XCTAssertGreaterThan(handlers("unrealize"), before, "the dialog watches its parent while open") }
                    let chooser = FileChooser(title: "Open", acceptLabel: "_Open", parent: host.window.pointer())
                    _ = chooser
                    dialog.dismiss()
                }
                MainLoopBridge.drain()
            }
            settle()
            XCTAssertEqual(handlers("unrealize"), before, "every dialog and chooser let go of the window it was over")
        }
    }

    func testTheFileChooserReturnsWhenItsTaskIsCancelledOrItsWindowGoes() {
        onMain {
            let host = NavigationWindow(root: Page(title: "Root"))
            show(host.window)
            var results: [String?] = []
            let chooser = FileChooser(title: "Open", acceptLabel: "_Open", parent: host.window.pointer())
            let task = Task { @MainActor in results.append(await chooser.choose()) }
            // Not event-driven: GtkFileChooserNative asks the desktop portal, and where it has no file chooser
            // (here) falls back to its own dialog; cancelling or destroying the parent before GTK is done
            // with that makes GTK 4.8 cast a window it has let go of (a GObject warning). No signal says
            // when it is done; the chooser's window on screen comes earlier.
            spin(for: 0.3)
            task.cancel()
            spin(until: { results.count == 1 }, "choose() returns when its task is cancelled")
            XCTAssertEqual(results, [nil])

            let second = FileChooser(title: "Open", acceptLabel: "_Open", parent: host.window.pointer())
            Task { @MainActor in results.append(await second.choose()) }
            spin(for: 0.3)  // as above: GTK done with the portal's answer
            host.window.destroy()
            spin(until: { results.count == 2 }, "choose() returns when its window goes")
            XCTAssertEqual(results, [nil, nil])
        }
    }

    func testDestroyingTheWindowUnderAPushedFlowResolvesOnce() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            run.host.window.destroy()
            spin(until: { !run.results.isEmpty }, "result")
            settle()
            XCTAssertEqual(run.results, [.canceled])
        }
    }

    func testPushedFlowUsesTheCallersStackWithItsOwnCancelAndPopsBackExactly() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            let stack = run.host.stack
            XCTAssertTrue(run.stack === stack, "pushed onto the caller's stack, no dialog")
            XCTAssertNil(run.flow!.dialog)
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "Thread", "Choose a Photo"])
            XCTAssertEqual(Gtk.Window.all().count, 1)
            let cancel = findButton(labeled: "Cancel", in: stack.headerBar)
            XCTAssertNotNil(cancel, "the flow's own Cancel is in the bar")
            XCTAssertTrue(cancel?.hasAccessibleLabel("Cancel") ?? false)
            XCTAssertTrue(stack.backButton.isVisible)
            let page = chooseFirstPhoto(run)
            XCTAssertNotNil(findButton(labeled: "Cancel", in: stack.headerBar), "a Cancel on page 2 too")
            page.commentView.text = "A reply"
            postWhenReady(page)
            expectEndedOnce(run, .posted(CommentedPhoto(photo: Photo(path: page.photo.path), comment: "A reply")))
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "Thread"])
            XCTAssertNil(findButton(labeled: "Cancel", in: stack.headerBar), "Cancel gone with the flow")
        }
    }

    func testBackPastTheFirstPushedPageCancels() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            run.host.stack.backButton.activate()
            expectEndedOnce(run)
            XCTAssertTrue(MessageDialog.shown().isEmpty, "nothing typed: no question")
        }
    }

    func testEscapeOnTheFirstPushedPageCancels() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            pressKey(XK_Escape)
            expectEndedOnce(run)
        }
    }

    func testOwnCancelOfAPushedFlowCancels() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            findButton(labeled: "Cancel", in: run.host.stack.headerBar)!.activate()
            expectEndedOnce(run)
        }
    }

    func testBackPastTheFirstPushedPageWithATypedCommentAsksOnceFirst() {
        onMain {
            let run = started(.pushed, pushAnchor: true)
            let page = chooseFirstPhoto(run)
            page.commentView.text = "Draft reply"
            run.host.stack.backButton.activate()  // to Choose a Photo: the draft is kept, no question
            spin(until: { run.stack?.visiblePage is PhotoPickerPage && run.stack?.transition == .idle }, "picker")
            XCTAssertTrue(MessageDialog.shown().isEmpty)
            run.host.stack.backButton.activate()  // past the first page: ask
            spin(until: { !MessageDialog.shown().isEmpty }, "question")
            XCTAssertEqual(run.host.stack.pages.count, 3, "still on Choose a Photo while asking")
            XCTAssertTrue(run.results.isEmpty)
            MessageDialog.shown()[0].confirmButton.activate()
            expectEndedOnce(run)
        }
    }

    func testTwoHundredFlowOpenCancelCyclesLeaveNoFlowOrPageAlive() {
        onMain {
            let library = smallLibrary
            let counter = LifeCounter()
            let host = NavigationWindow(root: CountedPage("Root", counter: counter))
            show(host.window)
            var results = 0
            var pagesFinalized = 0
            for cycle in 0..<200 {
                let flow = CommentedPhotoFlow(library: PhotoLibrary(directory: library), presentation: cycle % 2 == 0 ? .modal : .pushed)
                track(flow)
                Task { [weak flow] in
                    guard let flow else { return }
                    _ = await flow.run(from: host.stack.pages[0])
                    results += 1
                }
                spin(until: { flow.stack?.visiblePage != nil }, "flow \(cycle) shown")
                flow.stack!.visiblePage!.view.whenFinalized { pagesFinalized += 1 }
                if cycle % 2 == 0 { flow.dialog!.cancelButton.activate() } else { flow.cancel() }
                spin(until: { results == cycle + 1 }, "flow \(cycle) ended")
            }
            spin(until: { self.flowsAlive == 0 && pagesFinalized == 200 && host.stack.transition == .idle },
                 "every flow and page freed")
            XCTAssertEqual(results, 200)
            XCTAssertEqual(self.flowsAlive, 0)
            XCTAssertEqual(pagesFinalized, 200)
            XCTAssertEqual(Gtk.Window.all().count, 1)
            XCTAssertEqual(host.stack.pages.count, 1)
        }
    }
}
