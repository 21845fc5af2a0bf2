import Gtk
import NavigationGtk
import PhotoPosting

/// A walk through every screen for a UX review (`postcard --review-tour DIR`): drives the real app
/// through its widgets as a user would — My Profile, New Post, Choose a Photo, Add a Comment, Post,
/// the profile with the new post, a friend's profile — and saves a PNG of the window at each step in
/// `DIR` (rendered by GTK itself, so it works under Xvfb with no window manager). Then it quits.
@MainActor
enum ReviewTour {
    /// Runs the tour on `app`; `quit` ends the application afterwards.
    static func run(app: AppController, into directory: String, quit: @escaping @MainActor () -> Void) {
        Task {
            do {
                try Files.makeDirectory(directory)
                try await tour(app, directory)
                print("Review screenshots saved in \(directory)")
            } catch {
                print("postcard: review tour failed: \(error)")
            }
            quit()
        }
    }

    private static func tour(_ app: AppController, _ directory: String) async throws {
        let main = app.mainWindow.window
        func save(_ window: Window, _ name: String) async throws {
            try await settle()
            try window.saveSnapshot(toPNG: Files.join(directory, name))
        }
        try await waitUntil("main window") { main.isMapped }
        try await save(main, "1-my-profile.png")

        app.myProfile.postButton.activate()
        try await waitUntil("Choose a Photo") {
            (CommentedPhotoFlow.current?.stack.visiblePage as? PhotoPickerPage)?.pendingThumbnails == 0
        }
        let dialog = CommentedPhotoFlow.current!
        try await save(dialog.window, "2-choose-a-photo.png")

        let picker = dialog.stack.visiblePage as! PhotoPickerPage
        picker.tiles[picker.photos.firstIndex { $0.fileName == "coffee.png" } ?? 0].activate()
        try await waitUntil("Add a Comment") { dialog.stack.visiblePage is CommentPage && dialog.stack.transition == .idle }
        let commentPage = dialog.stack.visiblePage as! CommentPage
        commentPage.commentView.insertAtCursor("First coffee of the day.\nPosted from Postcard.")
        try await save(dialog.window, "3-add-a-comment.png")

        commentPage.postButton.activate()
        try await waitUntil("the new post") { dialog.isDismissed && app.myProfile.feedItems.first?.isPhotoLoaded == true }
        try await save(main, "4-my-profile-with-post.png")

        app.myProfile.friendButtons.first?.activate()
        try await waitUntil("a friend's profile") { app.mainWindow.stack.pages.count == 2 && app.mainWindow.stack.transition == .idle }
        try await save(main, "5-friend-profile.png")
    }

    private static func settle() async throws {
        try await Task.sleep(for: .milliseconds(400))
    }

    private static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<200 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw AppOptionsError(message: "timed out waiting for \(what)")
    }
}
