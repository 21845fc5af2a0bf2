// A test program, not shipped: ordinary Swift concurrency in a GLib program with GLibExecutors
// installed, each construct reporting where its code ran. `ConcurrencyOnGLibTests` runs it and reads
// its lines:
//
//   ran <construct> main=<0|1> owner=<0|1> thread=<name>
//   wake-ups <count> <thread[id] count …>
//   threads <name> …
//   done
//
// `main` is whether the code ran on the main thread, `owner` whether that thread owned GLib's default
// main context then (it runs the main loop), `thread` the thread's name from /proc. After the constructs,
// the program idles 2 s in GLib's loop and reports the wake-ups of its threads over that time, then
// lists its threads (libdispatch's pool would show as "…-qos" or "…qos.overcommit").
import CGLib
import CGStreamer
import GLib

GLibExecutors.install()
navgtk_name_current_thread("probe-main")

/// Where the caller runs now.
func here() -> String {
    let main = navgtk_is_main_thread() != 0 ? 1 : 0
    let owner = g_main_context_is_owner(g_main_context_default()) != 0 ? 1 : 0
    let name = (Files.readText(FilePath("/proc/thread-self/comm")) ?? "?").trimmingSuffix("\n")
    return "main=\(main) owner=\(owner) thread=\(name)"
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

/// Prints `line` at once (a crash keeps what came before).
func emit(_ line: String) {
    print(line)
    fflush(nil)
}

func report(_ construct: String, _ place: String) {
    emit("ran \(construct) \(place)")
}

/// C callbacks, outside any actor: each is called on a thread of GLib's, GIO's or GStreamer's (a closure
/// written inside a main-actor function would be main-actor code, and trap there).
enum CCallbacks {
    static let resumeOnThread: GThreadFunc = { data in
        Unmanaged<ContinuationBox>.fromOpaque(data!).takeRetainedValue().continuation.resume()
        return nil
    }

    static let queryInfoDone: GAsyncReadyCallback = { source, result, data in
        let info = g_file_query_info_finish(OpaquePointer(source), result, nil)
        if let info { g_object_unref(UnsafeMutableRawPointer(info)) }
        Unmanaged<ContinuationBox>.fromOpaque(data!).takeRetainedValue().continuation.resume()
    }

    static let handoff: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, _, data in
        Unmanaged<HandoffBox>.fromOpaque(data!).takeUnretainedValue().resumeOnce(from: here())
    }

    static let releaseHandoff: GClosureNotify = { data, _ in
        Unmanaged<HandoffBox>.fromOpaque(data!).release()
    }

    static let produce: GThreadFunc = { data in
        let box = Unmanaged<StreamBox>.fromOpaque(data!).takeRetainedValue()
        for value in 0..<3 { box.continuation.yield(value) }
        box.continuation.finish()
        return nil
    }
}

/// Main-actor code awaiting a continuation resumed on a thread of GLib's own (`g_thread_new`).
@MainActor func resumedOnGLibThread() async -> String {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
        g_thread_unref(g_thread_new("probe-worker", CCallbacks.resumeOnThread, box))
    }
    return here()
}

final class ContinuationBox: @unchecked Sendable {  // handed to one other thread, which resumes it once
    let continuation: CheckedContinuation<Void, Never>
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
}

/// Main-actor code awaiting a continuation resumed from a GIO callback: an asynchronous read of a file's
/// information, answered through the default main context (GIO does the blocking part on its own worker
/// thread).
@MainActor func resumedFromGIO() async -> String {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let file = g_file_new_for_path("/proc/self/status")
        let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
        g_file_query_info_async(file, "standard::name", G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, nil, CCallbacks.queryInfoDone, box)
        g_object_unref(UnsafeMutableRawPointer(file))
    }
    return here()
}

/// Main-actor code awaiting a continuation resumed on a GStreamer streaming thread: a fakesink's
/// `handoff` of one test frame.
@MainActor func resumedOnGStreamerThread() async -> String {
    guard gst_init_check(nil, nil, nil) != 0, let pipeline = gst_parse_launch("videotestsrc num-buffers=1 ! fakesink name=sink signal-handoffs=true", nil) else {
        return "main=? owner=? thread=no-gstreamer"
    }
    let sink = gst_bin_get_by_name(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), "sink")!
    let handoffBox = HandoffBox()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        handoffBox.continuation.withLock { $0 = continuation }
        let box = Unmanaged.passRetained(handoffBox).toOpaque()
        g_signal_connect_data(sink, "handoff", unsafeBitCast(CCallbacks.handoff, to: GCallback.self), box,
                              CCallbacks.releaseHandoff, GConnectFlags(rawValue: 0))
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
    }
    gst_element_set_state(pipeline, GST_STATE_NULL)
    gst_object_unref(sink)
    gst_object_unref(pipeline)
    emit("resumed-from \(handoffBox.thread.withLock { $0 } ?? "?")")
    return here()
}

final class HandoffBox: @unchecked Sendable {  // state behind a Mutex
    let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
    let thread = Mutex<String?>(nil)
    func resumeOnce(from place: String) {
        thread.withLock { $0 = place }
        continuation.withLock { $0.take() }?.resume()
    }
}

@MainActor func mainActorFunction() -> String { here() }

@concurrent func nonisolatedWork() async -> String { here() }

@MainActor func runConstructs() async {
    report("main-actor-function", mainActorFunction())
    report("plain-task", await Task { here() }.value)
    report("task-main-actor-from-pool", await Task.detached { await Task { @MainActor in here() }.value }.value)
    report("main-actor-run-from-pool", await Task.detached { await MainActor.run { here() } }.value)
    report("detached", await Task.detached { here() }.value)
    report("detached-hops-back", await Task.detached { _ = here(); return await mainActorFunction() }.value)
    report("concurrent-function", await nonisolatedWork())
    report("after-concurrent-function", here())
    report("continuation-glib-thread", await resumedOnGLibThread())
    report("continuation-gio", await resumedFromGIO())
    report("continuation-gstreamer", await resumedOnGStreamerThread())
    try? await Task.sleep(for: .milliseconds(50))
    report("after-sleep", here())
    async let child = nonisolatedWork()
    report("async-let-child", await child)
    report("after-async-let", here())
    let places = await withTaskGroup(of: String.self) { group in
        for _ in 0..<3 { group.addTask { here() } }
        var places: [String] = []
        for await place in group { places.append(place) }
        return places
    }
    for place in places { report("task-group-child", place) }
    report("after-task-group", here())
    let stream = AsyncStream<Int> { continuation in produce(into: continuation) }
    for await _ in stream { report("async-stream-element", here()) }
    report("after-async-stream", here())
    // Task.sleep on the main actor, a second: every thread's wake-ups meanwhile.
    for _ in 0..<3 {
        try? await Task.sleep(for: .milliseconds(300))
        let before = threads()
        try? await Task.sleep(for: .seconds(1))
        let after = threads()
        var woke: [String] = []
        for (id, thread) in after {
            let count = thread.switches - (before[id]?.switches ?? 0)
            if count > 0 { woke.append("\(thread.name)[\(id)]=\(count)") }
        }
        emit("sleep-wake-ups \(woke.sorted().joined(separator: " "))")
    }
}

/// Yields three elements and finishes, on a GLib thread of its own.
func produce(into continuation: AsyncStream<Int>.Continuation) {
    g_thread_unref(g_thread_new("probe-producer", CCallbacks.produce, Unmanaged.passRetained(StreamBox(continuation)).toOpaque()))
}

final class StreamBox: @unchecked Sendable {  // handed to the producer thread once
    let continuation: AsyncStream<Int>.Continuation
    init(_ continuation: AsyncStream<Int>.Continuation) { self.continuation = continuation }
}

/// Wakes-ups of each thread over `seconds` of idling in GLib's loop (the main thread's one sleep until
/// the timeout that ends the window left out), and the threads there are then.
func idleReport(seconds: UInt32) {
    let before = threads()
    var done = false
    g_timeout_add_full(G_PRIORITY_DEFAULT, seconds * 1000, { data in
        data!.assumingMemoryBound(to: Bool.self).pointee = true
        return 0
    }, &done, nil)
    while !done { g_main_context_iteration(nil, 1) }
    let after = threads()
    var woke: [String] = []
    for (id, thread) in after {
        var count = thread.switches - (before[id]?.switches ?? 0)
        if id == Int(getpid()) { count -= 1 }
        if count > 0 { woke.append("\(thread.name)[\(id)]=\(count)") }
    }
    emit("wake-ups \(woke.count) \(woke.joined(separator: " "))")
    emit("threads \(after.values.map(\.name).sorted().joined(separator: " "))")
}

func threads() -> [Int: (name: String, switches: Int)] {
    var result: [Int: (name: String, switches: Int)] = [:]
    for id in (Files.names(inDirectory: FilePath("/proc/self/task")) ?? []).compactMap({ $0.string.flatMap { Int($0) } }) {
        guard let status = Files.readText(FilePath("/proc/self/task/\(id)/status")) else { continue }
        var name = "?", switches = 0
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
            guard parts.count == 2 else { continue }
            if parts[0] == "Name" { name = parts[1].replacingSpaces() }
            if parts[0].hasSuffix("ctxt_switches") { switches += Int(parts[1]) ?? 0 }
        }
        result[id] = (name, switches)
    }
    return result
}

extension Substring {
    func trimmingCharacters(in set: String) -> String { String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed()) }
}

extension String {
    func replacingSpaces() -> String { String(map { $0 == " " ? "_" : $0 }) }
}

import Synchronization

var finished = false
_ = MainActor.assumeIsolated {
    Task {
        await runConstructs()
        finished = true
    }
}
while !finished { g_main_context_iteration(nil, 1) }
idleReport(seconds: UInt32(CommandLine.arguments.dropFirst().first.flatMap { UInt32($0) } ?? 2))
emit("done")
