import Gtk
import NavigationGtk

/// A page with a scrolling list of cards, a status line for "nothing yet" and errors, and one
/// suggested action at the end of the bar (Reply with Photo, New Message). Subclasses fill ``list``.
@MainActor
public class ListPage: Page {
    /// The page's action (end of the bar, suggested-action).
    public let actionButton: Button
    /// Shown when the list is empty or could not be read.
    public let statusLabel = Label()
    /// The cards, top to bottom.
    let list = Box(.vertical, spacing: 12)

    init(title: String, subtitle: String? = nil, actionLabel: String) {
        actionButton = Button(label: actionLabel)
        super.init(title: title, subtitle: subtitle)
        actionButton.addCSSClass("suggested-action")
        addEndBarItem(actionButton)
        statusLabel.addCSSClass("dim-label")
        statusLabel.wraps = true
        let column = Box(.vertical, spacing: 12)
        column.setMargins(top: 12, bottom: 18, start: 18, end: 18)
        column.append(statusLabel)
        column.append(list)
        let scroller = ScrolledWindow(column)
        scroller.expandsVertically = true
        content.append(scroller)
    }

    public override var initialFocus: Widget? { actionButton }

    /// Replaces the cards with `views`; with none, shows `emptyText`.
    func showCards(_ views: [Widget], emptyText: String) {
        list.removeAll()
        for view in views { list.append(view) }
        statusLabel.text = emptyText
        statusLabel.isVisible = views.isEmpty
    }

    /// Shows why the list could not be loaded.
    public func showError(_ message: String) {
        statusLabel.text = message
        statusLabel.isVisible = true
    }
}
