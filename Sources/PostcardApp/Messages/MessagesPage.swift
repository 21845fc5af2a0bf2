import Adwaita
import Gtk
import NavigationGtk
import PostcardModel

/// **Messages**' list: the private messages sent (a photo and a comment to one friend), newest first, in
/// a recycled list read a page at a time, and **New Message**. Activating a row (a click, Return)
/// reports the message; the page navigates nowhere itself. The sidebar of ``MessagesSplitView``.
@MainActor
public final class MessagesPage: ListPage {
    /// The rows that exist now (on screen and near it), newest first.
    public var rows: [MessageRow] { list.factory.boundCells.map(\.cell) }
    /// The messages read so far, newest first.
    public var messages: [Message] { list.rows }
    /// Called when the user asks to write a message.
    public var onNewMessage: (@MainActor () -> Void)?
    /// Called with the message whose row the user activated.
    public var onOpen: (@MainActor (Message) -> Void)? {
        didSet { opener.open = onOpen }
    }
    /// Called with the message whose row's Delete the user pressed.
    public var onDelete: (@MainActor (Message) -> Void)? {
        didSet { opener.delete = onDelete }
    }

    /// "New Message" (end of the bar).
    public var newMessageButton: Button { actionButton }

    /// The id of the message whose row is highlighted as the one shown beside the list, or nil.
    public var highlightedMessageID: Int64? {
        didSet {
            opener.highlighted = highlightedMessageID
            for row in rows { row.updateHighlight() }
        }
    }

    private let opener: MessageOpener
    private let list: PagedListView<Message, MessageRow>

    /// Creates an empty messages page; `name` gives the name shown for a recipient's id.
    public init(name: @escaping @MainActor (String) -> String) {
        let opener = MessageOpener()
        opener.name = name
        self.opener = opener
        list = PagedListView(makeCell: { MessageRow(opener: opener) },
                             bindRow: { row, message, binding in row.bind(message, binding: binding) },
                             unbind: { $0.unbind() })
        super.init(title: localized("Messages"), actionLabel: localized("New Message"), list: list.view)
        list.readMoreWhenScrolled()
        list.view.setAccessibleLabel(title)  // named, not read by its type name ("GtkListView")
        newMessageButton.onClicked { [weak self] in self?.onNewMessage?() }
        list.view.onActivate { [weak self] position in
            guard let self, let message = self.list.row(at: position) else { return }
            self.onOpen?(message)
        }
        list.onLoadError = { [weak self] error in self?.showError(localized("Can't load more messages: %s", "\(error)")) }
        showEmptyText(Self.emptyText, isEmpty: true)
    }

    private static var emptyText: String { localized("No messages yet. Send a friend a photo with New Message.") }

    /// Shows the messages `source` reads (newest first).
    public func showMessages(_ source: PagedRows<Message>) {
        do {
            try list.show(source)
            showEmptyText(Self.emptyText, isEmpty: list.rows.isEmpty)
        } catch {
            showError(localized("Can't load messages: %s", "\(error)"))
        }
    }

    /// Activates the row of the message with `id` as a click or Return on it does (the list's
    /// `activate-item`, so ``onOpen`` reports it). A journey's replay opens a message this way.
    /// - Returns: false when no message read into the list so far has that id.
    public func activateRow(ofMessage id: Int64) -> Bool {
        guard let index = list.rows.firstIndex(where: { $0.id == id }) else { return false }
        list.view.activateItem(at: list.position(ofRowAt: index))
        return true
    }

    /// Adds `message` at the top, in place.
    public func insertNewMessage(_ message: Message) {
        guard list.insert(message, at: 0) else { return }  // shown already
        showEmptyText(Self.emptyText, isEmpty: false)
    }
}

/// Passes a row's Open to the page (rows must not hold the page).
@MainActor
final class MessageOpener {
    var name: @MainActor (String) -> String = { $0 }
    var open: (@MainActor (Message) -> Void)?
    var delete: (@MainActor (Message) -> Void)?
    var highlighted: Int64?
}

/// One message: to whom, the comment, and Delete. Made once per row, bound message after message.
@MainActor
public final class MessageRow: ListCell {
    /// The message shown (nil while unbound).
    public private(set) var message: Message?
    /// The row's widgets.
    public let view = Box(.horizontal, spacing: 12)
    public let root: Widget
    /// "To Ada Lovelace".
    public let recipientLabel = Label()
    /// The comment.
    public let commentLabel = Label()
    /// Deletes the message (with Undo for a few seconds).
    // Translators: an icon button on a message in the list of messages (its tooltip and what a screen
    // reader says): deletes that message.
    public let deleteButton = Button(iconName: "user-trash-symbolic", accessibleLabel: localized("Delete Message"))
    private weak var opener: MessageOpener?

    init(opener: MessageOpener) {
        self.opener = opener
        root = Clamp(view, maximumWidth: ListPage.cardColumnWidth)
        recipientLabel.xAlign = 0
        recipientLabel.ellipsizeAtEnd()
        recipientLabel.addCSSClass("heading")
        commentLabel.xAlign = 0
        commentLabel.ellipsizeAtEnd()
        let text = Box(.vertical, spacing: 2)
        text.expandsHorizontally = true
        text.append(recipientLabel)
        text.append(commentLabel)
        view.addCSSClass("feed-item")
        view.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        deleteButton.verticalAlignment = .center
        deleteButton.addCSSClass("flat")
        deleteButton.onClicked { [weak self, weak opener] in
            guard let message = self?.message else { return }
            opener?.delete?(message)
        }
        view.append(text)
        view.append(deleteButton)
    }

    func bind(_ message: Message, binding: ListItemBinding) {
        self.message = message
        let name = opener?.name(message.recipient) ?? message.recipient
        // Translators: a message in the list of messages: whom it was sent to (%s is a person's name).
        recipientLabel.text = localized("To %s", name)
        let comment = CommentLimit.shown(message.comment)
        commentLabel.text = comment
        // Translators: what a screen reader says for a message: whom it was sent to (%1$s, a person's
        // name) and its text (%2$s).
        binding.setAccessibleLabel(localized("To %1$s: %2$s", name, comment))
        updateHighlight()
    }

    func unbind() {
        message = nil
        updateHighlight()
    }

    /// Highlighted while its message is the one shown beside the list (CSS class `shown-message`).
    func updateHighlight() {
        if let message, message.id == opener?.highlighted { view.addCSSClass("shown-message") } else { view.removeCSSClass("shown-message") }
    }
}

/// **Choose Recipient**: the friends, one button each. Reports the choice.
@MainActor
public final class ChooseRecipientPage: Page {
    /// One button per friend, in the order given.
    public private(set) var friendButtons: [Button] = []
    /// Called with the friend chosen.
    public var onRecipientChosen: (@MainActor (Person) -> Void)?

    /// Creates the page listing `people`.
    public init(people: [Person]) {
        super.init(title: localized("Choose Recipient"))
        let column = Box(.vertical, spacing: 8)
        column.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        let hint = Label(localized("Who should get the photo?"))
        hint.xAlign = 0
        hint.addCSSClass("dim-label")
        column.append(hint)
        for person in people {
            let button = Button(label: person.name)
            button.ellipsizesLabel()
            button.onClicked { [weak self] in self?.onRecipientChosen?(person) }
            friendButtons.append(button)
            column.append(button)
        }
        content.append(column)
    }

    public override var initialFocus: Widget? { friendButtons.first }
}
