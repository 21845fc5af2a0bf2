import CGtk
import Gtk

/// A GLib worker thread that resumes a main-actor task's continuation and times until that task,
/// back on the main loop, answers through a `GAsyncQueue`; alternated with the same thread's plain
/// `g_idle_add` round trip. Counts the main-loop dispatches each resumption took.
final class ContinuationRoundTrip: @unchecked Sendable {  // state written by the worker thread, read after it resumed `done`
    struct Queue: @unchecked Sendable { let pointer: OpaquePointer }
    let continuations = Queue(pointer: g_async_queue_new())
    let answers = Queue(pointer: g_async_queue_new())
    let count: Int
    let warmUps: Int
    var idle: [Int64] = []
    var resumed: [Int64] = []
    var dispatches: [Int] = []
    var done: CheckedContinuation<Void, Never>?

    final class Waiting: @unchecked Sendable {  // handed to the worker thread once
        let continuation: CheckedContinuation<Void, Never>
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    }

    init(count: Int, warmUps: Int) {
        self.count = count
        self.warmUps = warmUps
    }

    deinit {
        g_async_queue_unref(continuations.pointer)
        g_async_queue_unref(answers.pointer)
    }

    /// The main-actor side: waits on a continuation the worker resumes, then answers; `rounds` times.
    @MainActor func serve(rounds: Int) async {
        for _ in 0..<rounds {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                g_async_queue_push(continuations.pointer, Unmanaged.passRetained(Waiting(continuation)).toOpaque())
            }
            g_async_queue_push(answers.pointer, UnsafeMutableRawPointer(bitPattern: 1))
        }
    }

    func start() {
        g_thread_unref(g_thread_new("hop-resume", { data in
            Unmanaged<ContinuationRoundTrip>.fromOpaque(data!).takeRetainedValue().work()
            return nil
        }, Unmanaged.passRetained(self).toOpaque()))
    }

    /// On the worker thread.
    private func work() {
        for index in 0..<(warmUps + count) {
            var idleTime: Int64 = 0, resumeTime: Int64 = 0, dispatched = 0
            for kind in index % 2 == 0 ? [0, 1] : [1, 0] {
                if kind == 0 {
                    let start = DateText.monotonicMicroseconds
                    g_idle_add({ data in
                        g_async_queue_push(OpaquePointer(data), UnsafeMutableRawPointer(bitPattern: 1))
                        return 0
                    }, UnsafeMutableRawPointer(answers.pointer))
                    _ = g_async_queue_pop(answers.pointer)
                    idleTime = DateText.monotonicMicroseconds - start
                } else {
                    let waiting = Unmanaged<Waiting>.fromOpaque(g_async_queue_pop(continuations.pointer)!).takeRetainedValue()
                    g_usleep(200)  // the main thread back asleep in GLib's poll, as for the idle round trip
                    let before = GLibExecutors.mainLoopDispatches
                    let start = DateText.monotonicMicroseconds
                    waiting.continuation.resume()
                    _ = g_async_queue_pop(answers.pointer)
                    resumeTime = DateText.monotonicMicroseconds - start
                    dispatched = GLibExecutors.mainLoopDispatches - before
                }
            }
            if index >= warmUps {
                idle.append(idleTime)
                resumed.append(resumeTime)
                dispatches.append(dispatched)
            }
        }
        done?.resume()
    }
}
