import Gtk
import NavigationGtk
import PostcardModel

/// A page with a recycled list of rows (read from the store a page at a time), a status line for
/// "nothing yet" and errors above it, and one suggested action at the end of the bar (Reply with Photo,
/// New Message). Subclasses make the list (``PagedListView``) and pass its view.
@MainActor
public class ListPage: Page {
    /// The page's action (end of the bar, suggested-action).
    public let actionButton: Button
    /// Shown when the list is empty or could not be read.
    public let statusLabel = Label()
    /// The scrolled window holding the list.
    public let scroller: ScrolledWindow
    /// The page's following of the store's changes (``PostcardStore/PostStore/changes``): it lasts as long
    /// as the page.
    var followsStore: ObservationToken?

    init(title: String, subtitle: String? = nil, actionLabel: String, list: ListView) {
        actionButton = Button(label: actionLabel)
        scroller = ScrolledWindow(list)
        super.init(title: title, subtitle: subtitle)
        actionButton.addCSSClass("suggested-action")
        addEndBarItem(actionButton)
        statusLabel.addCSSClass("dim-label")
        statusLabel.wraps = true
        statusLabel.xAlign = 0
        statusLabel.setMargins(top: 12, bottom: 0, start: 12, end: 12)
        list.addCSSClass("card-list")
        scroller.expandsVertically = true
        content.append(statusLabel)
        content.append(scroller)
    }

    public override var initialFocus: Widget? { actionButton }

    /// The widest a row of cards gets, in pixels: a 600-pixel card (libadwaita's default clamp) with its
    /// 12-pixel margins. Wider windows centre the rows (libadwaita's `AdwClamp`); narrower ones fill.
    public static let cardColumnWidth: Int32 = 624

    /// Shows `emptyText` when the list is empty, nothing otherwise.
    func showEmptyText(_ emptyText: String, isEmpty: Bool) {
        statusLabel.text = emptyText
        statusLabel.isVisible = isEmpty
    }

    /// Shows why the list could not be loaded.
    public func showError(_ message: String) {
        statusLabel.text = message
        statusLabel.isVisible = true
    }
}
