import Gtk
import NavigationGtk

/// **Comments**: the replies under a post — each a photo with a comment, oldest first — and
/// **Reply with Photo**. Shows what it is given and reports the request; it posts nothing itself.
@MainActor
public final class CommentThreadPage: Page {
    /// The post the thread belongs to.
    public let post: Post
    /// "Reply with Photo" (end of the bar).
    public let replyButton = Button(label: "Reply with Photo")
    /// The replies' rows, oldest first.
    public private(set) var replyRows: [ReplyRow] = []
    /// Shown when there are no replies or they could not be read.
    public let statusLabel = Label()
    /// Called when the user asks to reply.
    public var onReply: (@MainActor () -> Void)?

    private let list = Box(.vertical, spacing: 12)

    /// Creates the thread of `post`.
    public init(post: Post) {
        self.post = post
        super.init(title: "Comments", subtitle: post.comment)
        replyButton.addCSSClass("suggested-action")
        addEndBarItem(replyButton)
        statusLabel.addCSSClass("dim-label")
        statusLabel.wraps = true
        let column = Box(.vertical, spacing: 12)
        column.setMargins(top: 12, bottom: 18, start: 18, end: 18)
        column.append(statusLabel)
        column.append(list)
        let scroller = ScrolledWindow(column)
        scroller.expandsVertically = true
        content.append(scroller)
        replyButton.onClicked { [weak self] in self?.onReply?() }
        showReplies([])
    }

    public override var initialFocus: Widget? { replyButton }

    /// Replaces the shown replies (oldest first).
    public func showReplies(_ replies: [Reply]) {
        list.removeAll()
        replyRows = replies.map(ReplyRow.init)
        for row in replyRows { list.append(row.view) }
        statusLabel.text = "No replies yet. Reply with a photo and a comment."
        statusLabel.isVisible = replies.isEmpty
        subtitle = replies.isEmpty ? post.comment : (replies.count == 1 ? "1 reply" : "\(replies.count) replies")
    }

    /// Shows why the replies could not be read.
    public func showError(_ message: String) {
        statusLabel.text = message
        statusLabel.isVisible = true
    }
}

/// One reply: a small photo beside its comment and time.
@MainActor
public final class ReplyRow {
    /// The reply shown.
    public let reply: Reply
    /// The row's widgets.
    public let view = Box(.horizontal, spacing: 12)
    /// The comment.
    public let commentLabel: Label
    private let picture = Picture()

    init(reply: Reply) {
        self.reply = reply
        commentLabel = Label(reply.comment)
        commentLabel.wraps = true
        commentLabel.xAlign = 0
        picture.setSizeRequest(width: 96, height: 96)
        picture.alternativeText = reply.comment
        let when = Label("Replied " + AppController.timeText(reply.createdAt))
        when.xAlign = 0
        when.addCSSClass("dim-label")
        when.addCSSClass("caption")
        let text = Box(.vertical, spacing: 4)
        text.expandsHorizontally = true
        text.append(commentLabel)
        text.append(when)
        view.addCSSClass("feed-item")
        view.append(picture)
        view.append(text)
        let path = reply.photoPath
        Task { [weak self] in
            self?.picture.texture = try? await Texture.loadThumbnail(path: path, size: 96)
        }
    }
}
