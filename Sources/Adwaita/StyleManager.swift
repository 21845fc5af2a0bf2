import CAdwaita
import CGtk
import Gtk

/// The app's light, dark and high-contrast styles: libadwaita's `AdwStyleManager`. By default it follows
/// the desktop's preference, read through the Settings portal (so also in a sandbox) or, without a portal,
/// from GSettings (`org.gnome.desktop.interface color-scheme`, `org.gnome.desktop.a11y.interface
/// high-contrast`), and changes with it while the app runs. It sets GTK's
/// `gtk-application-prefer-dark-theme` itself, so style sheets that follow GTK's dark style (the navigation
/// toolkit's) follow it too; nothing else may set that setting under libadwaita (libadwaita warns).
///
/// Main actor only; use after ``Libadwaita/initialize()``.
@MainActor
public final class StyleManager {
    /// Which style the app asks for (`AdwColorScheme`).
    public enum ColorScheme: Sendable, Equatable {
        /// Light, or dark when the desktop prefers dark (`ADW_COLOR_SCHEME_DEFAULT`): what apps use.
        case followDesktop
        /// Always light (`ADW_COLOR_SCHEME_FORCE_LIGHT`).
        case forceLight
        /// Always dark (`ADW_COLOR_SCHEME_FORCE_DARK`).
        case forceDark

        var adwaita: AdwColorScheme {
            switch self {
            case .followDesktop: ADW_COLOR_SCHEME_DEFAULT
            case .forceLight: ADW_COLOR_SCHEME_FORCE_LIGHT
            case .forceDark: ADW_COLOR_SCHEME_FORCE_DARK
            }
        }
    }

    /// The manager of the default display.
    public static var `default`: StyleManager {
        if let shared { return shared }
        let made = StyleManager(adw_style_manager_get_default()!)
        shared = made
        return made
    }
    private static var shared: StyleManager?

    private let manager: Object
    private let changes = Observers<Void>()

    private init(_ pointer: OpaquePointer) {
        manager = Object.wrapping(UnsafeMutableRawPointer(pointer))
        for property in ["dark", "high-contrast"] {
            manager.connect("notify::" + property) { [weak self] _ in self?.changes.notify(()) }
        }
    }

    private var pointer: OpaquePointer { manager.pointer() }

    /// The style asked for; ``ColorScheme/followDesktop`` unless set.
    public var colorScheme: ColorScheme {
        get {
            switch adw_style_manager_get_color_scheme(pointer) {
            case ADW_COLOR_SCHEME_FORCE_LIGHT: .forceLight
            case ADW_COLOR_SCHEME_FORCE_DARK: .forceDark
            default: .followDesktop
            }
        }
        set { adw_style_manager_set_color_scheme(pointer, newValue.adwaita) }
    }

    /// Whether the app is dark now.
    public var isDark: Bool { adw_style_manager_get_dark(pointer) != 0 }

    /// Whether the desktop asks for high contrast (GNOME Settings → Accessibility → High Contrast); the
    /// app is then drawn with libadwaita's high-contrast style sheets and its own `style-hc.css`.
    public var isHighContrast: Bool { adw_style_manager_get_high_contrast(pointer) != 0 }

    /// Whether the desktop says which colour scheme it prefers (a portal or GSettings was found); when
    /// not, ``ColorScheme/followDesktop`` is light.
    public var systemSupportsColorSchemes: Bool { adw_style_manager_get_system_supports_color_schemes(pointer) != 0 }

    /// Calls `handler` after ``isDark`` or ``isHighContrast`` changes (the desktop's preference changed,
    /// or ``colorScheme`` was set), until the token is cancelled or released.
    public func observeChanges(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        changes.add { handler() }
    }
}
