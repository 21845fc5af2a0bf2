import CSQLite
import GLib
import PostcardModel

/// Reading the store: posts, replies and messages by id or a page at a time (keyset paging), and counts.
/// Main actor only, on the store's own connection.
extension PostStore {
    /// The post with row id `id`, or nil.
    public func post(id: Int64) throws -> Post? {
        try query("""
            SELECT id, author, profile, comment, photo_path, created_at FROM posts WHERE id = ?1 AND deleted_by IS NULL
            """, bind: { sqlite3_bind_int64($0, 1, id) }, row: postRow).first
    }

    /// The replies to `post`, oldest first (a thread reads top to bottom): at most `limit`, starting
    /// after `last` (keyset paging; from the first when nil).
    public func replies(to post: Post, after last: Reply? = nil, limit: Int = -1) throws -> [Reply] {
        try query("""
            SELECT id, post_id, author, comment, photo_path, created_at FROM replies
            WHERE post_id = ?1 AND deleted_by IS NULL AND (?2 IS NULL OR created_at > ?2 OR (created_at = ?2 AND id > ?3))
            ORDER BY created_at, id LIMIT ?4
            """, bind: { statement in
                sqlite3_bind_int64(statement, 1, post.id)
                Self.bindKey(statement, last.map { ($0.createdAt, $0.id) }, limit: limit)
            }, row: replyRow)
    }

    /// The private message with row id `id`, or nil.
    public func message(id: Int64) throws -> Message? {
        try query("""
            SELECT id, author, recipient, comment, photo_path, created_at FROM messages WHERE id = ?1 AND deleted_by IS NULL
            """, bind: { sqlite3_bind_int64($0, 1, id) }, row: messageRow).first
    }

    /// Private messages, newest first: at most `limit`, starting after `last` (keyset paging).
    public func messages(after last: Message? = nil, limit: Int = -1) throws -> [Message] {
        try query("""
            SELECT id, author, recipient, comment, photo_path, created_at FROM messages
            WHERE deleted_by IS NULL AND (?2 IS NULL OR created_at < ?2 OR (created_at = ?2 AND id < ?3))
            ORDER BY created_at DESC, id DESC LIMIT ?4
            """, bind: { Self.bindKey($0, last.map { ($0.createdAt, $0.id) }, limit: limit) }, row: messageRow)
    }

    /// Binds a keyset position (`?2` time, `?3` id; NULL for the start) and `?4` the row limit (-1: all).
    static func bindKey(_ statement: OpaquePointer?, _ key: (Int64, Int64)?, limit: Int) {
        if let key {
            sqlite3_bind_int64(statement, 2, key.0)
            sqlite3_bind_int64(statement, 3, key.1)
        } else {
            sqlite3_bind_null(statement, 2)
            sqlite3_bind_null(statement, 3)
        }
        sqlite3_bind_int64(statement, 4, Int64(limit))
    }

    /// A reply from a row of `id, post_id, author, comment, photo_path, created_at`.
    func replyRow(_ statement: OpaquePointer?) -> Reply {
        Reply(id: sqlite3_column_int64(statement, 0), postID: sqlite3_column_int64(statement, 1),
              author: text(statement, 2), comment: text(statement, 3),
              photoPath: photoPath(statement, 4), createdAt: sqlite3_column_int64(statement, 5))
    }

    /// A message from a row of `id, author, recipient, comment, photo_path, created_at`.
    func messageRow(_ statement: OpaquePointer?) -> Message {
        Message(id: sqlite3_column_int64(statement, 0), author: text(statement, 1),
                recipient: text(statement, 2), comment: text(statement, 3),
                photoPath: photoPath(statement, 4), createdAt: sqlite3_column_int64(statement, 5))
    }

    /// A post from a row of `id, author, profile, comment, photo_path, created_at`.
    func postRow(_ statement: OpaquePointer?) -> Post {
        Post(id: sqlite3_column_int64(statement, 0), author: text(statement, 1), profile: text(statement, 2),
             comment: text(statement, 3), photoPath: photoPath(statement, 4), createdAt: sqlite3_column_int64(statement, 5))
    }

    /// The posts on `profile`'s page, newest first: at most `limit` (-1: all), starting after `last`
    /// (keyset paging on the `posts_by_profile` index: every page costs the same; from the newest when nil).
    /// - Throws: ``PostStoreError`` if the database cannot be read.
    public func posts(onProfile profile: String, after last: Post? = nil, limit: Int = -1) throws -> [Post] {
        try query("""
            SELECT id, author, profile, comment, photo_path, created_at FROM posts
            WHERE profile = ?1 AND deleted_by IS NULL AND (?2 IS NULL OR created_at < ?2 OR (created_at = ?2 AND id < ?3))
            ORDER BY created_at DESC, id DESC LIMIT ?4
            """, bind: { statement in
                sqlite3_bind_text(statement, 1, profile, -1, postcard_sqlite_transient())
                Self.bindKey(statement, last.map { ($0.createdAt, $0.id) }, limit: limit)
            }, row: postRow)
    }

    /// The number of replies to `post`.
    /// - Throws: ``PostStoreError`` if the database cannot be read.
    public func replyCount(to post: Post) throws -> Int {
        let statement = try prepare("SELECT COUNT(*) FROM replies WHERE post_id = ?1 AND deleted_by IS NULL")
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, post.id)
        guard sqlite3_step(statement) == SQLITE_ROW else { throw error { localized("Can't count replies: %s", $0) } }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// The number of stored posts, on every profile.
    public func count() throws -> Int {
        let statement = try prepare("SELECT COUNT(*) FROM posts WHERE deleted_by IS NULL")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw error { localized("Can't count posts: %s", $0) } }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// The drafts kept that nobody is editing, newest first, after every write queued before the call
    /// (``waitForWrites()``): this instance's, and those whose instance is gone (it quit, crashed or was
    /// killed). A draft another Postcard on the same folder is still editing is not returned. A draft of a
    /// kind this Postcard does not know (kept by a newer one) is left in the store untouched and reported
    /// in the log, not returned.
    /// - Throws: ``PostStoreError`` if the database cannot be read.
    public func drafts() throws -> [Draft] {
        waitForWrites()
        let rows = try query("SELECT id, instance, kind, target, photo_uri, comment, updated_at FROM drafts ORDER BY updated_at DESC", bind: { _ in }) { statement in
            (id: self.text(statement, 0), owner: self.text(statement, 1), kind: self.text(statement, 2), target: self.text(statement, 3),
             photoURI: self.text(statement, 4), comment: self.text(statement, 5), updatedAt: sqlite3_column_int64(statement, 6))
        }
        return rows.compactMap { row in
            guard let kind = DraftKind(rawValue: row.kind) else {
                appLog.problem("Kept a draft of a kind this Postcard doesn't know (“\(row.kind)”, for \(row.target)); it isn't offered")
                return nil
            }
            guard row.owner == instanceID || !instances.isLive(row.owner) else {
                appLog.debug("A draft another Postcard is editing is not offered: \(row.kind) \(row.target)")
                return nil
            }
            return Draft(id: row.id, owner: row.owner, kind: kind, target: row.target, photoURI: row.photoURI,
                         comment: row.comment, updatedAt: row.updatedAt)
        }
    }
}
