import CSQLite
import GLib
import PostcardModel

/// What changed in the store: what ``PostStore/changes`` tells, after it is on disk.
public enum StoreChange: Equatable, Sendable {
    /// A post was stored, here or by another Postcard on the same data folder.
    case postAdded(Post)
    /// A post's caption was changed (the post as it is now).
    case postEdited(Post)
    /// A reply was stored, here or by another Postcard on the folder.
    case replyAdded(Reply)
    /// A private message was stored, here or by another Postcard on the folder.
    case messageAdded(Message)
    /// A post, reply, message or friend was deleted (marked, its Undo offered).
    case deleted(DeletableItem)
    /// A deletion was undone.
    case restored(DeletableItem)
    /// A friend was added.
    case friendAdded(Friend)
    /// The user's name changed.
    case renamed(String)
    /// More posts, replies or messages came from elsewhere at once than are worth telling one by one (an
    /// import, a tool): read again what you show.
    case reread
}

/// The store's change stream: every write this store makes is told to ``PostStore/changes`` once it is
/// on disk, and posts, replies and messages another Postcard on the same data folder stores are told too,
/// within a second.
///
/// How another process's rows are found: a `GFileMonitor` (``FileMonitor``) watches the database's
/// write-ahead log (`posts.sqlite3-wal`, written by every commit of every connection); on a change,
/// `PRAGMA data_version` says whether anything was committed since the last look, and if so the rows
/// above the highest id seen are read (the primary key: no scan). Each row is told once, whichever way it
/// is found first (this store's own write, or the log); more than ``mostToldOneByOne`` rows of a table
/// at once are told as one ``StoreChange/reread``. Edits and deletions made by another Postcard are
/// not followed (its pages show them at their next reading). Main actor only.
@MainActor
final class StoreChangeTracker {
    /// The highest id of each table told so far by a look at the database, and the ids above it told by
    /// this store's own writes.
    private var floor: [PostStore.Record: Int64] = [:]
    private var told: [PostStore.Record: Set<Int64>] = [:]
    private var dataVersion: Int64 = -1
    private var monitor: FileMonitor?

    /// Starts from what `store` holds now (none of it is told) and watches its log.
    init(store: PostStore) {
        for record in PostStore.Record.allCases { floor[record] = (try? store.integer("SELECT COALESCE(MAX(id), 0) FROM \(record.table)")) ?? 0 }
        dataVersion = (try? store.integer("PRAGMA data_version")) ?? -1
        do {
            monitor = try FileMonitor(watching: store.directory.appending("posts.sqlite3-wal")) { [weak store] _ in
                store?.lookForChangesElsewhere()
            }
        } catch {
            appLog.problem("Changes made by another Postcard will show only after a restart: \(error)")
        }
    }

    /// Whether the row `id` of `record` has not been told yet; marks it told.
    func firstTelling(_ record: PostStore.Record, _ id: Int64) -> Bool {
        guard id > floor[record, default: 0] else { return false }
        return told[record, default: []].insert(id).inserted
    }

    /// Whether anything was committed since the last call (`PRAGMA data_version` of the reading connection).
    func databaseChanged(in store: PostStore) -> Bool {
        let version = (try? store.integer("PRAGMA data_version")) ?? dataVersion
        defer { dataVersion = version }
        return version != dataVersion
    }

    /// The highest id told by a look at `record`'s table.
    func floor(of record: PostStore.Record) -> Int64 { floor[record, default: 0] }

    /// Raises `record`'s floor to `id` after a look that read every row up to it.
    func lookedAt(_ record: PostStore.Record, upTo id: Int64) {
        guard id > floor[record, default: 0] else { return }
        floor[record] = id
        told[record] = told[record, default: []].filter { $0 > id }
    }

    /// The most rows of one table a look tells one by one; more is told as ``StoreChange/reread``.
    static let mostToldOneByOne = 64
}

extension PostStore {
    /// Tells ``changes`` of `change`, a write of this store's now on disk; a row already told (found in
    /// the log first) is not told again.
    func tell(_ change: StoreChange) {
        switch change {
        case .postAdded(let post): guard tracker.firstTelling(.post, post.id) else { return }
        case .replyAdded(let reply): guard tracker.firstTelling(.reply, reply.id) else { return }
        case .messageAdded(let message): guard tracker.firstTelling(.message, message.id) else { return }
        default: break
        }
        changes.notify(change)
    }

    /// Reads the posts, replies and messages stored since the last look (by another Postcard on the
    /// folder, or by this one's writer before its own telling) and tells those not told yet. Called as the
    /// database's log changes; cheap when nothing was committed.
    func lookForChangesElsewhere() {
        guard db != nil, tracker.databaseChanged(in: self) else { return }
        let limit = StoreChangeTracker.mostToldOneByOne
        do {
            let posts = try query("""
                SELECT id, author, profile, comment, photo_path, created_at FROM posts
                WHERE id > ?1 AND deleted_by IS NULL ORDER BY id LIMIT ?2
                """, bind: { sqlite3_bind_int64($0, 1, self.tracker.floor(of: .post)); sqlite3_bind_int64($0, 2, Int64(limit + 1)) }, row: postRow)
            let replies = try query("""
                SELECT id, post_id, author, comment, photo_path, created_at FROM replies
                WHERE id > ?1 AND deleted_by IS NULL ORDER BY id LIMIT ?2
                """, bind: { sqlite3_bind_int64($0, 1, self.tracker.floor(of: .reply)); sqlite3_bind_int64($0, 2, Int64(limit + 1)) }, row: replyRow)
            let messages = try query("""
                SELECT id, author, recipient, comment, photo_path, created_at FROM messages
                WHERE id > ?1 AND deleted_by IS NULL ORDER BY id LIMIT ?2
                """, bind: { sqlite3_bind_int64($0, 1, self.tracker.floor(of: .message)); sqlite3_bind_int64($0, 2, Int64(limit + 1)) }, row: messageRow)
            guard posts.count <= limit, replies.count <= limit, messages.count <= limit else {
                for record in PostStore.Record.allCases {
                    tracker.lookedAt(record, upTo: try integer("SELECT COALESCE(MAX(id), 0) FROM \(record.table)"))
                }
                appLog.debug("Many new rows in the database: the pages read again")
                changes.notify(.reread)
                return
            }
            var found: [StoreChange] = []
            for post in posts where tracker.firstTelling(.post, post.id) { found.append(.postAdded(post)) }
            for reply in replies where tracker.firstTelling(.reply, reply.id) { found.append(.replyAdded(reply)) }
            for message in messages where tracker.firstTelling(.message, message.id) { found.append(.messageAdded(message)) }
            if let last = posts.last { tracker.lookedAt(.post, upTo: last.id) }
            if let last = replies.last { tracker.lookedAt(.reply, upTo: last.id) }
            if let last = messages.last { tracker.lookedAt(.message, upTo: last.id) }
            if !found.isEmpty { appLog.debug("Found \(found.count) new row(s) in the database") }
            for change in found { changes.notify(change) }
        } catch {
            appLog.problem("Can't read what changed in the database: \(error)")
        }
    }
}
