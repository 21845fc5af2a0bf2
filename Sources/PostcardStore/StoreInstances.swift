import CGLib
import GLib
import Glibc
import PostcardModel

/// The Postcards that have one data folder open at once (a second launch with the same `--data-dir` runs
/// as its own instance): each holds an exclusive `flock` on `instances/<its id>.lock` for as long as its
/// store is open, and the kernel drops that lock when the process ends in any way (quit, crash, kill -9,
/// power cut), so a lock that can be taken names an instance that is gone. Drafts belong to the instance
/// whose flow typed them (see ``PostStore/drafts()``); the first instance to open the folder is its
/// primary and alone keeps the open pages across launches (``PostStore/isPrimary``). Any thread.
struct InstanceLocks: Sendable {
    /// This instance's id: random (`g_uuid_string_random`), new for every store opened.
    let id: String
    /// The descriptor holding this instance's lock, or -1 when it could not be made (the folder is not
    /// writable: nothing could be written there anyway).
    let instanceDescriptor: Int32
    /// The descriptor holding `navigation.lock` when this instance is the folder's primary, else -1.
    let primaryDescriptor: Int32
    let folder: FilePath

    /// Takes this instance's lock in `directory`'s `instances/` folder and, when no other instance has it,
    /// the primary lock.
    init(directory: FilePath) {
        let uuid = g_uuid_string_random()!
        id = String(cString: uuid)
        g_free(uuid)
        folder = directory.appending("instances")
        try? Files.makeDirectory(folder)
        instanceDescriptor = Self.lock(folder.appending(id + ".lock"), create: true, wait: false) ?? -1
        primaryDescriptor = Self.lock(directory.appending("navigation.lock"), create: true, wait: false) ?? -1
        removeDeadLocks()
    }

    /// How long a lock file must have been there before a start may remove it as a dead instance's, in
    /// seconds: a Postcard starting at the same moment creates its file a moment before it locks it.
    static let deadLockAge = 60

    /// Removes the lock files of instances that are gone (crashed or killed: a quit removes its own), so
    /// `instances/` does not grow by one file a crash: those whose lock can be taken, older than
    /// ``deadLockAge``. An instance's `.deletions` file is left for ``PostStore/purgeAbandonedDeletions()``.
    private func removeDeadLocks() {
        let now = time(nil)
        for name in Files.names(inDirectory: folder) ?? [] {
            guard let text = name.string, text.hasSuffix(".lock"), text != id + ".lock" else { continue }
            let path = folder.appending(name)
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG,
                  now - info.st_mtim.tv_sec > Self.deadLockAge,
                  let descriptor = Self.lock(path, create: false, wait: false) else { continue }  // held: alive
            Files.remove(path)
            close(descriptor)
            appLog.debug("Removed the lock of a Postcard that is gone: \(text)")
        }
    }

    /// Whether the instance `id` still has the folder open (its lock is held); false for an empty id
    /// (a draft from before instances were recorded) and for an instance whose lock file is gone. A dead
    /// instance's lock file is removed.
    func isLive(_ other: String) -> Bool {
        guard !other.isEmpty, !other.contains("/") else { return false }
        if other == id { return true }
        let path = folder.appending(other + ".lock")
        guard Files.exists(path) else { return false }
        guard let descriptor = Self.lock(path, create: false, wait: false) else { return true }  // held: alive
        Files.remove(path)
        close(descriptor)
        return false
    }

    /// Releases the locks and removes this instance's lock file.
    func release() {
        if instanceDescriptor >= 0 {
            Files.remove(folder.appending(id + ".lock"))
            close(instanceDescriptor)
        }
        if primaryDescriptor >= 0 { close(primaryDescriptor) }
    }

    /// An exclusive `flock` on `path` (never waiting): its descriptor, or nil when another holds it or the
    /// file cannot be opened.
    private static func lock(_ path: FilePath, create: Bool, wait: Bool) -> Int32? {
        let descriptor = path.withCString { open($0, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0o600) }
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
