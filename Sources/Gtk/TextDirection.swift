import CGtk
import GLib

/// The text direction GTK lays widgets out in.
extension Localization {
    /// Whether the user's language runs right to left (Arabic, Hebrew, …), as GTK decides it for the
    /// default text direction (its own translation of "default:LTR").
    @MainActor
    public static var isRightToLeft: Bool { gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL }

    /// Lays out every widget right to left (or left to right) from now on, open windows included, as
    /// a right-to-left language would (`gtk_widget_set_default_direction`: GTK mirrors boxes, bars,
    /// arrows and transitions). For reviewing a mirrored layout without switching language. Main actor.
    @MainActor
    public static func setRightToLeft(_ rightToLeft: Bool) {
        gtk_widget_set_default_direction(rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
    }
}
