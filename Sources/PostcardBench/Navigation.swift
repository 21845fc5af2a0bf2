// The navigation benchmarks of issue 12 (`make bench-navigation`, and the end of `make bench`): start to
// first frame, pushes and pops, main-actor hops, idle wake-ups, open → cancel and push → pop cycles, and
// New Post to Choose a Photo's first frame. The app measures itself (`postcard-measure --measure-navigation`,
// Sources/PostcardMeasure/NavigationMeasurement.swift); this program runs it and the C baselines, and
// writes bench/navigation.md.
import Foundation
import Gtk
import PostcardModel
import PostcardStore
import PhotoPosting
import PostcardApp

/// The `key value` lines of a measurement's output (`idle-thread` lines are kept apart by
/// ``threadLines(_:prefix:)``).
func keyValues(_ output: String) -> [String: Double] {
    var result: [String: Double] = [:]
    for line in output.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2, let number = Double(parts[1]) { result[String(parts[0])] = number }
    }
    return result
}

/// The threads a measurement says woke while idle ("name[id] count"), for the report.
func threadLines(_ output: String, prefix: String) -> [String] {
    output.split(separator: "\n").filter { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
}

/// Runs the navigation benchmarks and writes the report to `outPath`.
/// - Parameters:
///   - repository: the checkout (for the baselines' sources and the sample photos).
///   - work: a scratch folder for the compiled baseline and the benchmark's data folder.
///   - binDirectory: where the release `postcard` is.
///   - rounds: start-up runs per program.
func runNavigationBenchmarks(outPath: String, repository: String, work: String, binDirectory: String, rounds: Int) {
    let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? work + "/xdg-cache"
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    log("navigation: compiling the bare C window")
    let cflags = shell("pkg-config --cflags --libs gtk4").trimmingCharacters(in: .whitespacesAndNewlines)
    _ = shell("cc -O2 -o \(work)/bare-window \(repository)/bench/baselines/bare-window.c \(cflags)")

    // A data folder like a user's: six posts on My Profile and six on Ada Lovelace's (the sample photos).
    let data = work + "/navigation-data"
    let photos = repository + "/Resources/photos"
    try? FileManager.default.removeItem(atPath: data)
    MainActor.assumeIsolated {
        let store = try! PostStore(directory: FilePath(data))
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? []).sorted().prefix(6)
        for (index, name) in names.enumerated() {
            _ = try! store.addNow(photo: Photo(path: "\(photos)/\(name)"), comment: "Post \(index + 1)", author: "me", profile: "me")
            _ = try! store.addNow(photo: Photo(path: "\(photos)/\(name)"), comment: "Photo \(index + 1)", author: "ada", profile: "ada")
        }
        store.waitForWrites()
    }
    let app = "\(binDirectory)/postcard-measure --data-dir \(data) --library \(photos)"

    log("navigation: start-up, \(rounds) rounds of the bare C window and Postcard")
    var bare: [Double] = [], postcard: [Double] = []
    for _ in 0..<rounds {
        if let time = launch("\(work)/bare-window", cache: cache)?.firstFrameMilliseconds { bare.append(time) }
        if let time = launch("\(app) --measure-startup", cache: cache)?.firstFrameMilliseconds { postcard.append(time) }
    }

    log("navigation: idle wake-ups of the bare C window (8 s settling, 10 s idle)")
    let bareIdleOutput = shell("\(work)/bare-window --idle 10", environment: ["XDG_CACHE_HOME": cache])
    let bareIdle = keyValues(bareIdleOutput)["idle-wakeups"]

    log("navigation: compiling the C push baseline (bench/baselines/push-stack.c)")
    let adwaitaFlags = shell("pkg-config --cflags --libs libadwaita-1").trimmingCharacters(in: .whitespacesAndNewlines)
    _ = shell("cc -O2 -o \(work)/push-stack \(repository)/bench/baselines/push-stack.c \(adwaitaFlags)")
    let baselinePhoto = photos + "/" + (((try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? []).sorted().first { $0.hasSuffix(".png") } ?? "coffee.png")
    func pushBaseline() -> [String: Double] {
        keyValues(shell("\(work)/push-stack \(baselinePhoto)", environment: ["XDG_CACHE_HOME": cache]))
    }

    log("navigation: postcard-measure --measure-navigation (GTK's default renderer: GL, Mesa's llvmpipe under Xvfb); takes minutes")
    let started = Date()
    var cPushes = [pushBaseline()]
    let glOutput = shell("\(app) --measure-navigation", environment: ["XDG_CACHE_HOME": cache])
    let gl = keyValues(glOutput)
    // Twice more, without the cycles, each after the C baseline again: three pairs say what noise is.
    var glRuns = [gl]
    for run in 2...3 {
        log("navigation: C baseline and push/pop again (run \(run) of 3, no cycles)")
        cPushes.append(pushBaseline())
        glRuns.append(keyValues(shell("\(app) --measure-navigation",
                                      environment: ["XDG_CACHE_HOME": cache, "POSTCARD_MEASURE_CYCLES": "0"])))
    }
    log("navigation: the review tour at 1280 px, then 100 photos on My Profile and 10 s idle (takes minutes)")
    let tourOutput = shell("\(binDirectory)/postcard-review --review-tour \(work)/tour-gallery --camera test",
                           environment: ["XDG_CACHE_HOME": cache, "POSTCARD_REVIEW_PARTS": "1280", "POSTCARD_REVIEW_IDLE": "10",
                                         // The tour's high-contrast pictures change settings: in memory only, as make review does.
                                         "GSETTINGS_BACKEND": "memory", "ADW_DISABLE_PORTAL": "1"])
    let tour = keyValues(tourOutput)
    let tourPool = tourOutput.split(separator: "\n").first { $0.hasPrefix("Swift's global thread pool:") }.map(String.init) ?? "Swift's global thread pool: not reported"
    log("navigation: done in \(Int(Date().timeIntervalSince(started))) s; again with the cairo renderer (no cycles)")
    let cairoOutput = shell("\(app) --measure-navigation",
                            environment: ["XDG_CACHE_HOME": cache, "GSK_RENDERER": "cairo", "POSTCARD_MEASURE_CYCLES": "0"])
    let cairo = keyValues(cairoOutput)
    for (name, output) in [("gl", glOutput), ("cairo", cairoOutput)] where output.contains("-error ") {
        log("navigation: the \(name) run reported an error:\n\(output)")
    }

    // MARK: Report

    func number(_ value: Double?, _ format: String = "%.1f") -> String { value.map { String(format: format, $0) } ?? "—" }
    func verdict(_ ok: Bool?) -> String { ok.map { $0 ? "met" : "**not met**" } ?? "**not measured**" }
    func below(_ value: Double?, _ limit: Double) -> Bool? { value.map { $0 < limit } }
    let startRatio = median(postcard) / median(bare)
    let twoMB = 2_000_000.0 / 1024  // KiB
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
        .first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?.split(separator: "\n").first?
        .split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { String(format: "%.0f GiB", $0 / 1_048_576) } ?? "?"
    let gtkVersion = shell("pkg-config --modversion gtk4").trimmingCharacters(in: .whitespacesAndNewlines)
    let swiftVersion = shell("swift --version 2>&1 | head -1").trimmingCharacters(in: .whitespacesAndNewlines)
    let threads = { (output: String, prefix: String) -> String in
        let lines = threadLines(output, prefix: prefix)
        return lines.isEmpty ? "" : " (" + lines.joined(separator: ", ") + ")"
    }
    let cycles = gl["flow-cycles"].map { String(format: "%.0f", $0) } ?? "—"
    /// The app's click time ÷ the C baseline's, in pair `run` (0…2).
    func ratio(_ name: String, _ run: Int) -> Double? {
        guard let app = glRuns[run]["\(name)-call-ms"], let c = cPushes[run]["\(name)-call-ms"], c > 0 else { return nil }
        return app / c
    }
    func ratioText(_ name: String) -> String {
        "\(number(ratio(name, 0), "%.2f"))× (three runs: \((0..<3).map { number(ratio(name, $0), "%.2f") + "×" }.joined(separator: ", ")))"
    }
    /// "a, b, c" of `key` over the three runs.
    func threeRuns(_ key: String, _ format: String = "%.2f") -> String { glRuns.map { number($0[key], format) }.joined(separator: ", ") }
    func transitionRows(_ name: String, _ r: [String: Double], renderer: String) -> String {
        """
        | \(name): frames missed during the slide (\(renderer)) | — | median \(number(r["\(name)-missed"], "%.0f")) per transition, \(number(r["\(name)-missed-total"], "%.0f")) in \(number(r["\(name)-transitions"], "%.0f")) transitions (\(number(r["\(name)-frames"], "%.0f")) frames each; main-thread work per frame: median \(number(r["\(name)-frame-ms"])) ms, longest \(number(r["\(name)-frame-max-ms"])) ms per transition, of which the app's own work — update, layout and snapshot, without rasterising — median \(number(r["\(name)-own-frame-ms"])) ms, longest \(number(r["\(name)-own-frame-max-ms"])) ms; refresh interval \(number(r["refresh-interval-ms"])) ms) | 0 missed | \(verdict(r["\(name)-missed-total"].map { $0 == 0 })) |

        """
    }

    var report = """
    # Postcard navigation benchmarks

    Made by `make bench-navigation` (also run by `make bench`) on \
    \(DateText.format(unixSeconds: Int64(Date().timeIntervalSince1970), "%-d %b %Y, %H:%M")): \
    \(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)), \(memory) memory, GTK \(gtkVersion), \
    Xvfb (1280 × 800, 24 bits) with software rendering, release build (\(swiftVersion)). A shared, noisy \
    machine. Every baseline was measured in the same run; times are medians over the repetitions named in \
    each row (start-up: \(rounds) launches each). The data folder holds six posts on My Profile and six on \
    Ada Lovelace's profile (the sample photos); the library is the sample photos.

    | measure | baseline | result | target | |
    | --- | --- | --- | --- | --- |
    | start to first frame of My Profile | a bare C GTK 4 window with a header bar: \(number(median(bare), "%.0f")) ms | \(number(median(postcard), "%.0f")) ms: \(number(startRatio, "%.2f"))× | ≤ 1.2× | \(verdict(startRatio <= 1.2)) |
    | push: main-thread time of the click on a friend (build the profile page, read its feed, push, free the page popped before) | the same widget work in C (`bench/baselines/push-stack.c`): \(number(cPushes[0]["push-call-ms"], "%.2f")) ms | \(number(gl["push-call-ms"], "%.2f")) ms: \(ratioText("push")) (longest \(number(gl["push-call-max-ms"], "%.2f")) ms; building the page alone \(number(gl["push-build-ms"], "%.2f")) ms, the stack's push of a built page \(number(gl["push-stack-ms"], "%.2f")) ms) | ≤ 1.5× | \(verdict(ratio("push", 0).map { $0 <= 1.5 })) |
    | pop: main-thread time of the click on Back | the same in C: \(number(cPushes[0]["pop-call-ms"], "%.2f")) ms | \(number(gl["pop-call-ms"], "%.2f")) ms: \(ratioText("pop")) (longest \(number(gl["pop-call-max-ms"], "%.2f")) ms) | ≤ 1.2× (issue 42: nothing is re-packed) | \(verdict(ratio("pop", 0).map { $0 <= 1.2 })) |

    """
    report += transitionRows("push", gl, renderer: "GL renderer")
    report += transitionRows("pop", gl, renderer: "GL renderer")
    report += transitionRows("push", cairo, renderer: "cairo renderer")
    report += transitionRows("pop", cairo, renderer: "cairo renderer")
    let hopRatio = (gl["hop-actor-us"] ?? .nan) / (gl["hop-idle-us"] ?? .nan)
    let resumeRatio = (gl["hop-resume-us"] ?? .nan) / (gl["hop-resume-idle-us"] ?? .nan)
    report += """
    | collapsing or expanding Messages (a split view, a message shown) as the window is resized across 600 sp: main-thread time of the switch (moving the pages between the pane and the stack) | — | median \(number(gl["split-switch-ms"], "%.2f")) ms, longest \(number(gl["split-switch-max-ms"], "%.2f")) ms over \(number(gl["split-crossings"], "%.0f")) crossings; the longest frame from the resize to the new arrangement painted: median \(number(gl["split-frame-ms"])) ms, longest \(number(gl["split-frame-max-ms"])) ms (GL renderer, software) | < 16 ms (one frame) | \(verdict(gl["split-switch-max-ms"].map { $0 < 16 })) |
    | a `@MainActor` hop from a GLib worker thread and back (`Task { @MainActor in … }`) | a plain `g_idle_add` round trip from the same thread: \(number(gl["hop-idle-us"])) µs | \(number(gl["hop-actor-us"])) µs: \(number(hopRatio, "%.2f"))× | < 50 µs | \(verdict(below(gl["hop-actor-us"], 50))) |
    | `await MainActor.run {}` from a Swift task and back | the same `g_idle_add` round trip | \(number(gl["hop-await-us"])) µs | < 50 µs | \(verdict(below(gl["hop-await-us"], 50))) |
    | a continuation resumed on a GLib worker thread, back on a main-actor task (plain `Task { }`, `withCheckedContinuation`) | a plain `g_idle_add` round trip from the same thread, alternated: \(number(gl["hop-resume-idle-us"])) µs | \(number(gl["hop-resume-us"])) µs: \(number(resumeRatio, "%.2f"))×; at most \(number(gl["hop-resume-dispatches-max"], "%.0f")) main-loop dispatch | ≤ 1× and 1 dispatch | \(verdict(gl["hop-resume-dispatches-max"].map { $0 <= 1 && resumeRatio <= 1 })) |
    | `try await Task.sleep(for: .seconds(1))` on the main actor: wake-ups of every thread from the call to the main actor going on (median of 5) | — | \(number(gl["sleep-wakeups"], "%.0f"))\(threads(glOutput, "sleep-thread")) | 1 | \(verdict(gl["sleep-wakeups"].map { $0 <= 1 })) |
    | wake-ups per second while idle on My Profile, all threads, right after start | the bare C window, idle: \(number(bareIdle.map { $0 / 10 })) per s\(threads(bareIdleOutput, "idle-thread")) | \(number(gl["idle-wakeups-per-second"])) per s\(threads(glOutput, "idle-thread")) | 0 | \(verdict(gl["idle-wakeups"].map { $0 == 0 })) |
    | the same after the navigation below (pushes, flows, cycles) | the bare C window, as above | \(number(gl["idle-after-use-wakeups-per-second"])) per s\(threads(glOutput, "idle-after-use-thread")) | 0 | \(verdict(gl["idle-after-use-wakeups"].map { $0 == 0 })) |
    | the same with a feed of 100 photos after using every screen (the review tour at 1280 px: posting, replies, messages, the camera and scanner, web pages, Undo; then 100 posts on My Profile), from 35 s after the posts | the bare C window, as above | \(number(tour["idle-after-tour-wakeups"].map { $0 / 10 })) per s\(threads(tourOutput, "idle-after-tour-thread")); \(tourPool.prefix(1).lowercased() + tourPool.dropFirst()) | 0 | \(verdict(tour["idle-after-tour-wakeups"].map { $0 == 0 })) |
    | the same in the 10 s from 8 s after the posts: threads that retire once, some seconds after their last work | — | \(number(tour["idle-after-tour-early-wakeups"].map { $0 / 10 })) per s\(threads(tourOutput, "idle-after-tour-early-thread")) | — | |
    | \(cycles) open → Cancel cycles of the photo flow: flows, dialogs and pages left | — | \(number(gl["flow-flows-alive"], "%.0f")) flows, \(number(gl["flow-dialogs-alive"], "%.0f")) dialogs, \(number(gl["flow-pages-alive"], "%.0f")) pages | 0 | \(verdict(gl["flow-flows-alive"].flatMap { flows in gl["flow-pages-alive"].map { flows == 0 && $0 == 0 && gl["flow-dialogs-alive"] == 0 } })) |
    | the same: resident memory growth after a warm-up of 50 cycles | — | \(number(gl["flow-rss-growth-kib"].map { $0 / 1024 }, "%.2f")) MiB | < 2 MB (1.91 MiB) | \(verdict(below(gl["flow-rss-growth-kib"], twoMB))) |
    | \(cycles) push → Back cycles of a friend's profile: pages left | — | \(number(gl["stack-pages-alive"], "%.0f")) pages | 0 | \(verdict(gl["stack-pages-alive"].map { $0 == 0 })) |
    | the same: resident memory growth after a warm-up of 50 cycles | — | \(number(gl["stack-rss-growth-kib"].map { $0 / 1024 }, "%.2f")) MiB | < 2 MB (1.91 MiB) | \(verdict(below(gl["stack-rss-growth-kib"], twoMB))) |
    | opening the photo flow: click on New Post to the first frame of Choose a Photo (GL renderer) | — | \(number(gl["flow-open-ms"], "%.0f")) ms over \(number(gl["flow-opens"], "%.0f")) opens (the first in the process: \(number(gl["flow-open-first-ms"], "%.0f")) ms) | < 100 ms | \(verdict(below(gl["flow-open-ms"], 100))) |
    | the same, cairo renderer | — | \(number(cairo["flow-open-ms"], "%.0f")) ms (first: \(number(cairo["flow-open-first-ms"], "%.0f")) ms) | < 100 ms | \(verdict(below(cairo["flow-open-ms"], 100))) |

    How each is measured (`postcard-measure --measure-navigation`, `Sources/PostcardMeasure/NavigationMeasurement.swift`,
    run by `Sources/PostcardBench/Navigation.swift`; the app is driven through its widgets, as a user would):

    - *Start to first frame*: from just before the process is started to its first painted frame (the
      frame clock's `after-paint`; GLib's monotonic clock in both processes): `postcard-measure --measure-startup`
      against `bench/baselines/bare-window.c`, alternating, \(rounds) launches each.
    - *Push and pop*: the click is the button's `clicked` signal, as GTK emits it on release: a friend's
      button on My Profile (the app builds Ada Lovelace's profile, reads her feed and pushes it) and the
      stack's Back button, each with the stack's real slide (libadwaita's navigation spring: about 218 ms for a
      push, 292 ms for a pop; a GtkStack's 200 ms ease before 4 December 2026). *Main-thread time* is the time spent in
      that click; *frames* are the window's frame clock's frames until the transition has ended and
      been painted, each from `before-paint` to the end of `after-paint` (update, layout, drawing);
      a frame is *missed* when two frames start more than 1.5 refresh intervals apart. \(number(gl["push-transitions"], "%.0f")) pushes and pops
      after 5 unmeasured, 250 ms apart (the friend's photos decode and show). Under Xvfb every frame is
      drawn in software on the same two cores: by Mesa's llvmpipe for GTK's default GL renderer, or by
      cairo (`GSK_RENDERER=cairo`); on a desktop with a GPU that drawing leaves the CPU.
    - *Hops*: a GLib thread (`g_thread_new`) times 2,000 round trips of each kind, alternating which goes
      first: `g_idle_add` of a callback that pushes onto a `GAsyncQueue` the thread pops, against
      `Task { @MainActor in … }` pushing onto the same queue (the main thread idle in GLib's loop; the
      main actor runs there: `GLibExecutors`). `await MainActor.run {}` is timed from a
      `Task.detached` (GLib's `swift-tasks` pool) and back. The resumed continuation: a main-actor task
      waits in `withCheckedContinuation`, the GLib thread resumes it 200 µs later and times until the task,
      back on the main actor, pushes onto the queue; `GLibExecutors.mainLoopDispatches` counts the main
      loop's dispatches in between. On Linux the runtime resumes a continuation on the generic executor
      (the pool) and the task hops from there to the main actor: two threads' wake-ups where `g_idle_add`
      has one. *Sleep*: the wake-ups of every thread from just before `Task.sleep` to the main actor
      going on after it (a nonisolated call: the task hops to the pool, whose idle thread keeps the
      deadline, runs the job due and hops back).
    - *Push and pop against C*: `bench/baselines/push-stack.c` does the widget work of the app's push in C —
      a GtkHeaderBar (Back, title) over a 200 ms sliding GtkStack whose first page has My Profile's widgets;
      the click on a friend's button builds a page with a friend's profile's widgets (a GtkListView of the
      header row — AdwClamp, AdwAvatar, labels, a pill button; on My Profile also the friends' GtkFlowBox of
      buttons and Add Friend — built with the page, and six feed rows, each an AdwClamp, a GtkOverlay with a
      GtkPicture of a photo decoded beforehand, and three labels, built as the list binds them), adds it,
      slides to it, updates the bar (title, Back, window title, and the pages' bar items: My Profile's Quick
      Snap, Messages and menu out, the friend's Copy Link and Remove Friend in), hides My Profile from
      screen readers (`GTK_ACCESSIBLE_STATE_HIDDEN`: GTK 4.8 exposes a stack's covered children) and frees
      the page popped before; Back slides back to My Profile, shows it to screen readers again and moves
      the bar items back — timed the same way (the `clicked` emission, 50 after 5, 250 ms apart). Until
      2 December 2026 the C first page was one button and no bar items moved, so the C pop mapped one
      button where the app's maps My Profile: the pop ratio compared unlike work (3.6× then); and until
      the report of 2 December 2026 (evening) the C pages were not hidden from screen readers, which the
      app's stack does on every push and pop (1.64× to 1.73× against that baseline, three pairs). It runs before each of three runs of the app's measurement (the first with the
      cycles, the other two without): the ratio is the first pair's, and the three pairs' ratios say what
      the noise is. Where a pop's time goes (perf, 5 December 2026, 113 samples inside the click on
      Back): moving the keyboard focus back to My Profile's New Post 37 %, mapping My Profile 17 % — the
      work the C stack does in `gtk_stack_set_visible_child` (300–580 µs, timed in C: it moves focus
      the same way) —, the bar's cross-fade starting (the incoming layer shown) 9 %, My Profile shown
      to screen readers again 10 %, the window title and the stack's observers (lifecycle, router,
      events) about 20 %. Nothing is re-packed; what the app does beyond C is its observers and the
      cross-fade.
    - *The app's own work per frame*: after GTK's layout phase in each frame (the frame clock's `layout`,
      connected after GTK's own handler) the measurement snapshots the window (`gtk_widget_paintable_new`,
      `gdk_paintable_snapshot`), which makes and caches the render nodes the frame's paint phase then only
      rasterises: update and layout (`before-paint` to there) plus that snapshot is the main thread's time in
      the app's own work, without the software rasteriser's.
    - *Wake-ups*: the sum over `/proc/self/task/*/status` of `voluntary_ctxt_switches` and
      `nonvoluntary_ctxt_switches` across 10 s with nothing to do, after 8 s of settling, minus the one
      sleep of the main thread until the timeout that ends the window; the threads that woke are listed
      as name[id] count (`ProcessThreads` in `Gtk`). Swift's global executor — libdispatch's Linux thread pool,
      whose *workqueue monitor*, a 1-second timer on its manager thread (`-qos.overcommit`), runs for the
      rest of the process once the pool has started (`_dispatch_workq_init_once` in swift-corelibs-libdispatch's
      `src/event/workqueue.c`) — is never started: `GLibExecutors` runs Swift concurrency on GLib's main
      loop and thread pools (see docs/development.md, "Threads"). After every screen:
      `postcard-review --review-tour` at 1280 px with `POSTCARD_REVIEW_IDLE=10` walks every screen, then puts
      100 posts on My Profile (`Sources/PostcardReview/IdleAfterTour.swift`), settles 8 s and counts 10 s,
      then counts 10 s again from 35 s after the posts. The first window holds threads that retire once:
      GLib's idle pool threads 15 s after their last task, and WebKitGTK's `VBlankMonitor`, ended by the
      main thread 30 s after a web page was last drawn; the second is the idle that stays. WebKitGTK's
      memory-pressure monitor, a thread reading `/proc/meminfo` every 5 s (1 s when memory is short) from
      the first web page on, runs since issue 57: without it WebKit also turns off each web process's own
      handler, which ends a page's process past `WebPage.webProcessMemoryLimit` (see `PostcardMain.run`).
      *Idle with a web page* (measured by hand: `postcard postcard://guide` under Xvfb, 40 s to
      settle, voluntary + nonvoluntary switches of every thread over 10 s): Postcard 6 (`PressureMonitor`
      3, `dconf` 3), its web process 18 (main thread 16: the 2-second memory measurement, 5 in the window;
      `Core: Scrolling` 2); the web process exists only while a web page is shown, the monitor thread for
      the rest of the process once one was.
      The C window has no Swift runtime.
    - *Cycles*: New Post clicked, the dialog's first frame painted on Choose a Photo, its Cancel clicked,
      the flow ended; and a friend's profile pushed, painted, Back clicked, painted. \(cycles) of each after 50
      warm-ups; the stack cycles switch pages without the slide (`NavigationStack.isAnimated = false`,
      else they would take minutes; the slides are measured above). Then flows, dialogs and pages
      still alive (weak references; the flows from the app's `onFlowStarted`), after
      up to 10 s for them to go; the stack's Forward page (kept by design until the stack changes) is
      forgotten first with `clearForward()`. Memory: `VmRSS` after the cycles minus after the warm-up,
      each after 1 s of quiet.
    - *Opening the photo flow*: from the click on New Post to the first `after-paint` of the flow's
      dialog window showing Choose a Photo, \(number(gl["flow-opens"], "%.0f")) opens after the first, each cancelled.

    Noise, from the three runs of this report (GL renderer): push \(threeRuns("push-call-ms")) ms; the C push
    \(cPushes.map { number($0["push-call-ms"], "%.2f") }.joined(separator: ", ")) ms; pop \(threeRuns("pop-call-ms")) ms, the
    C pop \(cPushes.map { number($0["pop-call-ms"], "%.2f") }.joined(separator: ", ")) ms; frame work during a push \(threeRuns("push-frame-ms")) ms (the
    app's own \(threeRuns("push-own-frame-ms")) ms); frames missed in 50 pushes \(threeRuns("push-missed-total", "%.0f")); opening the photo flow \(threeRuns("flow-open-ms", "%.0f")) ms.
    A difference between two reports smaller than the spread of these is noise.

    Where the time goes (perf with DWARF call chains on the release build, 150–200 pushes and pops; shares of
    the click's main-thread samples; 2 December 2026). *Push*: building the friend's ProfilePage ~35 %
    (GObject construction of its widgets, most of it in GTK), adding it to the GtkStack ~20 % (the page's
    widgets rooted, their styles and accessibility objects made), GtkStack's switch and the first map of the
    page ~19 %, freeing the page popped before ~13 % (its widgets' disposal), the bar's items and title the
    rest. *Pop*: GtkStack's switch and the map of My Profile ~50 % (as in C), D-Bus signals to the
    accessibility bus ~30 % of all samples (GTK's own for the map and focus, and My Profile shown to screen
    readers again, ~9 %: six signals a pop, as the C pop sends), the bar (title, Back, items moved and
    arranged) ~14 %, the window title ~7 %. Fixed on the way (the app's own): the leaving page was hidden from
    screen readers on every pop (a sixth of a pop; it leaves the tree when its slide ends); the primary menu's GtkPopoverMenu was
    built on every realize (now when it opens); every tooltip change asked the X server for the pointer; every
    page built a hidden standalone header bar; every change set every page's screen-reader state (a D-Bus
    signal each); the header bar arranged its items and overflow menu after each item moved (now once per
    change, `HeaderBar.performUpdates`); the feed's texture cache made its key with string interpolation
    through Swift's reflection on every row mapped again.

    """
    try! report.write(toFile: outPath, atomically: true, encoding: .utf8)
    print(report)
}
