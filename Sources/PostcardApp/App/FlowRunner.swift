import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel

/// A flow the app runs (the photo flow, the message flow, Edit Caption), as the app's coordinators see
/// it: its dialog when it is presented modally.
@MainActor
public protocol RunningFlow: AnyObject {
    /// The flow's dialog while it runs modally; nil when it is pushed.
    var dialog: ModalDialog? { get }
}

extension CommentedPhotoFlow: RunningFlow {}
extension SendPhotoMessageFlow: RunningFlow {}
extension AddFriendFlow: RunningFlow {}
extension EditCaptionFlow: RunningFlow {
    /// Edit Caption is pushed, never presented: nil.
    public var dialog: ModalDialog? { nil }
}

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

/// A flow that has started: what ``AppController/onFlowStarted`` is told.
@MainActor
public struct StartedFlow {
    /// Which flow, and how it was started.
    public let kind: FlowKind
    /// The flow's name: "New Post", "Reply with Photo", "New Message", "Edit Caption" or "Add Friend".
    public var name: String { kind.name }
    /// The flow object (tests keep a weak reference to see that it is freed after it ends).
    public let flow: RunningFlow
}

/// How one of the app's flows ended, with what it stored (for observers such as tests and tools).
public enum FlowOutcome: Equatable, Sendable {
    /// A post from a profile (mine or a friend's): the stored post, or canceled.
    case post(CommentedPhotoFlow<Post>.Result)
    /// A reply in a comment thread: the stored reply, or canceled.
    case reply(CommentedPhotoFlow<Reply>.Result)
    /// A private message: the stored message, or canceled.
    case message(SendPhotoMessageFlow<Message>.Result)
    /// Edit Caption: the post with its new caption, or canceled.
    case caption(EditCaptionFlow<Post>.Result)
    /// Add Friend: the friend stored, or canceled.
    case friend(AddFriendFlow.Result)
}

/// The one flow the app runs at a time: the coordinators start their flows here, so a click on a
/// second flow's button while one runs does nothing, and each start is followed by exactly one end,
/// reported to the app's observers. Main actor only.
@MainActor
final class FlowRunner {
    /// The tasks the flows run in: the app's, closed and waited for at quit.
    private let tasks: OwnedTasks
    /// The running flow's task, if any.
    private(set) var task: Task<Void, Never>?
    /// The running flow, if any.
    private(set) var current: StartedFlow?
    /// Whether a flow may start now (the main window is still there).
    var mayStart: () -> Bool = { true }
    /// Told when a flow starts.
    var onStarted: ((StartedFlow) -> Void)?
    /// Told when a flow has ended and its result was handled.
    var onEnded: ((FlowOutcome) -> Void)?
    /// Run after each flow ends (a waiting link opens).
    var afterEach: (() -> Void)?

    /// A runner whose flows run as tasks of `tasks`.
    init(tasks: OwnedTasks) { self.tasks = tasks }

    /// Ends the running flow, if any, as canceled (its task is cancelled: every flow ends on that), also
    /// one whose dialog was not yet shown or is no longer over the main window.
    func cancelRunning() { task?.cancel() }

    /// Starts `flow` as `kind` unless one runs already: `body` runs it, handles its result and returns
    /// the outcome to report.
    func start<Flow: RunningFlow>(_ kind: FlowKind, _ flow: Flow, _ body: @escaping @MainActor (Flow) async -> FlowOutcome) {
        guard task == nil, !tasks.isClosed, mayStart() else { return }
        appLog.debug("Flow started: \(kind.name)")
        let started = StartedFlow(kind: kind, flow: flow)
        current = started
        onStarted?(started)
        // Started at once, in the click: the flow's first page is shown (its dialog presented, or pushed)
        // before the click's handler returns, so nothing that comes after the click, not even the window
        // going away in the same frame, finds a flow that has started but shows nothing.
        starts += 1
        let start = starts
        let running = tasks.start(immediately: true) {
            let outcome = await body(flow)
            appLog.debug("Flow ended: \(outcome)")
            self.onEnded?(outcome)
            Memory.returnFreedMemory(after: 1)  // the flow's pictures and pages are freed by then
            self.current = nil
            self.task = nil
            self.ended = start
            self.afterEach?()
        }
        if ended != start { task = running }  // else it ended already, in the click
    }

    /// How many flows have started, and which of them ended last.
    private var starts = 0
    private var ended = 0
}
