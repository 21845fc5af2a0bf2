import CGLib
import CGtk
import Dispatch
import Gtk
import GtkTesting
import Synchronization
import XCTest

/// The executors for blocking work: a ``ThreadPoolExecutor`` runs its jobs on its own named,
/// lower-priority GLib threads, newest first, and never runs a job whose task was cancelled while it
/// waited; and ``ProcessThreads/globalExecutorThreads()`` sees libdispatch's pool once it runs. That the
/// app, using every screen, never starts that pool is checked by ReviewGalleryTests (the tour runs in a
/// process of its own; this one's pool is started by XCTest and the tests).
// `@unchecked Sendable` as every GTK test case: XCTest runs its tests one at a time on the main thread.
final class ExecutorTests: GtkTestCase, @unchecked Sendable {
    func testAPoolRunsItsJobsOnItsOwnNamedThreadsNewestFirst() {
        onMain {
            let pool = ThreadPoolExecutor(label: "test-pool", width: 1, niceness: 7)
            let order = Mutex<[Int]>([])
            let gate = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
            // The one thread is held by the first job while five more wait; they then run newest first.
            pool.execute { holding.signal(); gate.wait() }
            holding.wait()
            for number in 1...5 { pool.execute { order.withLock { $0.append(number) } } }
            spin(until: { pool.waitingCount == 5 }, "five jobs waiting")
            gate.signal()
            spin(until: { order.withLock { $0.count } == 5 }, "the five jobs")
            XCTAssertEqual(order.withLock { $0 }, [5, 4, 3, 2, 1], "newest first")

            var ranOn: (main: Bool, name: String, nice: Int32)?
            Task {
                ranOn = try? await pool.run {
                    (navgtk_is_main_thread() != 0, Files.readText(FilePath("/proc/thread-self/comm")) ?? "", getpriority(__priority_which_t(0), 0))
                }
            }
            spin(until: { ranOn != nil }, "run's result")
            XCTAssertEqual(ranOn?.main, false, "off the main thread")
            XCTAssertEqual(ranOn?.name, "test-pool\n", "on a thread named after the pool")
            XCTAssertEqual(ranOn?.nice, 7, "at the pool's nice value")
        }
    }

    func testAJobWhoseTaskIsCancelledWhileItWaitsNeverRuns() {
        onMain {
            let pool = ThreadPoolExecutor(label: "test-cancel", width: 1)
            let gate = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
            pool.execute { holding.signal(); gate.wait() }
            holding.wait()
            let ran = Mutex(false)
            var outcome: String?
            let task = Task {
                do {
                    try await pool.run { ran.withLock { $0 = true } }
                    outcome = "ran"
                } catch is CancellationError {
                    outcome = "cancelled"
                } catch {
                    outcome = "\(error)"
                }
            }
            spin(until: { pool.waitingCount == 1 }, "the job waiting")
            task.cancel()
            gate.signal()
            spin(until: { outcome != nil }, "the outcome")
            XCTAssertEqual(outcome, "cancelled")
            XCTAssertFalse(ran.withLock { $0 }, "the work never ran")
        }
    }

    func testLibdispatchsThreadPoolIsSeenOnceSomethingRunsThere() {
        onMain {
            let ran = Mutex(false)
            DispatchQueue.global().async { ran.withLock { $0 = true } }  // libdispatch's pool (no longer Swift's executor)
            spin(until: { ran.withLock { $0 } }, "the work on DispatchQueue.global()")
            XCTAssertFalse(ProcessThreads.globalExecutorThreads().isEmpty,
                           "the pool's threads are found by name: \(ProcessThreads.all().map(\.label))")
            XCTAssertTrue(ProcessThreads.globalExecutorThreads().allSatisfy { !$0.name.hasPrefix("test-") })
        }
    }
}
