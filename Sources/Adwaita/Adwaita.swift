import CAdwaita
import CGtk
import Gtk

/// libadwaita 1.2 for the app: its style sheet, style manager and widgets, over the GTK wrappers of the
/// `Gtk` layer. The navigation toolkit (Gtk, Navigation, NavigationGtk, NavigationWeb) never imports
/// this, so a plain GTK 4 app can use the toolkit without libadwaita.
@MainActor
public enum Libadwaita {
    /// Initializes libadwaita (`adw_init`) once GTK is: loads its style sheet (replacing GTK's own
    /// Adwaita theme with the platform's), starts the ``StyleManager`` (light or dark as the desktop
    /// prefers, high contrast) and registers its widgets' types. An ``Application/adwaita(id:unique:)``
    /// does this at start-up; code that builds the app's widgets without one (tests, tools) calls it
    /// after ``Gtk/initializeGtk()``. Later calls do nothing. Main thread.
    public static func initialize() {
        adw_init()
    }

    /// Whether libadwaita is initialized in this process.
    public static var isInitialized: Bool { adw_is_initialized() != 0 }
}

extension Application {
    /// An `AdwApplication`: a GTK application that initializes libadwaita at start-up and loads the
    /// app's own `style.css`, `style-dark.css`, `style-hc.css` and `style-hc-dark.css` from the GResource
    /// folder of its id (`/io/github/postcard/Postcard/` for `io.github.postcard.Postcard`), each when
    /// the ``StyleManager`` says it applies (libadwaita's `AdwApplication` behaviour). Register the
    /// resource before ``run(arguments:)``. Otherwise as ``init(id:unique:)``. Main thread.
    public static func adwaita(id: String, unique: Bool = true) -> Application {
        let application = adw_application_new(id, flags(unique: unique))!
        return Application(wrapping: UnsafeMutableRawPointer(application))
    }
}
