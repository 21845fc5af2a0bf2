import CSQLite
import Gtk
import PhotoPosting

/// One stored post.
public struct Post: Equatable, Sendable, Identifiable {
    /// The row id (increasing with each post).
    public let id: Int64
    /// Who posted it (a ``Person/id``).
    public let author: String
    /// Whose profile it was posted to (a ``Person/id``).
    public let profile: String
    /// The comment text.
    public let comment: String
    /// Absolute path of the store's own copy of the photo.
    public let photoPath: String
    /// When it was posted, in seconds since 1970-01-01 UTC.
    public let createdAt: Int64
}

/// An error from the post store; its text says what failed and why, for showing to the user.
public struct PostStoreError: Error, CustomStringConvertible, Sendable {
    /// What failed, in words a user can act on.
    public let description: String
}

/// The posts, in a SQLite database with a folder of photo copies beside it.
///
/// Layout under the data directory (`$XDG_DATA_HOME/postcard/` by default): `posts.sqlite3` and
/// `photos/`. Adding a post copies the photo into `photos/` under a temporary name, renames it into
/// place, then inserts the row in a transaction with a prepared statement; if any step fails, what was
/// written is removed and the error says why, so nothing half-written remains.
///
/// Main actor only (one connection, used from the UI; the work is small and local).
@MainActor
public final class PostStore {
    /// The data directory.
    public let directory: String
    /// The folder holding the photo copies.
    public let photosDirectory: String
    nonisolated(unsafe) private var db: OpaquePointer?

    /// Opens (creating if needed) the store in `directory`.
    /// - Throws: ``PostStoreError`` if the folder cannot be created or the database cannot be opened.
    public init(directory: String) throws {
        self.directory = directory
        photosDirectory = Files.join(directory, "photos")
        do {
            try Files.makeDirectory(photosDirectory)
        } catch {
            throw PostStoreError(description: "Can't create the data folder: \(error)")
        }
        let path = Files.join(directory, "posts.sqlite3")
        if sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            db = nil
            throw PostStoreError(description: "Can't open the post database \(path): \(message)")
        }
        sqlite3_busy_timeout(db, 2000)
        try execute("""
            CREATE TABLE IF NOT EXISTS posts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                author TEXT NOT NULL,
                profile TEXT NOT NULL,
                comment TEXT NOT NULL,
                photo_path TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX IF NOT EXISTS posts_by_profile ON posts (profile, created_at DESC, id DESC);
            """)
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
        let createdAt = DateText.nowMicroseconds / 1_000_000
        let name = "\(createdAt)-\(UInt32.random(in: 0 ... .max))\(Self.fileExtension(of: photo.fileName))"
        let finalPath = Files.join(photosDirectory, name)
        let temporaryPath = Files.join(photosDirectory, ".incoming-\(name)")
        do {
            try Files.copy(photo.path, to: temporaryPath)
            try Files.move(temporaryPath, to: finalPath)
        } catch {
            Files.remove(temporaryPath)
            throw PostStoreError(description: "Can't copy the photo “\(photo.fileName)”: \(error)")
        }
        do {
            try execute("BEGIN IMMEDIATE")
            let id = try insert(author: author, profile: profile, comment: comment, photoPath: finalPath, createdAt: createdAt)
            try execute("COMMIT")
            return Post(id: id, author: author, profile: profile, comment: comment, photoPath: finalPath, createdAt: createdAt)
        } catch {
            try? execute("ROLLBACK")
            Files.remove(finalPath)
            throw PostStoreError(description: "Can't save the post: \(error)")
        }
    }

    /// The posts on `profile`'s page, newest first.
    /// - Throws: ``PostStoreError`` if the database cannot be read.
    public func posts(onProfile profile: String) throws -> [Post] {
        let statement = try prepare("""
            SELECT id, author, profile, comment, photo_path, created_at FROM posts
            WHERE profile = ?1 ORDER BY created_at DESC, id DESC
            """)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, profile, -1, postcard_sqlite_transient())
        var result: [Post] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw error("Can't read posts") }
            result.append(Post(
                id: sqlite3_column_int64(statement, 0),
                author: text(statement, 1), profile: text(statement, 2), comment: text(statement, 3),
                photoPath: text(statement, 4), createdAt: sqlite3_column_int64(statement, 5)))
        }
        return result
    }

    /// The number of stored posts, on every profile.
    public func count() throws -> Int {
        let statement = try prepare("SELECT COUNT(*) FROM posts")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw error("Can't count posts") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// Runs SQL with no results (schema, transactions). Internal: tests use it to simulate failures.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw PostStoreError(description: text)
        }
    }

    private func insert(author: String, profile: String, comment: String, photoPath: String, createdAt: Int64) throws -> Int64 {
        let statement = try prepare("""
            INSERT INTO posts (author, profile, comment, photo_path, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
            """)
        defer { sqlite3_finalize(statement) }
        for (index, value) in [author, profile, comment, photoPath].enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), value, -1, postcard_sqlite_transient())
        }
        sqlite3_bind_int64(statement, 5, createdAt)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw error("Can't insert the post") }
        return sqlite3_last_insert_rowid(db)
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw error("Can't prepare a query") }
        return statement
    }

    private func text(_ statement: OpaquePointer?, _ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    private func error(_ what: String) -> PostStoreError {
        PostStoreError(description: "\(what): \(String(cString: sqlite3_errmsg(db)))")
    }

    private static func fileExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        let ext = name[dot...]
        return ext.count <= 8 && ext.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) ? String(ext) : ""
    }
}
