import Gtk
import Navigation
import NavigationGtk
import PostcardModel

/// The reusable "post a photo with a comment" flow: **Choose a Photo** (or **Take Photo** → **Camera**)
/// → **Add a Comment** → Post.
///
/// One object owns the whole run: it creates each page when needed, holds what has been gathered (the
/// chosen photo, the comment typed so far — kept when the user goes back to choose another photo), owns
/// the one **Cancel**, and returns a typed ``Result`` to whoever started it, carrying what its
/// `submit` stored (`Output`):
///
/// ```swift
/// switch await CommentedPhotoFlow.run(from: self, library: library) { photo, comment in
///     try await store.add(photo: photo, comment: comment, author: me, profile: me)  // returns a Post
/// } {
/// case .posted(let post): feed.insert(post)
/// case .canceled: break
/// }
/// ```
///
/// Whether it presents itself modally or pushes onto the caller's navigation stack is the one
/// `presentation` argument (see ``FlowHost``); nothing else in the caller changes. It can also run as
/// a step of a larger flow (pushed onto that flow's dialog): keep the instance to ask
/// ``hasUnsavedInput`` and to ``cancel()`` it.
///
/// With ``CameraSettings``, Choose a Photo offers **Take Photo**, which pushes the ``CameraPage``; a
/// photo taken there goes on to Add a Comment, and the camera's **Choose a Photo Instead** goes back.
/// Started with ``PhotoFlowStart/camera(title:)`` (Quick Snap), the flow opens on the Camera page instead,
/// presented alone with its own bar and **Close**, and Add a Comment is pushed in the same dialog.
///
/// The pages know nothing of the flow: the picker reports "photo chosen", the camera "photo taken",
/// the comment page "post this comment"; the flow decides what comes next. `submit` is the caller's own action (store the post,
/// send a message); while it runs, Post and Cancel are disabled, and if it throws, its message is
/// shown on the comment page, the flow stays open and the comment is kept.
///
/// **Exactly once.** The result is delivered once, whatever ends the flow: Post, Cancel, Escape on the
/// first page, the window manager closing the dialog, the dialog or window being destroyed (app quit),
/// Back past the first pushed page, ``cancel()``, or the caller's task being cancelled. Leaving by the
/// user's own choice after typing a comment asks once, "Discard this post?" (**Keep Editing** /
/// **Discard**); the paths that cannot wait (destroyed, task cancelled) don't ask.
///
/// Main actor only.
@MainActor
public final class CommentedPhotoFlow<Output: Sendable> {
    /// How the flow ended.
    public enum Result: Sendable {
        /// The user posted, and `submit` succeeded with what it stored (for a flow made without
        /// `submit`, the photo and comment themselves, a ``CommentedPhoto``).
        case posted(Output)
        /// The user left without posting.
        case canceled
    }

    /// The caller's posting action: stores the photo with the comment and returns what was stored
    /// (the flow's ``Result/posted(_:)``); throwing keeps the flow open with the error shown.
    public typealias Submit = @MainActor (Photo, String) async throws -> Output

    private let library: PhotoLibrary
    private let camera: CameraSettings?
    private let startPage: PhotoFlowStart
    private let help: FlowHelp?
    private let presentation: Presentation
    private let submit: Submit
    let completion = FlowCompletion<Result>()
    var host: FlowHost?
    var picker: PhotoPickerPage?
    weak var cameraPage: CameraPage?
    weak var commentPage: CommentPage?
    private var draft = ""
    private var isSubmitting = false
    private var endWhenSubmitEnds = false
    private(set) var discardQuestion = DiscardPostQuestion()
    private let drafts: CommentDrafts?
    let events = Observers<PhotoFlowEvent>()

    /// Calls `handler` with each ``PhotoFlowEvent`` from now on, after the flow has acted on it (the
    /// comment page is pushed before ``PhotoFlowEvent/photoChosen(_:)`` is heard), until the token goes.
    /// For observers such as a journey recorder; the flow's result is still its ``Result``.
    public func observeEvents(_ handler: @escaping @MainActor (PhotoFlowEvent) -> Void) -> ObservationToken {
        events.add(handler)
    }

    /// Asks `question` (instead of "Discard this post?") before throwing away a typed comment: a caller that
    /// sends a message or a reply names what it sends. Call before the flow runs.
    public func asksBeforeDiscarding(_ question: DiscardPostQuestion) {
        discardQuestion = question
    }

    /// The stack the flow's pages are on while it runs.
    public var stack: NavigationStack? { host?.stack }

    /// The flow's dialog while it runs modally.
    public var dialog: ModalDialog? { host?.dialog }

    /// The flow's own **Cancel** while it runs pushed onto a stack that has none (a reply's), else nil
    /// (modally, the dialog's ``ModalDialog/cancelButton`` is the flow's Cancel).
    public var ownCancelButton: Button? { host?.ownCancelButton }

    /// Creates a flow (not yet shown).
    /// - Parameters:
    ///   - library: the photos offered on Choose a Photo.
    ///   - presentation: `.modal` (own dialog) or `.pushed` (onto the starting page's stack).
    ///   - camera: where photos are taken from and written to; nil offers no Take Photo.
    ///   - start: the first page (default Choose a Photo).
    ///   - help: shows help; modally, the dialog's bar gets **Help** (at its end) and F1 runs it.
    ///   - submit: what posting does; runs before the flow closes, and what it returns is the result
    ///     (see ``Submit``).
    ///   - drafts: where the typed comment is kept until it is posted or discarded (see ``CommentDrafts``).
    public init(library: PhotoLibrary, presentation: Presentation = .modal, camera: CameraSettings? = nil,
                start: PhotoFlowStart = .choosePhoto, help: FlowHelp? = nil, drafts: CommentDrafts? = nil,
                submit: @escaping Submit) {
        self.library = library
        self.drafts = drafts
        if case .addComment(_, let comment) = start { draft = comment }
        self.presentation = presentation
        self.camera = camera
        self.help = help
        if case .camera = start, camera == nil { self.startPage = .choosePhoto } else { self.startPage = start }
        self.submit = submit
        // Whether the comment is kept safe is said on the page where it is typed.
        drafts?.onStatusChanged = { [weak self] status in self?.commentPage?.showDraftStatus(status) }
    }

    /// Runs a new flow from `page` and waits for its result (see the type's docs).
    /// - Returns: `.posted` with what `submit` returned, or `.canceled`, exactly once.
    public static func run(
        from page: Page, presentation: Presentation = .modal, library: PhotoLibrary, camera: CameraSettings? = nil,
        start: PhotoFlowStart = .choosePhoto, help: FlowHelp? = nil, drafts: CommentDrafts? = nil, submit: @escaping Submit
    ) async -> Result {
        let flow = CommentedPhotoFlow(library: library, presentation: presentation, camera: camera, start: start,
                                      help: help, drafts: drafts, submit: submit)
        return await flow.run(from: page)
    }

    /// Shows the flow from `page` and waits for its result. Call once per instance; later calls return
    /// the first result.
    public func run(from page: Page) async -> Result {
        if host == nil && !completion.isResolved { start(from: page) }
        return await completion.value(onCancel: { [weak self] in self?.requestCancel(.hostGone) })
    }

    /// Whether the user typed a comment not yet posted.
    public var hasUnsavedInput: Bool {
        !(commentPage?.comment ?? draft.trimmingWhitespace()).isEmpty
    }

    /// Ends the flow now as `.canceled`, without asking (the owner of a larger flow has asked).
    public func cancel() { requestCancel(.hostGone) }

    private func start(from anchor: Page) {
        let first: Page
        switch startPage {
        case .choosePhoto, .addComment: first = makePicker()
        case .camera(let title): first = makeCameraPage(title: title)
        }
        // The first page asks before Back leaves the flow with a typed comment.
        first.shouldLeave = { [weak self] in self?.mayLeave() ?? true }
        let host = FlowHost(from: anchor, presentation: presentation, first: first, presentsFirstAlone: startsOnCamera)
        host.onCancelRequest = { [weak self] reason in self?.requestCancel(reason) }
        host.onPagesPopped = { [weak self] pages, cause in self?.pagesPopped(pages, cause: cause) }
        self.host = host
        if let dialog = host.dialog, help != nil { addHelp(to: dialog) }
        if case .addComment(let photo, _) = startPage { showCommentPage(for: photo) }
    }

    /// **Help** at the end of the dialog's bar (one on every page above the first, kept with that page's
    /// part of the bar; Quick Snap's camera shows its own bar) and F1 anywhere in the dialog.
    private func addHelp(to dialog: ModalDialog) {
        dialog.addEndBarItem { [weak self] in
            let button = Button(iconName: "help-browser-symbolic", accessibleLabel: localized("Help"))
            button.onClicked { [weak self] in self?.showHelp() }
            return button
        }
        let keys = KeyController()
        keys.onKeyPressed { [weak self, weak dialog] keyval, _ in
            guard keyval == KeyValue.f1, let self, let dialog, !dialog.isCovered else { return false }
            self.showHelp()
            return true
        }
        dialog.keyTarget.addController(keys)
    }

    private func showHelp() {
        guard let page = host?.stack.visiblePage, !completion.isResolved else { return }
        help?.show(page)
    }

    private var startsOnCamera: Bool {
        if case .camera = startPage { return true }
        return false
    }

    private func makePicker() -> PhotoPickerPage {
        let picker = PhotoPickerPage(library: library)
        picker.onPhotoChosen = { [weak self] photo in self?.photoChosen(photo) }
        if camera != nil, !startsOnCamera {
            picker.onTakePhoto = { [weak self] in self?.cameraRequested() }
        }
        self.picker = picker
        return picker
    }

    private func makeCameraPage(title: String? = nil) -> CameraPage {
        let page = CameraPage(settings: camera!, title: title)
        page.onPhotoTaken = { [weak self] photo in
            guard let self, self.showCommentPage(for: photo) else { return }
            self.events.notify(.photoTaken(photo))
        }
        page.onChoosePhotoInstead = { [weak self] in self?.photoInsteadRequested() }
        cameraPage = page
        return page
    }

    /// - Returns: whether the Camera page was pushed.
    func showCameraPage() -> Bool {
        guard let host, camera != nil, cameraPage == nil, commentPage == nil, !isSubmitting else { return false }
        host.push(makeCameraPage())
        return true
    }

    /// **Choose a Photo Instead** on the Camera page: back to Choose a Photo when the flow came from
    /// there, else (Quick Snap) on to a new Choose a Photo.
    /// - Returns: whether Choose a Photo shows now.
    func chooseInstead() -> Bool {
        guard let host, commentPage == nil else { return false }
        if let picker, host.pages.contains(where: { $0 === picker }) {
            host.stack.pop(to: picker)
        } else if picker == nil {
            host.push(makePicker())
        } else {
            return false
        }
        return true
    }

    /// - Returns: whether Add a Comment was pushed for `photo`.
    @discardableResult
    func showCommentPage(for photo: Photo) -> Bool {
        guard let host, !isSubmitting, commentPage == nil else { return false }
        let page = CommentPage(photo: photo, comment: draft)
        // While posting, Back and Escape stay on this page (Cancel is disabled too): the outcome, and
        // any error, must be seen here.
        page.shouldLeave = { [weak self] in !(self?.isSubmitting ?? false) }
        page.onPost = { [weak self, weak page] comment in
            guard let self, let page else { return }
            self.post(photo: photo, comment: comment, from: page)
        }
        page.onCommentChanged = { [weak self] text in
            self?.drafts?.saveSoon(photo, text)
            self?.events.notify(.commentChanged(text))
        }
        if let drafts, case .notSaved = drafts.status { page.showDraftStatus(drafts.status) }
        commentPage = page
        host.push(page)
        return true
    }

    private func pagesPopped(_ pages: [Page], cause: NavigationStack.Cause) {
        for case let page as CommentPage in pages where page === commentPage {
            draft = page.commentView.text  // kept for the next photo
            commentPage = nil
        }
        for page in pages {
            if page === cameraPage { cameraPage = nil }
            if page === picker { picker = nil }
        }
        // Back past the first page is a cancel request (heard as such); Back within the flow is heard here.
        if cause == .userBack, host?.pages.isEmpty == false { events.notify(.wentBack) }
    }

    private func post(photo: Photo, comment: String, from page: CommentPage) {
        guard !isSubmitting, !completion.isResolved else { return }
        isSubmitting = true
        page.isBusy = true
        host?.dialog?.cancelButton.isSensitive = false
        host?.ownCancelButton?.isSensitive = false
        events.notify(.postRequested(comment))
        Task { [weak self, submit] in
            do {
                let output = try await submit(photo, comment)
                self?.submitEnded()
                self?.finish(.posted(output))
            } catch {
                guard let self else { return }
                self.submitEnded()
                if self.endWhenSubmitEnds {
                    self.saveDraftNow()  // the post failed and the window went: keep what was typed
                    self.finish(.canceled, draft: .kept)
                } else {
                    page.isBusy = false
                    page.showError(localized("Couldn't post: %s", "\(error)"))
                }
            }
        }
    }

    /// Keeps the comment on the chosen photo now (or forgets the draft when the comment is empty).
    private func saveDraftNow() {
        drafts?.cancelPendingSave()
        guard let drafts, let page = commentPage else { return }
        if page.comment.isEmpty { drafts.remove() } else { drafts.saveNow(page.photo, page.commentView.text) }
    }

    private func submitEnded() {
        isSubmitting = false
        host?.dialog?.cancelButton.isSensitive = true
        host?.ownCancelButton?.isSensitive = true
    }

    /// Answers the first page's ``Page/shouldLeave`` (Back past it): leave at once when nothing was
    /// typed; otherwise stay and ask.
    private func mayLeave() -> Bool {
        guard !isSubmitting else { return false }
        guard hasUnsavedInput else { return true }
        requestCancel(.user)
        return false
    }

    /// The one place every way out arrives. The user's own requests ask before discarding a typed
    /// comment; `.hostGone` (destroyed, task cancelled, cancel()) and `.pagesRemoved` (code popped
    /// the flow's pages) end at once. While posting, the post
    /// is let finish and decides the result.
    func requestCancel(_ reason: FlowHost.CancelReason) {
        guard !completion.isResolved else { return }
        if isSubmitting {
            if reason != .user { endWhenSubmitEnds = true }
            return
        }
        if reason != .user {
            saveDraftNow()  // not the user's choice: what was typed is kept
            finish(.canceled, draft: .kept)
            return
        }
        guard !discardQuestion.isAsking else { return }
        events.notify(.cancelRequested)
        if !hasUnsavedInput {
            finish(.canceled)
            return
        }
        discardQuestion.ask(over: commentPage?.view ?? picker?.view ?? cameraPage?.view) { [weak self] answer in
            if answer == .discard { self?.finish(.canceled) }
            self?.events.notify(.discardAnswered(answer))
        }
        events.notify(.discardQuestionAsked)
    }

    /// Ends the flow with `result`, and the draft as `draft` says (kept when the flow ended without the
    /// user choosing to).
    private func finish(_ result: Result, draft: DraftFate = .forgotten) {
        guard completion.resolve(result) else { return }
        drafts?.cancelPendingSave()
        if draft == .forgotten { drafts?.remove() }
        discardQuestion.withdraw()
        host?.pages.first?.shouldLeave = nil
        host?.end()
        host = nil
        picker = nil
        cameraPage = nil
        commentPage = nil
    }
}

extension CommentedPhotoFlow.Result: Equatable where Output: Equatable {}

extension CommentedPhotoFlow where Output == CommentedPhoto {
    /// A flow whose result is the photo and comment themselves (nothing is stored; see
    /// ``init(library:presentation:camera:start:help:drafts:submit:)`` for the parameters).
    public convenience init(library: PhotoLibrary, presentation: Presentation = .modal, camera: CameraSettings? = nil,
                            start: PhotoFlowStart = .choosePhoto, help: FlowHelp? = nil, drafts: CommentDrafts? = nil) {
        self.init(library: library, presentation: presentation, camera: camera, start: start, help: help, drafts: drafts) { photo, comment in
            CommentedPhoto(photo: photo, comment: comment)
        }
    }

    /// Runs a new flow from `page` that returns the photo and comment (see
    /// ``run(from:presentation:library:camera:start:help:drafts:submit:)``).
    public static func run(from page: Page, presentation: Presentation = .modal, library: PhotoLibrary,
                           camera: CameraSettings? = nil, start: PhotoFlowStart = .choosePhoto, help: FlowHelp? = nil,
                           drafts: CommentDrafts? = nil) async -> Result {
        let flow = CommentedPhotoFlow(library: library, presentation: presentation, camera: camera, start: start,
                                      help: help, drafts: drafts)
        return await flow.run(from: page)
    }
}
