import CSQLite
import Dispatch
import Glibc
import Gtk
import PhotoPosting

/// The posts, in a SQLite database with a folder of photo copies beside it.
///
/// Layout under the data directory (`$XDG_DATA_HOME/postcard/` by default): `posts.sqlite3` (write-ahead
/// log, schema versioned with `PRAGMA user_version`, see ``migrations``), `photos/`, `photos.lock` and
/// `navigation.json`. Rows store photo paths relative to the data directory, so the folder can be moved;
/// other paths are refused on read. Adding a post copies the photo into `photos/` under a temporary
/// name, flushes it, moves it into place without replacing anything, flushes the folder, then inserts
/// the row in a transaction; if any step fails, what was written is removed and the error says why, so
/// nothing half-written remains, and a launch sweeps copies a kill interrupted.
///
/// Main actor only, for its own connection (reads, drafts, captions); posting can run on a writer
/// thread with a connection of its own (``addInBackground(photo:comment:author:profile:)``).
@MainActor
public final class PostStore {
    /// The data directory.
    public let directory: FilePath
    /// The folder holding the photo copies.
    public let photosDirectory: FilePath
    nonisolated(unsafe) private var db: OpaquePointer?
    private let writer: Writer

    /// Opens (creating if needed) the store in `directory` (any folder name, byte for byte).
    /// - Throws: ``PostStoreError`` if the folder cannot be created or the database cannot be opened.
    public init(directory: FilePath) throws {
        self.directory = directory
        photosDirectory = directory.appending("photos")
        writer = Writer(databasePath: directory.appending("posts.sqlite3"))
        do {
            try Files.makeDirectory(photosDirectory)
        } catch {
            throw PostStoreError(description: localized("Can't create the data folder: %s", "\(error)"))
        }
        sweepLeftovers()
        let path = directory.appending("posts.sqlite3")
        if path.withCString({ sqlite3_open_v2($0, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) }) != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? localized("out of memory")
            sqlite3_close(db)
            db = nil
            // Translators: %1$s is the database file, %2$s why it can't be opened.
            throw PostStoreError(description: localized("Can't open the post database %1$s: %2$s", path.displayName, message))
        }
        sqlite3_busy_timeout(db, 2000)
        do {
            try migrate()
        } catch let error as PostStoreError {
            sqlite3_close(db)
            db = nil
            // Translators: %1$s is the database file, %2$s what is wrong with it.
            throw PostStoreError(description: localized("Can't use the post database %1$s: %2$s. Move it aside to start afresh, or choose another folder with --data-dir.",
                                                        path.displayName, error.description))
        }
    }

    /// How old a half-copied photo (`photos/.incoming-*`) must be before a launch removes it while
    /// another Postcard is writing into the same folder (older than any copy still running), in seconds.
    static let leftoverAge: Int = 3600

    /// The lock file every writer holds (shared, `flock`) while it copies a photo in; the kernel drops a
    /// killed writer's lock, so a launch that can take it exclusively knows no copy is running anywhere.
    /// (`photos.lock` beside the `photos` folder, so the folder holds photos only.)
    nonisolated static func writerLockPath(in photosDirectory: FilePath) -> FilePath {
        FilePath(bytes: photosDirectory.bytes + Array(".lock".utf8))
    }

    /// Takes the writers' lock on `photosDirectory` (`LOCK_SH`, or `LOCK_EX | LOCK_NB` when
    /// `exclusively`); returns its file descriptor (close it to release), or nil.
    nonisolated static func lockWriters(in photosDirectory: FilePath, exclusively: Bool) -> Int32? {
        let descriptor = writerLockPath(in: photosDirectory).withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, exclusively ? LOCK_EX | LOCK_NB : LOCK_SH) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Removes photo copies that a crash, kill or power cut interrupted (`.incoming-*`, never given a row):
    /// all of them when no other Postcard is writing into the folder now, else those older than
    /// ``leftoverAge``.
    private func sweepLeftovers() {
        let exclusive = Self.lockWriters(in: photosDirectory, exclusively: true)
        defer { if let exclusive { close(exclusive) } }
        let now = time(nil)
        for name in Files.names(inDirectory: photosDirectory) ?? [] where name.hasPrefix(".incoming-") {
            let path = photosDirectory.appending(name)
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0, exclusive != nil || now - info.st_mtim.tv_sec > Self.leftoverAge else { continue }
            Files.remove(path)
            appLog.info("Removed an interrupted photo copy: \(name)")
        }
    }

    /// The schema version this Postcard writes (`PRAGMA user_version`).
    public static var schemaVersion: Int32 { Int32(migrations.count) }

    /// The schema changes in order; migration N (1-based) brings a store from version N-1 to N. Each
    /// runs in its own transaction with the new `user_version`, so a store is always at a whole version.
    static let migrations: [@MainActor (PostStore) throws -> Void] = [
        // 1: posts, replies, messages.
        { store in try store.execute(schemaVersion1) },
        // 2: photo paths relative to the data folder (early stores kept some absolute ones).
        { store in
            for table in ["posts", "replies", "messages"] {
                let statement = try store.prepare("""
                    UPDATE \(table) SET photo_path = substr(photo_path, length(?1) + 2)
                    WHERE substr(photo_path, 1, length(?1) + 1) = ?1 || '/'
                    """)
                defer { sqlite3_finalize(statement) }
                store.directory.withCString { _ = sqlite3_bind_text(statement, 1, $0, Int32(store.directory.bytes.count), postcard_sqlite_transient()) }
                guard sqlite3_step(statement) == SQLITE_DONE else { throw store.error { localized("Can't update the database: %s", $0) } }
            }
        },
        // 3: drafts, one per flow target.
        { store in
            try store.execute("""
                CREATE TABLE IF NOT EXISTS drafts (
                    kind TEXT NOT NULL,
                    target TEXT NOT NULL,
                    photo_uri TEXT NOT NULL,
                    comment TEXT NOT NULL,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY (kind, target)
                );
                """)
        },
    ]

    // MARK: - Drafts

    /// Keeps `comment` on the photo at `photoURI` as the draft for `kind` and `target`, replacing the one
    /// kept before. Committed when it returns (write-ahead log: it survives a kill or a power cut).
    /// Blocking; flows keep their drafts with ``saveDraftInBackground(kind:target:photoURI:comment:)``.
    /// - Throws: ``PostStoreError`` if the database cannot be written.
    public func saveDraft(kind: String, target: String, photoURI: String, comment: String) throws {
        guard let db else { throw PostStoreError(description: localized("The post database is closed")) }
        try Self.saveDraft(on: db, kind: kind, target: target, photoURI: photoURI, comment: comment)
    }

    /// ``saveDraft(kind:target:photoURI:comment:)`` on the ``Writer``: returns at once, and the draft is
    /// committed after every write asked for before it (``waitForWrites()`` waits for it). A failure is
    /// logged (the flow goes on; the next change tries again).
    public func saveDraftInBackground(kind: String, target: String, photoURI: String, comment: String) {
        writer.post("Couldn't keep the draft") { db in
            try Self.saveDraft(on: db, kind: kind, target: target, photoURI: photoURI, comment: comment)
        }
    }

    /// Forgets the draft for `kind` and `target`, if any.
    /// - Throws: ``PostStoreError`` if the database cannot be written.
    public func removeDraft(kind: String, target: String) throws {
        guard let db else { throw PostStoreError(description: localized("The post database is closed")) }
        try Self.removeDraft(on: db, kind: kind, target: target)
    }

    /// ``removeDraft(kind:target:)`` on the ``Writer``, after every write asked for before it (so a
    /// draft saved a moment earlier never comes back). A failure is logged.
    public func removeDraftInBackground(kind: String, target: String) {
        writer.post("Couldn't remove the draft") { db in try Self.removeDraft(on: db, kind: kind, target: target) }
    }

    nonisolated private static func saveDraft(on db: OpaquePointer, kind: String, target: String, photoURI: String, comment: String) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, """
            INSERT INTO drafts (kind, target, photo_uri, comment, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (kind, target) DO UPDATE SET photo_uri = ?3, comment = ?4, updated_at = ?5
            """, -1, &statement, nil) == SQLITE_OK else {
            throw PostStoreError(description: localized("Can't keep the draft: %s", String(cString: sqlite3_errmsg(db))))
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in [kind, target, photoURI, comment].enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), value, -1, postcard_sqlite_transient())
        }
        sqlite3_bind_int64(statement, 5, DateText.nowMicroseconds / 1_000_000)
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw PostStoreError(description: localized("Can't keep the draft: %s", String(cString: sqlite3_errmsg(db))))
        }
        appLog.debug("Draft saved: \(kind) \(target), \(comment.count) characters")
    }

    nonisolated private static func removeDraft(on db: OpaquePointer, kind: String, target: String) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "DELETE FROM drafts WHERE kind = ?1 AND target = ?2", -1, &statement, nil) == SQLITE_OK else {
            throw PostStoreError(description: localized("Can't remove the draft: %s", String(cString: sqlite3_errmsg(db))))
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, kind, -1, postcard_sqlite_transient())
        sqlite3_bind_text(statement, 2, target, -1, postcard_sqlite_transient())
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw PostStoreError(description: localized("Can't remove the draft: %s", String(cString: sqlite3_errmsg(db))))
        }
        if sqlite3_changes(db) > 0 { appLog.debug("Draft removed: \(kind) \(target)") }
    }

    /// The drafts kept, newest first, after every write queued before the call (``waitForWrites()``).
    /// - Throws: ``PostStoreError`` if the database cannot be read.
    public func drafts() throws -> [Draft] {
        waitForWrites()
        return try query("SELECT kind, target, photo_uri, comment, updated_at FROM drafts ORDER BY updated_at DESC", bind: { _ in }) { statement in
            Draft(kind: self.text(statement, 0), target: self.text(statement, 1), photoURI: self.text(statement, 2),
                  comment: self.text(statement, 3), updatedAt: sqlite3_column_int64(statement, 4))
        }
    }

    static let schemaVersion1 = """
        CREATE TABLE IF NOT EXISTS posts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            author TEXT NOT NULL,
            profile TEXT NOT NULL,
            comment TEXT NOT NULL,
            photo_path TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS posts_by_profile ON posts (profile, created_at DESC, id DESC);
        CREATE TABLE IF NOT EXISTS replies (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            post_id INTEGER NOT NULL REFERENCES posts(id),
            author TEXT NOT NULL,
            comment TEXT NOT NULL,
            photo_path TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS replies_by_post ON replies (post_id, created_at, id);
        CREATE TABLE IF NOT EXISTS messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            author TEXT NOT NULL,
            recipient TEXT NOT NULL,
            comment TEXT NOT NULL,
            photo_path TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS messages_by_time ON messages (created_at DESC, id DESC);
        """

    /// The store's schema version: `PRAGMA user_version`; a store from before versioning (tables but
    /// version 0) counts as version 1.
    func storedVersion() throws -> Int32 {
        let version = Int32(try integer("PRAGMA user_version"))
        if version == 0, try integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'posts'") > 0 { return 1 }
        return version
    }

    /// Brings the store to ``schemaVersion``: refuses (untouched) a store written by a newer Postcard,
    /// then turns on write-ahead logging and foreign keys and runs the missing migrations in order.
    private func migrate() throws {
        let version = try storedVersion()
        guard version <= Self.schemaVersion else {
            // Translators: %1$d is the store's schema version, %2$d the newest this Postcard knows.
            throw PostStoreError(description: localized("it was written by a newer Postcard (schema version %1$d; this one knows up to %2$d). Update Postcard to open it",
                                                        Int(version), Int(Self.schemaVersion)))
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA foreign_keys = ON")
        for next in (version + 1)...max(version + 1, Self.schemaVersion) where next <= Self.schemaVersion {
            try execute("BEGIN IMMEDIATE")
            do {
                try Self.migrations[Int(next) - 1](self)
                try execute("PRAGMA user_version = \(next)")
                try execute("COMMIT")
                appLog.info("Post store migrated to schema version \(next)")
            } catch {
                try? execute("ROLLBACK")
                throw error
            }
        }
    }

    deinit {
        sqlite3_close(db)
    }

    /// Stores a post of `photo` with `comment` by `author` on `profile`'s page.
    /// - Returns: the stored post (its photo path points at the store's copy).
    /// - Throws: ``PostStoreError`` saying what failed (copying the photo, writing the database); the
    ///   store is then as it was before the call.
    @discardableResult
    public func add(photo: Photo, comment: String, author: String, profile: String) throws -> Post {
        let (id, path, createdAt) = try insertWithPhoto(photo, what: .post, sql: Self.insertPost, texts: [author, profile, comment])
        return Post(id: id, author: author, profile: profile, comment: comment, photoPath: path, createdAt: createdAt)
    }

    /// Stores a reply with `photo` and `comment` by `author` in `post`'s comment thread.
    /// - Throws: ``PostStoreError``; nothing is left half-written.
    @discardableResult
    public func addReply(to post: Post, photo: Photo, comment: String, author: String) throws -> Reply {
        let (id, path, createdAt) = try insertWithPhoto(photo, what: .reply, sql: Self.insertReply, texts: [String(post.id), author, comment])
        return Reply(id: id, postID: post.id, author: author, comment: comment, photoPath: path, createdAt: createdAt)
    }

    /// Stores a private message of `photo` with `comment` from `author` to `recipient`.
    /// - Throws: ``PostStoreError``; nothing is left half-written.
    @discardableResult
    public func addMessage(to recipient: String, photo: Photo, comment: String, author: String) throws -> Message {
        let (id, path, createdAt) = try insertWithPhoto(photo, what: .message, sql: Self.insertMessage, texts: [author, recipient, comment])
        return Message(id: id, author: author, recipient: recipient, comment: comment, photoPath: path, createdAt: createdAt)
    }

    nonisolated static let insertPost = "INSERT INTO posts (author, profile, comment, photo_path, created_at) VALUES (?1, ?2, ?3, ?4, ?5)"
    nonisolated static let insertReply = "INSERT INTO replies (post_id, author, comment, photo_path, created_at) VALUES (?1, ?2, ?3, ?4, ?5)"
    nonisolated static let insertMessage = "INSERT INTO messages (author, recipient, comment, photo_path, created_at) VALUES (?1, ?2, ?3, ?4, ?5)"

    /// ``add(photo:comment:author:profile:)`` off the main thread (see ``writeQueue``): the window stays
    /// responsive while the photo is copied and flushed.
    public func addInBackground(photo: Photo, comment: String, author: String, profile: String) async throws -> Post {
        let (id, path, createdAt) = try await insertInBackground(photo, what: .post, sql: Self.insertPost, texts: [author, profile, comment])
        return Post(id: id, author: author, profile: profile, comment: comment, photoPath: path, createdAt: createdAt)
    }

    /// ``addReply(to:photo:comment:author:)`` off the main thread.
    public func addReplyInBackground(to post: Post, photo: Photo, comment: String, author: String) async throws -> Reply {
        let (id, path, createdAt) = try await insertInBackground(photo, what: .reply, sql: Self.insertReply,
                                                                 texts: [String(post.id), author, comment])
        return Reply(id: id, postID: post.id, author: author, comment: comment, photoPath: path, createdAt: createdAt)
    }

    /// ``addMessage(to:photo:comment:author:)`` off the main thread.
    public func addMessageInBackground(to recipient: String, photo: Photo, comment: String, author: String) async throws -> Message {
        let (id, path, createdAt) = try await insertInBackground(photo, what: .message, sql: Self.insertMessage,
                                                                 texts: [author, recipient, comment])
        return Message(id: id, author: author, recipient: recipient, comment: comment, photoPath: path, createdAt: createdAt)
    }

    /// Replaces the comment (caption) of post `id`.
    /// - Throws: ``PostStoreError`` if the post does not exist or the database cannot be written.
    public func updateComment(ofPost id: Int64, to comment: String) throws {
        let statement = try prepare("UPDATE posts SET comment = ?1 WHERE id = ?2")
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, comment, -1, postcard_sqlite_transient())
        sqlite3_bind_int64(statement, 2, id)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw error { localized("Can't save the caption: %s", $0) } }
        guard sqlite3_changes(db) == 1 else {
            throw PostStoreError(description: localized("Can't save the caption: the post no longer exists"))
        }
        appLog.debug("Stored the caption of post \(id)")
    }

    /// Copies `photo` into the store (temporary name, then rename), then inserts one row with `sql`
    /// (parameters: `texts`, then the photo path, then the time) in a transaction. On any failure what
    /// was written is removed.
    private func insertWithPhoto(_ photo: Photo, what: Record, sql: String, texts: [String]) throws -> (Int64, FilePath, Int64) {
        guard let db else { throw PostStoreError(description: localized("The post database is closed")) }
        return try Self.insert(into: db, photosDirectory: photosDirectory, photo: photo, what: what, sql: sql, texts: texts)
    }

    /// The store's writer: posting (copying the photo, flushing it to the disk, inserting its row) and
    /// keeping drafts never run on the main thread, where a slow disk, a big photo or another process
    /// holding the database would freeze the window.
    ///
    /// One serial queue, first in first out, so writes land in the order they were asked for (a draft
    /// saved, then removed when posted, stays removed), with its own connection to the database (write-
    /// ahead log, a 5-second busy timeout, foreign keys on), opened on first use. Any thread.
    final class Writer: @unchecked Sendable {
        private let queue = DispatchQueue(label: "postcard.store-write", qos: .userInitiated)
        private let databasePath: FilePath
        private var connection: OpaquePointer?  // only touched on `queue`

        init(databasePath: FilePath) { self.databasePath = databasePath }

        deinit { sqlite3_close(connection) }  // nothing else refers to the writer any more

        /// Runs `work` on the queue with the writer's connection and returns its result.
        /// - Throws: ``PostStoreError`` if the database cannot be opened; whatever `work` throws.
        func run<T: Sendable>(_ work: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try work(try self.open()) }) }
            }
        }

        /// Queues `work` and returns at once; a failure is logged as `what` failing.
        func post(_ what: String, _ work: @escaping @Sendable (OpaquePointer) throws -> Void) {
            queue.async {
                do { try work(try self.open()) } catch { appLog.problem("\(what): \(error)") }
            }
        }

        /// Blocks until every write queued before the call has finished.
        func waitUntilDone() { queue.sync {} }

        private func open() throws -> OpaquePointer {
            if let connection { return connection }
            var opened: OpaquePointer?
            guard databasePath.withCString({ sqlite3_open_v2($0, &opened, SQLITE_OPEN_READWRITE, nil) }) == SQLITE_OK, let opened else {
                let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? localized("out of memory")
                sqlite3_close(opened)
                throw PostStoreError(description: localized("Can't open the post database %1$s: %2$s", databasePath.displayName, message))
            }
            sqlite3_busy_timeout(opened, 5000)
            try PostStore.execute("PRAGMA foreign_keys = ON", on: opened)
            connection = opened
            return opened
        }
    }

    /// Blocks until every write queued so far (posts, drafts) has reached the database. Called as the
    /// app quits, so nothing asked for is lost; reads that must see those writes (``drafts()``) call it.
    public func waitForWrites() { writer.waitUntilDone() }

    /// ``insertWithPhoto(_:what:sql:texts:)`` on the ``Writer``, so the main thread stays free meanwhile.
    private func insertInBackground(_ photo: Photo, what: Record, sql: String, texts: [String]) async throws -> (Int64, FilePath, Int64) {
        let photosDirectory = self.photosDirectory
        return try await writer.run { connection in
            try Self.insert(into: connection, photosDirectory: photosDirectory, photo: photo, what: what, sql: sql, texts: texts)
        }
    }

    /// Copies `photo` into the store (temporary name, flushed, moved without replacing, folder flushed),
    /// then inserts one row with `sql` (parameters: `texts`, then the photo path, then the time) in a
    /// transaction on `db`. On any failure what was written is removed. Any thread.
    nonisolated private static func insert(into db: OpaquePointer, photosDirectory: FilePath, photo: Photo, what: Record,
                                           sql: String, texts: [String]) throws -> (Int64, FilePath, Int64) {
        let createdAt = DateText.nowMicroseconds / 1_000_000
        let name = "\(createdAt)-\(UInt32.random(in: 0 ... .max))\(Self.fileExtension(of: photo.fileName))"
        let finalPath = photosDirectory.appending(name)
        let storedPath = "photos/\(name)"  // relative to the data directory
        let temporaryPath = photosDirectory.appending(".incoming-\(name)")
        // Held while the half-copied file exists, so a launch meanwhile leaves it alone.
        let writerLock = lockWriters(in: photosDirectory, exclusively: false)
        defer { if let writerLock { close(writerLock) } }
        appLog.debug("Copying \(photo.uri) into the store")
        do {
            // Durable before the row exists: the copy's bytes, then its name in the folder, reach the
            // disk; the final name is never taken from another file.
            try Files.copy(uri: photo.uri, to: temporaryPath)
            try Files.sync(temporaryPath)
            try Files.moveWithoutReplacing(temporaryPath, to: finalPath)
            try Files.sync(photosDirectory)
        } catch {
            Files.remove(temporaryPath)
            // Translators: %1$s is the photo's file name, %2$s why it can't be copied.
            throw PostStoreError(description: localized("Can't copy the photo “%1$s”: %2$s", photo.fileName, "\(error)"))
        }
        do {
            try execute("BEGIN IMMEDIATE", on: db)
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
                throw PostStoreError(description: localized("Can't prepare a query: %s", String(cString: sqlite3_errmsg(db))))
            }
            defer { sqlite3_finalize(statement) }
            for (index, value) in (texts + [storedPath]).enumerated() {
                sqlite3_bind_text(statement, Int32(index + 1), value, -1, postcard_sqlite_transient())
            }
            sqlite3_bind_int64(statement, Int32(texts.count + 2), createdAt)
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw PostStoreError(description: what.cantInsert(String(cString: sqlite3_errmsg(db))))
            }
            let id = sqlite3_last_insert_rowid(db)
            try execute("COMMIT", on: db)
            appLog.debug("Stored \(what) \(id) with photo \(storedPath)")
            return (id, finalPath, createdAt)
        } catch {
            try? execute("ROLLBACK", on: db)
            Files.remove(finalPath)
            appLog.problem("Couldn't store a \(what): \(error)")
            throw PostStoreError(description: what.cantSave("\(error)"))
        }
    }

    /// Runs SQL with no results on `db`. Any thread.
    nonisolated private static func execute(_ sql: String, on db: OpaquePointer) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? localized("unknown error")
            sqlite3_free(message)
            throw PostStoreError(description: text)
        }
    }

    func query<T>(_ sql: String, bind: (OpaquePointer?) -> Void, row: (OpaquePointer?) -> T) throws -> [T] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        bind(statement)
        var result: [T] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw error { localized("Can't read the database: %s", $0) } }
            result.append(row(statement))
        }
        return result
    }

    /// The integer the one-row query `sql` gives (a count, a pragma).
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw error { localized("Can't read the database: %s", $0) } }
        return sqlite3_column_int64(statement, 0)
    }

    /// Runs SQL with no results (schema, transactions). Internal: tests use it to simulate failures.
    func execute(_ sql: String) throws {
        guard let db else { throw PostStoreError(description: localized("The post database is closed")) }
        try Self.execute(sql, on: db)
    }

    func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw error { localized("Can't prepare a query: %s", $0) }
        }
        return statement
    }

    /// A stored photo path made absolute. Rows keep it relative to the data directory; anything else
    /// (an absolute path, a `..` step out of the folder) is refused: the photo then shows as
    /// unavailable, and the refusal is logged.
    func photoPath(_ statement: OpaquePointer?, _ column: Int32) -> FilePath {
        let stored = text(statement, column)
        guard !stored.hasPrefix("/"), !stored.split(separator: "/").contains("..") else {
            appLog.problem("Refused a stored photo path outside the data folder: \(stored)")
            return directory.appending("photos", ".refused-path")  // never exists: shown as unavailable
        }
        return directory.appending(stored)
    }

    func text(_ statement: OpaquePointer?, _ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    /// The error `message` makes of SQLite's reason for the last failure.
    func error(_ message: (String) -> String) -> PostStoreError {
        PostStoreError(description: message(String(cString: sqlite3_errmsg(db))))
    }

    /// What ``insertWithPhoto(_:what:sql:texts:)`` stores, for its log lines and its errors (each a whole
    /// sentence, for translation).
    private enum Record: String, Sendable {
        case post, reply, message

        /// "Can't insert the post: REASON".
        func cantInsert(_ reason: String) -> String {
            switch self {
            case .post: localized("Can't insert the post: %s", reason)
            case .reply: localized("Can't insert the reply: %s", reason)
            case .message: localized("Can't insert the message: %s", reason)
            }
        }

        /// "Can't save the post: REASON".
        func cantSave(_ reason: String) -> String {
            switch self {
            case .post: localized("Can't save the post: %s", reason)
            case .reply: localized("Can't save the reply: %s", reason)
            case .message: localized("Can't save the message: %s", reason)
            }
        }
    }

    nonisolated private static func fileExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        let ext = name[dot...]
        return ext.count <= 8 && ext.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) ? String(ext) : ""
    }
}
