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
    /// Takes a step of the photo flow as its page would have reported it (a journey's replay); returns
    /// whether it was taken. The default takes none.
    func perform(_ step: PhotoFlowStep) -> Bool
    /// Chooses whom a message goes to, by their id (the message flow); returns whether it was taken. The
    /// default takes none.
    func chooseRecipient(id: String) -> Bool
}

extension RunningFlow {
    /// Takes no step.
    public func perform(_ step: PhotoFlowStep) -> Bool { false }
    /// Chooses no one.
    public func chooseRecipient(id: String) -> Bool { false }
}

extension CommentedPhotoFlow: RunningFlow {}
extension SendPhotoMessageFlow: RunningFlow {}
extension AddFriendFlow: RunningFlow {}
extension EditCaptionFlow: RunningFlow {
    /// Edit Caption is pushed, never presented: nil.
    public var dialog: ModalDialog? { nil }
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
            Memory.returnFreedMemory(after: .seconds(1))  // the flow's pictures and pages are freed by then
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
