import CGtk
import Glibc
import Synchronization

/// The process's memory, as the operating system sees it.
public enum Memory {
    /// Resident memory in kibibytes (`VmRSS` in `/proc/self/status`), or nil where that is not readable.
    public static var residentKiB: Int? {
        guard let status = Files.readText("/proc/self/status") else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }

    /// Gives memory the program has freed back to the system `delay` from now (`malloc_trim`): glibc
    /// keeps freed blocks for reuse, so after a big free (a flow's photos) the process would otherwise
    /// stay as large as at its peak. The delay is a GLib timeout on the main loop; the trim runs on a
    /// thread of `trimmer` (not Swift's global executor, whose pool would wake the process every second
    /// from then on). Main actor.
    @MainActor
    public static func returnFreedMemory(after delay: Duration) {
        MainLoopBridge.after(delay) {
            trimmer.execute {
                _ = malloc_trim(0)
                trims.add(1, ordering: .relaxed)
            }
        }
    }

    /// How many times freed memory has been given back so far (``returnFreedMemory(after:)``); any thread.
    /// Tests wait on it.
    package static var trimCount: Int { trims.load(ordering: .relaxed) }
    private static let trims = Atomic<Int>(0)

    /// The one low-priority thread that gives freed memory back.
    private static let trimmer = ThreadPoolExecutor(label: "memory-trim", width: 1, niceness: 19)
}

/// Calls `body` with each object of a `GList` handed over with `transfer full` (the list and a reference
/// per element, as `gst_device_monitor_get_devices` returns), then drops those references and frees the
/// list from its head. `body` takes a reference of its own to keep an object.
package func consumeObjectList(_ list: UnsafeMutablePointer<GList>?, _ body: (UnsafeMutableRawPointer) -> Void) {
    var node = list
    while let current = node {
        if let object = current.pointee.data { body(object) }
        node = current.pointee.next
    }
    g_list_free_full(list) { g_object_unref($0) }
}
