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

/// Stale pages do not mislead (issue 46, part 3): a page left open while another Postcard on the same
/// folder deleted what it shows says so when the user acts on it, keeping what they typed; a Not Found
/// page shows its post again once Undo brought it back.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread.)
final class StalePageTests: GtkTestCase, @unchecked Sendable {
    /// Waits for the running flow's page of type `P`, then takes `step` in the flow.
    @MainActor
    private func take<P: Page>(_ step: PhotoFlowStep, on _: P.Type, in app: AppController, file: StaticString = #filePath, line: UInt = #line) {
        spin(until: {
            let stack = app.flowDialog?.stack ?? app.mainWindow.stack
            return stack.visiblePage is P && stack.transition == .idle && app.flows.current?.flow.perform(step) == true
        }, timeout: 20, "\(P.self) taking \(step)", file: file, line: line)
    }

    /// The comment page of the running flow, once it says why its post failed.
    @MainActor
    private func failedCommentPage(in app: AppController) -> CommentPage? {
        let stack = app.flowDialog?.stack ?? app.mainWindow.stack
        guard let page = stack.visiblePage as? CommentPage, page.errorLabel.isVisible else { return nil }
        return page
    }

    /// Another Postcard on the folder (its own connection) deletes `item` as its Delete does.
    @MainActor
    private func deleteElsewhere(_ item: DeletableItem, in folder: FilePath) throws {
        let other = try PostStore(directory: folder)
        var done = false
        Task { @MainActor in
            try? await other.markDeleted(item)
            done = true
        }
        spin(until: { done }, "deleted by the other Postcard")
    }

    func testAReplyToAPostDeletedElsewhereSaysSoAndKeepsTheComment() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            let post = try XCTUnwrap(app.myProfile.posts.first)
            app.open(.comments(post.id))
            spin(until: { app.mainWindow.stack.visiblePage is CommentThreadPage && app.mainWindow.stack.transition == .idle }, "Comments")
            XCTAssertTrue(app.present(.flow(.replyWithPhoto)))
            take(.choose(Photo(path: FilePath(bundledPhotos + "/coffee.png"))), on: PhotoPickerPage.self, in: app)
            take(.comment("Lovely"), on: CommentPage.self, in: app)
            try deleteElsewhere(.post(post.id), in: app.store.directory)
            take(.post, on: CommentPage.self, in: app)
            spin(until: { self.failedCommentPage(in: app) != nil }, timeout: 20, "the failure said")
            let page = try XCTUnwrap(failedCommentPage(in: app))
            XCTAssertEqual(page.errorLabel.text, "Couldn't post: Can't save the reply: the post was deleted")
            XCTAssertEqual(page.commentView.text, "Lovely", "what was typed is kept")
            XCTAssertNotNil(app.activeFlow, "nothing said Reply posted")
            spin(until: { (try? app.store.integer("SELECT COUNT(*) FROM drafts WHERE comment = 'Lovely'")) == 1 }, "kept as a draft")
            XCTAssertEqual(try app.store.integer("SELECT COUNT(*) FROM replies"), 0, "no reply stored to vanish later")
        }
    }

    func testACaptionAndAPostForSomethingGoneElsewhereSayWhy() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            let post = try XCTUnwrap(app.myProfile.posts.first)
            app.open(.post(post.id))
            spin(until: { app.mainWindow.stack.visiblePage is PhotoDetailPage && app.mainWindow.stack.transition == .idle }, "the post")
            XCTAssertTrue(app.present(.flow(.editCaption)))
            take(.comment("Espresso, doppio"), on: CommentPage.self, in: app)
            try deleteElsewhere(.post(post.id), in: app.store.directory)
            take(.post, on: CommentPage.self, in: app)
            spin(until: { self.failedCommentPage(in: app) != nil }, timeout: 20, "the failure said")
            XCTAssertEqual(failedCommentPage(in: app)?.errorLabel.text, "Can't save the caption: the post no longer exists",
                           "not “Caption saved”")
            XCTAssertEqual(failedCommentPage(in: app)?.commentView.text, "Espresso, doppio")
            app.dismissPresented()
            spin(until: { app.presented == nil }, "Edit Caption left")

            // A post to a friend another Postcard removed: stored nowhere before, said now.
            let ada = try XCTUnwrap(app.people.friend(id: "ada"))
            app.router.setPath([.profile("ada")], animated: false)
            spin(until: { app.mainWindow.stack.visiblePage is ProfilePage && app.mainWindow.stack.transition == .idle }, "Ada's profile")
            XCTAssertTrue(app.present(.flow(.newPost)))
            take(.choose(Photo(path: FilePath(bundledPhotos + "/rocket.jpg"))), on: PhotoPickerPage.self, in: app)
            take(.comment("For you"), on: CommentPage.self, in: app)
            try deleteElsewhere(.friend(ada.rowID), in: app.store.directory)
            take(.post, on: CommentPage.self, in: app)
            spin(until: { self.failedCommentPage(in: app) != nil }, timeout: 20, "the failure said")
            XCTAssertEqual(failedCommentPage(in: app)?.errorLabel.text, "Couldn't post: Can't save the post: they are no longer your friend")
            XCTAssertEqual(try app.store.posts(onProfile: "ada").count, 0, "stored nowhere")
        }
    }

    func testANotFoundPageShowsItsPostOnceUndoBringsItBack() throws {
        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            let post = try XCTUnwrap(app.myProfile.posts.first)
            app.deletions.delete(.post(post.id))
            spin(until: { app.undoToast?.isDismissed == false }, "Undo offered")
            app.open(.post(post.id))
            spin(until: { app.mainWindow.stack.visiblePage is NotFoundPage && app.mainWindow.stack.transition == .idle }, "Not Found")
            app.undoToast?.activateAction()
            spin(until: { (app.mainWindow.stack.visiblePage as? PhotoDetailPage)?.subject == AnyHashable(post.id) }, "the post again")
            XCTAssertEqual(app.router.path, [.post(post.id)])
        }
    }
}
