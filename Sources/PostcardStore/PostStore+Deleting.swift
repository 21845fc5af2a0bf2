import CSQLite
import GLib
import Glibc
import PostcardModel

/// Something the user made that they can delete: a post, a reply or a private message, by row id.
public enum DeletableItem: Hashable, Sendable {
    /// A post (its replies go with it).
    case post(Int64)
    /// A reply in a post's thread.
    case reply(Int64)
    /// A private message.
    case message(Int64)
    /// A friend, by their row (``Friend/rowID``): removed from the friends list (their posts stay).
    case friend(Int64)

    var table: String {
        switch self {
        case .post: "posts"
        case .reply: "replies"
        case .message: "messages"
        case .friend: "friends"
        }
    }

    var id: Int64 {
        switch self {
        case .post(let id), .reply(let id), .message(let id), .friend(let id): id
        }
    }

    /// The column that says when the row was made (a friend's, when they were added): with the id, what a
    /// recorded Delete must still find (``DeletionIntents``).
    var createdColumn: String {
        if case .friend = self { "added_at" } else { "created_at" }
    }
}

/// Deleting in two steps, so a deletion can be undone for a few seconds and is never half done:
///
/// 1. ``markDeleted(_:)`` marks the row as deleted by this instance (`deleted_by`, schema 5): every read
///    leaves it out at once, and nothing else changes. ``restoreDeleted(_:)`` (Undo) clears the mark.
/// 2. ``purgeDeleted(_:)`` removes it for good: its photo files first (a post's replies' too), then, in one
///    transaction, its rows. Killed between the two, the row is still marked, so it is still left out,
///    and the next launch finishes the purge; a photo is never removed while a row shows it.
///
/// A mark whose instance is gone (it crashed, or was killed, before its undo time ran out) is purged
/// when a store opens (``purgeAbandonedDeletions()``): the user asked for the deletion and did not undo
/// it. All of it runs on the store's writer, in order with every other write. Main actor.
///
/// The user's last word is kept from the press on: the app calls ``recordChoice(_:for:)`` in the turn of
/// Delete or Undo, before the writer (perhaps busy copying a photo) gets to the row, so a quit, SIGTERM,
/// crash or kill at any moment after the press ends with what the user chose last (``DeletionIntents``).
extension PostStore {
    /// Records on disk, at once, that the user chose `choice` about `item` — Delete (`.delete`) or Undo
    /// (`.restore`) — before ``markDeleted(_:)`` or ``restoreDeleted(_:)`` gets to the row. Call it in the
    /// turn of the press. It never waits for the writer (a small file replaced in well under a
    /// millisecond, see ``DeletionIntents``); the row's creation time is read on this actor's connection and
    /// kept with it, so the choice is carried out after a crash only while the row is still the same one.
    /// - Returns: false when the choice could not be written (the `instances` folder can't be written; logged):
    ///   it is then kept only until the writer stores it, and the caller should tell the user. Main actor.
    @discardableResult
    public func recordChoice(_ choice: DeletionChoice, for item: DeletableItem) -> Bool {
        let created = try? query("SELECT \(item.createdColumn) FROM \(item.table) WHERE id = ?1",
                                 bind: { sqlite3_bind_int64($0, 1, item.id) }, row: { sqlite3_column_int64($0, 0) }).first
        return intents.record(choice, for: item, createdAt: created ?? nil)
    }

    /// Marks `item` deleted by this instance: it is left out of every read from now on.
    /// - Throws: ``PostStoreError`` in plain words if the database cannot be written, or the item does
    ///   not exist (or is already deleted).
    public func markDeleted(_ item: DeletableItem) async throws {
        let instance = instanceID, intents = intents
        try await writer.run { db in
            try Self.run(on: db, "UPDATE \(item.table) SET deleted_by = ?1 WHERE id = ?2 AND deleted_by IS NULL",
                         [instance, String(item.id)])
            guard sqlite3_changes(db) == 1 else {
                intents.settle(item, ifStill: .delete)  // nothing to finish at quit or after a crash
                throw PostStoreError(description: localized("it no longer exists"))
            }
            appLog.debug("Marked deleted: \(item)")
        }
        tell(.deleted(item))
    }

    /// Brings back `item`, marked deleted by this instance and not purged yet (Undo).
    /// - Throws: ``PostStoreError`` if the database cannot be written or it is already gone for good.
    public func restoreDeleted(_ item: DeletableItem) async throws {
        let instance = instanceID, intents = intents
        try await writer.run { db in
            try Self.run(on: db, "UPDATE \(item.table) SET deleted_by = NULL WHERE id = ?1 AND deleted_by = ?2",
                         [String(item.id), instance])
            intents.settle(item, ifStill: .restore)  // stored, or nothing left to restore
            guard sqlite3_changes(db) == 1 else {
                throw PostStoreError(description: localized("it was already deleted for good"))
            }
            appLog.debug("Restored: \(item)")
        }
        tell(.restored(item))
    }

    /// Removes `item` (marked deleted) for good: its photo and its row; a post's replies and their photos
    /// too. Queued on the writer; returns at once. A failure is logged, and the item stays marked (left
    /// out, purged at a later launch).
    public func purgeDeleted(_ item: DeletableItem) {
        let directory = directory, intents = intents
        writer.post("Couldn't delete \(item) for good") { db in
            try Self.purge(item, on: db, directory: directory)
            intents.settle(item, ifStill: .delete)
        }
    }

    /// Carries out the user's last choices (``recordChoice(_:for:)``: an Undo pressed just before the quit
    /// is stored even if its task never ran), then removes for good everything this instance marked
    /// deleted and has not purged (the app quits while an Undo is still offered), blocking until it is
    /// done.
    public func purgeMarkedDeletionsNow() {
        guard !isReadOnly else { return }  // nothing was marked: nothing could be
        let instance = instanceID, directory = directory, choices = intents.current
        do {
            try writer.runAndWait { db in
                try Self.apply(choices, of: instance, on: db)
                for item in try Self.marked(on: db, where: "deleted_by = ?1", [instance]) {
                    try Self.purge(item, on: db, directory: directory)
                }
            }
            intents.removeAll()
        } catch {
            appLog.problem("Couldn't finish the deletions at quit (the next launch finishes them): \(error)")
        }
    }

    /// Marks or restores each item as `owner`'s user last chose (``DeletionIntents``). The writer's thread.
    nonisolated private static func apply(_ choices: [DeletableItem: DeletionChoice], of owner: String, on db: OpaquePointer) throws {
        for (item, choice) in choices {
            switch choice {
            case .delete:
                try Self.run(on: db, "UPDATE \(item.table) SET deleted_by = ?1 WHERE id = ?2 AND deleted_by IS NULL", [owner, String(item.id)])
            case .restore:
                try Self.run(on: db, "UPDATE \(item.table) SET deleted_by = NULL WHERE id = ?1 AND deleted_by = ?2", [String(item.id), owner])
            }
        }
    }

    /// Carries out the last choices of the instances that are gone and left some undone (killed or crashed
    /// between a press and its write). Called as the store opens, before their deletions are finished.
    ///
    /// Only what can be checked is carried out (``DeletionIntents``): an Undo clears only a mark that the
    /// same instance made and the store still holds; a Delete marks a row only when the file names this
    /// store and its own instance and the row still has the creation time the press saw. Anything else is
    /// ignored and logged. A link is never followed (it is removed, its target untouched); a file that can't
    /// be read now is kept for a later start.
    /// - Returns: the instances whose file could not be read now: their marks must wait too (an Undo may be
    ///   in the file).
    private func applyAbandonedChoices() -> Set<String> {
        var unread: Set<String> = []
        let suffix = Array(DeletionIntents.suffix.utf8)
        let store = (try? identity().id) ?? ""
        for name in Files.names(inDirectory: instances.folder) ?? [] where name.bytes.count > suffix.count && name.bytes.suffix(suffix.count).elementsEqual(suffix) {
            let path = instances.folder.appending(name)
            guard let owner = FilePath(bytes: name.bytes.dropLast(suffix.count)).string, owner != instanceID,
                  !instances.isLive(owner) else { continue }
            let contents: DeletionIntents.Contents
            switch DeletionIntents.read(path) {
            case .success(let read):
                contents = read
            case .failure(.notAFile):
                var info = stat()
                let isLink = path.withCString { lstat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFLNK
                appLog.problem("Ignored \(name.displayName) in the instances folder: \(isLink ? "a symbolic link, never followed (removed)" : "not a regular file")")
                if isLink { Files.remove(path) }
                continue
            case .failure(.unreadable(let reason)):
                appLog.problem("Couldn't read \(name.displayName) in the instances folder (kept, with its deletions, for the next start): \(reason)")
                unread.insert(owner)
                continue
            }
            let bound = !store.isEmpty && contents.store == store && contents.instance == owner
            var restores: [DeletableItem] = [], deletes: [(DeletableItem, Int64)] = []
            for (item, entry) in contents.entries {
                switch entry.choice {
                case .restore: restores.append(item)
                case .delete: if bound, let created = entry.createdAt { deletes.append((item, created)) }
                }
            }
            let ignored = contents.entries.count - restores.count - deletes.count
            if ignored > 0 {
                appLog.problem("Ignored \(ignored) deletion(s) in \(name.displayName): \(bound ? "without the row's creation time" : "not written for this store by that instance")")
            }
            let restoring = restores, deleting = deletes
            do {
                let carried = try writer.runAndWait { db in
                    var changed = 0
                    for item in restoring {
                        try Self.run(on: db, "UPDATE \(item.table) SET deleted_by = NULL WHERE id = ?1 AND deleted_by = ?2", [String(item.id), owner])
                        changed += Int(sqlite3_changes(db))
                    }
                    for (item, created) in deleting {
                        try Self.run(on: db, "UPDATE \(item.table) SET deleted_by = ?1 WHERE id = ?2 AND deleted_by IS NULL AND \(item.createdColumn) = ?3",
                                     [owner, String(item.id), String(created)])
                        changed += Int(sqlite3_changes(db))
                    }
                    return changed
                }
                Files.remove(path)
                if carried > 0 { appLog.info("Carried out the last choices of a Postcard that is gone: \(carried) item(s)") }
            } catch {
                appLog.problem("Couldn't carry out earlier deletions or undos: \(error)")
                unread.insert(owner)
            }
        }
        return unread
    }

    /// Removes for good what other instances marked deleted and could not purge: those that are gone
    /// (their lock is free: crashed, killed, or quit). Called as the store opens; blocking.
    func purgeAbandonedDeletions() {
        let waiting = applyAbandonedChoices()
        let directory = directory
        let owners = (try? query("""
            SELECT deleted_by FROM posts WHERE deleted_by IS NOT NULL UNION SELECT deleted_by FROM replies WHERE deleted_by IS NOT NULL
            UNION SELECT deleted_by FROM messages WHERE deleted_by IS NOT NULL UNION SELECT deleted_by FROM friends WHERE deleted_by IS NOT NULL
            """, bind: { _ in }, row: { self.text($0, 0) })) ?? []
        for owner in owners where !waiting.contains(owner) && !instances.isLive(owner) {
            do {
                try writer.runAndWait { db in
                    for item in try Self.marked(on: db, where: "deleted_by = ?1", [owner]) {
                        try Self.purge(item, on: db, directory: directory)
                    }
                }
                appLog.info("Finished deletions a Postcard that is gone had asked for")
            } catch {
                appLog.problem("Couldn't finish earlier deletions: \(error)")
            }
        }
    }

    /// The items marked deleted that match `condition` (with text parameters `values`). The writer's thread.
    nonisolated private static func marked(on db: OpaquePointer, where condition: String, _ values: [String]) throws -> [DeletableItem] {
        var items: [DeletableItem] = []
        for (table, make) in [("posts", DeletableItem.post), ("replies", DeletableItem.reply), ("messages", DeletableItem.message),
                              ("friends", DeletableItem.friend)] {
            for id in try integers(on: db, "SELECT id FROM \(table) WHERE \(condition)", values) { items.append(make(id)) }
        }
        return items
    }

    /// Removes `item`'s photo files, then its rows (only while it is still marked deleted). The writer's thread.
    nonisolated private static func purge(_ item: DeletableItem, on db: OpaquePointer, directory: FilePath) throws {
        let id = String(item.id)
        if case .friend = item {  // no photo: only the row
            try Self.run(on: db, "DELETE FROM friends WHERE id = ?1 AND deleted_by IS NOT NULL", [id])
            appLog.debug("Deleted for good: \(item)")
            return
        }
        var photos = try texts(on: db, "SELECT photo_path FROM \(item.table) WHERE id = ?1 AND deleted_by IS NOT NULL", [id])
        guard !photos.isEmpty else { return }  // restored meanwhile, or gone already
        if case .post = item { photos += try texts(on: db, "SELECT photo_path FROM replies WHERE post_id = ?1", [id]) }
        for stored in photos where !stored.hasPrefix("/") && !stored.split(separator: "/").contains("..") {
            Files.remove(directory.appending(stored))  // a file already gone (an earlier, interrupted purge) is fine
        }
        try Self.run(on: db, "BEGIN IMMEDIATE", [])
        do {
            if case .post = item { try Self.run(on: db, "DELETE FROM replies WHERE post_id = ?1", [id]) }
            try Self.run(on: db, "DELETE FROM \(item.table) WHERE id = ?1 AND deleted_by IS NOT NULL", [id])
            try Self.run(on: db, "COMMIT", [])
        } catch {
            try? Self.run(on: db, "ROLLBACK", [])
            throw error
        }
        appLog.debug("Deleted for good: \(item)")
    }

    nonisolated private static func texts(on db: OpaquePointer, _ sql: String, _ values: [String]) throws -> [String] {
        try rows(on: db, sql, values) { String(cString: sqlite3_column_text($0, 0)) }
    }

    nonisolated private static func integers(on db: OpaquePointer, _ sql: String, _ values: [String]) throws -> [Int64] {
        try rows(on: db, sql, values) { sqlite3_column_int64($0, 0) }
    }
}
