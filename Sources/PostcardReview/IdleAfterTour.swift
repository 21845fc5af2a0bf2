import Glibc
import Gtk
import PhotoPosting
import PostcardApp
import PostcardModel

/// `make bench-navigation`'s idle row after the whole tour (`POSTCARD_REVIEW_IDLE=SECONDS` in a part's
/// environment): once every screen has been used, My Profile gets 100 posts (the tour's photos in turn,
/// through the store and the feed as a post does), is shown and left alone 8 s, and then every thread's
/// wake-ups over `seconds` are counted and printed as `idle-after-tour-seconds`,
/// `idle-after-tour-wakeups` (minus the main thread's one sleep until the timeout that ends the window)
/// and `idle-after-tour-thread NAME[ID] N` for each thread that woke. Main actor.
@MainActor
enum IdleAfterTour {
    /// The seconds asked for, or nil when no idle measurement was asked for.
    static var seconds: UInt32? { Files.environment("POSTCARD_REVIEW_IDLE").flatMap { UInt32($0) } }

    static func measure(_ app: AppController, seconds: UInt32, photos: [Photo]) async throws {
        app.router.setPath([], animated: false)
        for index in 0..<100 {
            let photo = photos[index % photos.count]
            let post = try app.store.addNow(photo: photo, comment: "Photo \(index + 1)", author: Identity.localID, profile: Identity.localID)
            app.myProfile.insertNewPost(post)
        }
        await MainLoopBridge.sleep(seconds: 8)  // the feed's photos decoded and shown, the threads at rest
        let before = ProcessThreads.all()
        await MainLoopBridge.sleep(seconds: Double(seconds))
        // Read in the timeout that ends the window, before the task's resumption wakes anything else.
        let woke = ProcessThreads.idleWakeUps(from: before, to: ProcessThreads.all())
        for (thread, count) in woke { print("idle-after-tour-thread \(thread.label) \(count)") }
        let total = woke.map(\.count).reduce(0, +)
        print("idle-after-tour-seconds \(seconds)")
        print("idle-after-tour-wakeups \(total)")
        fflush(nil)
    }
}
