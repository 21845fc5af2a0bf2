import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel

/// Sending a photo as a private message: **Choose Recipient**, then the whole ``CommentedPhotoFlow``
/// as a step (pushed onto this flow's dialog) — one flow running another.
///
/// Returns `.sent` with what `send` stored (`Output`, the stored ``Message`` in the app) or `.canceled`,
/// exactly once. The dialog's one Cancel
/// belongs to this flow: it asks "Discard this message?" if the inner step has a typed comment, then
/// cancels the step and itself. Back past the step's first page returns to Choose Recipient (the step
/// ends as canceled; this flow goes on).
///
/// Main actor only.
@MainActor
public final class SendPhotoMessageFlow<Output: Sendable> {
    /// How the flow ended.
    public enum Result: Sendable {
        /// The message was sent: what `send` stored.
        case sent(Output)
        /// The user left without sending.
        case canceled
    }

    /// The caller's sending action (store the message to the person chosen) and what it stored;
    /// throwing keeps the step open with the error.
    public typealias Send = @MainActor (Person, Photo, String) async throws -> Output

    private let library: PhotoLibrary
    private let camera: CameraSettings?
    private let send: Send
    private let drafts: ((Person) -> CommentDrafts)?
    private let recipients: [Person]
    private let completion = FlowCompletion<Result>()
    private var host: FlowHost?
    private var step: CommentedPhotoFlow<Output>?
    private var stepTask: Task<Void, Never>?
    private let discardQuestion = SendPhotoMessageFlow.messageDiscardQuestion()
    private let events = Observers<MessageFlowEvent>()
    private var stepEvents: ObservationToken?

    /// Calls `handler` with each ``MessageFlowEvent`` from now on, after the flow has acted on it, until
    /// the token goes (for observers such as a journey recorder).
    public func observeEvents(_ handler: @escaping @MainActor (MessageFlowEvent) -> Void) -> ObservationToken {
        events.add(handler)
    }

    /// Creates the flow (not yet shown) offering `recipients`; with `camera`, Choose a Photo offers Take
    /// Photo. `drafts` says where the comment for each recipient is kept (see ``CommentDrafts``).
    public init(recipients: [Person], library: PhotoLibrary, camera: CameraSettings? = nil,
                drafts: ((Person) -> CommentDrafts)? = nil, send: @escaping Send) {
        self.recipients = recipients
        self.library = library
        self.camera = camera
        self.drafts = drafts
        self.send = send
    }

    /// The flow's dialog while it runs.
    public var dialog: ModalDialog? { host?.dialog }

    /// Shows the flow modally from `page` and waits for its result. `resuming` opens at once on Add a
    /// Comment for that recipient with that photo and comment (a draft from an earlier run), above
    /// Choose Recipient. Call once per instance; later calls return the first result.
    public func run(from page: Page, resuming: (recipient: Person, photo: Photo, comment: String)? = nil) async -> Result {
        if host == nil && !completion.isResolved {
            start(from: page)
            if let resuming, let recipients = host?.stack.pages.first {
                runStep(for: resuming.recipient, from: recipients,
                        start: .addComment(resuming.photo, comment: resuming.comment))
            }
        }
        return await completion.value(onCancel: { [weak self] in self?.finish(.canceled) })
    }

    /// Chooses the friend with `id` on Choose Recipient, as their button does (a journey's replay): on to
    /// the photo step.
    /// - Returns: whether the photo step shows now (false when Choose Recipient is not showing, or no
    ///   such friend is offered).
    @discardableResult
    public func chooseRecipient(id: String) -> Bool {
        guard let host, step == nil, let page = host.stack.visiblePage as? ChooseRecipientPage,
              let person = recipients.first(where: { $0.id == id }), runStep(for: person, from: page) else { return false }
        events.notify(.recipientChosen(person))
        return true
    }

    /// Takes `step` as the page showing would have reported it (a journey's replay): Cancel and the answer
    /// to the flow's own discard question here, the rest in the photo step
    /// (``CommentedPhotoFlow/perform(_:)``).
    /// - Returns: whether it was taken.
    @discardableResult
    public func perform(_ step: PhotoFlowStep) -> Bool {
        guard host != nil, !completion.isResolved else { return false }
        switch step {
        case .cancel:
            requestCancel(.user)
            return true
        case .answerDiscard(let answer) where discardQuestion.isAsking:
            return discardQuestion.answer(answer)
        default:
            return self.step?.perform(step) ?? false
        }
    }

    private func start(from anchor: Page) {
        let recipients = ChooseRecipientPage(people: self.recipients)
        recipients.onRecipientChosen = { [weak self, weak recipients] person in
            guard let self, let recipients, self.runStep(for: person, from: recipients) else { return }
            self.events.notify(.recipientChosen(person))
        }
        let host = FlowHost(from: anchor, presentation: .modal, first: recipients)
        host.onCancelRequest = { [weak self] reason in self?.requestCancel(reason) }
        self.host = host
    }

    /// - Returns: whether the step started.
    /// "Discard this message?", asked before throwing away a message's typed words.
    static func messageDiscardQuestion() -> DiscardPostQuestion {
        // Translators: asked before throwing away a private message being written (Keep Editing / Discard).
        DiscardPostQuestion(heading: localized("Discard this message?"), body: localized("The message you typed will be lost."))
    }

    @discardableResult
    private func runStep(for person: Person, from page: Page, start: PhotoFlowStart = .choosePhoto) -> Bool {
        guard step == nil, !completion.isResolved else { return false }
        let send = self.send
        let step = CommentedPhotoFlow<Output>(library: library, presentation: .pushed, camera: camera, start: start,
                                              drafts: drafts?(person)) { photo, comment in
            try await send(person, photo, comment)
        }
        step.asksBeforeDiscarding(Self.messageDiscardQuestion())
        self.step = step
        // The step's own leaving is Back to Choose Recipient (its Cancel is the flow's, heard below).
        stepEvents = step.observeEvents { [weak self] event in
            self?.events.notify(.photoStep(event == .cancelRequested ? .wentBack : event))
        }
        stepTask = Task { [weak self] in
            let result = await step.run(from: page)
            guard let self else { return }
            self.step = nil
            self.stepTask = nil
            if case .posted(let sent) = result {
                self.finish(.sent(sent))
            }
            // .canceled: Back past the step's first page (stay on Choose Recipient), or we ended it.
        }
        return true
    }

    private func requestCancel(_ reason: FlowHost.CancelReason) {
        guard !completion.isResolved else { return }
        guard !discardQuestion.isAsking else { return }
        if reason == .user { events.notify(.cancelRequested) }
        if reason != .user || !(step?.hasUnsavedInput ?? false) {
            finish(.canceled)
            return
        }
        discardQuestion.ask(over: host?.stack.view) { [weak self] answer in
            if answer == .discard { self?.finish(.canceled) }
            self?.events.notify(.discardAnswered(answer))
        }
        events.notify(.discardQuestionAsked)
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

extension SendPhotoMessageFlow.Result: Equatable where Output: Equatable {}

/// What happened in New Message (``SendPhotoMessageFlow``), delivered after the flow acted on it.
public enum MessageFlowEvent: Equatable, Sendable {
    /// Choose Recipient reported a person; the photo step was pushed.
    case recipientChosen(Person)
    /// Something happened in the photo step (Back past its first page is ``PhotoFlowEvent/wentBack``:
    /// it returns to Choose Recipient).
    case photoStep(PhotoFlowEvent)
    /// The user asked to leave the flow (Cancel, Escape on Choose Recipient, closing its dialog).
    case cancelRequested
    /// "Discard this message?" is showing.
    case discardQuestionAsked
    /// The discard question was answered: **Discard** or **Keep Editing**.
    case discardAnswered(DiscardAnswer)
}
