import CGLib
import CSQLite
import GLib
import Glibc
import PostcardModel

/// Writing the store, all through its one ``Writer`` (see ``PostStore``): `async` writes that return
/// what was stored, queued draft writes that return at once, and, for tests, the bench and tools, the
/// same writes waited for (`package`).
extension PostStore {
    // Each insert stores its row only while what it belongs to is there, in the same transaction: a post
    // on the user's own profile or a friend's, a reply to a post not deleted, a message to a friend (another
    // Postcard on the folder may have deleted the post or removed the friend since the page was shown).
    nonisolated static let insertPost = """
        INSERT INTO posts (author, profile, comment, photo_path, created_at) SELECT ?1, ?2, ?3, ?4, ?5
        WHERE ?2 = '\(Identity.localID)' OR EXISTS (SELECT 1 FROM friends WHERE person = ?2 AND deleted_by IS NULL)
        """
    nonisolated static let insertReply = """
        INSERT INTO replies (post_id, author, comment, photo_path, created_at) SELECT ?1, ?2, ?3, ?4, ?5
        WHERE EXISTS (SELECT 1 FROM posts WHERE id = ?1 AND deleted_by IS NULL)
        """
    nonisolated static let insertMessage = """
        INSERT INTO messages (author, recipient, comment, photo_path, created_at) SELECT ?1, ?2, ?3, ?4, ?5
        WHERE EXISTS (SELECT 1 FROM friends WHERE person = ?2 AND deleted_by IS NULL)
        """

    // MARK: - Posts, replies, messages

    /// Stores a post of `photo` with `comment` by `author` on `profile`'s page, on the writer (the window
    /// stays responsive while the photo is copied and flushed), after every write asked for before.
    /// - Returns: the stored post (its photo path points at the store's copy).
    /// - Throws: ``PostStoreError`` saying what failed (copying the photo, writing the database); the
    ///   store is then as it was before the call.
    public func add(photo: Photo, comment: String, author: String, profile: String) async throws -> Post {
        let (id, path, createdAt) = try await writer.run(insert(photo, what: .post, sql: Self.insertPost, texts: [author, profile, comment]))
        let postStored = Post(id: id, author: author, profile: profile, comment: comment, photoPath: path, createdAt: createdAt)
        tell(.postAdded(postStored))
        return postStored
    }

    /// Stores a reply with `photo` and `comment` by `author` in `post`'s comment thread, on the writer.
    /// - Throws: ``PostStoreError``; nothing is left half-written.
    public func addReply(to post: Post, photo: Photo, comment: String, author: String) async throws -> Reply {
        let (id, path, createdAt) = try await writer.run(insert(photo, what: .reply, sql: Self.insertReply, texts: [String(post.id), author, comment]))
        let replyStored = Reply(id: id, postID: post.id, author: author, comment: comment, photoPath: path, createdAt: createdAt)
        tell(.replyAdded(replyStored))
        return replyStored
    }

    /// Stores a private message of `photo` with `comment` from `author` to `recipient`, on the writer.
    /// - Throws: ``PostStoreError``; nothing is left half-written.
    public func addMessage(to recipient: String, photo: Photo, comment: String, author: String) async throws -> Message {
        let (id, path, createdAt) = try await writer.run(insert(photo, what: .message, sql: Self.insertMessage, texts: [author, recipient, comment]))
        let messageStored = Message(id: id, author: author, recipient: recipient, comment: comment, photoPath: path, createdAt: createdAt)
        tell(.messageAdded(messageStored))
        return messageStored
    }

    /// ``add(photo:comment:author:profile:)``, blocking until it is stored (tests, the bench, tools).
    @discardableResult
    package func addNow(photo: Photo, comment: String, author: String, profile: String) throws -> Post {
        let (id, path, createdAt) = try writer.runAndWait(insert(photo, what: .post, sql: Self.insertPost, texts: [author, profile, comment]))
        let postStored = Post(id: id, author: author, profile: profile, comment: comment, photoPath: path, createdAt: createdAt)
        tell(.postAdded(postStored))
        return postStored
    }

    /// ``addReply(to:photo:comment:author:)``, blocking until it is stored.
    @discardableResult
    package func addReplyNow(to post: Post, photo: Photo, comment: String, author: String) throws -> Reply {
        let (id, path, createdAt) = try writer.runAndWait(insert(photo, what: .reply, sql: Self.insertReply, texts: [String(post.id), author, comment]))
        let replyStored = Reply(id: id, postID: post.id, author: author, comment: comment, photoPath: path, createdAt: createdAt)
        tell(.replyAdded(replyStored))
        return replyStored
    }

    /// ``addMessage(to:photo:comment:author:)``, blocking until it is stored.
    @discardableResult
    package func addMessageNow(to recipient: String, photo: Photo, comment: String, author: String) throws -> Message {
        let (id, path, createdAt) = try writer.runAndWait(insert(photo, what: .message, sql: Self.insertMessage, texts: [author, recipient, comment]))
        let messageStored = Message(id: id, author: author, recipient: recipient, comment: comment, photoPath: path, createdAt: createdAt)
        tell(.messageAdded(messageStored))
        return messageStored
    }

    // MARK: - Captions

    /// Replaces the comment (caption) of post `id`, on the writer, after every write asked for before.
    /// - Throws: ``PostStoreError`` if the post does not exist or the database cannot be written.
    public func updateComment(ofPost id: Int64, to comment: String) async throws {
        try await writer.run { db in try Self.updateComment(on: db, ofPost: id, to: comment) }
        if let post = try? post(id: id) { tell(.postEdited(post)) }
    }

    nonisolated private static func updateComment(on db: OpaquePointer, ofPost id: Int64, to comment: String) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "UPDATE posts SET comment = ?1 WHERE id = ?2 AND deleted_by IS NULL", -1, &statement, nil) == SQLITE_OK else {
            throw PostStoreError(description: localized("Can't save the caption: %s", SQLiteReason.of(db)))
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, comment, -1, postcard_sqlite_transient())
        sqlite3_bind_int64(statement, 2, id)
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw PostStoreError(description: localized("Can't save the caption: %s", SQLiteReason.of(db)))
        }
        guard sqlite3_changes(db) == 1 else {
            throw PostStoreError(description: localized("Can't save the caption: the post no longer exists"))
        }
        appLog.debug("Stored the caption of post \(id)")
    }

    // MARK: - Drafts

    /// A new draft id, for a flow that starts (random, `g_uuid_string_random`).
    public nonisolated static func newDraftID() -> String {
        let uuid = g_uuid_string_random()!
        defer { g_free(uuid) }
        return String(cString: uuid)
    }

    /// Keeps `comment` on the photo at `photoURI` as draft `id` (the flow's) for `kind` and `target`,
    /// replacing what that flow kept before, as this instance's — never over a draft another instance
    /// owns. Queued on the writer, so it returns at once and is committed (write-ahead log: it survives a
    /// kill or a power cut) after every write asked for before it (``waitForWrites()`` waits for it).
    /// `done` is called on the writer's thread once it is committed (nil) or failed (a ``PostStoreError``
    /// in plain words: "the disk is full"); a failure is also logged.
    public func saveDraft(_ kind: DraftKind, id: String, target: String, photoURI: String, comment: String,
                          done: (@Sendable (PostStoreError?) -> Void)? = nil) {
        let now = clock(), instance = instanceID
        writer.post("Couldn't keep the draft") { db in
            do {
                try Self.saveDraft(on: db, id: id, instance: instance, kind: kind, target: target, photoURI: photoURI, comment: comment, updatedAt: now)
                done?(nil)
            } catch {
                done?(error as? PostStoreError ?? PostStoreError(description: "\(error)"))
                throw error
            }
        }
    }

    /// ``saveDraft(_:id:target:photoURI:comment:)``, blocking until it is committed (tests, tools).
    /// - Throws: ``PostStoreError`` if the database cannot be written.
    package func saveDraftNow(_ kind: DraftKind, id: String = PostStore.newDraftID(), target: String, photoURI: String, comment: String) throws {
        let now = clock(), instance = instanceID
        try writer.runAndWait { db in
            try Self.saveDraft(on: db, id: id, instance: instance, kind: kind, target: target, photoURI: photoURI, comment: comment, updatedAt: now)
        }
    }

    /// Forgets draft `id` if this instance owns it (a draft of another instance's is never removed).
    /// Queued on the writer after every write asked for before it (so a draft saved a moment earlier
    /// never comes back). A failure is logged.
    public func removeDraft(id: String) {
        let instance = instanceID
        writer.post("Couldn't remove the draft") { db in try Self.removeDraft(on: db, id: id, instance: instance) }
    }

    /// Makes `draft` (offered by ``drafts()``: its owner is gone, or is this instance) this instance's,
    /// so a flow resuming it goes on with it and no other Postcard offers it meanwhile. Queued.
    /// A draft another Postcard is still editing is never taken (nothing happens).
    public func claimDraft(_ draft: Draft) {
        guard draft.owner == instanceID || !instances.isLive(draft.owner) else {
            return appLog.debug("Not taking a draft another Postcard is editing: \(draft.id)")
        }
        let instance = instanceID
        writer.post("Couldn't take over the draft") { db in
            try Self.run(on: db, "UPDATE drafts SET instance = ?1 WHERE id = ?2 AND instance = ?3", [instance, draft.id, draft.owner])
        }
    }

    /// Forgets `draft` (offered by ``drafts()``): taken over first, so a draft another Postcard has taken
    /// meanwhile, or is still editing, stays. Queued.
    public func discardDraft(_ draft: Draft) {
        claimDraft(draft)
        removeDraft(id: draft.id)
    }

    nonisolated private static func saveDraft(on db: OpaquePointer, id: String, instance: String, kind: DraftKind, target: String,
                                              photoURI: String, comment: String, updatedAt: Int64) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, """
            INSERT INTO drafts (id, instance, kind, target, photo_uri, comment, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (id) DO UPDATE SET photo_uri = ?5, comment = ?6, updated_at = ?7 WHERE drafts.instance = ?2
            """, -1, &statement, nil) == SQLITE_OK else {
            throw PostStoreError(description: SQLiteReason.of(db))
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in [id, instance, kind.rawValue, target, photoURI, comment].enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), value, -1, postcard_sqlite_transient())
        }
        sqlite3_bind_int64(statement, 7, updatedAt)
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw PostStoreError(description: SQLiteReason.of(db))
        }
        appLog.debug("Draft saved: \(kind) \(target), \(comment.count) characters (draft \(id))")
    }

    nonisolated private static func removeDraft(on db: OpaquePointer, id: String, instance: String) throws {
        try run(on: db, "DELETE FROM drafts WHERE id = ?1 AND instance = ?2", [id, instance])
        if sqlite3_changes(db) > 0 { appLog.debug("Draft removed: \(id)") }
    }

    /// Runs one statement with text parameters `values` on `db`. The writer's thread.
    /// - Throws: ``PostStoreError`` with SQLite's reason in plain words (the caller's log line says what failed).
    nonisolated static func run(on db: OpaquePointer, _ sql: String, _ values: [String]) throws {
        _ = try rows(on: db, sql, values) { _ in () }
    }

    /// Runs one statement with text parameters `values` on `db` and reads each row it returns with `read`.
    /// The writer's thread.
    /// - Throws: ``PostStoreError`` with SQLite's reason in plain words.
    nonisolated static func rows<T>(on db: OpaquePointer, _ sql: String, _ values: [String],
                                    _ read: (OpaquePointer?) -> T) throws -> [T] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw PostStoreError(description: SQLiteReason.of(db))
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), value, -1, postcard_sqlite_transient())
        }
        var result: [T] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return result }
            guard step == SQLITE_ROW else { throw PostStoreError(description: SQLiteReason.of(db)) }
            result.append(read(statement))
        }
    }

    /// Blocks until every write queued so far (posts, captions, drafts) has reached the database. Called
    /// as the app quits, so nothing asked for is lost; reads that must see those writes (``drafts()``)
    /// call it.
    public func waitForWrites() { writer.waitUntilDone() }

    // MARK: - Copying a photo in

    /// The write that copies `photo` into the store and inserts its row (see
    /// ``insert(into:photosDirectory:photo:what:sql:texts:createdAt:)``), stamped now, for the writer.
    private func insert(_ photo: Photo, what: Record, sql: String, texts: [String]) -> @Sendable (OpaquePointer) throws -> (Int64, FilePath, Int64) {
        let photosDirectory = self.photosDirectory
        let clock = self.clock
        return { db in try Self.insert(into: db, photosDirectory: photosDirectory, photo: photo, what: what, sql: sql, texts: texts, createdAt: clock()) }
    }

    /// Copies `photo` into the store (temporary name, flushed, moved without replacing, folder flushed),
    /// then inserts one row with `sql` (parameters: `texts`, then the photo path, then `createdAt`) in a
    /// transaction on `db`. On any failure what was written is removed. The writer's thread.
    nonisolated private static func insert(into db: OpaquePointer, photosDirectory: FilePath, photo: Photo, what: Record,
                                           sql: String, texts: [String], createdAt: Int64) throws -> (Int64, FilePath, Int64) {
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
                throw PostStoreError(description: SQLiteReason.of(db))
            }
            defer { sqlite3_finalize(statement) }
            for (index, value) in (texts + [storedPath]).enumerated() {
                sqlite3_bind_text(statement, Int32(index + 1), value, -1, postcard_sqlite_transient())
            }
            sqlite3_bind_int64(statement, Int32(texts.count + 2), createdAt)
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw PostStoreError(description: SQLiteReason.of(db))
            }
            guard sqlite3_changes(db) == 1 else { throw PostStoreError(description: what.gone) }
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

    /// What ``insert(_:what:sql:texts:)`` stores, for its log lines and its errors (each a whole
    /// sentence, for translation).
    enum Record: String, CaseIterable, Sendable {
        case post, reply, message

        /// Its table.
        var table: String {
            switch self {
            case .post: "posts"
            case .reply: "replies"
            case .message: "messages"
            }
        }

        /// Why the row was not stored when what it belongs to is gone.
        var gone: String {
            switch self {
            // Translators: why a post was not stored: the friend it was for was removed (by another Postcard).
            case .post: localized("they are no longer your friend")
            // Translators: why a reply was not stored: its post was deleted (by another Postcard).
            case .reply: localized("the post was deleted")
            // Translators: why a message was not stored: its recipient was removed as a friend.
            case .message: localized("they are no longer your friend")
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
