import CAdwaita
import CGtk
import Gtk

/// A person's round avatar: their initials on a colour libadwaita picks from their name (the same name
/// always gets the same colour, as in GNOME Contacts), or a picture. libadwaita's `AdwAvatar`; a screen
/// reader reads it as an image named by the person's name. Main actor only.
@MainActor
public final class Avatar: Widget {
    /// An avatar `size` pixels across (libadwaita draws 1–∞; GNOME uses 32 in lists, 64–128 on profiles)
    /// showing the initials of `name` (up to two words).
    public init(name: String, size: Int32) {
        super.init(UnsafeMutableRawPointer(navadw_avatar_new_image(size, name)), transfer: .full)
        // Only the image is read: GTK 4.8 would also expose the label of initials inside it ("SR").
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            navgtk_accessible_set_hidden(current, 1)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// The name the initials, the colour and the accessible name come from.
    public var name: String {
        get { adw_avatar_get_text(pointer()).map { String(cString: $0) } ?? "" }
        set {
            adw_avatar_set_text(pointer(), newValue)
            setAccessibleLabel(newValue)
        }
    }

    /// The avatar's size in pixels.
    public var size: Int32 { adw_avatar_get_size(pointer()) }
}

/// A centred state that explains itself — a large dimmed icon, a title, a description and actions — for
/// empty, error and "not available" states: libadwaita's `AdwStatusPage` (GNOME HIG: say what happened
/// and what the user can do). It scrolls when the window is too small for it. Main actor only.
@MainActor
public final class StatusPage: Widget {
    private let actions = Box(.vertical, spacing: 12)

    /// A status page showing the icon `iconName` (libadwaita draws it 128 pixels, dimmed).
    public init(iconName: String) {
        super.init(UnsafeMutableRawPointer(adw_status_page_new()), transfer: .full)
        adw_status_page_set_icon_name(pointer(), iconName)
        actions.horizontalAlignment = .center
        actions.isVisible = false
        adw_status_page_set_child(pointer(), actions.widget)
    }

    /// The headline, e.g. "No Camera Found" (plain text).
    public var title: String {
        get { adw_status_page_get_title(pointer()).map { String(cString: $0) } ?? "" }
        set { adw_status_page_set_title(pointer(), newValue) }
    }

    /// What happened and what to do, in a sentence or two (plain text: shown as written, never read as
    /// markup).
    public private(set) var text = ""

    /// Shows `title` and `description`.
    public func set(title: String, description: String) {
        self.title = title
        text = description
        adw_status_page_set_description(pointer(), markupEscaped(description))  // the description is markup
    }

    /// Adds an action below the description, centred (a `pill` button, as libadwaita's status pages have).
    public func addAction(_ button: Button) {
        button.horizontalAlignment = .center
        button.addCSSClass("pill")
        actions.append(button)
        actions.isVisible = true
    }
}

/// Gives its child at most ``maximumWidth`` pixels, centred in the width it gets, and the whole width when
/// that is less, tightening toward it (libadwaita's `AdwClamp`): content stays a readable width in a wide
/// window and fills a narrow one. Main actor only.
@MainActor
public final class Clamp: Widget {
    /// Creates a clamp around `child` that gives it at most `maximumWidth` pixels (libadwaita's default is
    /// 600), starting to tighten `tighteningThreshold` pixels before (its default, 400; at most the maximum).
    public init(_ child: Widget, maximumWidth: Int32 = 600, tighteningThreshold: Int32? = nil) {
        super.init(UnsafeMutableRawPointer(adw_clamp_new()), transfer: .full)
        adw_clamp_set_maximum_size(pointer(), max(1, maximumWidth))
        adw_clamp_set_tightening_threshold(pointer(), min(max(1, maximumWidth), tighteningThreshold ?? 400))
        adw_clamp_set_child(pointer(), child.widget)
    }

    /// The widest the child gets, in pixels.
    public var maximumWidth: Int32 { adw_clamp_get_maximum_size(pointer()) }
}
