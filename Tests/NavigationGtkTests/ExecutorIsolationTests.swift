import CGLib
import Dispatch
import GLib
import Gtk
import GtkTesting
import XCTest

// Swift 6.3.1's optimizer can drop the hop back to the main actor after a main-actor function awaits a
// `nonisolated` (or `nonisolated(nonsending)`) async helper whose continuation another thread resumed:
// the main-actor code after the `await` then runs on the thread that resumed it, or on the default
// executor's (fixed upstream in swiftlang/swift #88157 and #88285, after 6.3.1). Postcard met it once, in
// a release build only (9bd6dc9: the store writer's `nonisolated(nonsending)` run). These tests write the
// pattern in each shape the toolkit and the app use, through the toolkit's executors (``GLibExecutors``,
// ``ThreadPoolExecutor``), with the continuation resumed on a thread GLib started, and check after every
// `await` that the code runs on the main thread as the owner of GLib's default main context. `make test`
// runs them in the debug and in the release build (see docs/development.md, "The release lane").

/// A body run once on a new GLib thread (`g_thread_new`): what resumes the continuations below.
///
/// The thread runs `body` only once GLib's main loop has turned after `run` was called (an idle source at
/// the main actor's own priority signals it), so when the caller is main-actor code it has suspended by
/// then, and the continuation is always resumed *on the GLib thread* after the suspension: never inline,
/// on the main thread, by a thread that happened to be quicker. Whether the code after the `await` is back
/// on the main loop then depends on the compiled hop alone, not on which thread won a race.
private final class GLibThread: @unchecked Sendable {  // handed over once, then used by that thread only
    private let body: @Sendable () -> Void
    private let mainLoopTurned = DispatchSemaphore(value: 0)
    private init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    static func run(_ body: @escaping @Sendable () -> Void) {
        let work = GLibThread(body)
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            Unmanaged<GLibThread>.fromOpaque(data!).takeRetainedValue().mainLoopTurned.signal()
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passRetained(work).toOpaque(), nil)
        let thread = g_thread_new("isolation-test", { data in
            let work = Unmanaged<GLibThread>.fromOpaque(data!).takeRetainedValue()
            work.mainLoopTurned.wait()
            work.body()
            return nil
        }, Unmanaged.passRetained(work).toOpaque())
        g_thread_unref(thread)
    }
}

/// A writer as Postcard's store had it before 9bd6dc9: a `Sendable` class whose generic, throwing
/// `nonisolated(nonsending)` method waits for a thread of its own.
private final class ThreadWriter: Sendable {
    // check-isolation: forbidden on purpose
    nonisolated(nonsending)
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            GLibThread.run { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The same, naming the isolation the continuation is to resume on (`#isolation`).
    // check-isolation: forbidden on purpose
    nonisolated(nonsending)
    func runNamingIsolation<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation(isolation: #isolation) { continuation in
            GLibThread.run { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The same, as the store writer has it since 9bd6dc9: the caller's isolation as an `isolated` parameter.
    func runOnCallersIsolation<T: Sendable>(isolation: isolated (any Actor)? = #isolation,
                                            _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
            GLibThread.run { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// A plain `nonisolated` (concurrent) async helper, resumed on a GLib thread.
private func resumedOnGLibThread(_ value: Int) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
        GLibThread.run { continuation.resume(returning: value + 1) }
    }
}

/// A `nonisolated(nonsending)` wrapper around a ``ThreadPoolExecutor`` (as the toolkit's image decoding
/// and the app's metadata and camera helpers are written).
private enum Decoder {
    static let queue = ThreadPoolExecutor(label: "isolation-pool", width: 2)

    nonisolated(nonsending)
    static func decode(_ value: Int) async throws -> Int {
        try await queue.run { value * 2 }
    }
}

/// Main-actor state the code after each `await` touches, as a page or a store would.
@MainActor private final class Model {
    var total = 0
    /// Where the code after each `await` ran: "main thread, owner" or what it was instead.
    var places: [String] = []

    func record(_ step: String) {
        let main = navgtk_is_main_thread() != 0
        let owner = g_main_context_is_owner(g_main_context_default()) != 0
        places.append(main && owner ? "main" : "\(step): main thread \(main), owner of the main context \(owner)")
    }

    /// Every shape in one function, as a store or a page mixes them: those the toolkit and the app write
    /// (the guard: no `nonisolated(nonsending)` function makes a continuation itself, and
    /// Tests/check-isolation.py keeps it so) and the two the guard forbids. The optimizer's choices depend on
    /// the whole function: with the forbidden shapes first, as here, Swift 6.3.1 -O drops their hops back;
    /// in a function of their own it did not.
    func runEveryShape(rounds: Int) async throws {
        let writer = ThreadWriter()
        for round in 0..<rounds {
            total += try await writer.run { round }
            record(forbidden: "nonisolated(nonsending) method")
            total += try await writer.runNamingIsolation { round }
            record(forbidden: "nonisolated(nonsending) method naming #isolation")
            total += try await writer.runOnCallersIsolation { round }
            record("after a method with the caller's isolation, resumed on a GLib thread")
            total += try await resumedOnGLibThread(round)
            record("after a nonisolated helper resumed on a GLib thread")
            total += try await Decoder.decode(round)
            record("after a nonisolated(nonsending) wrapper of ThreadPoolExecutor.run")
            total += try await Decoder.queue.run { round }
            record("after ThreadPoolExecutor.run")
            try await Task.sleep(for: .milliseconds(1))
            record("after Task.sleep")
            await MainLoopBridge.sleep(for: .milliseconds(1))
            record("after MainLoopBridge.sleep")
        }
    }

    /// After a forbidden shape: how many rounds came back on the main loop, by shape.
    var forbiddenOnMainLoop: [String: Int] = [:]

    func record(forbidden shape: String) {
        let onMainLoop = navgtk_is_main_thread() != 0 && g_main_context_is_owner(g_main_context_default()) != 0
        forbiddenOnMainLoop[shape, default: 0] += onMainLoop ? 1 : 0
    }
}

final class ExecutorIsolationTests: ToolkitTestCase, @unchecked Sendable {
    /// Runs `body` on the main actor inside GLib's loop until it returns; fails the test if it threw.
    private func runToTheEnd(_ body: @escaping @MainActor () async throws -> Void) {
        onMain {
            XCTAssertTrue(GLibExecutors.isInstalled, "the toolkit's executors are installed")
            var finished = false, failure: String?
            Task { @MainActor in
                do { try await body() } catch { failure = "\(error)" }
                finished = true
            }
            spin(until: { finished }, timeout: 60, "every round ran")
            XCTAssertNil(failure, "a helper threw")
        }
    }

    /// Main-actor code after an `await` of a helper resumed on another thread runs on the main thread,
    /// inside GLib's main loop, in every shape the toolkit and the app write, 50 rounds each (the
    /// optimizer's choices do not depend on timing, and each continuation is resumed on a GLib thread after
    /// its caller suspended: ``GLibThread``).
    ///
    /// And why the guard exists, checked where it matters: in the same function, a `nonisolated(nonsending)`
    /// method that makes a continuation itself comes back off the main thread in a release build of Swift
    /// 6.3.1 (also when it names `#isolation`), and on it in a debug build. When a toolchain no longer does
    /// this, the test says so: then the guard (the Threads article, Tests/check-isolation.py) can go.
    func testMainActorCodeAfterEveryAwaitTheToolkitWritesRunsOnTheMainLoop() {
        let model = MainActor.assumeIsolated { Model() }
        runToTheEnd { try await model.runEveryShape(rounds: 50) }
        onMain {
            XCTAssertEqual(model.places.count, 50 * 6, "every step after an await was recorded")
            let elsewhere = Dictionary(model.places.filter { $0 != "main" }.map { ($0, 1) }, uniquingKeysWith: +)
            XCTAssertEqual(elsewhere, [:], "main-actor code after an await ran off the main loop (place: rounds)")
            let forbidden = model.forbiddenOnMainLoop
            XCTAssertEqual(forbidden.count, 2, "both forbidden shapes ran")
            #if DEBUG
            XCTAssertEqual(forbidden.values.filter { $0 != 50 }, [], "debug build: every round on the main loop: \(forbidden)")
            #else
            XCTAssertEqual(forbidden.values.filter { $0 != 0 }, [],
                           "release build: Swift 6.3.1's optimizer dropped the hop back after the forbidden shapes every "
                           + "round; now some came back on the main loop (\(forbidden) of 50): the guard may be able to go")
            #endif
        }
    }
}
