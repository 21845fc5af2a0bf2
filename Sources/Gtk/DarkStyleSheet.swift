import CGtk

extension StyleSheet {
    /// Loads the CSS compiled in as the GResource at `path` at `priority`, and the one at `darkPath` over
    /// it (one priority higher) while GTK's dark style is on (`gtk-application-prefer-dark-theme`, which
    /// ``DesktopStyle`` sets from the desktop's preference): the dark sheet redefines the light sheet's
    /// named colours (`@define-color`), as libadwaita's `style-dark.css` does. Follows changes while the
    /// app runs. Main actor; call once per sheet, after GTK is initialized (a second call for the same
    /// `darkPath` loads nothing more).
    public static func load(resource path: String, darkVariant darkPath: String, priority: Priority = .application) {
        guard DarkVariant.loaded[darkPath] == nil, let settings = gtk_settings_get_default() else { return }
        load(resource: path, priority: priority)
        DarkVariant.loaded[darkPath] = DarkVariant(resource: darkPath, priority: priority.rawValue + 1,
                                                   settings: UnsafeMutableRawPointer(settings))
    }

    /// Whether the dark variants loaded by ``load(resource:darkVariant:priority:)`` are applied now.
    public static var isDarkVariantApplied: Bool { DarkVariant.loaded.values.contains { $0.isApplied } }
}

/// The dark style sheet, added to the display while the dark style is on and removed when it goes off.
@MainActor
final class DarkVariant {
    static var loaded: [String: DarkVariant] = [:]

    private let provider: UnsafeMutablePointer<GtkCssProvider>
    private let priority: UInt32
    private let settings: Object
    private(set) var isApplied = false

    init(resource: String, priority: UInt32, settings: UnsafeMutableRawPointer) {
        provider = gtk_css_provider_new()
        self.priority = priority
        gtk_css_provider_load_from_resource(provider, resource)
        self.settings = Object.wrapping(UnsafeMutableRawPointer(settings))
        self.settings.connect("notify::gtk-application-prefer-dark-theme") { [weak self] _ in self?.update() }
        update()
    }

    private func update() {
        let dark = DesktopStyle.booleanSetting("gtk-application-prefer-dark-theme")
        guard dark != isApplied, let display = gdk_display_get_default() else { return }
        if dark {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), priority)
        } else {
            gtk_style_context_remove_provider_for_display(display, OpaquePointer(provider))
        }
        isApplied = dark
    }
}
