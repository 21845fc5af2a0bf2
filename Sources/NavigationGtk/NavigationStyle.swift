import Gtk
internal import NavigationGtkResources

/// The toolkit's own style sheet (the translucent bar of a ``NavigationWindow``, ``NavigationWeb``'s
/// loading bar and messages), compiled into the library as a GResource and loaded the first time a
/// navigation stack is made, at ``StyleSheet/Priority/library``: an app that uses the toolkit gets the
/// same bar without any CSS of its own, and its own sheets (at application priority) can still restyle it.
/// Its dark variant follows the dark style, as the app's sheets do. Main actor.
@MainActor
enum NavigationStyle {
    private static var isLoaded = false

    /// Loads the style once per process (after GTK is initialized); later calls do nothing.
    static func loadOnce() {
        guard !isLoaded else { return }
        isLoaded = true
        _ = CompiledNavigationGtkResources.isRegistered  // compiled in during the build (Plugins/CompileResources)
        StyleSheet.load(resource: "/io/github/NavigationGtk/navigation.css",
                        darkVariant: "/io/github/NavigationGtk/navigation-dark.css", priority: .library)
    }
}
