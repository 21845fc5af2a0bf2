import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel

/// **Edit Caption**: the Add a Comment page reused unchanged — the post's photo, its current caption,
/// **Save** — pushed onto the stack of the page it starts from, as one flow on ``FlowHost`` like the
/// photo flows. A one-page flow: Back (and Escape, Alt+Left, a swipe) leaves it as it leaves any pushed
/// page, so it adds no Cancel of its own.
///
/// Returns `.saved` with what `save` stored (`Output`) or `.canceled`, exactly once. While `save` runs,
/// the page stays (Back waits) and shows a spinner; if it throws, its message shows on the page and the
/// caption typed is kept. The caption typed is kept as a draft (see ``CommentDrafts``) a moment after
/// each change; it is forgotten when saved or when the user leaves, and kept when the flow ends
/// without the user choosing to (the window closed, the app quit, the page removed by code).
///
/// Main actor only.
@MainActor
public final class EditCaptionFlow<Output: Sendable> {
    /// How the flow ended.
    public enum Result: Sendable {
        /// The caption was saved: what `save` stored.
        case saved(Output)
        /// The user left without saving.
        case canceled
    }

    /// Stores the new caption and returns what was stored; throwing keeps the flow open with the error.
    public typealias Save = @MainActor (String) async throws -> Output

    private let photo: Photo
    private let caption: String
    private let startText: String
    private let drafts: CommentDrafts?
    private let save: Save
    private let completion = FlowCompletion<Result>()
    private var host: FlowHost?
    private var editor: CommentPage?
    private var isSaving = false
    /// The window went (or code removed the page) while saving: the save's outcome ends the flow.
    private var endWhenSaveEnds = false
    private let events = Observers<PhotoFlowEvent>()

    /// Calls `handler`, after the flow has acted, with what happens in it: ``PhotoFlowEvent/commentChanged(_:)``,
    /// ``PhotoFlowEvent/postRequested(_:)`` (Save) and ``PhotoFlowEvent/cancelRequested`` (Back), until the
    /// token goes (for observers such as a journey recorder).
    public func observeEvents(_ handler: @escaping @MainActor (PhotoFlowEvent) -> Void) -> ObservationToken {
        events.add(handler)
    }

    /// A flow editing `caption` of the post showing `photo`; `draft` is text kept from an earlier run to
    /// start with instead (a draft resumed).
    public init(photo: Photo, caption: String, draft: String? = nil, drafts: CommentDrafts? = nil, save: @escaping Save) {
        self.photo = photo
        self.caption = caption
        startText = draft ?? caption
        self.drafts = drafts
        self.save = save
    }

    /// The editor page while the flow runs.
    public var page: CommentPage? { editor }

    /// Pushes the editor onto `page`'s stack and waits for the result. Call once per instance; later
    /// calls return the first result.
    public func run(from page: Page) async -> Result {
        if host == nil && !completion.isResolved { start(from: page) }
        return await completion.value(onCancel: { [weak self] in self?.requestCancel(.hostGone) })
    }

    /// Takes `step` as the editor would have reported it (a journey's replay): the caption typed, Save,
    /// or Cancel (Back, Edit Caption's way out). Other steps are not Edit Caption's.
    /// - Returns: whether it was taken (Save only when it is possible).
    @discardableResult
    public func perform(_ step: PhotoFlowStep) -> Bool {
        guard let host, let editor, !completion.isResolved, host.stack.visiblePage === editor else { return false }
        switch step {
        case .comment(let text):
            editor.type(text)
        case .post:
            guard editor.postButton.isSensitive else { return false }
            editor.post()
        case .cancel, .back:
            requestCancel(.user)
        default:
            return false
        }
        return true
    }

    private func start(from anchor: Page) {
        let editor = CommentPage(photo: photo, comment: startText, actionLabel: localized("Save"),
                                 title: localized("Edit Caption"), photoDescription: caption)
        editor.onCommentChanged = { [weak self, weak editor] text in
            guard let self, let editor else { return }
            self.drafts?.saveSoon(editor.photo, text)
            self.events.notify(.commentChanged(text))
        }
        editor.onPost = { [weak self] text in self?.submit(text) }
        drafts?.onStatusChanged = { [weak editor] status in editor?.showDraftStatus(status) }
        editor.shouldLeave = { [weak self] in !(self?.isSaving ?? false) }
        self.editor = editor
        let host = FlowHost(from: anchor, presentation: .pushed, first: editor, addsCancelButton: false)
        host.onCancelRequest = { [weak self] reason in self?.requestCancel(reason) }
        self.host = host
    }

    private func submit(_ text: String) {
        guard let editor, !isSaving, !completion.isResolved else { return }
        isSaving = true
        editor.isBusy = true
        events.notify(.postRequested(text))
        Task { [weak self, save] in
            do {
                let output = try await save(text)
                self?.isSaving = false
                self?.finish(.saved(output))
            } catch {
                guard let self else { return }
                self.isSaving = false
                if self.endWhenSaveEnds {
                    // The save failed and the page is gone: keep what was typed, end as canceled.
                    self.keepDraft(of: editor)
                    self.finish(.canceled, draft: .kept)
                } else {
                    editor.isBusy = false
                    editor.showError("\(error)")
                }
            }
        }
    }

    /// Every way out arrives here: the user's Back forgets the draft; the window gone or the page removed
    /// by code keep it (when it differs from the caption). While saving, Back waits (the outcome must be
    /// seen), and the other ways out let the save decide: saved, or canceled with the draft kept.
    private func requestCancel(_ reason: FlowHost.CancelReason) {
        guard !completion.isResolved else { return }
        if isSaving {
            if reason != .user { endWhenSaveEnds = true }
            return
        }
        if reason != .user, let editor, editor.commentView.text != caption {
            keepDraft(of: editor)
            finish(.canceled, draft: .kept)
        } else {
            finish(.canceled)
            if reason == .user { events.notify(.cancelRequested) }
        }
    }

    /// Keeps the editor's text as the draft now (not the user's choice to leave).
    private func keepDraft(of editor: CommentPage) {
        if editor.commentView.text != caption { drafts?.saveNow(editor.photo, editor.commentView.text) }
    }

    private func finish(_ result: Result, draft: DraftFate = .forgotten) {
        guard completion.resolve(result) else { return }
        drafts?.cancelPendingSave()
        if draft == .forgotten { drafts?.remove() }
        host?.end()
        host = nil
        editor = nil
    }
}

extension EditCaptionFlow.Result: Equatable where Output: Equatable {}
