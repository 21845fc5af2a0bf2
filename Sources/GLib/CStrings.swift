import CGLib
import Glibc

/// Calls `body` with `strings` as a NULL-terminated array of C strings (what GLib and GTK take for
/// string lists: accelerators, drop-down choices, credits), valid only during the call.
package func withNullTerminatedCStrings<T>(_ strings: [String],
                                          _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> T) -> T {
    var copies = strings.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    return copies.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count, body)
    }
}
