import CGtk
import Glibc
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardApp
import PostcardModel

/// `postcard-measure --measure-navigation`: drives the main window as a user would — the friend's button on
/// My Profile, the Back button, New Post and the flow's Cancel, with the stack's real slide
/// transitions — prints what it measured on standard output and quits. `make bench-navigation` (and
/// `make bench`) runs it and writes `bench/navigation.md`; a program, not a test.
///
/// Output: one `key value` line per measure, in this order (times in milliseconds unless the key ends
/// in `-us`; medians unless it says otherwise):
/// - idle, before anything else: `idle-seconds`, `idle-wakeups` (context switches of all the process's
///   threads while My Profile is shown and nothing happens, minus the one the measurement's own
///   end-of-window timer causes), `idle-wakeups-per-second`, and `idle-thread NAME[ID] N` for every
///   thread that woke; the same with `idle-after-use-` after the transitions, flow opens and cycles
///   below;
/// - last: `hop-idle-us`, `hop-actor-us`: a round trip from a GLib worker thread to the main thread and back,
///   by `g_idle_add` and by `Task { @MainActor in … }`; `hop-await-us`: `await MainActor.run {}` from a
///   Swift task and back; `hop-resume-us` against `hop-resume-idle-us`: a continuation resumed on a GLib
///   thread back on its main-actor task, against that thread's `g_idle_add` round trip, and
///   `hop-resume-dispatches-max` the most main-loop dispatches one took; `sleep-wakeups`: the wake-ups
///   of every thread during `Task.sleep(for: .seconds(1))` on the main actor (median of 5; `sleep-thread`
///   lines for the last);
/// - `push-…`, `pop-…`: `-call-ms` the main-thread time of the click handler (build and push the page;
///   pop; `push-build-ms` is building a friend's ProfilePage alone, `push-stack-ms` the stack's `push` of a
///   page built beforehand), `-frame-ms` and `-frame-max-ms` the main-thread work of each frame during the transition
///   (frame clock `before-paint` to the end of `after-paint`; median over every frame, median of each
///   transition's longest), `-frames` frames per transition, `-missed` frames missed per transition and
///   `-missed-total` over all (a gap between frames over 1.5 refresh intervals), `refresh-interval-ms`;
/// - `flow-open-first-ms` and `flow-open-ms`: the click on New Post to the first painted frame of the
///   flow's dialog on Choose a Photo (the first open in the process, and the median of the later ones);
/// - `flow-cycles`, `flow-flows-alive`, `flow-pages-alive`, `flow-rss-growth-kib`: open → Cancel
///   cycles of the photo flow, what is still alive after them, and the resident memory they added after
///   a warm-up; `stack-cycles`, `stack-pages-alive`, `stack-rss-growth-kib`: the same for push → Back.
///
/// Environment: `POSTCARD_MEASURE_CYCLES` sets the number of cycles (default 1,000);
/// `POSTCARD_MEASURE_HOPS_ONLY` measures the hops alone, `POSTCARD_MEASURE_SPLIT_ONLY` the split view's crossings alone. Main actor; run it
/// in a process of its own (it changes the main stack's animation setting for the stack cycles).
@MainActor
public enum NavigationMeasurement {
    /// Transitions measured in each direction, after `warmUps` unmeasured ones.
    static let transitions = 50
    /// Unmeasured repetitions before each timed series (first-use costs: code paging, caches).
    static let warmUps = 5
    /// Hops measured per kind.
    static let hops = 2_000
    /// How long the idle window lasts, in seconds.
    static let idleSeconds: UInt32 = 10
    /// Opens of Choose a Photo timed (after the first).
    static let flowOpens = 20
    /// Cycles run before the memory baseline of the cycle measures is taken.
    static let cycleWarmUps = 50
    /// Open → cancel and push → pop cycles (`POSTCARD_MEASURE_CYCLES`, default 1,000).
    static var cycles: Int {
        g_getenv("POSTCARD_MEASURE_CYCLES").flatMap { Int(String(cString: $0)) } ?? 1_000
    }

    /// Runs every measure once My Profile has been painted, then calls `finish` (which quits the app).
    static func run(_ app: AppController, finish: @escaping @MainActor () -> Void) {
        app.mainWindow.window.afterNextPaint {
            // The first idle window, with GLib timeouts only, before the measurement runs anything.
            MainLoopBridge.repeating(milliseconds: settleMilliseconds) {
                let before = ProcessThreads.all()
                MainLoopBridge.repeating(milliseconds: idleSeconds * 1000) {
                    reportIdle(before: before, after: ProcessThreads.all(), key: "idle")
                    Task {
                        await measure(app)
                        finish()
                    }
                    return false
                }
                return false
            }
        }
    }

    /// How long the app is left alone before an idle window: the feed's photos decoded and shown, and
    /// threads that did work retired (libdispatch's idle worker threads exit after a few seconds).
    static let settleMilliseconds: UInt32 = 8_000

    private static func measure(_ app: AppController) async {
        if g_getenv("POSTCARD_MEASURE_HOPS_ONLY") != nil { return await measureHops() }  // a quick look at the hops
        if g_getenv("POSTCARD_MEASURE_SPLIT_ONLY") != nil { return await measureSplitCrossings(app) }  // the split view alone
        await measureTransitions(app)
        await measureSplitCrossings(app)
        await measureFlowOpens(app)
        await measureFlowCycles(app)
        await measureStackCycles(app)
        // Idle again after all that: GLib's executor threads sleep without a timeout; a thread of libdispatch's
        // pool, were anything to start it, would show here with its monitor's 1 s timer.
        await sleep(milliseconds: settleMilliseconds)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let before = ProcessThreads.all()
            MainLoopBridge.repeating(milliseconds: idleSeconds * 1000) {
                // Counted here, in the timeout, before the continuation's resumption wakes anything.
                reportIdle(before: before, after: ProcessThreads.all(), key: "idle-after-use")
                continuation.resume()
                return false
            }
        }
        // Last: the hops leave GLib's pool threads and the timer thread started.
        await measureHops()
    }

    // MARK: - Idle wake-ups

    /// Prints the wake-ups between two readings of ``ProcessThreads/all()`` taken `idleSeconds` apart, the
    /// second from the GLib timeout that ended the window (``ProcessThreads/idleWakeUps(from:to:)``).
    private static func reportIdle(before: [ProcessThreads.Thread], after: [ProcessThreads.Thread], key: String) {
        let woken = ProcessThreads.idleWakeUps(from: before, to: after)
        let total = woken.map(\.count).reduce(0, +)
        emit("\(key)-seconds", Double(idleSeconds))
        emit("\(key)-wakeups", Double(total))
        emit("\(key)-wakeups-per-second", Double(total) / Double(idleSeconds))
        for (thread, count) in woken { print("\(key)-thread \(thread.label) \(count)") }
        fflush(nil)
    }

    // MARK: - Main-actor hops

    /// A GLib worker thread that times round trips to the main thread: by `g_idle_add`, and by a
    /// main-actor task; each comes back through a `GAsyncQueue`.
    private final class HopRun: @unchecked Sendable {
        struct Queue: @unchecked Sendable { let pointer: OpaquePointer }
        let queue = Queue(pointer: g_async_queue_new())
        let count: Int
        let warmUps: Int
        var idle: [Int64] = []
        var actor: [Int64] = []
        var done: CheckedContinuation<Void, Never>?

        init(count: Int, warmUps: Int) {
            self.count = count
            self.warmUps = warmUps
        }

        deinit { g_async_queue_unref(queue.pointer) }

        /// Starts the worker thread (a GLib thread; its function is not isolated to the main actor).
        func start() {
            let thread = g_thread_new("hop-measure", { data in
                Unmanaged<HopRun>.fromOpaque(data!).takeRetainedValue().work()
                return nil
            }, Unmanaged.passRetained(self).toOpaque())
            g_thread_unref(thread)
        }

        /// On the worker thread.
        private func work() {
            let queue = self.queue
            for index in 0..<(warmUps + count) {
                var idleTime: Int64 = 0, actorTime: Int64 = 0
                for kind in index % 2 == 0 ? [0, 1] : [1, 0] {  // alternate which goes first
                    let start = DateText.monotonicMicroseconds
                    if kind == 0 {
                        g_idle_add({ data in
                            g_async_queue_push(OpaquePointer(data), UnsafeMutableRawPointer(bitPattern: 1))
                            return 0  // G_SOURCE_REMOVE
                        }, UnsafeMutableRawPointer(queue.pointer))
                    } else {
                        Task { @MainActor in g_async_queue_push(queue.pointer, UnsafeMutableRawPointer(bitPattern: 1)) }
                    }
                    _ = g_async_queue_pop(queue.pointer)
                    let time = DateText.monotonicMicroseconds - start
                    if kind == 0 { idleTime = time } else { actorTime = time }
                }
                if index >= warmUps {
                    idle.append(idleTime)
                    actor.append(actorTime)
                }
            }
            done?.resume()
        }
    }

    private static func measureHops() async {
        let run = HopRun(count: hops, warmUps: 100)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            run.done = continuation
            run.start()
        }
        emit("hop-idle-us", median(run.idle.map(Double.init)))
        emit("hop-actor-us", median(run.actor.map(Double.init)))
        let count = hops
        let awaited: [Double] = await Task.detached {
            var times: [Double] = []
            for index in 0..<(count + 100) {
                let start = DateText.monotonicMicroseconds
                await MainActor.run {}
                if index >= 100 { times.append(Double(DateText.monotonicMicroseconds - start)) }
            }
            return times
        }.value
        emit("hop-await-us", median(awaited))

        // A continuation resumed on a GLib worker thread, back on a main-actor task.
        let resumption = ContinuationRoundTrip(count: hops, warmUps: 100)
        async let served: Void = resumption.serve(rounds: hops + 100)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            resumption.done = continuation
            resumption.start()
        }
        await served
        emit("hop-resume-idle-us", median(resumption.idle.map(Double.init)))
        emit("hop-resume-us", median(resumption.resumed.map(Double.init)))
        emit("hop-resume-dispatches-max", Double(resumption.dispatches.max() ?? -1))

        // Task.sleep on the main actor: the wake-ups of every thread while it sleeps a second, five times.
        var sleeps: [Double] = []
        var last: [(thread: ProcessThreads.Thread, count: Int)] = []
        for _ in 0..<5 {
            await sleep(milliseconds: 300)
            let before = ProcessThreads.all()
            try? await Task.sleep(for: .seconds(1))
            last = ProcessThreads.wakeUps(from: before, to: ProcessThreads.all())
            sleeps.append(Double(last.map(\.count).reduce(0, +)))
        }
        emit("sleep-wakeups", median(sleeps))
        for (thread, count) in last { print("sleep-thread \(thread.label) \(count)") }  // the last of the five
        fflush(nil)
    }

    // MARK: - Push and pop

    /// Records the main-thread work of each frame of a window: from its frame clock's `before-paint` to
    /// the end of `after-paint` (update, layout and drawing in between).
    @MainActor
    private final class FrameRecorder {
        /// One frame: when it started (`before-paint`) and ended (`after-paint`), and the main thread's time
        /// in the app's own part of it: the update and layout phases (`before-paint` to the end of `layout`)
        /// plus the snapshot of the window (its render nodes), without rasterising them.
        struct Frame { var start: Int64; var end: Int64; var ownWork: Int64 }
        private(set) var frames: [Frame] = []
        private var frameStart: Int64 = 0
        private var ownWork: Int64 = 0
        private let clock: Object
        private var handlers: [UInt] = []
        private var waiter: (condition: @MainActor () -> Bool, continuation: CheckedContinuation<Bool, Never>, timer: UInt32)?
        /// The window as a paintable (`GtkWidgetPaintable`): snapshotting it after layout makes (and caches)
        /// the render nodes the frame's paint phase then rasterises, so that time is the snapshot's alone.
        nonisolated(unsafe) private let windowPaintable: OpaquePointer  // unreffed once, in deinit
        private let window: Widget

        init?(_ window: Widget) {
            guard let pointer = gtk_widget_get_frame_clock(window.widget) else { return nil }
            clock = Object.wrapping(UnsafeMutableRawPointer(pointer))
            self.window = window
            windowPaintable = gtk_widget_paintable_new(window.widget)!
            handlers.append(clock.connect("before-paint") { [weak self] _ in
                self?.frameStart = DateText.monotonicMicroseconds
                self?.ownWork = 0
            })
            handlers.append(clock.connect("layout", after: true) { [weak self] _ in self?.snapshotAfterLayout() })
            handlers.append(clock.connect("after-paint", after: true) { [weak self] _ in self?.painted() })
        }

        deinit { g_object_unref(UnsafeMutableRawPointer(windowPaintable)) }

        /// After GTK's layout, before its paint: the update and layout time so far, then the snapshot.
        private func snapshotAfterLayout() {
            let layoutEnd = DateText.monotonicMicroseconds
            let snapshot = gtk_snapshot_new()
            gdk_paintable_snapshot(windowPaintable, snapshot, Double(window.width), Double(window.height))
            if let node = gtk_snapshot_free_to_node(snapshot) { gsk_render_node_unref(node) }
            ownWork = (layoutEnd - frameStart) + (DateText.monotonicMicroseconds - layoutEnd)
        }

        func stop() { handlers.forEach(clock.disconnect) }

        func reset() { frames = [] }

        /// The display's refresh interval in microseconds as the frame clock knows it (GDK assumes 60 Hz
        /// when the display does not say).
        var refreshInterval: Int64 {
            var interval: gint64 = 0, presentation: gint64 = 0
            gdk_frame_clock_get_refresh_info(clock.pointer(), gdk_frame_clock_get_frame_time(clock.pointer()), &interval, &presentation)
            return interval > 0 ? Int64(interval) : 16_667
        }

        private func painted() {
            frames.append(Frame(start: frameStart, end: DateText.monotonicMicroseconds, ownWork: ownWork))
            if let waiter, waiter.condition() {
                self.waiter = nil
                g_source_remove(waiter.timer)
                waiter.continuation.resume(returning: true)
            }
        }

        /// Waits for the first painted frame after which `condition` holds; false after `timeout` seconds.
        func waitForFrame(where condition: @escaping @MainActor () -> Bool, timeout: Double = 10) async -> Bool {
            await withCheckedContinuation { continuation in
                let timer = MainLoopBridge.repeating(milliseconds: UInt32(timeout * 1000)) { [weak self] in
                    if let waiter = self?.waiter {
                        self?.waiter = nil
                        waiter.continuation.resume(returning: false)
                    }
                    return false
                }
                waiter = (condition, continuation, timer)
            }
        }
    }

    private struct TransitionSample {
        var call: Double
        var frames: [Double]
        /// Each frame's main-thread time in the app's own work (update, layout, snapshot), milliseconds.
        var ownWork: [Double]
        var missed: Int
    }

    /// Runs `action` (a click that pushes or pops) and records it until the stack's transition has
    /// ended and its last frame has been painted.
    private static func transition(_ stack: NavigationStack, _ recorder: FrameRecorder, _ action: () -> Void) async -> TransitionSample? {
        recorder.reset()
        let start = DateText.monotonicMicroseconds
        action()
        let call = Double(DateText.monotonicMicroseconds - start) / 1000
        guard await recorder.waitForFrame(where: { stack.transition == .idle && !stack.view.isTransitionRunning }) else { return nil }
        let refresh = recorder.refreshInterval
        var missed = 0
        for (earlier, later) in zip(recorder.frames, recorder.frames.dropFirst()) {
            let gap = later.start - earlier.start
            if gap * 2 > refresh * 3 { missed += Int((gap + refresh / 2) / refresh) - 1 }
        }
        return TransitionSample(call: call, frames: recorder.frames.map { Double($0.end - $0.start) / 1000 },
                                ownWork: recorder.frames.map { Double($0.ownWork) / 1000 }, missed: missed)
    }

    private static func measureTransitions(_ app: AppController) async {
        let stack = app.mainWindow.stack
        guard let friend = app.myProfile.friendButtons.first, let recorder = FrameRecorder(app.mainWindow.window) else {
            emit("push-error", 1)
            return
        }
        defer { recorder.stop() }
        emit("refresh-interval-ms", Double(recorder.refreshInterval) / 1000)
        var pushes: [TransitionSample] = [], pops: [TransitionSample] = []
        for index in 0..<(warmUps + transitions) {
            guard let push = await transition(stack, recorder, { click(friend) }), stack.pages.count == 2 else {
                emit("push-error", 2)
                return
            }
            await sleep(milliseconds: 250)  // the friend's photos decode and show, as a user would look
            guard let pop = await transition(stack, recorder, { click(stack.backButton) }), stack.pages.count == 1 else {
                emit("pop-error", 2)
                return
            }
            await sleep(milliseconds: 250)
            if index >= warmUps {
                pushes.append(push)
                pops.append(pop)
            }
        }
        // What part of a push is building the page (ProfilePage's widgets; the click also reads its feed).
        var builds: [Double] = []
        for _ in 0..<transitions {
            let start = DateText.monotonicMicroseconds
            _ = ProfilePage(person: Person(id: "ada", name: "Ada Lovelace"), viewer: Person(id: Identity.localID, name: "Sam Rivera"))
            builds.append(Double(DateText.monotonicMicroseconds - start) / 1000)
        }
        emit("push-build-ms", median(builds))
        // And what part is the stack's push itself (a page built beforehand, pushed without the app).
        var stackPushes: [Double] = []
        for _ in 0..<20 {
            let page = ProfilePage(person: Person(id: "grace", name: "Grace Hopper"), viewer: Person(id: Identity.localID, name: "Sam Rivera"))
            guard let sample = await transition(stack, recorder, { stack.push(page) }) else { break }
            stackPushes.append(sample.call)
            await sleep(milliseconds: 100)
            _ = await transition(stack, recorder, { stack.pop() })
            await sleep(milliseconds: 100)
        }
        emit("push-stack-ms", median(stackPushes))
        for (name, samples) in [("push", pushes), ("pop", pops)] {
            emit("\(name)-call-ms", median(samples.map(\.call)))
            emit("\(name)-call-max-ms", samples.map(\.call).max() ?? .nan)
            emit("\(name)-frame-ms", median(samples.flatMap(\.frames)))
            emit("\(name)-frame-max-ms", median(samples.map { $0.frames.max() ?? .nan }))
            emit("\(name)-own-frame-ms", median(samples.flatMap(\.ownWork)))
            emit("\(name)-own-frame-max-ms", median(samples.map { $0.ownWork.max() ?? .nan }))
            emit("\(name)-frames", median(samples.map { Double($0.frames.count) }))
            emit("\(name)-missed", median(samples.map { Double($0.missed) }))
            emit("\(name)-missed-total", Double(samples.map(\.missed).reduce(0, +)))
            emit("\(name)-transitions", Double(samples.count))
        }
    }

    // MARK: - The photo flow

    /// Clicks New Post and returns the flow's dialog, once it has painted its first frame showing
    /// Choose a Photo, with the microseconds from the activation to that frame; nil after 10 s.
    private static func openNewPost(_ app: AppController) async -> (ModalDialog, Double)? {
        let start = DateText.monotonicMicroseconds
        click(app.myProfile.postButton)
        // The flow starts in a main-actor task queued by the click: yield (without letting GLib paint) until
        // its dialog is presented, then wait for the dialog's first frame.
        var found: ModalDialog?
        for _ in 0..<10_000 {
            if let dialog = app.flowDialog, !dialog.isDismissed { found = dialog; break }
            await Task.yield()
        }
        guard let dialog = found else { return nil }
        let painted = await paint(dialog.window)
        let time = Double(DateText.monotonicMicroseconds - start) / 1000
        guard painted, dialog.stack.visiblePage is PhotoPickerPage else { return nil }
        return (dialog, time)
    }

    /// Cancels the open flow with its Cancel button and waits until it has ended.
    private static func cancel(_ dialog: ModalDialog, _ app: AppController) async -> Bool {
        click(dialog.cancelButton)
        return await until { app.activeFlow == nil }
    }

    private static func measureFlowOpens(_ app: AppController) async {
        var times: [Double] = []
        for index in 0...flowOpens {
            guard let (dialog, time) = await openNewPost(app), await cancel(dialog, app) else {
                emit("flow-open-error", 1)
                return
            }
            if index == 0 { emit("flow-open-first-ms", time) } else { times.append(time) }
            await sleep(milliseconds: 300)  // the dialog gone, the main window repainted
        }
        emit("flow-open-ms", median(times))
        emit("flow-opens", Double(times.count))
    }

    private static func measureFlowCycles(_ app: AppController) async {
        // Every flow the app starts, held weakly: each must be freed once it has ended.
        var flows: [() -> Bool] = []
        let observer = app.onFlowStarted
        app.onFlowStarted = { started in
            observer?(started)
            flows.append({ [weak flow = started.flow] in flow != nil })
        }
        defer { app.onFlowStarted = observer }
        var flowsAlive: Int { flows.filter { $0() }.count }
        var pages: [() -> Bool] = []
        var dialogs: [() -> Bool] = []
        var baseline = 0
        for index in 0..<(cycleWarmUps + cycles) {
            guard let (dialog, _) = await openNewPost(app) else {
                emit("flow-cycle-error", Double(index))
                return
            }
            for page in dialog.stack.pages { pages.append({ [weak page] in page != nil }) }
            dialogs.append({ [weak dialog] in dialog != nil })
            guard await cancel(dialog, app) else {
                emit("flow-cycle-error", Double(index))
                return
            }
            if index + 1 == cycleWarmUps { baseline = await settledResidentMemory() }
        }
        _ = await until(timeout: 10) { flowsAlive == 0 && !pages.contains { $0() } && !dialogs.contains { $0() } }
        emit("flow-cycles", Double(cycles))
        emit("flow-flows-alive", Double(flowsAlive))
        emit("flow-dialogs-alive", Double(dialogs.filter { $0() }.count))
        emit("flow-pages-alive", Double(pages.filter { $0() }.count))
        emit("flow-rss-growth-kib", Double(await settledResidentMemory() - baseline))
    }

    /// Messages with a message shown, the window resized across the split view's 600 sp 50 times each
    /// way (after 5 unmeasured): for each crossing, the main-thread time of the frame clock's tick in
    /// which the split view collapses or expands (`split-switch-ms`: moving the pages between the pane
    /// and the stack), and the longest frame from the resize until it is painted collapsed or expanded
    /// (`split-frame-ms`).
    private static func measureSplitCrossings(_ app: AppController) async {
        let window = app.mainWindow.window
        // A sample photo (the bench's library is the bundled photos).
        guard let recorder = FrameRecorder(window),
              let message = try? app.store.addMessageNow(to: "ada", photo: Photo(path: app.library.directory.appending("astronaut.png")), comment: "Crossing", author: Identity.localID) else {
            emit("split-error", 1)
            return
        }
        defer { recorder.stop() }
        app.router.setPath([.messages, .message(message.id)], animated: false)
        let stack = app.mainWindow.stack
        guard let split = stack.visiblePage as? MessagesSplitView else { return emit("split-error", 2) }
        var switches: [Double] = [], frames: [Double] = []
        let token = split.observeSplitProperties { [weak split] (property: NavigationSplitView.SplitProperty) in
            if property == .collapsed, let split { switches.append(Double(split.lastSwitchMicroseconds) / 1000) }
        }
        var height: Int32 = 0, width: Int32 = 0
        gtk_window_get_default_size(window.pointer(), &width, &height)
        for index in 0..<(5 + 2 * transitions) {
            let collapse = index % 2 == 0
            recorder.reset()
            window.setDefaultSize(width: collapse ? 480 : 900, height: Int(height))
            guard await recorder.waitForFrame(where: { split.isCollapsed == collapse && !stack.view.isTransitionRunning }) else {
                return emit("split-error", 3)
            }
            if index >= 5 { frames.append(Double(recorder.frames.map { $0.end - $0.start }.max() ?? 0) / 1000) }
            if index < 5 { switches.removeAll() }
            await sleep(milliseconds: 100)
        }
        _ = token
        emit("split-crossings", Double(frames.count))
        emit("split-frame-ms", median(frames))
        emit("split-frame-max-ms", frames.max() ?? .nan)
        emit("split-switch-ms", median(switches))
        emit("split-switch-max-ms", switches.max() ?? .nan)
        window.setDefaultSize(width: Int(width), height: Int(height))
        app.router.setPath([], animated: false)
        await sleep(milliseconds: 300)
    }

    private static func measureStackCycles(_ app: AppController) async {
        let stack = app.mainWindow.stack
        guard let friend = app.myProfile.friendButtons.first else { return }
        stack.isAnimated = false  // 1,000 slides each way would take minutes; the transitions are measured above
        defer { stack.isAnimated = true }
        var pages: [() -> Bool] = []
        var baseline = 0
        for index in 0..<(cycleWarmUps + cycles) {
            click(friend)
            guard stack.pages.count == 2, let page = stack.visiblePage, await paint(app.mainWindow.window) else {
                emit("stack-cycle-error", Double(index))
                return
            }
            pages.append({ [weak page] in page != nil })
            click(stack.backButton)
            guard stack.pages.count == 1, await paint(app.mainWindow.window) else {
                emit("stack-cycle-error", Double(index))
                return
            }
            if index + 1 == cycleWarmUps { baseline = await settledResidentMemory() }
        }
        // The page Back left is kept for Forward (Alt+Right) until the stack changes; forget it, as any
        // other navigation would, so every page the cycles made must be freed.
        stack.clearForward()
        _ = await until(timeout: 10) { !pages.contains { $0() } }
        emit("stack-cycles", Double(cycles))
        emit("stack-pages-alive", Double(pages.filter { $0() }.count))
        emit("stack-rss-growth-kib", Double(await settledResidentMemory() - baseline))
    }

    /// `VmRSS` in KiB after a second with nothing to do (pending decodes and frees done).
    private static func settledResidentMemory() async -> Int {
        await sleep(milliseconds: 1_000)
        return processStatusKiB("VmRSS:")
    }

    // MARK: - Helpers

    /// Clicks `button` as the pointer does: emits `clicked`, as GTK does when the button is released
    /// (`gtk_widget_activate` would emit it only after the 250 ms of its keyboard-press feedback).
    private static func click(_ button: Button) {
        navgtk_emit_signal(button.unsafeGObjectPointer, "clicked")
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Whether the next frame of `window` was painted within 10 s.
    private static func paint(_ window: Widget) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            var resumed = false
            let timer = MainLoopBridge.repeating(milliseconds: 10_000) {
                if !resumed { resumed = true; continuation.resume(returning: false) }
                return false
            }
            window.afterNextPaint {
                guard !resumed else { return }
                resumed = true
                g_source_remove(timer)
                continuation.resume(returning: true)
            }
        }
    }
}
