import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Issue 22, 3: a comment has a limit users can see (CommentLimit: 2,200 characters, with a counter near
/// it), what is pasted past it is cut and said so, and text that arrives longer (a draft, a post written by
/// another program) is shown cut, wrapped, on every page that shows a comment.
final class LongCommentTests: GtkTestCase, @unchecked Sendable {
    /// One line of 1 MiB: words without a newline, as the tester pasted.
    private let megabyteLine = String(repeating: "long words on one line ", count: 45_591)

    @MainActor
    private func openAddAComment(in app: AppController) -> CommentPage {
        app.myProfile.postButton.activate()
        spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
        let picker = app.flowDialog!.stack.visiblePage as! PhotoPickerPage
        picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == "rocket.jpg" }!)
        spin(until: { app.flowDialog?.stack.visiblePage is CommentPage }, "Add a Comment")
        return app.flowDialog!.stack.visiblePage as! CommentPage
    }

    func testTheCommentFieldCountsDownNearItsLimitAndCutsWhatIsPastedPastIt() throws {
        try onMain {
            let app = try makeApp()
            let page = openAddAComment(in: app)
            XCTAssertGreaterThan(megabyteLine.utf8.count, 1_000_000)
            page.commentView.insertAtCursor(String(repeating: "a", count: 1_999))
            settle()
            XCTAssertFalse(page.lengthLabel.isVisible, "no counter far from the limit")
            page.commentView.insertAtCursor("b")
            XCTAssertTrue(page.lengthLabel.isVisible)
            XCTAssertEqual(page.lengthLabel.text, "200 characters left")
            page.commentView.insertAtCursor(String(repeating: "c", count: 199))
            XCTAssertEqual(page.lengthLabel.text, "1 character left")
            page.commentView.text = "A start. "
            XCTAssertFalse(page.lengthLabel.isVisible)

            page.commentView.insertAtCursor(megabyteLine)  // pasted
            XCTAssertEqual(page.commentView.characterCount, CommentLimit.maximumCharacters, "cut at the limit")
            XCTAssertTrue(page.commentView.text.hasPrefix("A start. long words on one line"))
            XCTAssertEqual(page.lengthLabel.text, "A comment can be up to 2200 characters: what went past that was left out.")
            spin(until: { page.postButton.isSensitive }, "Post, for what fits")
            page.commentView.text = String(repeating: "y", count: CommentLimit.maximumCharacters)
            XCTAssertEqual(page.lengthLabel.text, "0 characters left")
            page.commentView.insertAtCursor("x")
            XCTAssertEqual(page.commentView.characterCount, CommentLimit.maximumCharacters, "typing at the limit adds nothing")
            XCTAssertTrue(page.lengthLabel.text.hasPrefix("A comment can be up to 2200 characters"), "and says why at once: \(page.lengthLabel.text)")
            page.commentView.text = String(repeating: "y", count: CommentLimit.maximumCharacters - 1)
            XCTAssertEqual(page.lengthLabel.text, "1 character left", "an edit after it shows the counter again")
            page.commentView.text = page.commentView.text + "z"
            // Wrapped, not one clipped line: the field is as wide as the page, and many lines tall.
            settle()
            let field = try XCTUnwrap(page.commentView.bounds(in: page.view))
            XCTAssertLessThanOrEqual(field.width, Double(page.view.width))

            var results: [CommentedPhotoFlow<Post>.Result] = []
            app.onFlowEnded = { if case .post(let result) = $0 { results.append(result) } }
            postWhenReady(page)
            spin(until: { results.count == 1 }, "posted")
            XCTAssertEqual(try app.store.posts(onProfile: "me").first?.comment.unicodeScalars.count, CommentLimit.maximumCharacters)
        }
    }

    func testACommentThatArrivesLongerIsShownCutAndWrappedOnEveryPage() throws {
        try onMain {
            let data = makeTemporaryDirectory()
            let app = try makeApp(posts: ["Short"], dataDirectory: data)
            // Another program (a newer Postcard, a script) wrote a caption of 1 MiB.
            try app.store.execute("UPDATE posts SET comment = '\(megabyteLine)'")
            app.posting.reload(app.myProfile)
            spin(until: { app.myProfile.feedItems.first?.commentLabel.text.hasPrefix("long words") == true }, "the feed")
            let item = try XCTUnwrap(app.myProfile.feedItems.first)
            XCTAssertEqual(item.commentLabel.text.unicodeScalars.count, CommentLimit.maximumCharacters + 1, "cut, with an ellipsis")
            XCTAssertTrue(item.commentLabel.text.hasSuffix("…"))
            XCTAssertTrue(item.commentLabel.wraps)

            let stored = try XCTUnwrap(try app.store.posts(onProfile: "me").first)
            XCTAssertEqual(stored.comment, megabyteLine, "the store keeps it whole")
            let detail = try XCTUnwrap(app.showPost(stored))
            XCTAssertTrue(detail.commentLabel.text.hasSuffix("…"))
            spin(until: { (detail.commentLabel.bounds(in: detail.view)?.height ?? 0) > 200 }, "wrapped onto many lines")
            let label = try XCTUnwrap(detail.commentLabel.bounds(in: detail.view))
            XCTAssertGreaterThanOrEqual(label.x, 0)
            XCTAssertLessThanOrEqual(label.x + label.width, Double(detail.view.width), "not clipped at the page's edge")

            // A draft of 1 MiB: the banner quotes it cut; resumed, the field holds what fits and says so.
            try app.store.saveDraftNow(.post, target: "me", photoURI: Photo(path: bundledPhotos + "/rocket.jpg").uri, comment: megabyteLine)
            app.mainWindow.stack.backButton.activate()
            spin(until: { app.mainWindow.stack.visiblePage === app.myProfile }, "My Profile")
            XCTAssertTrue(app.offerDraft())
            app.myProfile.draftButtons?.resume.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is CommentPage }, "the draft resumed")
            let page = app.flowDialog!.stack.visiblePage as! CommentPage
            XCTAssertEqual(page.commentView.characterCount, CommentLimit.maximumCharacters)
            XCTAssertTrue(page.lengthLabel.isVisible)
            XCTAssertTrue(page.lengthLabel.text.hasPrefix("A comment can be up to 2200 characters"))
        }
    }
}
