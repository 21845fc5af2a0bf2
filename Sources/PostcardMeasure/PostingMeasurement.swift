import CGtk
import Glibc
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardApp
import PostcardModel

/// `postcard-measure --measure-posting [--comment-length N]`: posts the library's first photo as a user
/// does — New Post, its tile once thumbnailed, a comment of N characters (default 40) pasted at once,
/// Post — then opens every post on My Profile (the new one and any already stored, such as a caption
/// another program wrote), and reports the longest main-thread stall and the peak memory over all of it.
/// `make bench` runs it on an ordinary photo and comment and on hostile ones (a padded photo file, a
/// megabyte of comment) and compares them in the same run.
///
/// Output: `posting-longest-stall-ms` (the longest gap between runs of a 1 ms GLib timer: layout,
/// drawing, decoding hand-offs, everything the main thread did), `posting-stalls-over-50ms`,
/// `posting-peak-rss-kib` (`VmHWM`), `posting-post-enabled-ms` (tile activated → Post enabled), or
/// `posting-error N` naming the step (1 picker, 2 thumbnail, 3 Add a Comment, 4 Post enabled, 5 posted,
/// 6 the feed, 7 a post's page) that did not happen within a minute.
@MainActor
enum PostingMeasurement {
    /// The step running, for the stalls' report (`posting-stall-during STEP MS` lines).
    static var step = "start"

    static func run(_ app: AppController, commentLength: Int, finish: @escaping @MainActor () -> Void) {
        let comment = String(repeating: "word ", count: max(1, commentLength / 5)).prefix(max(1, commentLength))
        app.mainWindow.window.afterNextPaint {
            Task {
                await sleep(milliseconds: 500)
                var last = DateText.monotonicMicroseconds, longest: Int64 = 0, over50 = 0
                let probe = MainLoopBridge.repeating(milliseconds: 1) {
                    let now = DateText.monotonicMicroseconds
                    longest = max(longest, now - last)
                    if now - last > 50_000 {
                        over50 += 1
                        print("posting-stall-during \(step) \(Double(now - last) / 1000)")
                    }
                    last = now
                    return true
                }
                let failedStep = await post(String(comment), in: app)
                g_source_remove(probe)
                if let failedStep { emit("posting-error", Double(failedStep)) }
                emit("posting-longest-stall-ms", Double(longest) / 1000)
                emit("posting-stalls-over-50ms", Double(over50))
                emit("posting-peak-rss-kib", Double(processStatusKiB("VmHWM:")))
                finish()
            }
        }
    }

    /// The steps; returns the number of the first that did not happen, or nil.
    private static func post(_ comment: String, in app: AppController) async -> Int? {
        step = "new-post"
        navgtk_emit_signal(app.myProfile.postButton.unsafeGObjectPointer, "clicked")
        guard await until(timeout: 60, every: 10, { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }) else { return 1 }
        let picker = app.flowDialog!.stack.visiblePage as! PhotoPickerPage
        step = "thumbnail"
        guard await until(timeout: 60, every: 10, { picker.boundTiles.first?.tile.isSettled == true }) else { return 2 }
        step = "choose"
        let chosen = DateText.monotonicMicroseconds
        picker.grid.activateItem(at: 0)
        guard await until(timeout: 60, every: 10, { app.flowDialog?.stack.visiblePage is CommentPage }) else { return 3 }
        let page = app.flowDialog!.stack.visiblePage as! CommentPage
        step = "paste"
        page.commentView.insertAtCursor(comment)  // pasted
        step = "until-post-enabled"
        guard await until(timeout: 60, every: 10, { page.postButton.isSensitive }) else { return 4 }
        emit("posting-post-enabled-ms", Double(DateText.monotonicMicroseconds - chosen) / 1000)
        step = "post"
        navgtk_emit_signal(page.postButton.unsafeGObjectPointer, "clicked")
        guard await until(timeout: 60, every: 10, { app.flowDialog == nil }) else { return 5 }
        step = "feed"
        guard await until(timeout: 60, every: 10, { app.myProfile.feedItems.first?.isPhotoLoaded == true }) else { return 6 }
        for (index, post) in app.myProfile.posts.enumerated() {
            step = "open-post-\(index)"
            guard let detail = app.showPost(post), await until(timeout: 60, every: 10, { detail.picture.texture != nil && detail.view.isMapped }) else { return 7 }
            await sleep(milliseconds: 300)
            step = "back-\(index)"
            navgtk_emit_signal(app.mainWindow.stack.backButton.unsafeGObjectPointer, "clicked")
            await sleep(milliseconds: 300)
        }
        return nil
    }
}
