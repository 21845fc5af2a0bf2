import CGtk
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PostcardApp
import PostcardModel
import XCTest

/// The app's lifetimes are kept by the code, not by care: every task that may outlive a click belongs
/// to the app (`AppController.tasks`) and is cancelled and waited for at quit, so a flow started in the
/// last frame before the window goes ends exactly once, and nothing reads the app after it is gone.
final class AppLifetimeTests: GtkTestCase, @unchecked Sendable {
    func testAFlowStartedInTheFrameOfTheQuitEndsOnceBeforeTheQuitReturns() throws {
        try onMain {
            let app = try makeApp()
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            app.myProfile.postButton.emitClicked()  // the click: the flow starts, and shows, in it
            XCTAssertNotNil(app.flowDialog, "the flow's dialog is there when the click returns")
            app.shutdown()  // the same frame: no turn of the main loop in between
            XCTAssertEqual(outcomes, [.post(.canceled)], "ended once, before the quit returned")
            XCTAssertEqual(app.tasks.count, 0, "no task of the app is left")
            XCTAssertTrue(app.tasks.isClosed)
            app.myProfile.postButton.emitClicked()  // a click landing after the quit
            settle()
            XCTAssertEqual(outcomes.count, 1, "nothing starts after the quit")
        }
    }

    func testAFlowStartedAsTheWindowIsDestroyedEndsOnce() throws {
        try onMain {
            let app = try makeApp()
            var outcomes: [FlowOutcome] = []
            app.onFlowEnded = { outcomes.append($0) }
            app.myProfile.postButton.emitClicked()
            app.mainWindow.window.destroy()  // in the same frame as the click
            spin(until: { outcomes.count == 1 }, "the flow's end")
            settle()
            XCTAssertEqual(outcomes, [.post(.canceled)])
        }
    }

    func testQuittingRightAfterDeleteEndsTheDeletionFirstAndFreesTheApp() throws {
        try onMain {
            weak var released: AppController?
            var posts: [String] = []
            let data = makeTemporaryDirectory()
            do {
                let app = try makeApp(posts: ["Keep me", "Delete me"], dataDirectory: data)
                released = app
                let post = try XCTUnwrap(app.store.posts(onProfile: "me").first)
                app.open(.post(post.id))
                spin(until: { app.mainWindow.stack.pages.count == 2 && app.mainWindow.stack.transition == .idle }, "the post's page")
                let detail = try XCTUnwrap(app.mainWindow.stack.visiblePage as? PhotoDetailPage)
                let delete = try XCTUnwrap(findButton(labeled: "Delete", in: detail.content))
                navgtk_emit(delete.unsafeGObjectPointer, "clicked")  // the click, at once
                XCTAssertEqual(app.tasks.count, 1, "the deletion's store write is under way, as an app task")
                app.shutdown()  // at once: the write and what follows it end first
                XCTAssertEqual(app.tasks.count, 0)
                posts = try app.store.posts(onProfile: "me").map(\.comment)
            }
            XCTAssertEqual(posts, ["Keep me"], "the deletion was done before the quit returned")
            spin(until: { released == nil }, "the app freed after its quit")
        }
    }

    /// No coordinator keeps the app (or another coordinator) through an `unowned` reference, whose read
    /// after a quit traps: the app's sources hold none.
    func testNoUnownedReferenceIsHeldInTheApp() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/PostcardApp")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 20)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.range(of: #"\bunowned\b"#, options: .regularExpression) != nil && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                XCTFail("\(file):\(number + 1) holds a reference unowned: \(line)")
            }
        }
    }
}
