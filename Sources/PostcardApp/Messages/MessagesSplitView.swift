import Gtk
import Navigation
import NavigationGtk
import PostcardModel

/// **Messages** as GNOME's apps show a list and what is chosen in it (Settings, Fractal, Chats): the
/// list of messages (``list``) as the sidebar, the message chosen beside it when the window is wide,
/// and one navigation stack when it is narrow (below 600 sp: the message is pushed over the list, with
/// Back). The route `postcard://messages/ID` shows the same message at both widths. Main actor only.
@MainActor
public final class MessagesSplitView: NavigationSplitView {
    /// The list of messages with New Message (the sidebar).
    public let list: MessagesPage

    /// The message page shown as the content (beside the list, or over it when narrow), or nil.
    public var shownMessage: PhotoDetailPage? { contentPages.last as? PhotoDetailPage }

    /// The width below which the list and the message collapse into one stack.
    static let collapseWidth = "max-width: 600sp"

    /// Wraps `list`; its bar items (New Message) go to the bar that shows the split view.
    init(list: MessagesPage) {
        self.list = list
        super.init(title: list.title)
        for item in list.endBarItems {
            list.removeBarItem(item)
            addEndBarItem(item)
        }
        sidebar = list
        // The sidebar is a column of message rows: a little wider than libadwaita's default maximum.
        maxSidebarWidth = 360
        sidebarWidthFraction = 0.35
        collapseCondition = try? BreakpointCondition(parsing: Self.collapseWidth)
        let placeholder = ContentUnavailableView(iconName: "mail-unread-symbolic")
        // Translators: shown beside the list of messages when none is chosen (a wide window).
        placeholder.set(title: localized("No Message Selected"), description: localized("Choose a message to see its photo."))
        contentPlaceholder = placeholder
        splitToken = observeSplitProperties { [weak self] property in
            guard let self, property == .collapsed || property == .contentPage else { return }
            self.highlightShownMessage()
        }
    }

    private var splitToken: ObservationToken?

    /// The shown message's row is highlighted while the list and the message are side by side; not
    /// when collapsed, where the list is its own screen (as GNOME Settings does).
    func highlightShownMessage() {
        list.highlightedMessageID = isCollapsed ? nil : (shownMessage?.subject as? Int64)
    }

    public override var initialFocus: Widget? { list.initialFocus }
}
