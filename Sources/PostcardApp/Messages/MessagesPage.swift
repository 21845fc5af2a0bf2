import Gtk
import NavigationGtk

/// **Messages**: the private messages sent (a photo and a comment to one friend), newest first, and
/// **New Message**. Each row's **Open** reports the message; the page navigates nowhere itself.
@MainActor
public final class MessagesPage: Page {
    /// "New Message" (end of the bar).
    public let newMessageButton = Button(label: "New Message")
    /// The rows, newest first.
    public private(set) var rows: [MessageRow] = []
    /// Shown when there are no messages or they could not be read.
    public let statusLabel = Label()
    /// Called when the user asks to write a message.
    public var onNewMessage: (@MainActor () -> Void)?
    /// Called with the message whose Open the user activated.
    public var onOpen: (@MainActor (Message) -> Void)?

    private let list = Box(.vertical, spacing: 12)

    /// Creates an empty messages page.
    public init() {
        super.init(title: "Messages")
        newMessageButton.addCSSClass("suggested-action")
        addEndBarItem(newMessageButton)
        statusLabel.addCSSClass("dim-label")
        statusLabel.wraps = true
        let column = Box(.vertical, spacing: 12)
        column.setMargins(top: 12, bottom: 18, start: 18, end: 18)
        column.append(statusLabel)
        column.append(list)
        let scroller = ScrolledWindow(column)
        scroller.expandsVertically = true
        content.append(scroller)
        newMessageButton.onClicked { [weak self] in self?.onNewMessage?() }
        showMessages([])
    }

    public override var initialFocus: Widget? { newMessageButton }

    /// Replaces the shown messages (newest first).
    public func showMessages(_ messages: [Message]) {
        list.removeAll()
        rows = messages.map { message in
            let row = MessageRow(message: message)
            row.openButton.onClicked { [weak self] in self?.onOpen?(message) }
            return row
        }
        for row in rows { list.append(row.view) }
        statusLabel.text = "No messages yet. Send a friend a photo with New Message."
        statusLabel.isVisible = messages.isEmpty
    }

    /// Shows why the messages could not be read.
    public func showError(_ message: String) {
        statusLabel.text = message
        statusLabel.isVisible = true
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
