import CGLib
import CSQLite
import GLib
import PostcardModel

/// Who the user is (``identity()``) and their friends (``friends()``), in schema 6:
///
/// - `identity`: one row, made when the store is created (or migrated to 6): a random UUID and the
///   name GLib knows the user by (`g_get_real_name`, else their login name);
/// - `friends`: one row per person (`person` unique), with the name their code gave, when they were
///   added, and `deleted_by` for a removal whose Undo is still offered (see ``markDeleted(_:)``).
///
/// Writes go through the store's writer, in order with every other write. Main actor.
extension PostStore {
    /// The friends a store had before friends were data (schema 5 and earlier), kept by migration 6.
    nonisolated static let sampleFriends = [("ada", "Ada Lovelace"), ("grace", "Grace Hopper"), ("alan", "Alan Turing")]

    /// Migration 6: the identity and friends tables, the sample friends, and a new identity.
    static func createPeople(in store: PostStore) throws {
        try store.execute("""
            CREATE TABLE IF NOT EXISTS identity (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                id TEXT NOT NULL,
                name TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS friends (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                person TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                added_at INTEGER NOT NULL,
                deleted_by TEXT
            );
            """)
        for (id, name) in sampleFriends {
            try store.execute("INSERT OR IGNORE INTO friends (person, name, added_at) VALUES ('\(id)', '\(name)', 0)")
        }
        let random = g_uuid_string_random()!
        defer { g_free(random) }
        let uuid = String(cString: random)
        let statement = try store.prepare("INSERT OR IGNORE INTO identity (singleton, id, name) VALUES (1, ?1, ?2)")
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, uuid, -1, postcard_sqlite_transient())
        sqlite3_bind_text(statement, 2, defaultName, -1, postcard_sqlite_transient())
        guard sqlite3_step(statement) == SQLITE_DONE else { throw store.error { localized("Can't update the database: %s", $0) } }
    }

    /// The name a new identity gets: the user's real name as GLib reads it from the system
    /// (`g_get_real_name`), else their login name (`g_get_user_name`), else "Me". Any thread.
    public nonisolated static var fallbackName: String { defaultName }

    nonisolated static var defaultName: String {
        let real = String(cString: g_get_real_name()).trimmingWhitespace()
        if !real.isEmpty, real != "Unknown" { return real }
        let login = String(cString: g_get_user_name())
        return login.isEmpty ? localized("Me") : login
    }

    /// Who the user of this Postcard is.
    /// - Throws: ``PostStoreError`` if the database cannot be read.
    public func identity() throws -> Identity {
        let rows = try query("SELECT id, name FROM identity WHERE singleton = 1", bind: { _ in }) { row in
            Identity(id: self.text(row, 0), name: self.text(row, 1))
        }
        guard let identity = rows.first else { throw PostStoreError(description: localized("The post database has no identity")) }
        return identity
    }

    /// The friends, in the order they were added (not those whose removal waits for its Undo).
    /// - Throws: ``PostStoreError`` if the database cannot be read.
    public func friends() throws -> [Friend] {
        try query("SELECT person, name, id, added_at FROM friends WHERE deleted_by IS NULL ORDER BY added_at, id", bind: { _ in }) { row in
            Friend(id: self.text(row, 0), name: self.text(row, 1), rowID: sqlite3_column_int64(row, 2), addedAt: sqlite3_column_int64(row, 3))
        }
    }

    /// Adds the person `id` named `name` as a friend, on the writer; someone removed whose Undo is still
    /// offered comes back under the new name.
    /// - Returns: the friend stored.
    /// - Throws: ``PostStoreError`` if they are a friend already, or the database cannot be written.
    public func addFriend(id: String, name: String) async throws -> Friend {
        let now = clock()
        let friend = try await writer.run { db in try Self.insertFriend(on: db, id: id, name: name, at: now) }
        tell(.friendAdded(friend))
        return friend
    }

    /// ``addFriend(id:name:)``, blocking until it is stored (tests, tools).
    @discardableResult
    package func addFriendNow(id: String, name: String) throws -> Friend {
        let now = clock()
        return try writer.runAndWait { db in try Self.insertFriend(on: db, id: id, name: name, at: now) }
    }

    nonisolated private static func insertFriend(on db: OpaquePointer, id: String, name: String, at now: Int64) throws -> Friend {
        try run(on: db, """
            INSERT INTO friends (person, name, added_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (person) DO UPDATE SET name = excluded.name, added_at = excluded.added_at, deleted_by = NULL
            WHERE friends.deleted_by IS NOT NULL
            """, [id, name, String(now)])
        guard sqlite3_changes(db) == 1 else {
            // Translators: %s is a person's name.
            throw PostStoreError(description: localized("%s is already your friend", name))
        }
        let rowID = try rows(on: db, "SELECT id FROM friends WHERE person = ?1", [id]) { sqlite3_column_int64($0, 0) }.first ?? 0
        appLog.debug("Friend added: \(id)")
        return Friend(id: id, name: name, rowID: rowID, addedAt: now)
    }

    /// Changes the user's name to `name`, on the writer.
    /// - Throws: ``PostStoreError`` if the database cannot be written.
    public func rename(to name: String) async throws {
        try await writer.run { db in try Self.run(on: db, "UPDATE identity SET name = ?1 WHERE singleton = 1", [name]) }
        tell(.renamed(name))
    }

    /// Sets who the user is, blocking (the review gallery's fixed identity, tests).
    package func setIdentityNow(_ identity: Identity) throws {
        try writer.runAndWait { db in
            try Self.run(on: db, "UPDATE identity SET id = ?1, name = ?2 WHERE singleton = 1", [identity.id, identity.name])
        }
        intents.bind(toStore: identity.id)
    }
}
