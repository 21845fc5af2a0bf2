import Adwaita
import Gtk
import NavigationGtk
import PostcardModel

/// **Comments**: the replies under a post — each a photo with a comment, oldest first, in a recycled
/// list read a page at a time — and **Reply with Photo**. Shows what it is given and reports the
/// request; it posts nothing itself.
@MainActor
public final class CommentThreadPage: ListPage {
    /// The post the thread belongs to.
    public let post: Post
    /// The replies' rows that exist now (on screen and near it), oldest first.
    public var replyRows: [ReplyRow] { list.factory.boundCells.map(\.cell) }
    /// The replies read so far, oldest first.
    public var replies: [Reply] { list.rows }
    /// Called when the user asks to reply.
    public var onReply: (@MainActor () -> Void)?
    /// Called with the URI of a link the user activated in a reply.
    public var onOpenLink: (@MainActor (String) -> Void)?
    /// Called with the reply whose Delete the user pressed.
    public var onDelete: (@MainActor (Reply) -> Void)? {
        didSet { deleteRelay.delete = onDelete }
    }

    /// "Reply with Photo" (end of the bar).
    public var replyButton: Button { actionButton }

    private let linkRelay: LinkRelay
    private let deleteRelay = ReplyDeleteRelay()
    private let list: PagedListView<Reply, ReplyRow>
    private var total = 0

    /// Creates the thread of `post`.
    public init(post: Post) {
        self.post = post
        let linkRelay = LinkRelay()
        self.linkRelay = linkRelay
        let deleteRelay = self.deleteRelay
        list = PagedListView<Reply, ReplyRow>(
            makeCell: {
                let row = ReplyRow(deleteRelay: deleteRelay)
                linkRelay.relay(row.commentLabel)
                return row
            },
            bindRow: { row, reply, binding in row.bind(reply, binding: binding) },
            unbind: { $0.unbind() })
        // Translators: the title of a post's comment thread (its replies, each a photo with a comment).
        super.init(title: localized("Comments"), subtitle: localized("No replies"), actionLabel: localized("Reply with Photo"),
                   list: list.view)
        subject = post.id
        list.readMoreWhenScrolled()
        // Translators: what a screen reader calls the list of a post's replies.
        list.view.setAccessibleLabel(localized("Replies"))  // nameless, Orca 43 said "GtkListView"
        linkRelay.onOpenLink = { [weak self] uri in self?.onOpenLink?(uri) }
        // Translators: Reply with Photo shortened, shown in a bar too narrow for the whole title otherwise.
        replyButton.compactLabel = localized("Reply")
        replyButton.onClicked { [weak self] in self?.onReply?() }
        list.onLoadError = { [weak self] error in self?.showError(localized("Can't load more replies: %s", "\(error)")) }
        update(total: 0)
    }

    /// Shows the replies `source` reads (oldest first); `total` is how many there are in all.
    public func showReplies(_ source: PagedRows<Reply>, total: Int) {
        do {
            try list.show(source)
            update(total: total)
        } catch {
            showError(localized("Can't load replies: %s", "\(error)"))
        }
    }

    /// Adds `reply` at the end of the thread, in place.
    public func appendReply(_ reply: Reply) {
        guard list.insert(reply, at: list.rows.count) else { return }  // shown already
        update(total: total + 1)
    }

    private func update(total: Int) {
        self.total = total
        showEmptyText(localized("No replies yet. Reply with a photo and a comment."), isEmpty: total == 0)
        subtitle = total == 0 ? localized("No replies") : localizedPlural("%d reply", "%d replies", count: total, total)
    }
}

/// Passes a row's Delete to the page (rows must not hold the page).
@MainActor
final class ReplyDeleteRelay {
    var delete: (@MainActor (Reply) -> Void)?
}

/// One reply: a small photo beside its comment and time. Made once per row, bound reply after reply.
@MainActor
public final class ReplyRow: ListCell {
    /// The reply shown (nil while unbound).
    public private(set) var reply: Reply?
    /// The row's widgets.
    public let view = Box(.horizontal, spacing: 12)
    public let root: Widget
    /// The comment.
    public let commentLabel = Label()
    private let when = Label()
    private let frame = SizedPicture(width: 96, height: 96)
    private var load: Task<Void, Never>?
    /// Deletes the reply (with Undo for a few seconds); shown on the user's own replies.
    // Translators: an icon button on a reply in a comment thread (its tooltip and what a screen reader
    // says): deletes that reply.
    public let deleteButton = Button(iconName: "user-trash-symbolic", accessibleLabel: localized("Delete Reply"))

    init(deleteRelay: ReplyDeleteRelay) {
        commentLabel.wraps = true
        commentLabel.xAlign = 0
        frame.picture.contentFit = .cover
        frame.addCSSClass("thumbnail")
        when.xAlign = 0
        when.wraps = true  // "Replied 1 Dec 2026, 09:41" at Large Text is wider than a 360-pixel window's row
        when.addCSSClass("dim-label")
        when.addCSSClass("caption")
        let text = Box(.vertical, spacing: 4)
        text.expandsHorizontally = true
        text.append(commentLabel)
        text.append(when)
        root = Clamp(view, maximumWidth: ListPage.cardColumnWidth)
        view.addCSSClass("feed-item")
        view.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        deleteButton.verticalAlignment = .center
        deleteButton.addCSSClass("flat")
        deleteButton.onClicked { [weak self, weak deleteRelay] in
            guard let reply = self?.reply else { return }
            deleteRelay?.delete?(reply)
        }
        view.append(frame)
        view.append(text)
        view.append(deleteButton)
    }

    func bind(_ reply: Reply, binding: ListItemBinding) {
        self.reply = reply
        deleteButton.isVisible = reply.author == Identity.localID
        let comment = CommentLimit.shown(reply.comment)
        commentLabel.showText(withLinks: comment)
        // Translators: when a reply was posted; %s is a date and time, e.g. "7 Aug 2026, 14:05".
        when.text = localized("Replied %s", TimeText.dateAndTime(reply.createdAt))
        frame.picture.alternativeText = comment
        binding.setAccessibleLabel(comment)
        let uri = reply.photoPath.uri, scale = view.scaleFactor
        load = Task { [weak self] in
            let texture = try? await Texture.load(uri: uri, fit: .cover(width: 96 * scale, height: 96 * scale))
            guard !Task.isCancelled, let self, self.reply == reply else { return }
            self.frame.picture.texture = texture
        }
    }

    func unbind() {
        load?.cancel()
        load = nil
        reply = nil
        frame.picture.texture = nil
    }
}
