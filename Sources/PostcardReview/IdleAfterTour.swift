import Glibc
import Gtk
import PhotoPosting
import PostcardApp
import PostcardModel

/// `make bench-navigation`'s idle rows after the whole tour (`POSTCARD_REVIEW_IDLE=SECONDS` in a part's
/// environment): once every screen has been used, My Profile gets 100 posts (the tour's photos in turn,
/// through the store and the feed as a post does), is shown and left alone 8 s, and then every thread's
/// wake-ups are counted over two windows of `seconds`: the first right then, printed as
/// `idle-after-tour-early-wakeups` and `idle-after-tour-early-thread NAME[ID] N` for each thread that
/// woke; the second from ``steadyAfterSeconds`` after the posts, printed as `idle-after-tour-wakeups` and
/// `idle-after-tour-thread …`, with `idle-after-tour-seconds`. Each count is less the main thread's one
/// sleep until the timeout that ends its window. Main actor.
///
/// The first window holds what retires once, some seconds after its last work: GLib's idle pool threads
/// (15 s, `g_thread_pool_set_max_idle_time`'s default) and WebKitGTK's `VBlankMonitor` thread, which the
/// main thread ends 30 s after a web page was last drawn (`DisplayVBlankMonitor::stop` in WebKit). The
/// second is idle as it stays.
@MainActor
enum IdleAfterTour {
    /// The seconds asked for, or nil when no idle measurement was asked for.
    static var seconds: UInt32? { Files.environment("POSTCARD_REVIEW_IDLE").flatMap { UInt32($0) } }

    static func measure(_ app: AppController, seconds: UInt32, photos: [Photo]) async throws {
        app.router.setPath([], animated: false)
        for index in 0..<100 {
            let photo = photos[index % photos.count]
            try app.store.addNow(photo: photo, comment: "Photo \(index + 1)", author: Identity.localID, profile: Identity.localID)  // shown as the store tells
        }
        let start = DateText.monotonicMicroseconds
        await MainLoopBridge.sleep(for: .seconds(8))  // the feed's photos decoded and shown
        report(await wakeUps(over: seconds), prefix: "idle-after-tour-early")
        let elapsed = Double(DateText.monotonicMicroseconds - start) / 1_000_000
        await MainLoopBridge.sleep(for: .seconds(max(0, steadyAfterSeconds - elapsed)))
        report(await wakeUps(over: seconds), prefix: "idle-after-tour")
        print("idle-after-tour-seconds \(seconds)")
        fflush(nil)
    }

    /// When the second window starts, in seconds after the posts: past the threads' retirement above.
    static let steadyAfterSeconds = 35.0

    /// Every thread's wake-ups over the next `seconds`, both readings taken in GLib timeouts on the main
    /// thread (the window starts 100 ms after the call, once the hop that resumed this task has gone
    /// back to sleep, and ends in the timeout that closes it), so neither the task's suspension nor its
    /// resumption (a continuation resumes through the executors' pool) falls inside the window.
    private static func wakeUps(over seconds: UInt32) async -> [(thread: ProcessThreads.Thread, count: Int)] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[(thread: ProcessThreads.Thread, count: Int)], Never>) in
            MainLoopBridge.repeating(milliseconds: 100) {
                let before = ProcessThreads.all()
                MainLoopBridge.repeating(milliseconds: seconds * 1000) {
                    continuation.resume(returning: ProcessThreads.idleWakeUps(from: before, to: ProcessThreads.all()))
                    return false
                }
                return false
            }
        }
    }

    private static func report(_ woke: [(thread: ProcessThreads.Thread, count: Int)], prefix: String) {
        for (thread, count) in woke { print("\(prefix)-thread \(thread.label) \(count)") }
        print("\(prefix)-wakeups \(woke.map(\.count).reduce(0, +))")
    }
}
