import Glibc
import Gtk
import NavigationWeb
import PostcardApp

/// `postcard-measure --measure-web-idle`: what bounding web processes' memory costs an idle Postcard (issue
/// 57). WebKit's memory-pressure monitor (a thread of the app reading `/proc/meminfo`) runs from the first
/// web view on, and a shown page's web process measures its memory against ``WebPage/webProcessMemoryLimit``
/// every 2 s; both are on since issue 57. Three idle windows of ``idleSeconds``, in one process:
///
/// - `web-idle-before`: My Profile, before any web page (the baseline: no monitor yet);
/// - `web-idle-shown`: the guide shown, loaded and settled: the app's wake-ups and, apart, its web
///   process's (`web-idle-shown-web-process`);
/// - `web-idle-after`: the guide closed, its web process gone: the app alone, the monitor still running.
///
/// Each prints `KEY-wakeups` (context switches of every thread, less the window's own timer) and
/// `KEY-thread NAME[ID] N` lines. Settling: ``settleSeconds`` before each window (GLib's idle pool threads
/// retire 15 s after their last task, WebKit's `VBlankMonitor` 30 s after a page was last drawn).
/// `web-idle-error 1` when the guide did not load. Main actor.
@MainActor
enum WebIdleMeasurement {
    static let idleSeconds: UInt32 = 10
    static let settleSeconds: UInt32 = 35

    static func run(_ app: AppController, finish: @escaping @MainActor () -> Void) {
        app.mainWindow.window.afterNextPaint {
            Task {
                await sleep(milliseconds: settleSeconds * 1000)
                await window("web-idle-before", processes: [])
                guard let page = app.showGuide() else {
                    emit("web-idle-error", 1)
                    return finish()
                }
                let loaded = await until(timeout: 60, every: 50) {
                    app.mainWindow.stack.transition == .idle && !page.isLoading
                        && !ProcessSampler.webProcesses(descendingFrom: getpid()).isEmpty
                }
                guard loaded else {
                    emit("web-idle-error", 1)
                    return finish()
                }
                await sleep(milliseconds: settleSeconds * 1000)
                await window("web-idle-shown", processes: ProcessSampler.webProcesses(descendingFrom: getpid()))
                app.mainWindow.stack.goBack()
                _ = await until(timeout: 30, every: 50) { ProcessSampler.webProcesses(descendingFrom: getpid()).isEmpty }
                await sleep(milliseconds: settleSeconds * 1000)
                await window("web-idle-after", processes: [])
                finish()
            }
        }
    }

    /// Counts the wake-ups of this process's threads, and apart those of `processes` (web processes),
    /// over ``idleSeconds`` ended by a GLib timeout, and prints them under `key`.
    private static func window(_ key: String, processes: [Int32]) async {
        let before = ProcessThreads.all()
        let othersBefore = processes.map { ProcessThreads.all(ofProcess: $0) }
        await sleep(milliseconds: idleSeconds * 1000)
        let after = ProcessThreads.all()  // read in the timeout that ended the window
        let woken = ProcessThreads.idleWakeUps(from: before, to: after)
        emit("\(key)-wakeups", Double(woken.map(\.count).reduce(0, +)))
        for (thread, count) in woken { print("\(key)-thread \(thread.label) \(count)") }
        var others = 0
        for (pid, earlier) in zip(processes, othersBefore) {
            let woken = ProcessThreads.wakeUps(from: earlier, to: ProcessThreads.all(ofProcess: pid))
            others += woken.map(\.count).reduce(0, +)
            for (thread, count) in woken { print("\(key)-web-process-thread \(thread.label) \(count)") }
        }
        if !processes.isEmpty { emit("\(key)-web-process-wakeups", Double(others)) }
        fflush(nil)
    }
}
