import Gtk
import Navigation

/// A screen that can be shown on a ``NavigationStack`` — pushed into a window or a modal dialog.
///
/// A page does not know where it is used. It builds its widgets into ``content``, reports what the user
/// did through its own events or async results, and never pushes, pops, presents or dismisses anything
/// itself: whoever created it (a flow, an app screen) decides what comes next.
///
/// Subclass it, append widgets to ``content``, set ``initialFocus``, and put page actions that belong in
/// the bar (e.g. a suggested-action "Post") in with ``addEndBarItem(_:)``: the host shows them at the end
/// of whichever header bar displays the page.
///
/// Main actor only.
@MainActor
open class Page {
    /// The page's identity on a stack.
    public let id = PageID.make()

    /// The title shown in the bar while the page is visible and as the Back button's tooltip above it.
    public var title: String {
        didSet { if title != oldValue { titleDidChange?(self) } }
    }

    /// The page's widget tree: a vertical box that fills the page area.
    public let content = Box(.vertical)

    /// Widgets the host puts at the end of its header bar while this page is visible, in order.
    public private(set) var endBarItems: [Widget] = []

    /// The widget to focus when the page first appears (nil: the first focusable child; with none,
    /// the host focuses its Back button).
    open var initialFocus: Widget? { nil }

    /// The stack the page is on now, or nil. Set by the stack; flows use it to run "from" this page.
    public internal(set) weak var navigationStack: NavigationStack?

    /// The widget that had focus when the page was last covered, restored when it is shown again.
    var savedFocus: Widget?

    var titleDidChange: (@MainActor (Page) -> Void)?

    /// Creates a page with `title`.
    public init(title: String) {
        self.title = title
        content.expandsHorizontally = true
        content.expandsVertically = true
    }

    /// Adds `item` at the end of the bar that shows this page (rightmost in left-to-right locales is
    /// the first one added, as with `gtk_header_bar_pack_end`).
    public func addEndBarItem(_ item: Widget) {
        endBarItems.append(item)
        navigationStack?.pageBarItemsDidChange(self)
    }
}
