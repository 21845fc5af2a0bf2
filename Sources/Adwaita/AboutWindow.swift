import CAdwaita
import CGtk
import Gtk

/// The app's About window: libadwaita's `AdwAboutWindow` (its name, icon, version and summary first; then
/// Credits and Legal pages), as GNOME apps show it from the primary menu's "About <App>" (GNOME HIG).
/// Main actor only.
@MainActor
public enum AboutWindow {
    /// A section of the Credits page: its heading and the people (or works) it credits, one line each.
    public struct CreditSection: Sendable {
        /// The section's heading, e.g. "Sample photos".
        public var heading: String
        /// One line per credit.
        public var lines: [String]

        /// A section `heading` with `lines`.
        public init(heading: String, lines: [String]) {
            self.heading = heading
            self.lines = lines
        }
    }

    /// Makes (does not show) the About window, modal over `parent`: the app's `name`, its icon
    /// (`iconName`, from the icon theme), `version`, `developer` (who makes it), `comments` (a sentence
    /// saying what it does), `license` (plain text shown on the Legal page) and `credits`.
    ///
    /// GTK 4.8 exposes some parts of the window to screen readers by their type name; call
    /// ``Gtk/Widget/repairScreenReaderNames()`` on it once it is shown.
    public static func make(name: String, iconName: String, version: String, developer: String, comments: String,
                            license: String, credits: [CreditSection], over parent: Window?) -> Window {
        let about = navadw_about_window_new_dialog()!  // announced as a dialog
        let pointer = OpaquePointer(about)
        adw_about_window_set_application_name(pointer, name)
        adw_about_window_set_application_icon(pointer, iconName)
        adw_about_window_set_version(pointer, version)
        adw_about_window_set_developer_name(pointer, developer)
        adw_about_window_set_comments(pointer, comments)
        adw_about_window_set_license_type(pointer, GTK_LICENSE_CUSTOM)
        adw_about_window_set_license(pointer, license)
        for section in credits {
            withNullTerminatedCStrings(section.lines) { adw_about_window_add_credit_section(pointer, section.heading, $0) }
        }
        let window = Window(wrapping: UnsafeMutableRawPointer(about))
        if let parent { window.makeModal(over: parent.pointer()) } else { window.isModal = true }
        return window
    }
}
