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
/// The file is replaced whole at each change (`g_file_set_contents_full` without `fsync`: a temporary
/// file renamed over the old one, so a crash leaves one or the other, never half). It is a few bytes per
/// item, written in well under a millisecond; without `fsync` it survives a crash or kill of the app, not
/// a power cut in the same second (the row's own write follows within milliseconds). Any thread.
final class DeletionIntents: Sendable {
    /// The file of this instance's choices.
    let file: FilePath
    private let choices = Mutex<[DeletableItem: DeletionChoice]>([:])

    /// The choices of instance `id` in `instances`, the folder of instance locks.
    init(instances folder: FilePath, id: String) {
        file = folder.appending(id + Self.suffix)
    }

    static let suffix = ".deletions"

    /// Records `choice` about `item`, on disk before it returns (see the type's docs). Never fails loudly:
    /// a folder that cannot be written is logged (the row's own write then says why too).
    func record(_ choice: DeletionChoice, for item: DeletableItem) {
        choices.withLock { choices in
            choices[item] = choice
            write(choices)
        }
    }

    /// Drops the choice about `item` once it is carried out for good (purged, or restored in the store).
    /// `choice` nil drops whatever it is; otherwise only that choice (a later press may have changed it).
    func settle(_ item: DeletableItem, ifStill choice: DeletionChoice? = nil) {
        choices.withLock { choices in
            guard let current = choices[item], choice == nil || current == choice else { return }
            choices[item] = nil
            write(choices)
        }
    }

    /// This instance's choices now.
    var current: [DeletableItem: DeletionChoice] { choices.withLock { $0 } }

    /// Forgets every choice and removes the file (after they were all carried out, at quit).
    func removeAll() {
        choices.withLock { choices in
            choices = [:]
            Files.remove(file)
        }
    }

    private func write(_ choices: [DeletableItem: DeletionChoice]) {
        guard !choices.isEmpty else {
            Files.remove(file)
            return
        }
        let text = choices.map { "\($0.value.rawValue) \($0.key.table) \($0.key.id)\n" }.sorted().joined()
        var error: UnsafeMutablePointer<GError>?
        let written = file.withCString { g_file_set_contents_full($0, text, -1, G_FILE_SET_CONTENTS_NONE, 0o600, &error) }
        if written == 0 {
            appLog.problem("Couldn't record a deletion in \(file.displayName): \(error.map { String(cString: $0.pointee.message) } ?? "")")
            g_clear_error(&error)
        }
    }

    /// The choices in a file written by ``record(_:for:)`` (lines `delete posts 12`, `restore replies 3`);
    /// lines that cannot be read are skipped.
    static func read(_ path: FilePath) -> [DeletableItem: DeletionChoice] {
        guard let text = try? Files.readRegularText(path, maximumBytes: 1 << 20) else { return [:] }
        var choices: [DeletableItem: DeletionChoice] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, let choice = DeletionChoice(rawValue: String(parts[0])), let id = Int64(parts[2]),
                  let item = DeletableItem(table: String(parts[1]), id: id) else { continue }
            choices[item] = choice
        }
        return choices
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
