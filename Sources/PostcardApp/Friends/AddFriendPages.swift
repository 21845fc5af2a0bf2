import Adwaita
import Gtk
import NavigationGtk
import PostcardModel

/// **Add Friend**'s first page: how to get the friend's code — **Scan Their Code**, **Enter Their
/// Link**, or **Show My Code** (for them to scan). Reports the choice. Main actor only.
@MainActor
public final class AddFriendPage: Page {
    /// **Scan Their Code** (the camera).
    public let scanButton = Button(label: localized("Scan Their Code"))
    /// **Enter Their Link** (typed or pasted).
    public let enterLinkButton = Button(label: localized("Enter Their Link"))
    /// **Show My Code**.
    public let showMyCodeButton = Button(label: localized("Show My Code"))
    /// Called when the user picks Scan Their Code.
    public var onScan: (@MainActor () -> Void)?
    /// Called when the user picks Enter Their Link.
    public var onEnterLink: (@MainActor () -> Void)?
    /// Called when the user picks Show My Code.
    public var onShowMyCode: (@MainActor () -> Void)?

    /// Creates the page.
    public init() {
        // Translators: the title of the flow (and its first page) that adds someone as a friend.
        super.init(title: localized("Add Friend"))
        let status = StatusPage(iconName: "contact-new-symbolic")
        // Translators: the headline of Add Friend's first page.
        status.set(title: localized("Add a Friend"),
                   description: localized("Scan the code on their My Code page, or enter the link they sent you."))
        scanButton.addCSSClass("suggested-action")
        for button in [scanButton, enterLinkButton, showMyCodeButton] {
            button.addCSSClass("pill")
            status.addAction(button)
        }
        scanButton.onClicked { [weak self] in self?.onScan?() }
        enterLinkButton.onClicked { [weak self] in self?.onEnterLink?() }
        showMyCodeButton.onClicked { [weak self] in self?.onShowMyCode?() }
        status.expandsVertically = true
        content.append(status)
    }

    /// **Scan Their Code** first.
    public override var initialFocus: Widget? { scanButton }
}

/// **Enter Their Link**: an entry for a friend's Postcard link (typed or pasted) and **Continue** at the
/// end of the bar; why a link is refused shows under the entry. Reports the text. Main actor only.
@MainActor
public final class EnterLinkPage: Page {
    /// The link's entry.
    // Translators: the name of the entry on Enter Their Link.
    public let linkEntry = Entry(accessibleLabel: localized("Their Link"), placeholder: "postcard://profile/…")
    /// **Continue** (bar end), sensitive while the entry holds text.
    public let continueButton = Button(label: localized("Continue"))
    /// Why the link is refused; hidden until then.
    public let problemLabel = Label()
    /// Called with the text when the user presses Continue or Return.
    public var onContinue: (@MainActor (String) -> Void)?

    /// Creates the page.
    public init() {
        super.init(title: localized("Enter Their Link"))
        let column = Box(.vertical, spacing: 12)
        column.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        let hint = Label(localized("Paste the link your friend copied from My Code in their Postcard."))
        hint.wraps = true
        hint.xAlign = 0
        hint.addCSSClass("dim-label")
        linkEntry.maximumLength = FriendCode.maximumLength + 1  // one more: a longer paste is refused with a message
        problemLabel.addCSSClass("error")
        problemLabel.wraps = true
        problemLabel.xAlign = 0
        problemLabel.isVisible = false
        column.append(hint)
        column.append(linkEntry)
        column.append(problemLabel)
        content.append(Clamp(column, maximumWidth: 480))
        continueButton.addCSSClass("suggested-action")
        continueButton.isSensitive = false
        addEndBarItem(continueButton)
        linkEntry.onChanged { [weak self] in
            guard let self else { return }
            self.continueButton.isSensitive = !self.linkEntry.text.trimmingWhitespace().isEmpty
            self.problemLabel.isVisible = false
        }
        linkEntry.onActivate { [weak self] in self?.submit() }
        continueButton.onClicked { [weak self] in self?.submit() }
    }

    /// The entry.
    public override var initialFocus: Widget? { linkEntry }

    /// Says why the link was refused, under the entry.
    public func refuse(_ message: String) {
        problemLabel.text = message
        problemLabel.isVisible = true
        continueButton.isSensitive = false  // until the link is changed
        _ = linkEntry.grabFocus()
    }

    private func submit() {
        let text = linkEntry.text
        guard !text.trimmingWhitespace().isEmpty else { return }
        onContinue?(text)
    }
}

/// **New Friend**: who a code is — their avatar and name (as text, never interpreted) and their id —
/// with **Add** at the end of the bar. Reports Add; the owner stores them. Main actor only.
@MainActor
public final class NewFriendPage: Page {
    /// Whose code it is.
    public let code: FriendCode
    /// **Add** (bar end; the affirmative action).
    public let addButton = Button(label: localized("Add"))
    /// Why adding failed; hidden until then.
    public let errorLabel = Label()
    /// Their name, on one line (cut with "…" when longer than the page is wide).
    public let nameLabel: Label
    /// Called when the user presses Add.
    public var onAdd: (@MainActor () -> Void)?

    /// Creates the page for `code`.
    public init(code: FriendCode) {
        self.code = code
        let name = Label(code.name)  // plain text, never markup
        nameLabel = name
        // Translators: the title of the page that shows whom a code adds as a friend.
        super.init(title: localized("New Friend"))
        let column = Box(.vertical, spacing: 12)
        column.setMargins(top: 36, bottom: 18, start: 18, end: 18)
        let avatar = Avatar(name: code.name, size: 96)  // read as an image named by the person
        avatar.horizontalAlignment = .center
        name.addCSSClass("title-1")
        name.ellipsizeAtEnd()  // one line, however long the name in the code: the window never grows for it
        // Translators: under the name of someone about to be added as a friend; %s is their Postcard id.
        let detail = Label(localized("Add them as a friend to see their profile and send them photos. Their Postcard id is %s.", code.id))
        detail.wraps = true
        detail.centersLines = true
        detail.addCSSClass("dim-label")
        errorLabel.addCSSClass("error")
        errorLabel.wraps = true
        errorLabel.centersLines = true
        errorLabel.isVisible = false
        for widget in [avatar, name, detail, errorLabel] as [Widget] { column.append(widget) }
        let scroller = ScrolledWindow(Clamp(column, maximumWidth: 480))
        scroller.expandsVertically = true
        content.append(scroller)
        addButton.addCSSClass("suggested-action")
        addButton.onClicked { [weak self] in self?.onAdd?() }
        addEndBarItem(addButton)
        // Focus lands on Add: a screen reader hears with it whom the code adds (the page's own text).
        addButton.setAccessibleDescription("\(code.name). \(detail.text)")
    }

    /// **Add**.
    public override var initialFocus: Widget? { addButton }

    /// Whether adding is under way (Add insensitive).
    public var isBusy = false {
        didSet { addButton.isSensitive = !isBusy }
    }

    /// Shows why adding failed.
    public func showError(_ message: String) {
        errorLabel.text = message
        errorLabel.isVisible = true
    }
}
