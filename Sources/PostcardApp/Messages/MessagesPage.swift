import Gtk
import NavigationGtk

/// **Messages**: the private messages sent (a photo and a comment to one friend), newest first, and
/// **New Message**. Each row's **Open** reports the message; the page navigates nowhere itself.
@MainActor
public final class MessagesPage: ListPage {
    /// The rows, newest first.
    public private(set) var rows: [MessageRow] = []
    /// Called when the user asks to write a message.
    public var onNewMessage: (@MainActor () -> Void)?
    /// Called with the message whose Open the user activated.
    public var onOpen: (@MainActor (Message) -> Void)?

    /// "New Message" (end of the bar).
    public var newMessageButton: Button { actionButton }

    /// Creates an empty messages page.
    public init() {
        super.init(title: "Messages", actionLabel: "New Message")
        newMessageButton.onClicked { [weak self] in self?.onNewMessage?() }
        showMessages([])
    }

    /// Replaces the shown messages (newest first).
    public func showMessages(_ messages: [Message]) {
        rows = messages.map { message in
            let row = MessageRow(message: message)
            row.openButton.onClicked { [weak self] in self?.onOpen?(message) }
            return row
        }
        showCards(rows.map(\.view), emptyText: "No messages yet. Send a friend a photo with New Message.")
    }
}

/// One message: to whom, the comment, and Open.
@MainActor
public final class MessageRow {
    /// The message shown.
    public let message: Message
    /// The row's widgets.
    public let view = Box(.horizontal, spacing: 12)
    /// "To Ada Lovelace".
    public let recipientLabel: Label
    /// The comment.
    public let commentLabel: Label
    /// Opens the message.
    public let openButton = Button(label: "Open")

    init(message: Message) {
        self.message = message
        let name = Person.named(message.recipient)?.name ?? message.recipient
        recipientLabel = Label("To \(name)")
        recipientLabel.xAlign = 0
        recipientLabel.addCSSClass("heading")
        commentLabel = Label(message.comment)
        commentLabel.xAlign = 0
        commentLabel.ellipsizeAtEnd()
        let text = Box(.vertical, spacing: 2)
        text.expandsHorizontally = true
        text.append(recipientLabel)
        text.append(commentLabel)
        openButton.verticalAlignment = .center
        view.addCSSClass("feed-item")
        view.append(text)
        view.append(openButton)
    }
}

/// **Choose Recipient**: the friends, one button each. Reports the choice.
@MainActor
public final class ChooseRecipientPage: Page {
    /// One button per friend, in ``Person/friends`` order.
    public private(set) var friendButtons: [Button] = []
    /// Called with the friend chosen.
    public var onRecipientChosen: (@MainActor (Person) -> Void)?

    /// Creates the page listing `people`.
    public init(people: [Person] = Person.friends) {
        super.init(title: "Choose Recipient")
        let column = Box(.vertical, spacing: 8)
        column.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        let hint = Label("Who should get the photo?")
        hint.xAlign = 0
        hint.addCSSClass("dim-label")
        column.append(hint)
        for person in people {
            let button = Button(label: person.name)
            button.onClicked { [weak self] in self?.onRecipientChosen?(person) }
            friendButtons.append(button)
            column.append(button)
        }
        content.append(column)
    }

    public override var initialFocus: Widget? { friendButtons.first }
}
