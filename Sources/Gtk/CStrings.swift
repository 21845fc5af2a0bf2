import CGtk
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

/// Adds a `GSimpleAction` named `name` that runs `handler` to the action map `map` (an application, or
/// a widget's action group), which keeps it.
@MainActor
func addSimpleAction(named name: String, to map: OpaquePointer, handler: @escaping @MainActor () -> Void) {
    let action = g_simple_action_new(name, nil)!
    let owner = Object(UnsafeMutableRawPointer(action), transfer: .full)  // the map takes its own reference
    owner.connect("activate") { _ in handler() }
    withExtendedLifetime(owner) { g_action_map_add_action(map, action) }
}
