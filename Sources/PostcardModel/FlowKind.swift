/// Which of the app's flows started, and how the user started it: what a journey's `start` step names
/// (its raw value), and how logs and observers name it.
public enum FlowKind: String, CaseIterable, Equatable, Sendable {
    /// **New Post** on My Profile, or **Post to Their Profile** on a friend's profile (the photo flow,
    /// modal, on Choose a Photo).
    case newPost = "new-post"
    /// **Quick Snap** on a profile's bar: the photo flow on the Camera page.
    case quickSnap = "quick-snap"
    /// New Post on Add a Comment with a photo given from outside (`postcard photo.jpg`, Open With).
    case newPostWithPhoto = "new-post-with-photo"
    /// **Reply with Photo** on a post's comments: the photo flow pushed onto the main stack.
    case replyWithPhoto = "reply-with-photo"
    /// **New Message** on Messages: Choose Recipient, then the photo flow.
    case newMessage = "new-message"
    /// **Edit Caption** on one's own post, pushed.
    case editCaption = "edit-caption"
    /// **Add Friend…** on My Profile (or a stranger's code), modal.
    case addFriend = "add-friend"
    /// **Resume** of an unfinished post, reply, message or caption offered on My Profile.
    case resumeDraft = "resume-draft"

    /// The flow's name, for logs: "New Post", "Reply with Photo", "New Message", "Edit Caption",
    /// "Add Friend".
    public var name: String {
        switch self {
        case .newPost, .quickSnap, .newPostWithPhoto: "New Post"
        case .replyWithPhoto: "Reply with Photo"
        case .newMessage: "New Message"
        case .editCaption: "Edit Caption"
        case .addFriend: "Add Friend"
        case .resumeDraft: "Resume"
        }
    }
}
