import CGtk
import Dispatch  // links libdispatch, which exports the hooks

/// The one place that uses libdispatch's private main-queue hooks; everything else goes through
/// ``MainLoopBridge``.
///
/// **Why.** Swift's `MainActor` and `DispatchQueue.main` put work on libdispatch's main queue. On Linux
/// nothing drains that queue unless the main thread sits in `dispatchMain()` — but a GTK app's main
/// thread sits in GLib's loop (`g_application_run`). CoreFoundation's run loop solves the same problem
/// with two functions libdispatch exports for it (the `_4CF` suffix: "for CoreFoundation"): an eventfd
/// that becomes readable when work is queued, and a call that runs the queued work. The bridge watches
/// the eventfd with a GLib fd source and calls the drain, so main-actor work runs inside GTK's loop with
/// no timer and no wake-ups while idle.
///
/// **What breaks if the toolchain changes them.** They are not public API. If a future libdispatch
/// renames or removes them, linking fails (missing symbol) — loud and early. If it keeps them but changes
/// their behaviour (another kind of handle, a drain that needs other arguments), `await` on the main
/// actor and `DispatchQueue.main.async` would silently never run: the app would hang at its first await.
/// ``verify(timeout:)`` catches that: `Application.run` logs a critical and the tests fail, naming this
/// file, instead of hanging.
enum DispatchMainQueueHooks {
    /// The main queue's eventfd: readable while work is queued on the main queue.
    static var handle: Int32 { _dispatch_get_main_queue_handle_4CF() }

    /// Runs the work queued on the main queue now (main thread only).
    static func drain() { _dispatch_main_queue_callback_4CF(nil) }

    /// Whether the hooks still do their job: work put on `DispatchQueue.main` and a main-actor task both
    /// run while only GLib's loop is iterated, within `timeout` seconds. Main thread, with the bridge
    /// installed; iterates the default main context meanwhile.
    @MainActor
    static func verify(timeout: Double) -> Bool {
        guard handle >= 0 else { return false }
        var ranOnQueue = false, ranOnActor = false
        DispatchQueue.main.async { ranOnQueue = true }
        Task { @MainActor in ranOnActor = true }
        let deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
        while !(ranOnQueue && ranOnActor), g_get_monotonic_time() < deadline {
            g_main_context_iteration(nil, 0)
            if !(ranOnQueue && ranOnActor) { g_usleep(1000) }
        }
        return ranOnQueue && ranOnActor
    }
}
