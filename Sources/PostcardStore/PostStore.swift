import CGLib
import CSQLite
import GLib
import Glibc
import PostcardModel

/// The posts, in a SQLite database with a folder of photo copies beside it.
///
/// Layout under the data directory (`$XDG_DATA_HOME/postcard/` by default): `posts.sqlite3` (write-ahead
/// log, schema versioned with `PRAGMA user_version`, see ``migrations``), `photos/`, `photos.lock`,
/// `instances/` and `navigation.lock` (which Postcards have the folder open, see ``InstanceLocks``; the
/// user's last choices about what they deleted, `instances/<id>.deletions`, see ``DeletionIntents``) and
/// `navigation.gvariant`. Rows store photo paths relative to the data directory, so the folder can be moved;
/// other paths are refused on read. Adding a post copies the photo into `photos/` under a temporary
/// name, flushes it, moves it into place without replacing anything, flushes the folder, then inserts
/// the row in a transaction; if any step fails, what was written is removed and the error says why, so
/// nothing half-written remains, and a launch sweeps copies a kill interrupted.
///
/// **One write path.** Every write — a post, reply or message, a caption, a draft kept or removed —
/// goes through the store's one ``Writer`` thread, in the order it was asked for, on that thread's own
/// connection; the main actor's connection only reads (and brings the schema up to date when the store
/// opens, before anything can be written). So a caption saved, then a draft removed, then a post land
/// in that order even while another process holds the database, and the window never waits for one.
///
/// Main actor only (its reads run on the main actor's connection).
@MainActor
public final class PostStore {
    /// The data directory.
    public let directory: FilePath
    /// The folder holding the photo copies.
    public let photosDirectory: FilePath
    nonisolated(unsafe) var db: OpaquePointer?  // the main actor's connection (reads); closed in deinit
    let writer: Writer
    /// The clock that stamps what is written (posts, replies, messages, drafts): seconds since
    /// 1970-01-01 UTC. Any thread.
    public let clock: @Sendable () -> Int64
    /// This instance among the Postcards that have the folder open (see ``InstanceLocks``).
    let instances: InstanceLocks
    /// Whether the store was opened read-only (its folder can't be written): every write fails saying so.
    public let isReadOnly: Bool
    /// The temporary folder holding the copy of the database read instead of it, when opened read-only
    /// with a log to replay (see ``openReadOnly(_:_:copyingInto:)``); removed when the store goes.
    private var readOnlyCopy: FilePath?
    /// The user's last choices about what this instance deleted, on disk from the press on (see
    /// ``DeletionIntents``).
    let intents: DeletionIntents
    /// This store's instance id: the owner of the drafts its flows keep.
    public var instanceID: String { instances.id }
    /// Whether this is the first Postcard to have opened the folder of those that have it open now: only
    /// it restores and keeps the pages open at quit, so a second instance on the same folder neither
    /// shows the first one's pages nor overwrites them.
    public var isPrimary: Bool { instances.primaryDescriptor >= 0 }
    /// What changed, once it is on disk: this store's writes, and posts, replies and messages another
    /// Postcard on the same folder stores (seen within a second; see ``StoreChangeTracker``). Pages that
    /// show those things follow it. Told on the main actor.
    public let changes = Observers<StoreChange>()
    /// Finds what ``changes`` tells of other Postcards' writes.
    private(set) lazy var tracker = StoreChangeTracker(store: self)

    /// Opens (creating if needed) the store in `directory` (any folder name, byte for byte).
    /// `clock` stamps what is written, in seconds since 1970-01-01 UTC (default: the system's time,
    /// `g_get_real_time`; the review gallery passes a fixed one so its pictures are the same every run).
    /// `readOnly` opens a store whose folder can't be written (a read-only mount, a backup disc) to read it:
    /// nothing in the folder is touched (SQLite's `immutable` open: no log, no locks), every write fails
    /// saying so (``isReadOnly``), and the store must be of this Postcard's schema version.
    /// - Throws: ``PostStoreError`` if the folder cannot be created or the database cannot be opened.
    public init(directory: FilePath, clock: @escaping @Sendable () -> Int64 = { DateText.nowMicroseconds / 1_000_000 },
                readOnly: Bool = false) throws {
        self.directory = directory
        self.clock = clock
        isReadOnly = readOnly
        photosDirectory = directory.appending("photos")
        writer = Writer(databasePath: directory.appending("posts.sqlite3"), readOnly: readOnly)
        do {
            if !readOnly { try Files.makeDirectory(photosDirectory) }
        } catch {
            throw PostStoreError(description: localized("Can't create the data folder: %s", "\(error)"))
        }
        instances = InstanceLocks(directory: directory)
        intents = DeletionIntents(instances: instances.folder, id: instances.id)
        let path = directory.appending("posts.sqlite3")
        if !readOnly, let reason = Self.readOnlyReason(directory) {
            // Translators: %1$s is the data folder, %2$s why it can't be written ("Read-only file system").
            throw PostStoreError(description: localized("The data folder %1$s can't be written to (%2$s), so Postcard can't keep new posts there. Open it read-only to see your posts, or make it writable and Try Again, or start Postcard with another folder (--data-dir).",
                                                        directory.displayName, reason), canTryAgain: true,
                                 canOpenReadOnly: Files.exists(path))
        }
        if !readOnly { sweepLeftovers() }
        if readOnly ? !Self.openReadOnly(path, &db, copyingInto: &readOnlyCopy) : path.withCString({ sqlite3_open_v2($0, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) }) != SQLITE_OK {
            let message = SQLiteReason.of(db)
            sqlite3_close(db)
            db = nil
            // Translators: %1$s is the database file, %2$s why it can't be opened.
            throw PostStoreError(description: localized("Can't open the post database %1$s: %2$s", path.displayName, message), canTryAgain: true)
        }
        sqlite3_busy_timeout(db, 2000)
        do {
            try migrate()
        } catch let error as PostStoreError {
            let code = sqlite3_extended_errcode(db) & 0xFF
            sqlite3_close(db)
            db = nil
            throw Self.adviceForOpening(path, error, sqliteCode: code)
        }
        intents.bind(toStore: (try? identity().id) ?? "")
        if !readOnly {
            purgeAbandonedDeletions()
            sweepUnnamedPhotos()
        }
        _ = tracker  // watches the database's log from now on
    }

    /// Opens the database at `path` to read only, touching nothing in its folder. Without a write-ahead log
    /// to replay, the file itself (`mode=ro&immutable=1`: no log or shared memory made, no lock taken); with
    /// one (a Postcard that was killed), a copy of both in a temporary folder (``readOnlyCopy``, removed when
    /// the store goes), where SQLite can replay the log, since posts written last may be only in it.
    /// Returns whether it opened; `db` is set either way.
    nonisolated static func openReadOnly(_ path: FilePath, _ db: inout OpaquePointer?, copyingInto copy: inout FilePath?) -> Bool {
        var source = path
        let log = FilePath(bytes: path.bytes + Array("-wal".utf8))
        var info = stat()
        if log.withCString({ stat($0, &info) }) == 0, info.st_size > 0 {
            guard let folder = try? Files.makeTemporaryDirectory(named: "postcard-read-only-XXXXXX") else { return false }
            copy = folder
            source = folder.appending("posts.sqlite3")
            do {
                try Files.copy(path, to: source)
                try Files.copy(log, to: FilePath(bytes: source.bytes + Array("-wal".utf8)))
            } catch {
                appLog.problem("Couldn't copy the database to read it: \(error)")
                return false
            }
            appLog.info("Reading a copy of the database and its log in \(folder.displayName)")
            return source.withCString { sqlite3_open_v2($0, &db, SQLITE_OPEN_READWRITE, nil) } == SQLITE_OK
        }
        guard let pathText = source.withCString({ g_filename_to_uri($0, nil, nil) }) else { return false }
        defer { g_free(pathText) }
        let uri = String(cString: pathText) + "?mode=ro&immutable=1"
        return sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK
    }

    /// Why `directory` can't be written (the system's words: "Read-only file system", "Permission
    /// denied", "Operation not permitted"), or nil when it can. `access(2)` asks as the process is (root
    /// too: an immutable folder or a read-only mount says no).
    nonisolated static func readOnlyReason(_ directory: FilePath) -> String? {
        guard directory.withCString({ access($0, W_OK) }) != 0 else { return nil }
        let code = errno
        guard code == EROFS || code == EACCES || code == EPERM else { return nil }
        return String(cString: strerror(code))
    }

    /// The error to show when the database at `path` could not be brought up to date (`error`, after
    /// SQLite's primary result `sqliteCode`), with advice that fits the cause (issue 57): wait and Try
    /// Again while another program holds it; make the folder writable for a read-only one; move it aside
    /// only when it is damaged or not a Postcard database; update Postcard for a newer one.
    nonisolated static func adviceForOpening(_ path: FilePath, _ error: PostStoreError, sqliteCode code: Int32) -> PostStoreError {
        switch code {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL:
            // Translators: %s is the database file.
            return PostStoreError(description: localized("Another program is using the post database %s. Close it or wait for it to finish, then Try Again.",
                                                         path.displayName), canTryAgain: true)
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            // Translators: %1$s is the database file, %2$s what is wrong.
            return PostStoreError(description: localized("Can't write the post database %1$s: %2$s. Make it and its folder writable, or start Postcard with another folder (--data-dir), then Try Again.",
                                                         path.displayName, error.description), canTryAgain: true)
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_FORMAT, SQLITE_ERROR, SQLITE_CONSTRAINT, SQLITE_SCHEMA, SQLITE_MISMATCH:
            // Translators: %1$s is the database file, %2$s what is wrong with it.
            return PostStoreError(description: localized("Can't use the post database %1$s: %2$s. Move it aside to start afresh, or choose another folder with --data-dir.",
                                                         path.displayName, error.description))
        case SQLITE_OK, SQLITE_DONE, SQLITE_ROW:  // not SQLite's: a store written by a newer Postcard
            // Translators: %1$s is the database file, %2$s what is wrong with it.
            return PostStoreError(description: localized("Can't use the post database %1$s: %2$s, or choose another folder with --data-dir.", path.displayName, error.description))
        default:  // the disk is full, can't be read, memory: nothing to move aside
            // Translators: %1$s is the database file, %2$s what is wrong.
            return PostStoreError(description: localized("Can't open the post database %1$s: %2$s", path.displayName, error.description), canTryAgain: true)
        }
    }

    /// Removes the photos that no post, reply, message or draft names — left by a post whose row was lost
    /// (a damaged database log, a restored backup), which nothing would ever remove otherwise. Queued on
    /// the writer as the store opens, so it runs off the main thread and before this instance writes; only
    /// while no other Postcard is copying a photo in (the writers' lock, taken exclusively: else left for a
    /// later start), and never when the rows can't be read. A row marked deleted still names its photo
    /// (its Undo may bring it back). Only regular files directly in `photos/` whose names don't start with
    /// a dot (half-copied ones are ``sweepLeftovers()``'s).
    private func sweepUnnamedPhotos() {
        let photosDirectory = photosDirectory
        writer.post("Couldn't look for photos nothing names") { db in
            guard let exclusive = Self.lockWriters(in: photosDirectory, exclusively: true) else { return }
            defer { close(exclusive) }
            var named = Set<String>()
            for table in ["posts", "replies", "messages"] {
                for path in try Self.rows(on: db, "SELECT photo_path FROM \(table)", [], { String(cString: sqlite3_column_text($0, 0)) }) {
                    named.insert(path)
                }
            }
            // A draft names the photo it was started with, by URI: one in the store keeps its file too.
            let folder = photosDirectory.string ?? ""
            for uri in try Self.rows(on: db, "SELECT photo_uri FROM drafts", [], { String(cString: sqlite3_column_text($0, 0)) }) {
                guard let path = uri.withCString({ g_filename_from_uri($0, nil, nil) }) else { continue }
                defer { g_free(path) }
                let file = String(cString: path)
                if file.hasPrefix(folder + "/") { named.insert("photos/" + file.dropFirst(folder.count + 1)) }
            }
            var removed = 0
            for name in Files.names(inDirectory: photosDirectory) ?? [] {
                guard let text = name.string, !text.hasPrefix("."), !named.contains("photos/" + text) else { continue }
                let path = photosDirectory.appending(name)
                var info = stat()
                guard path.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                Files.remove(path)
                removed += 1
            }
            if removed > 0 { appLog.info("Removed \(removed) photo(s) that no post, reply, message or draft names") }
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
        // 4: drafts belong to a running flow (`id`, new for each) of an instance (`instance`): two
        // Postcards on one folder never share, overwrite or remove each other's. Earlier drafts have no
        // instance: nobody is editing them.
        { store in
            try store.execute("""
                CREATE TABLE drafts_by_flow (
                    id TEXT PRIMARY KEY,
                    instance TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    target TEXT NOT NULL,
                    photo_uri TEXT NOT NULL,
                    comment TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                INSERT INTO drafts_by_flow SELECT lower(hex(randomblob(16))), '', kind, target, photo_uri, comment, updated_at FROM drafts;
                DROP TABLE drafts;
                ALTER TABLE drafts_by_flow RENAME TO drafts;
                """)
        },
        // 5: a deletion waiting for its Undo to pass: the instance that asked for it, else NULL (see
        // PostStore+Deleting.swift). Every read leaves marked rows out.
        { store in
            // Only where it is missing: a store whose version was lost (set back to 0) may have it already.
            for table in ["posts", "replies", "messages"]
            where try store.integer("SELECT count(*) FROM pragma_table_info('\(table)') WHERE name = 'deleted_by'") == 0 {
                try store.execute("ALTER TABLE \(table) ADD COLUMN deleted_by TEXT")
            }
        },
        // 6: who the user is (a new id and their name) and their friends, the three sample friends kept
        // (see PostStore+People.swift).
        { store in try createPeople(in: store) },
    ]

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
        if isReadOnly {
            guard version == Self.schemaVersion else {
                // Translators: %1$d is the store's schema version, %2$d this Postcard's.
                throw PostStoreError(description: localized("it can't be brought up to date while it is read-only (schema version %1$d; this Postcard writes %2$d)",
                                                            Int(version), Int(Self.schemaVersion)))
            }
            try execute("PRAGMA foreign_keys = ON")
            return
        }
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
        if let readOnlyCopy { Files.removeTree(readOnlyCopy) }
        instances.release()
    }

    /// Runs SQL with no results on `db`. Any thread.
    nonisolated static func execute(_ sql: String, on db: OpaquePointer) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            sqlite3_free(message)  // the same text as SQLite's message, which the reason logs
            throw PostStoreError(description: SQLiteReason.of(db))
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
            guard step == SQLITE_ROW else { throw error { localized("Can't read the post database: %s", $0) } }
            result.append(row(statement))
        }
        return result
    }

    /// The integer the one-row query `sql` gives (a count, a pragma).
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw error { localized("Can't read the post database: %s", $0) } }
        return sqlite3_column_int64(statement, 0)
    }

    /// Runs SQL with no results on the main actor's connection (the schema, as the store opens). Tests
    /// use it as another process would, to hold the database or refuse writes; the store's own writes
    /// never use it (they go through the ``Writer``).
    /// - Throws: ``PostStoreError`` with SQLite's reason.
    package func execute(_ sql: String) throws {
        guard let db else { throw PostStoreError(description: localized("The post database is closed")) }
        try Self.execute(sql, on: db)
    }

    func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw error { localized("Can't read the post database: %s", $0) }
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
        PostStoreError(description: message(SQLiteReason.of(db)))
    }
}
