import CGtk
import Foundation
import Gtk
import GtkTesting
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Feeds of thousands of posts as recycled lists read a page at a time; posting updates the list in place.
final class FeedScaleTests: GtkTestCase, @unchecked Sendable {
    /// A store with `count` posts on My Profile ("Post 1" oldest … "Post N" newest), all of one photo,
    /// written in one transaction.
    @MainActor
    private func makeStore(posts count: Int, photo: String = PhotoFixtures.samples + "/rocket.jpg") throws -> PostStore {
        let store = try PostStore(directory: makeTemporaryDirectory())
        let first = try store.addNow(photo: Photo(path: photo), comment: "Post 1", author: "me", profile: "me")
        let stored = first.photoPath.text.replacingOccurrences(of: store.directory.text + "/", with: "")
        if count > 1 {
            try store.execute("""
                WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO posts (author, profile, comment, photo_path, created_at)
                SELECT 'me', 'me', 'Post ' || i, '\(stored)', \(first.createdAt) + i FROM n;
                """)
        }
        return store
    }

    @MainActor
    private func makeApp(_ store: PostStore, library: String = PhotoFixtures.samples) -> AppController {
        StyleSheet.load(path: PhotoFixtures.samples + "/../style.css")
        let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: library))
        show(app.mainWindow.window)
        return app
    }

    /// New Post on My Profile → coffee.png → "Fresh" → Post, through the widgets, until the dialog is gone.
    @MainActor
    private func postFresh(in app: AppController) {
        app.myProfile.postButton.activate()
        spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "picker")
        let picker = app.flowDialog!.stack.visiblePage as! PhotoPickerPage
        picker.grid.activateItem(at: picker.photos.firstIndex { $0.fileName == "coffee.png" }!)
        spin(until: { app.flowDialog?.stack.visiblePage is CommentPage }, "Add a Comment")
        let page = app.flowDialog!.stack.visiblePage as! CommentPage
        page.commentView.text = "Fresh"
        postWhenReady(page)
        spin(until: { app.flowDialog == nil }, "posted")
    }

    func testAFeedOfFiveThousandPostsShowsItsNewestAndScrollsToTheOldest() throws {
        try onMain {
            let app = makeApp(try makeStore(posts: 5_000))
            let profile = app.myProfile
            spin(until: { profile.feedItems.first?.isPhotoLoaded == true }, "the newest post's photo")
            XCTAssertEqual(profile.feedItems.first?.post?.comment, "Post 5000", "newest first")
            XCTAssertLessThanOrEqual(profile.posts.count, 3 * AppController.pageSize, "only the first pages are read")
            XCTAssertLessThanOrEqual(profile.feedItems.count, 210, "GTK recycles about 200 rows at most")
            // Scroll to the end as a user dragging the scrollbar down would, page after page.
            spin(until: {
                profile.scroller.verticalOffset = profile.scroller.maximumVerticalOffset
                return profile.feedItems.last?.post?.comment == "Post 1"
            }, timeout: 60, "the oldest post")
            XCTAssertEqual(profile.posts.count, 5_000)
            XCTAssertEqual(Set(profile.posts.map(\.id)).count, 5_000, "each post read once")
            XCTAssertLessThanOrEqual(profile.feedItems.count, 210, "still about 200 rows after 5,000 posts")
            let withPhotos = profile.feedItems.filter { $0.picture.texture != nil }
            XCTAssertLessThanOrEqual(withPhotos.count, 6, "only rows on screen hold a photo")
            XCTAssertTrue(withPhotos.allSatisfy { $0.view.isMapped })
            spin(until: { profile.feedItems.last?.isPhotoLoaded == true }, "the oldest post's photo")
        }
    }

    func testANewPostAppearsAtTheTopWithoutRebuildingTheList() throws {
        try onMain {
            let app = makeApp(try makeStore(posts: 200))
            let profile = app.myProfile
            spin(until: { !profile.feedItems.isEmpty }, "feed")
            profile.scroller.verticalOffset = 900
            settle()
            let readBefore = profile.posts.count
            let rowWidgetsBefore = Set(profile.feedItems.map { ObjectIdentifier($0) })
            let offsetBefore = profile.scroller.verticalOffset
            postFresh(in: app)
            settle()
            XCTAssertEqual(profile.posts.first?.comment, "Fresh", "at the top")
            XCTAssertEqual(profile.posts.count, readBefore + 1, "added in place: nothing was read again")
            XCTAssertFalse(rowWidgetsBefore.isDisjoint(with: profile.feedItems.map { ObjectIdentifier($0) }),
                           "the rows on screen are the same widgets")
            XCTAssertEqual(profile.scroller.verticalOffset, offsetBefore, accuracy: 400,
                           "the user stays where they were, not back at the top")
            profile.scroller.verticalOffset = 0
            spin(until: { profile.feedItems.first?.post?.comment == "Fresh" }, "the new post shown first")
        }
    }

    /// Issue 22, 7: after opening a post and going back, GTK's list kept its anchor on the post that had
    /// focus, so the next new post appeared with the profile's header scrolled off and its photo half under
    /// the bar. A user at the top stays at the top: the header and the new post, whole, below the bar.
    func testANewPostAfterOpeningAPostAndGoingBackShowsAtTheTopBelowTheBar() throws {
        try onMain {
            let app = makeApp(try makeStore(posts: 5))
            let profile = app.myProfile
            spin(until: { profile.feedItems.first?.isPhotoLoaded == true }, "feed")
            // As a click does: the row takes focus, then opens its post.
            let opened = try XCTUnwrap(profile.feedItems.first?.card)
            XCTAssertTrue(opened.grabFocus())
            profile.activatePost(at: 0)
            spin(until: { app.mainWindow.stack.visiblePage !== profile }, "the post's page")
            settle()
            app.mainWindow.stack.backButton.activate()
            spin(until: { app.mainWindow.stack.visiblePage === profile }, "back on My Profile")
            settle()
            XCTAssertEqual(profile.scroller.verticalOffset, 0, accuracy: 1, "at the top before posting")
            postFresh(in: app)
            spin(until: { profile.feedItems.first(where: { $0.post?.comment == "Fresh" })?.isPhotoLoaded == true }, "the new post's photo")
            settle()
            XCTAssertEqual(profile.scroller.verticalOffset, 0, accuracy: 1, "still at the top: the profile's header shows")
            let window = app.mainWindow.window
            let fresh = try XCTUnwrap(profile.feedItems.first { $0.post?.comment == "Fresh" })
            let photo = try XCTUnwrap(fresh.picture.bounds(in: window))
            XCTAssertGreaterThanOrEqual(photo.y, Double(app.mainWindow.topInset) - 1, "the new photo starts below the bar")
            XCTAssertLessThanOrEqual(photo.y + photo.height, Double(window.height), "and is whole in the window")
        }
    }

    func testAFeedPhotoTurnedByItsOrientationTagShowsUprightWithAPlaceholderOfItsShapeFirst() throws {
        try onMain {
            let folder = makeTemporaryDirectory()
            try FileManager.default.copyItem(atPath: PhotoFixtures.samples + "/rocket.jpg", toPath: folder + "/sideways.jpg")
            try ImageMetadata.write(orientation: 6, toFileAt: folder + "/sideways.jpg")
            let app = makeApp(try makeStore(posts: 1, photo: folder + "/sideways.jpg"))
            let item = { app.myProfile.feedItems.first }
            spin(until: { item()?.isPhotoLoaded == true }, "feed photo")
            let texture = item()!.picture.texture!
            XCTAssertLessThan(texture.width, texture.height, "upright in the feed")
            XCTAssertLessThanOrEqual(texture.height, FeedItem.photoHeight * item()!.view.scaleFactor, "decoded at the size shown")
            // The placeholder shown while it loads has the upright shape (427 × 640), so the row does not jump.
            let shape = try ImageMetadata.uprightSize(uri: (folder + "/sideways.jpg").uri)
            XCTAssertEqual([shape.width, shape.height], [427, 640])
            let placeholder = FeedItem.placeholder(width: shape.width, height: shape.height)
            XCTAssertEqual(Double(placeholder.width) / Double(placeholder.height), 427.0 / 640.0, accuracy: 0.05)
        }
    }

    func testMemoryIsGivenBackWhenFlowsEnd() throws {
        try onMain {
            StyleSheet.load(path: bundledPhotos + "/../style.css")
            let root = makeTemporaryDirectory()
            let count = 2_000
            for index in 0..<count {
                XCTAssertEqual(link(PhotoFixtures.formatsFolder + "/cmyk.jpg", "\(root)/photo-\(index).jpg"), 0)
            }
            let store = try PostStore(directory: makeTemporaryDirectory())
            let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: root))
            show(app.mainWindow.window)
            var afterFirst = 0, last = 0
            for cycle in 0..<20 {
                app.myProfile.postButton.activate()
                spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true },
                     timeout: 60, "Choose a Photo, cycle \(cycle)")
                let dialog = try XCTUnwrap(app.flowDialog)
                let picker = try XCTUnwrap(dialog.stack.visiblePage as? PhotoPickerPage)
                picker.grid.scrollToItem(at: count - 1)
                spin(until: { picker.boundTiles.contains { $0.position == count - 1 && $0.tile.picture.texture != nil } && picker.hasSettled },
                     timeout: 60, "the last photo shows, cycle \(cycle)")
                let trims = Memory.trimCount
                dialog.cancelButton.activate()
                spin(until: { dialog.isDismissed && app.activeFlow == nil }, "closed, cycle \(cycle)")
                spin(until: { Memory.trimCount > trims }, "memory given back after the flow, cycle \(cycle)")
                last = try XCTUnwrap(Memory.residentKiB)
                if cycle == 0 { afterFirst = last }
            }
            print("memory after the first cycle \(afterFirst / 1024) MiB, after the 20th \(last / 1024) MiB")
            XCTAssertLessThan(last - afterFirst, 20 * 1024, "20 open → scroll to the end → cancel cycles keep memory within 20 MB")
        }
    }

}
