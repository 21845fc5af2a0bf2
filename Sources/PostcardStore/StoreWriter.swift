import CGLib
import CSQLite
import GLib
import PostcardModel

extension PostStore {
    /// The store's one writer: every write — posts, replies and messages (copying the photo, flushing
    /// it to the disk, inserting its row), captions, drafts and their removal — runs here, one at a
    /// time, first in first out, so writes land in the order they were asked for (a caption saved, then
    /// a draft removed, then a post) and a slow disk, a big photo or another process holding the
    /// database never freezes the window.
    ///
    /// A thread of its own (a `GThread` fed by a `GAsyncQueue`, not libdispatch's pool) with its own
    /// connection to the database (write-ahead log, a 5-second busy timeout, foreign keys on), opened on
    /// first use. Its thread ends, after the writes queued before, when the store goes. Any thread.
    final class Writer: @unchecked Sendable {  // its queue is a GAsyncQueue (thread-safe); the thread's state is its own
        /// One queued write: `work` gets the connection, or why it could not be opened.
        final class Job: Sendable {
            let work: @Sendable (Result<OpaquePointer, PostStoreError>) -> Void
            let stops: Bool
            init(stops: Bool = false, _ work: @escaping @Sendable (Result<OpaquePointer, PostStoreError>) -> Void) {
                self.work = work
                self.stops = stops
            }
        }

        /// What the writer thread owns: its connection. Touched only on that thread.
        private final class ThreadState: @unchecked Sendable {  // created here, then used on the writer thread only
            let databasePath: FilePath
            let jobs: OpaquePointer
            let readOnly: Bool
            var connection: OpaquePointer?
            init(databasePath: FilePath, jobs: OpaquePointer, readOnly: Bool) {
                self.databasePath = databasePath
                self.jobs = jobs
                self.readOnly = readOnly
                g_async_queue_ref(jobs)
            }

            func loop() {
                while true {
                    let job = Unmanaged<Job>.fromOpaque(g_async_queue_pop(jobs)!).takeRetainedValue()
                    if job.stops { break }
                    job.work(Result { try open() }.mapError { $0 as? PostStoreError ?? PostStoreError(description: "\($0)") })
                }
                sqlite3_close(connection)
                connection = nil
                g_async_queue_unref(jobs)
            }

            private func open() throws -> OpaquePointer {
                if let connection { return connection }
                if readOnly {
                    // Translators: why nothing can be saved in a store opened read-only (after "Can't save the post: ").
                    throw PostStoreError(description: localized("the posts were opened read-only"))
                }
                var opened: OpaquePointer?
                guard databasePath.withCString({ sqlite3_open_v2($0, &opened, SQLITE_OPEN_READWRITE, nil) }) == SQLITE_OK, let opened else {
                    let message = SQLiteReason.of(opened)
                    sqlite3_close(opened)
                    throw PostStoreError(description: localized("Can't open the post database %1$s: %2$s", databasePath.displayName, message))
                }
                sqlite3_busy_timeout(opened, 5000)
                do {
                    try PostStore.execute("PRAGMA foreign_keys = ON", on: opened)
                } catch {
                    sqlite3_close(opened)
                    throw error
                }
                connection = opened
                return opened
            }
        }

        private let jobs: OpaquePointer = g_async_queue_new()
        private var thread: UnsafeMutablePointer<GThread>?

        /// A writer for the database at `databasePath`; `readOnly`, every write fails saying the posts
        /// were opened read-only.
        init(databasePath: FilePath, readOnly: Bool = false) {
            let state = ThreadState(databasePath: databasePath, jobs: jobs, readOnly: readOnly)
            thread = g_thread_new("postcard-store", { data in
                Unmanaged<ThreadState>.fromOpaque(data!).takeRetainedValue().loop()
                return nil
            }, Unmanaged.passRetained(state).toOpaque())
        }

        /// Lets the writes queued so far finish, then ends the thread.
        deinit {
            enqueue(Job(stops: true) { _ in })
            g_thread_join(thread)
            g_async_queue_unref(jobs)
        }

        private func enqueue(_ job: Job) {
            g_async_queue_push(jobs, Unmanaged.passRetained(job).toOpaque())
        }

        /// Runs `work` on the writer with its connection, after every write queued before, and returns
        /// its result.
        /// - Throws: ``PostStoreError`` if the database cannot be opened; whatever `work` throws.
        /// The caller waits on its own actor (`isolation`, the main actor for the store), resumed there by
        /// the writer thread. (Declared `nonisolated(nonsending)`, a release build of Swift 6.3 resumed it on
        /// Swift's default executor and then ran the store's main-actor code after it on that pool's
        /// thread, without the hop back: posting crashed with "@MainActor function … was not called on the
        /// main thread". An `isolated` parameter is the older, explicit way to the same meaning.)
        func run<T: Sendable>(isolation: isolated (any Actor)? = #isolation,
                              _ work: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                enqueue(Job { connection in continuation.resume(with: Result { try work(try connection.get()) }) })
            }
        }

        /// Queues `work` and returns at once; a failure is logged as `what` failing.
        func post(_ what: String, _ work: @escaping @Sendable (OpaquePointer) throws -> Void) {
            enqueue(Job { connection in
                do { try work(try connection.get()) } catch { appLog.problem("\(what): \(error)") }
            })
        }

        /// Runs `work` on the writer, after every write queued before, and blocks the calling thread
        /// until it has finished (never call it on the writer's own thread).
        /// - Throws: ``PostStoreError`` if the database cannot be opened; whatever `work` throws.
        func runAndWait<T: Sendable>(_ work: @escaping @Sendable (OpaquePointer) throws -> T) throws -> T {
            let box = ResultBox<T>()
            let reply = g_async_queue_new()!
            defer { g_async_queue_unref(reply) }
            nonisolated(unsafe) let replyQueue = reply  // thread-safe (GAsyncQueue); popped below before it is freed
            enqueue(Job { connection in
                box.result = Result { try work(try connection.get()) }
                g_async_queue_push(replyQueue, UnsafeMutableRawPointer(bitPattern: 1))
            })
            _ = g_async_queue_pop(reply)
            return try box.result!.get()
        }

        /// Blocks until every write queued before the call has finished.
        func waitUntilDone() { _ = try? runAndWait { _ in } }
    }
}

/// A result handed from the writer's thread to a thread waiting for it: written before the reply is
/// pushed onto a `GAsyncQueue`, read after it is popped, so never touched by both at once.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
