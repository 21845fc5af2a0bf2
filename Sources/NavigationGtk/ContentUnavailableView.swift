import CGtk
import Gtk

/// A centred state that explains itself — a large dimmed icon, a title, a description and actions —
/// for empty, error and "not available" states, as libadwaita's `AdwStatusPage` shows them (GNOME HIG:
/// say what happened and what the user can do), in plain GTK 4 (the toolkit does not need libadwaita).
/// Named as SwiftUI's `ContentUnavailableView`, which it matches, so that an app with libadwaita can use
/// both it and libadwaita's status page (the app's `StatusPage`) without qualifying either.
/// The description is centred line by line.
///
/// Main actor only.
@MainActor
public final class ContentUnavailableView: Widget {
    /// The headline, e.g. "No Camera Found" (CSS class `title-2`).
    public let titleLabel = Label()
    /// What happened and what to do, in a sentence or two.
    public let descriptionLabel = Label()

    /// Creates the view showing the icon `iconName` (64 pixels).
    public init(iconName: String) {
        super.init(Box.makeBox(.vertical, spacing: 12), transfer: .full)
        let icon = Image(iconName: iconName, pixelSize: 64)
        icon.addCSSClass("dim-label")
        icon.hideFromScreenReaders()  // an illustration: the title says it (not "GtkImage")
        titleLabel.addCSSClass("title-2")
        titleLabel.wraps = true
        titleLabel.centersLines = true
        descriptionLabel.wraps = true
        descriptionLabel.centersLines = true
        descriptionLabel.widthInCharacters = 30
        descriptionLabel.addCSSClass("dim-label")
        appendToBox(icon)
        appendToBox(titleLabel)
        appendToBox(descriptionLabel)
        setMargins(24)
        verticalAlignment = .center
        expandsVertically = true
    }

    /// Shows `title` and `description`.
    public func set(title: String, description: String) {
        titleLabel.text = title
        descriptionLabel.text = description
    }

    /// Adds an action below the description, centred (a `pill` button, as libadwaita's status pages have).
    public func addAction(_ button: Button) {
        button.horizontalAlignment = .center
        button.addCSSClass("pill")
        appendToBox(button)
    }
}
