import CGLib
import GLib
import Glibc
import PostcardModel
import Synchronization

/// The user's last choice about something they deleted: deleted (Delete, Remove Friend) or brought back
/// (Undo). See ``PostStore/recordChoice(_:for:)``.
public enum DeletionChoice: String, Sendable {
    /// Deleted (the Delete button, Remove Friend).
    case delete
    /// Brought back (Undo).
    case restore
}

/// What the user last chose for each item they deleted and may still undo — deleted, or restored by
/// Undo — written to `instances/<instance id>.deletions` in the very turn of the press, before the
/// store's writer (which may be busy copying a photo) marks or restores the row. So the user's last choice
/// survives whatever happens next: a quit a few milliseconds later (Undo, then Ctrl+Q), a logout's SIGTERM,
/// a crash or `kill -9`:
///
/// - at quit, the instance applies its own choices before it removes for good what is still marked
///   (``PostStore/purgeMarkedDeletionsNow()``);
/// - a store that opens the folder applies the choices of instances that are gone before it finishes their
///   deletions (``PostStore/purgeAbandonedDeletions()``).
///
/// A choice is dropped once the writer has carried it out for good (the item purged, or its Undo stored), so
/// a choice never outlives its row, whose id a later post may take.
///
/// A file is trusted only as far as it can be checked, since a data folder may be copied from another
/// machine or restored from a backup with such a file in it (see ``Entry`` and ``read(_:)``):
/// - its first line names the store (its identity's id) and the instance that wrote it, which must be the
///   file's own name: a Delete is carried out only from a file of this store, by that instance;
/// - each Delete names its row's creation time too, and is carried out only while the row still has it (an
///   id that a later row took, or a line made up by hand, deletes nothing);
/// - an Undo only clears a mark that the same instance made and the store still holds;
/// - the file is never followed through a symbolic link, and one that cannot be read is kept for the next
///   start, not removed unread.
///
/// The file is replaced whole at each change (`g_file_set_contents_full` without `fsync`: a temporary
/// file renamed over the old one, so a crash leaves one or the other, never half). It is a few bytes per
/// item, written in well under a millisecond; without `fsync` it survives a crash or kill of the app, not
/// a power cut in the same second (the row's own write follows within milliseconds). Any thread.
final class DeletionIntents: Sendable {
    /// One choice as the file keeps it: what the user chose and the row's creation time when it was
    /// pressed (`created_at`, a friend's `added_at`; nil when the row could not be read then).
    struct Entry: Equatable, Sendable {
        var choice: DeletionChoice
        var createdAt: Int64?
    }

    /// A file's contents: the store and instance its first line names (nil for a file without that line,
    /// from before it was written), and its choices.
    struct Contents: Equatable, Sendable {
        var store: String?
        var instance: String?
        var entries: [DeletableItem: Entry]
    }

    /// The file of this instance's choices.
    let file: FilePath
    /// This instance's id (the file's name without ``suffix``).
    let instance: String
    private let state = Mutex<(store: String, entries: [DeletableItem: Entry])>(("", [:]))

    /// The choices of instance `id` in `instances`, the folder of instance locks.
    init(instances folder: FilePath, id: String) {
        instance = id
        file = folder.appending(id + Self.suffix)
    }

    static let suffix = ".deletions"
    /// The first word of a file's first line, and the format's version.
    static let magic = "postcard-deletions 2"

    /// Names the store the choices belong to (its identity's id), written in the file's first line. Set as
    /// the store opens, before any choice.
    func bind(toStore store: String) {
        state.withLock { $0.store = store }
    }

    /// Records `choice` about `item` (whose row was created at `createdAt`), on disk before it returns (see
    /// the type's docs).
    /// - Returns: false when the file could not be written (logged): the choice is then kept only while
    ///   this instance runs, which the caller tells the user.
    @discardableResult
    func record(_ choice: DeletionChoice, for item: DeletableItem, createdAt: Int64?) -> Bool {
        state.withLock { state in
            state.entries[item] = Entry(choice: choice, createdAt: createdAt)
            return write(state)
        }
    }

    /// Drops the choice about `item` once it is carried out for good (purged, or restored in the store).
    /// `choice` nil drops whatever it is; otherwise only that choice (a later press may have changed it).
    func settle(_ item: DeletableItem, ifStill choice: DeletionChoice? = nil) {
        state.withLock { state in
            guard let current = state.entries[item], choice == nil || current.choice == choice else { return }
            state.entries[item] = nil
            write(state)
        }
    }

    /// This instance's choices now.
    var current: [DeletableItem: DeletionChoice] { state.withLock { $0.entries.mapValues(\.choice) } }

    /// Forgets every choice and removes the file (after they were all carried out, at quit).
    func removeAll() {
        state.withLock { state in
            state.entries = [:]
            Files.remove(file)
        }
    }

    @discardableResult
    private func write(_ state: (store: String, entries: [DeletableItem: Entry])) -> Bool {
        guard !state.entries.isEmpty else {
            Files.remove(file)
            return true
        }
        let lines = state.entries.map { item, entry in
            "\(entry.choice.rawValue) \(item.table) \(item.id)" + (entry.createdAt.map { " \($0)" } ?? "") + "\n"
        }
        let text = "\(Self.magic) store=\(state.store) instance=\(instance)\n" + lines.sorted().joined()
        var error: UnsafeMutablePointer<GError>?
        // g_file_set_contents replaces the file by a rename: a symbolic link in its place is replaced, never followed.
        let written = file.withCString { g_file_set_contents_full($0, text, -1, G_FILE_SET_CONTENTS_NONE, 0o600, &error) }
        if written == 0 {
            appLog.problem("Couldn't record a deletion in \(file.displayName): \(error.map { String(cString: $0.pointee.message) } ?? "")")
            g_clear_error(&error)
            return false
        }
        return true
    }

    /// Why a file's choices were not read.
    enum Unread: Error, Equatable {
        /// A symbolic link, a folder or a device: never followed or read.
        case notAFile
        /// It could not be read now (permissions, an I/O error): kept for a later start. `reason` says why.
        case unreadable(String)
    }

    /// The choices in a file written by ``record(_:for:createdAt:)`` (a first line `postcard-deletions 2
    /// store=… instance=…`, then lines `delete posts 12 1767268800`, `restore replies 3`); lines that
    /// cannot be read are skipped. Never follows a symbolic link (`O_NOFOLLOW`); reads at most 1 MiB.
    static func read(_ path: FilePath) -> Result<Contents, Unread> {
        let descriptor = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ELOOP ? .notAFile : .unreadable(String(cString: strerror(code))))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
        let limit = 1 << 20
        var bytes = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + total, limit - total) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if count == 0 { break }
            total += count
        }
        let text = String(decoding: bytes[..<total], as: UTF8.self)
        var contents = Contents(store: nil, instance: nil, entries: [:])
        for (index, line) in text.split(separator: "\n").enumerated() {
            let parts = line.split(separator: " ")
            if index == 0, line.hasPrefix(magic + " ") {
                for part in parts.dropFirst(2) {
                    if part.hasPrefix("store=") { contents.store = String(part.dropFirst(6)) }
                    if part.hasPrefix("instance=") { contents.instance = String(part.dropFirst(9)) }
                }
                continue
            }
            guard parts.count == 3 || parts.count == 4, let choice = DeletionChoice(rawValue: String(parts[0])), let id = Int64(parts[2]),
                  let item = DeletableItem(table: String(parts[1]), id: id) else { continue }
            contents.entries[item] = Entry(choice: choice, createdAt: parts.count == 4 ? Int64(parts[3]) : nil)
        }
        return .success(contents)
    }
}

extension DeletableItem {
    /// The item in `table` ("posts", "replies", "messages", "friends") with row id `id`, or nil.
    init?(table: String, id: Int64) {
        switch table {
        case "posts": self = .post(id)
        case "replies": self = .reply(id)
        case "messages": self = .message(id)
        case "friends": self = .friend(id)
        default: return nil
        }
    }
}
