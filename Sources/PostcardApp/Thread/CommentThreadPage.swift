import Gtk
import NavigationGtk

/// **Comments**: the replies under a post — each a photo with a comment, oldest first — and
/// **Reply with Photo**. Shows what it is given and reports the request; it posts nothing itself.
@MainActor
public final class CommentThreadPage: ListPage {
    /// The post the thread belongs to.
    public let post: Post
    /// The replies' rows, oldest first.
    public private(set) var replyRows: [ReplyRow] = []
    /// Called when the user asks to reply.
    public var onReply: (@MainActor () -> Void)?

    /// "Reply with Photo" (end of the bar).
    public var replyButton: Button { actionButton }

    /// Creates the thread of `post`.
    public init(post: Post) {
        self.post = post
        super.init(title: "Comments", subtitle: "No replies", actionLabel: "Reply with Photo")
        replyButton.onClicked { [weak self] in self?.onReply?() }
        showReplies([])
    }

    /// Replaces the shown replies (oldest first).
    public func showReplies(_ replies: [Reply]) {
        replyRows = replies.map(ReplyRow.init)
        showCards(replyRows.map(\.view), emptyText: "No replies yet. Reply with a photo and a comment.")
        subtitle = replies.isEmpty ? "No replies" : (replies.count == 1 ? "1 reply" : "\(replies.count) replies")
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
        picture.contentFit = .cover
        picture.canShrink = true
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
            self?.picture.texture = try? await Texture.load(uri: Files.uri(forPath: path),
                                                            fit: .cover(width: 96, height: 96))
        }
    }
}
