import Adwaita
import Gtk
import NavigationGtk
import PostcardModel

/// **My Code**: the user's own Postcard code (``FriendCode``) as a QR code another Postcard scans to add
/// them, drawn sharp and black on white in every style (``QRCodeView``), with their name (which they can
/// change here: **Your Name**, applied with Return or **Change Name**), the link as text, and **Copy Link**.
///
/// Presented alone from the primary menu; pushed in Add Friend ("Show My Code"). Reports
/// ``onCopyLink`` and ``onRename``; the owner stores the name and calls ``show(_:)``. Main actor only.
@MainActor
public final class MyCodePage: Page {
    /// The code drawn.
    public let codeView: QRCodeView
    /// The link the code holds, as text (selectable).
    public let linkLabel = Label()
    /// **Your Name**: the name in the code.
    // Translators: the name of the entry on My Code where the user changes their name.
    public let nameEntry = Entry(accessibleLabel: localized("Your Name"))
    /// **Change Name**, sensitive while the entry holds a new, valid name.
    public let renameButton = Button(label: localized("Change Name"))
    /// Says why a name cannot be used (empty, too long, control characters); hidden otherwise.
    public let nameProblem = Label()
    /// **Copy Link**.
    public let copyButton = Button(label: localized("Copy Link"))
    /// The identity shown.
    public private(set) var identity: Identity

    /// Called with the link when the user presses Copy Link (after it is on the clipboard).
    public var onCopyLink: (@MainActor (String) -> Void)?
    /// Called with the new name (trimmed, valid) when the user changes it.
    public var onRename: (@MainActor (String) -> Void)?

    /// Creates the page showing `identity`'s code.
    /// - Throws: ``QRCodeError`` when the code cannot be drawn (a name too long for a QR code).
    public init(identity: Identity) throws {
        self.identity = identity
        // Translators: what a screen reader says for the QR code on My Code.
        codeView = QRCodeView(code: try QRCode(encoding: FriendCode(identity).link), accessibleLabel: localized("Your Postcard code"))
        // Translators: the title of the page showing the user's own QR code.
        super.init(title: localized("My Code"))
        let column = Box(.vertical, spacing: 12)
        column.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        let hint = Label(localized("Friends scan this code with Add Friend in their Postcard."))
        hint.wraps = true
        hint.centersLines = true
        hint.addCSSClass("dim-label")
        linkLabel.wraps = true
        linkLabel.centersLines = true
        linkLabel.isSelectable = true
        linkLabel.addCSSClass("caption")
        linkLabel.addCSSClass("dim-label")
        copyButton.horizontalAlignment = .center
        copyButton.addCSSClass("pill")
        copyButton.onClicked { [weak self] in
            guard let self else { return }
            let link = FriendCode(self.identity).link
            Clipboard.setText(link)
            self.onCopyLink?(link)
        }
        let nameRow = Box(.horizontal, spacing: 6)
        nameRow.horizontalAlignment = .center
        nameEntry.maximumLength = Identity.maximumNameLength
        nameEntry.widthInCharacters = 18
        nameEntry.onChanged { [weak self] in self?.nameChanged() }
        nameEntry.onActivate { [weak self] in self?.rename() }
        renameButton.onClicked { [weak self] in self?.rename() }
        nameRow.append(nameEntry)
        nameRow.append(renameButton)
        nameProblem.addCSSClass("error")
        nameProblem.wraps = true
        nameProblem.centersLines = true
        nameProblem.isVisible = false
        column.append(codeView.view)
        column.append(linkLabel)
        column.append(copyButton)
        column.append(hint)
        column.append(nameRow)
        column.append(nameProblem)
        let scroller = ScrolledWindow(Clamp(column, maximumWidth: 480))
        scroller.expandsVertically = true
        content.append(scroller)
        show(identity)
    }

    /// **Copy Link** first.
    public override var initialFocus: Widget? { copyButton }

    /// Shows `identity`'s code, link and name.
    public func show(_ identity: Identity) {
        self.identity = identity
        let link = FriendCode(identity).link
        if let code = try? QRCode(encoding: link) { codeView.show(code) }
        linkLabel.text = link
        nameEntry.text = identity.name
        nameChanged()
    }

    /// The name typed, trimmed, when it may be used; else why not.
    private var typedName: Result<String, NameProblem> {
        let name = nameEntry.text.trimmingWhitespace()
        if name.isEmpty { return .failure(NameProblem(localized("Your name can't be empty."))) }
        if name.containsControlCharacters { return .failure(NameProblem(localized("Your name can't hold control characters."))) }
        return .success(name)
    }

    private func nameChanged() {
        switch typedName {
        case .success(let name):
            nameProblem.isVisible = false
            renameButton.isSensitive = name != identity.name
        case .failure(let problem):
            nameProblem.text = problem.message
            nameProblem.isVisible = true
            renameButton.isSensitive = false
        }
    }

    private func rename() {
        guard case .success(let name) = typedName, name != identity.name else { return }
        onRename?(name)
    }

    private struct NameProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
