import Gtk
import NavigationGtk
import PostcardModel

/// **Add a Comment**: the chosen photo, a multi-line comment field (focused), and **Post**
/// (suggested-action, at the end of the bar).
///
/// Ctrl+Return posts; Return inserts a newline. Post is enabled once the comment has non-blank text.
/// Reports the comment through ``onPost``; whoever listens decides what posting means and reports
/// failure back with ``showError(_:)``. Reused unchanged wherever a photo needs a caption.
@MainActor
public final class CommentPage: Page {
    /// Called with the comment (trimmed of surrounding blank lines and spaces) when the user posts.
    public var onPost: (@MainActor (String) -> Void)?

    /// The photo being commented on.
    public let photo: Photo
    /// The comment field.
    public let commentView = TextView()
    /// The Post button (end of the bar, suggested-action).
    public let postButton: Button
    /// Shows why the last post failed; hidden until then.
    public let errorLabel = Label()
    /// The photo preview.
    public let preview = Picture()
    /// Says that what is typed is not kept safe (a full disk), and then that it is saved again; hidden
    /// otherwise. An alert for screen readers (AT-SPI `alert`), named with its text.
    public let draftStatusLabel = Label(alert: ())
    /// Under the field, near ``CommentLimit/maximumCharacters``: how many characters are left, or that
    /// what was pasted past the limit was left out; hidden otherwise.
    public let lengthLabel = Label()

    /// Largest preview edge to decode, in pixels.
    static let previewSize = 960

    /// Creates the page for `photo`, with an optional initial `comment` and action label
    /// (default "Post"; e.g. "Save" when editing a caption) and title (default "Add a Comment").
    /// `photoDescription` is what screen readers call the photo (default: its file name; a stored
    /// photo's file name means nothing to the user, so Edit Caption passes the post's caption).
    public init(photo: Photo, comment: String = "", actionLabel: String? = nil, title: String? = nil,
                photoDescription: String? = nil) {
        self.photo = photo
        // Translators: the button that posts the photo with its comment (a verb). Keep it short: in a
        // 360-pixel window the bar also holds Cancel, Back, the page title and Help.
        postButton = Button(label: actionLabel ?? localized("Post"))
        // Translators: the title of the page where the user types the comment for the chosen photo. Keep
        // it short: in a 360-pixel window the bar also holds Cancel, Back, Post and Help.
        super.init(title: title ?? localized("Add a Comment"))
        postButton.addCSSClass("suggested-action")
        // Translators: what a screen reader says for the spinner shown while a post is being written;
        // translate only what follows the "|".
        busySpinner.setAccessibleLabel(localized("spinner|Posting"))
        busySpinner.isSpinning = false
        addEndBarItem(busySpinner)
        addEndBarItem(postButton)

        preview.contentFit = .contain
        preview.canShrink = true
        preview.alternativeText = photoDescription ?? photo.fileName
        preview.expandsVertically = true
        preview.setSizeRequest(width: 160, height: 160)
        preview.setMargins(top: 12, bottom: 6, start: 12, end: 12)

        errorLabel.isVisible = false
        errorLabel.wraps = true
        errorLabel.addCSSClass("error")
        errorLabel.setMargins(top: 0, bottom: 6, start: 12, end: 12)

        draftStatusLabel.isVisible = false
        draftStatusLabel.wraps = true
        draftStatusLabel.xAlign = 0
        draftStatusLabel.setMargins(top: 0, bottom: 6, start: 12, end: 12)

        // Translators: the heading above the field where the user types the comment for a photo (a noun).
        let heading = Label(localized("Comment"))
        heading.xAlign = 0
        heading.addCSSClass("heading")
        heading.setMargins(top: 6, bottom: 4, start: 12, end: 12)
        commentView.setAccessibleLabel(localized("Comment"))
        commentView.addCSSClass("comment-field")
        commentView.maximumCharacters = CommentLimit.maximumCharacters  // before any text: a longer draft is cut too
        commentView.text = comment
        let field = ScrolledWindow(commentView)
        field.setSizeRequest(height: 120)
        field.addCSSClass("comment-frame")
        field.setMargins(top: 0, bottom: 12, start: 12, end: 12)

        content.append(preview)
        content.append(errorLabel)
        content.append(draftStatusLabel)
        content.append(heading)
        content.append(field)
        lengthLabel.xAlign = 1
        lengthLabel.wraps = true
        lengthLabel.addCSSClass("caption")
        lengthLabel.setMargins(top: 0, bottom: 12, start: 12, end: 12)
        content.append(lengthLabel)
        updateLength()

        updatePostButton()
        commentView.onChanged { [weak self] in
            guard let self else { return }
            self.updatePostButton()
            self.updateLength()
            self.onCommentChanged?(self.commentView.text)
        }
        postButton.onClicked { [weak self] in self?.post() }
        let keys = KeyController()
        keys.propagationPhase = .capture
        keys.onKeyPressed { [weak self] keyval, modifiers in
            guard let self, keyval == KeyValue.returnKey || keyval == KeyValue.keypadEnter,
                  modifiers.contains(.control) else { return false }
            self.post()
            return true
        }
        commentView.addController(keys)
        loadPreview()
    }

    public override var initialFocus: Widget? { commentView }

    /// Pushed on a navigation stack, the bar holds Back and Cancel at its start and Post and the
    /// window's Close at its end: in a 360-pixel window the title may lose all but its first letters
    /// ("Add a C…") rather than widen the window.
    public override var minimumTitleCharacters: Int { 7 }

    /// The comment as it will be posted: the text without surrounding whitespace.
    public var comment: String { commentView.text.trimmingWhitespace() }

    /// Called with the whole text after each change of the comment (typing, pasting, deleting); a flow
    /// uses it to keep a draft.
    public var onCommentChanged: (@MainActor (String) -> Void)?

    /// Makes the comment read `text`, with the cursor after it, as typing it would leave the field (a
    /// journey's replay); heard by ``onCommentChanged`` as a change the user made. Nothing when it reads
    /// that already.
    public func type(_ text: String) {
        guard commentView.text != text else { return }
        commentView.text = ""
        commentView.insertAtCursor(text)
    }

    /// Whether the user typed something not yet posted (a flow asks before discarding it).
    public var hasUnsavedInput: Bool { !comment.isEmpty }

    /// Whether the photo could be decoded; Post stays disabled when it could not (e.g. a file picked
    /// with Open File… that is not an image).
    public private(set) var isPhotoReadable = true

    /// Whether the photo has been decoded and shows. Post is enabled only then, so a quick Ctrl+Return
    /// cannot post a file that turns out not to be a photo.
    public private(set) var hasDecodedPhoto = false

    /// Whether a post is in progress: the field and Post are disabled meanwhile.
    public var isBusy = false {
        didSet {
            commentView.isEditable = !isBusy
            busySpinner.isSpinning = isBusy
            updatePostButton()
        }
    }

    /// Spins beside Post while posting (named "Posting" for screen readers).
    public let busySpinner = Spinner()

    /// Shows `message` above the comment (why posting failed); the comment is left as it is.
    public func showError(_ message: String) {
        errorLabel.text = message
        errorLabel.isVisible = true
    }

    /// Shows whether what is typed is kept safe (see ``DraftStatus``): nothing while it is; while it is
    /// not, why, and that Postcard keeps trying; once it is again, that it is. Screen readers find each
    /// change (the label is an alert, shown anew with its text as its name), and hear it where the focus
    /// is (``Widget/announceInWindow(_:)``: Orca 43 speaks no GTK 4 alert).
    public func showDraftStatus(_ status: DraftStatus) {
        let text: String
        switch status {
        case .saved:
            draftStatusLabel.isVisible = false
            return
        case .notSaved(let reason):
            // Translators: shown on the page where a comment is typed when it can't be kept in case
            // Postcard closes; %s is why ("the disk is full").
            text = localized("Your comment isn't saved yet: %s. Postcard keeps trying.", reason)
            Self.setTone(of: draftStatusLabel, error: true)
        case .savedAgain:
            // Translators: shown (and read by screen readers) once a comment that could not be saved is saved.
            text = localized("Your comment is saved again.")
            Self.setTone(of: draftStatusLabel, error: false)
        }
        // Hidden, then shown with its new text: a screen reader speaks an alert when it appears.
        draftStatusLabel.isVisible = false
        draftStatusLabel.text = text
        draftStatusLabel.setAccessibleLabel(text)
        draftStatusLabel.isVisible = true
        draftStatusLabel.announceInWindow(text)
    }

    /// Posts the comment, as **Post** (or Ctrl+Return) does: reported (``onPost``) when Post is possible
    /// (a photo shown and a comment typed, not posting already); nothing otherwise.
    public func post() {
        guard postButton.isSensitive else { return }
        errorLabel.isVisible = false
        onPost?(comment)
    }

    /// Shows how many characters are left once fewer than ``CommentLimit/counterThreshold`` are, as
    /// posting apps do, or that text past the limit was left out.
    private func updateLength() {
        let left = CommentLimit.maximumCharacters - commentView.characterCount
        if commentView.takeWasCut() {
            // Translators: under the comment field when pasted (or resumed) text was longer than the limit;
            // %d is the limit (2200).
            lengthLabel.text = localized("A comment can be up to %d characters: what went past that was left out.",
                                         CommentLimit.maximumCharacters)
            Self.setTone(of: lengthLabel, error: true)
            lengthLabel.isVisible = true
        } else if left <= CommentLimit.counterThreshold {
            // Translators: under the comment field near the limit on a comment's length.
            lengthLabel.text = localizedPlural("%d character left", "%d characters left", count: left, left)
            Self.setTone(of: lengthLabel, error: false)
            lengthLabel.isVisible = true
        } else {
            lengthLabel.isVisible = false
        }
    }

    /// Styles `label` as an error (the theme's error colour) or as a quiet note (dimmed).
    private static func setTone(of label: Label, error: Bool) {
        label.removeCSSClass(error ? "dim-label" : "error")
        label.addCSSClass(error ? "error" : "dim-label")
    }

    private func updatePostButton() {
        postButton.isSensitive = !isBusy && hasDecodedPhoto && !comment.isEmpty
    }

    private func loadPreview() {
        Task { [weak self] in
            guard let self else { return }
            do {
                let scale = self.preview.scaleFactor
                self.preview.texture = try await Texture.load(
                    uri: self.photo.uri, fit: .contain(width: Self.previewSize * scale, height: Self.previewSize * scale))
                self.hasDecodedPhoto = true
                self.updatePostButton()
                appLog.debug("Add a Comment: the photo is shown")
            } catch {
                self.isPhotoReadable = false
                self.updatePostButton()
                // Translators: %s is why the photo can't be opened.
                self.showError(localized("This photo can't be opened, so it can't be posted (%s). Go back and choose another.", "\(error)"))
            }
        }
    }
}
