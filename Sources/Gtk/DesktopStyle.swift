import CGtk

/// Follows the desktop's light or dark preference, as libadwaita's `AdwStyleManager` does: the GNOME
/// setting `org.gnome.desktop.interface color-scheme` (`prefer-dark`, `prefer-light` or `default`) is
/// read at start and watched, and GTK's `gtk-application-prefer-dark-theme` follows it, so the theme
/// (Adwaita) and every colour named from it (`@theme_bg_color`, …) turn dark or light at once.
///
/// Main actor only. Keep the object alive while the app runs (it stops following when released).
@MainActor
public final class DesktopStyle {
    private let settings: Object
    /// Whether the dark style is in use now.
    public private(set) var prefersDark = false

    /// Follows `org.gnome.desktop.interface` through GSettings; nil when that schema is not installed
    /// (Debian `gsettings-desktop-schemas`), in which case GTK's own default (light) stays.
    public convenience init?() {
        guard let settings = Self.settings(havingKey: "color-scheme") else { return nil }
        self.init(settings: settings)
    }

    /// A new `GSettings` of ``schemaID`` (a reference the caller owns), or nil when that schema
    /// (gsettings-desktop-schemas) or its `key` is not installed: reading a missing key would abort.
    static func settings(havingKey key: String) -> UnsafeMutableRawPointer? {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, key) != 0 else { return nil }
        return UnsafeMutableRawPointer(g_settings_new(schemaID)!)
    }

    /// Follows the `color-scheme` key of `settings` (a `GSettings` of `org.gnome.desktop.interface`, e.g.
    /// on a memory backend in tests); takes ownership of the reference.
    package init(settings: UnsafeMutableRawPointer) {
        self.settings = Object(settings, transfer: .full)
        self.settings.connect("changed::color-scheme") { [weak self] _ in self?.apply() }
        apply()
    }

    /// The schema followed.
    public static let schemaID = "org.gnome.desktop.interface"

    private func apply() {
        let value = g_settings_get_string(settings.pointer(as: GSettings.self), "color-scheme")
        defer { g_free(value) }
        prefersDark = value.map { String(cString: $0) } == "prefer-dark"
        Self.useDarkStyle(prefersDark)
    }

    /// Whether the desktop wants animations (`gtk-enable-animations`; GNOME's Settings → Accessibility →
    /// Reduce Animation turns it off). GTK then switches stacks at once instead of sliding. Set only
    /// within the package (its tests turn animations off and on; an app follows the desktop).
    public package(set) static var animationsEnabled: Bool {
        get { booleanSetting("gtk-enable-animations") }
        set { setBooleanSetting("gtk-enable-animations", newValue) }
    }

    /// Turns GTK's dark style on or off for the whole app now (`gtk-application-prefer-dark-theme`);
    /// a ``DesktopStyle`` sets it back when the desktop's preference next changes.
    public static func useDarkStyle(_ dark: Bool) {
        setBooleanSetting("gtk-application-prefer-dark-theme", dark)
    }

    /// Which window buttons header bars show, and on which side (`gtk-decoration-layout`, e.g.
    /// `"appmenu:close"`, GNOME's default, or `"menu:minimize,maximize,close"`, GTK's own when no
    /// desktop says otherwise, as under Xvfb). Main actor.
    public static var decorationLayout: String {
        get {
            var gvalue = GValue()
            g_value_init(&gvalue, GType(16 << 2))  // G_TYPE_STRING
            defer { g_value_unset(&gvalue) }
            g_object_get_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self),
                                  "gtk-decoration-layout", &gvalue)
            return g_value_get_string(&gvalue).map { String(cString: $0) } ?? ""
        }
        set {
            var gvalue = GValue()
            g_value_init(&gvalue, GType(16 << 2))  // G_TYPE_STRING
            defer { g_value_unset(&gvalue) }
            g_value_set_string(&gvalue, newValue)
            g_object_set_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self),
                                  "gtk-decoration-layout", &gvalue)
        }
    }

    /// The desktop's text resolution in dots per inch: GTK's `gtk-xft-dpi` ÷ 1024, which is 96 × GNOME's
    /// text scaling factor (120 with Large Text's 1.25); 96 when no desktop sets it. What `sp` lengths
    /// scale with (libadwaita's `adw_length_unit_to_px`). Main actor. Settable here for the whole app
    /// (tests use it to try Large Text).
    public static var textDPI: Double {
        get {
            var gvalue = GValue()
            g_value_init(&gvalue, GType(6 << 2))  // G_TYPE_INT
            defer { g_value_unset(&gvalue) }
            g_object_get_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self), "gtk-xft-dpi", &gvalue)
            let value = g_value_get_int(&gvalue)
            return value > 0 ? Double(value) / 1024 : 96
        }
        set {
            var gvalue = GValue()
            g_value_init(&gvalue, GType(6 << 2))  // G_TYPE_INT
            defer { g_value_unset(&gvalue) }
            g_value_set_int(&gvalue, Int32((newValue * 1024).rounded()))
            g_object_set_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self), "gtk-xft-dpi", &gvalue)
        }
    }

    /// Calls `handler` with the new ``textDPI`` each time the desktop's text size changes (GtkSettings
    /// `notify::gtk-xft-dpi`: GNOME's Large Text, or a test), until the token goes. Main actor.
    package static func observeTextDPI(_ handler: @escaping @MainActor (Double) -> Void) -> ObservationToken {
        if textDPISettings == nil, let settings = gtk_settings_get_default() {
            let pointer = UnsafeMutableRawPointer(settings)
            let object = Object.wrapper(of: pointer) ?? Object(pointer, transfer: .none)
            object.connect("notify::gtk-xft-dpi") { _ in textDPIObservers.notify(textDPI) }
            textDPISettings = object
        }
        return textDPIObservers.add(handler)
    }
    private static let textDPIObservers = Observers<Double>()
    /// The default display's settings, followed for ``observeTextDPI(_:)`` once asked.
    private static var textDPISettings: Object?

    /// The boolean `GtkSettings` property `name` of the default display (e.g. "gtk-enable-animations").
    package static func booleanSetting(_ name: String) -> Bool {
        var gvalue = GValue()
        g_value_init(&gvalue, GType(5 << 2))  // G_TYPE_BOOLEAN
        defer { g_value_unset(&gvalue) }
        g_object_get_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self), name, &gvalue)
        return g_value_get_boolean(&gvalue) != 0
    }

    /// Sets the boolean `GtkSettings` property `name` of the default display, for the whole app.
    package static func setBooleanSetting(_ name: String, _ value: Bool) {
        var gvalue = GValue()
        g_value_init(&gvalue, GType(5 << 2))  // G_TYPE_BOOLEAN
        defer { g_value_unset(&gvalue) }
        g_value_set_boolean(&gvalue, value ? 1 : 0)
        g_object_set_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self), name, &gvalue)
    }
}
