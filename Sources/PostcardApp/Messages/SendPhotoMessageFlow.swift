import Gtk
import Navigation
import NavigationGtk
import PhotoPosting

/// Sending a photo as a private message: **Choose Recipient**, then the whole ``CommentedPhotoFlow``
/// as a step (pushed onto this flow's dialog) — one flow running another.
///
/// Returns `.sent(recipient, photo, comment)` or `.canceled`, exactly once. The dialog's one Cancel
/// belongs to this flow: it asks "Discard this post?" if the inner step has a typed comment, then
/// cancels the step and itself. Back past the step's first page returns to Choose Recipient (the step
/// ends as canceled; this flow goes on).
///
/// Main actor only.
@MainActor
public final class SendPhotoMessageFlow {
    /// How the flow ended.
    public enum Result: Equatable, Sendable {
        /// The message was sent (stored) to `recipient`.
        case sent(Person, Photo, comment: String)
        /// The user left without sending.
        case canceled
    }

    /// The caller's sending action (store the message); throwing keeps the step open with the error.
    public typealias Send = @MainActor (Person, Photo, String) async throws -> Void

    private let library: PhotoLibrary
    private let camera: CameraSettings?
    private let send: Send
    private let drafts: ((Person) -> CommentedPhotoFlow.Drafts)?
    private let completion = FlowCompletion<Result>()
    private var host: FlowHost?
    private var step: CommentedPhotoFlow?
    private var stepTask: Task<Void, Never>?
    private let discardQuestion = DiscardPostQuestion()

    /// Observes every flow object's lifetime (diagnostics for tests). Nil by default.
    nonisolated(unsafe) public static var lifetimeObserver: (@Sendable (_ alive: Bool) -> Void)?

    /// The running flow's dialog (for tests and the review tour), while open.
    public private(set) static weak var current: ModalDialog?

    private init(library: PhotoLibrary, camera: CameraSettings?, drafts: ((Person) -> CommentedPhotoFlow.Drafts)?,
                 send: @escaping Send) {
        self.library = library
        self.camera = camera
        self.drafts = drafts
        self.send = send
        Self.lifetimeObserver?(true)
    }

    deinit { Self.lifetimeObserver?(false) }

    /// Runs the flow modally from `page` and waits for its result; with `camera`, Choose a Photo offers
    /// Take Photo. `drafts` says where the comment for each recipient is kept (see
    /// ``CommentedPhotoFlow/Drafts``); `resuming` opens at once on Add a Comment for that recipient with
    /// that photo and comment (a draft from an earlier run), above Choose Recipient.
    public static func run(from page: Page, library: PhotoLibrary, camera: CameraSettings? = nil,
                           drafts: ((Person) -> CommentedPhotoFlow.Drafts)? = nil,
                           resuming: (recipient: Person, photo: Photo, comment: String)? = nil,
                           send: @escaping Send) async -> Result {
        let flow = SendPhotoMessageFlow(library: library, camera: camera, drafts: drafts, send: send)
        flow.start(from: page)
        if let resuming, let recipients = flow.host?.stack.pages.first {
            flow.runStep(for: resuming.recipient, from: recipients,
                         start: .addComment(resuming.photo, comment: resuming.comment))
        }
        return await flow.completion.value(onCancel: { [weak flow] in flow?.finish(.canceled) })
    }

    private func start(from anchor: Page) {
        let recipients = ChooseRecipientPage()
        recipients.onRecipientChosen = { [weak self, weak recipients] person in
            guard let self, let recipients else { return }
            self.runStep(for: person, from: recipients)
        }
        let host = FlowHost(from: anchor, presentation: .modal, first: recipients)
        host.onCancelRequest = { [weak self] reason in self?.requestCancel(reason) }
        self.host = host
        Self.current = host.dialog
    }

    private func runStep(for person: Person, from page: Page, start: CommentedPhotoFlow.Start = .choosePhoto) {
        guard step == nil, !completion.isResolved else { return }
        let send = self.send
        let step = CommentedPhotoFlow(library: library, presentation: .pushed, camera: camera, start: start,
                                      drafts: drafts?(person)) { photo, comment in
            try await send(person, photo, comment)
        }
        self.step = step
        stepTask = Task { [weak self] in
            let result = await step.run(from: page)
            guard let self else { return }
            self.step = nil
            self.stepTask = nil
            if case .posted(let photo, let comment) = result {
                self.finish(.sent(person, photo, comment: comment))
            }
            // .canceled: Back past the step's first page (stay on Choose Recipient), or we ended it.
        }
    }

    private func requestCancel(_ reason: FlowHost.CancelReason) {
        guard !completion.isResolved else { return }
        if reason != .user || !(step?.hasUnsavedInput ?? false) {
            finish(.canceled)
            return
        }
        discardQuestion.ask(over: host?.stack.view) { [weak self] in self?.finish(.canceled) }
    }

    private func finish(_ result: Result) {
        guard completion.resolve(result) else { return }
        discardQuestion.withdraw()
        step?.cancel()
        step = nil
        host?.end()
        host = nil
    }
}
