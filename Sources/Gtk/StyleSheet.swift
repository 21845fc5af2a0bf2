import CGtk
import GLib

/// Dates and times shown the way the desktop shows them (its 12- or 24-hour clock setting).
extension DateText {
    /// `unixSeconds` as a date and time in the local time zone, the way the desktop shows them: the
    /// date in the user's language ("7 Aug 2026", translatable pattern) and the time in 24 hours
    /// ("14:05") or 12 hours ("2:05 PM") as the GNOME setting `org.gnome.desktop.interface clock-format`
    /// says (24 hours when the setting is missing).
    @MainActor
    public static func dateAndTime(unixSeconds: Int64) -> String {
        let pattern = usesTwelveHourClock
            ? toolkitLocalized("%-d %b %Y, %-l:%M %p")  // 12-hour clock
            : toolkitLocalized("%-d %b %Y, %H:%M")      // 24-hour clock
        return format(unixSeconds: unixSeconds, pattern)
    }

    /// Whether the desktop shows times on a 12-hour clock (`clock-format` is `12h`); read each time, so a
    /// change in Settings applies to the next text made.
    @MainActor
    public static var usesTwelveHourClock: Bool {
        guard let settings = interfaceSettings else { return false }
        let value = g_settings_get_string(settings.pointer(as: GSettings.self), "clock-format")
        defer { g_free(value) }
        return value.map { String(cString: $0) } == "12h"
    }

    /// `org.gnome.desktop.interface`, or nil when the schema (gsettings-desktop-schemas) or the key is
    /// missing. Read-only outside the package: its tests replace it with settings on a memory backend.
    @MainActor
    public package(set) static var interfaceSettings: Object? = DesktopStyle.settings(havingKey: "clock-format")
        .map { Object($0, transfer: .full) }
}

/// An application style sheet (`GtkCssProvider`) applied to the whole display.
@MainActor
public enum StyleSheet {
    /// Loads the CSS file at `path` for every window at application priority.
    /// Parse errors are logged by GTK as warnings; a missing file loads nothing.
    public static func load(path: FilePath) {
        guard let provider = gtk_css_provider_new(), let display = gdk_display_get_default() else { return }
        path.withCString { gtk_css_provider_load_from_path(provider, $0) }
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// Where a style sheet sits among GTK's style providers (a higher one wins over a lower one, whatever
    /// the selectors' specificity).
    public enum Priority: UInt32, Sendable {
        /// A library's own style (the navigation toolkit's bar): above the theme and the user's
        /// settings, just below the app's sheets, so an app can restyle what the library draws.
        case library = 590  // GTK_STYLE_PROVIDER_PRIORITY_APPLICATION - 10
        /// The app's own style (`GTK_STYLE_PROVIDER_PRIORITY_APPLICATION`).
        case application = 600
    }

    /// Loads `css` (GTK's CSS, as a string: small rules an app keeps beside its code) for every window at
    /// `priority`. Parse errors are logged by GTK as warnings (`GtkCssProvider`'s `parsing-error`); the
    /// rules that parse still apply. Call after GTK is initialized; main actor.
    public static func load(css: String, priority: Priority = .application) {
        guard let provider = gtk_css_provider_new(), let display = gdk_display_get_default() else { return }
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), priority.rawValue)
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// Loads the CSS compiled into the program as the GResource at `path` (e.g.
    /// `/io/github/postcard/Postcard/style.css`), for every window at `priority`.
    public static func load(resource path: String, priority: Priority = .application) {
        guard let provider = gtk_css_provider_new(), let display = gdk_display_get_default() else { return }
        gtk_css_provider_load_from_resource(provider, path)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), priority.rawValue)
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
