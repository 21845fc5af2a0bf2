import CGtk
import Glibc

/// Adds a `GSimpleAction` named `name` that runs `handler` to the action map `map` (an application, or
/// a widget's action group), which keeps it.
@MainActor
func addSimpleAction(named name: String, to map: OpaquePointer, handler: @escaping @MainActor () -> Void) {
    let action = g_simple_action_new(name, nil)!
    let owner = Object(UnsafeMutableRawPointer(action), transfer: .full)  // the map takes its own reference
    owner.connect("activate") { _ in handler() }
    withExtendedLifetime(owner) { g_action_map_add_action(map, action) }
}
