import Gtk
import Navigation
import NavigationGtk

/// The reusable "post a photo with a comment" flow: **Choose a Photo** → **Add a Comment** → Post.
///
/// One object owns the whole run: it creates each page when needed, holds what has been gathered (the
/// chosen photo), owns the one **Cancel**, and returns a typed ``Result`` to whoever started it:
///
/// ```swift
/// switch await CommentedPhotoFlow.run(from: self, library: library, submit: { photo, comment in
///     try store.add(photo: photo, comment: comment)
/// }) {
/// case .posted(let photo, let comment): …
/// case .canceled: …
/// }
/// ```
///
/// The pages know nothing of the flow: the picker reports "photo chosen", the comment page "post
/// this comment"; the flow decides what comes next. `submit` is the caller's own action (store the
/// post, send a message); while it runs Post and Cancel are disabled, and if it throws, the error's text
/// is shown on the comment page, the dialog stays open and the comment is kept.
///
/// The result is delivered exactly once, whatever ends the flow: Post, Cancel, Escape on the first
/// page, the window manager closing the dialog, the dialog being destroyed (app quit), or the caller's
/// task being cancelled. Main actor only.
@MainActor
public final class CommentedPhotoFlow {
    /// How the flow ended.
    public enum Result: Equatable, Sendable {
        /// The user posted `photo` with `comment`, and `submit` (if any) succeeded.
        case posted(Photo, comment: String)
        /// The user left without posting (or `submit` failed and the user then cancelled).
        case canceled
    }

    /// The caller's posting action; throwing keeps the flow open with the error shown.
    public typealias Submit = @MainActor (Photo, String) async throws -> Void

    private let library: PhotoLibrary
    private let submit: Submit?
    private let completion = FlowCompletion<Result>()
    private var dialog: ModalDialog?
    private var picker: PhotoPickerPage?
    private var commentPage: CommentPage?
    private var isSubmitting = false
    private var cancelAfterSubmit = false

    /// Observes every flow object's lifetime (tests count live flows); nil by default.
    nonisolated(unsafe) public static var lifetimeObserver: (@Sendable (_ alive: Bool) -> Void)?

    private init(library: PhotoLibrary, submit: Submit?) {
        self.library = library
        self.submit = submit
        Self.lifetimeObserver?(true)
    }

    deinit { Self.lifetimeObserver?(false) }

    /// Runs the flow from `page` (the page whose window the dialog is modal to) and waits for its result.
    ///
    /// - Parameters:
    ///   - page: where the flow starts; its window becomes the dialog's parent.
    ///   - library: the photos offered on Choose a Photo.
    ///   - submit: what posting does; runs before the dialog closes (see ``Submit``).
    /// - Returns: `.posted` or `.canceled`, exactly once.
    public static func run(from page: Page, library: PhotoLibrary, submit: Submit? = nil) async -> Result {
        let flow = CommentedPhotoFlow(library: library, submit: submit)
        flow.start(from: page)
        return await flow.completion.value(onCancel: { [weak flow] in flow?.requestCancel(mustEnd: true) })
    }

    /// The dialog showing the flow while it runs (for tests and focus handling); nil once it ended.
    public static private(set) var current: ModalDialog?

    private func start(from anchor: Page) {
        let picker = PhotoPickerPage(library: library)
        picker.onPhotoChosen = { [weak self] photo in self?.showCommentPage(for: photo) }
        self.picker = picker
        let dialog = ModalDialog(over: anchor, root: picker)
        dialog.onCancelRequest = { [weak self, weak dialog] in
            self?.requestCancel(mustEnd: dialog?.isDismissed ?? true)
        }
        self.dialog = dialog
        Self.current = dialog
        dialog.present()
    }

    private func showCommentPage(for photo: Photo) {
        guard let dialog, !isSubmitting else { return }
        let page = CommentPage(photo: photo)
        page.onPost = { [weak self, weak page] comment in
            guard let self, let page else { return }
            self.post(photo: photo, comment: comment, from: page)
        }
        commentPage = page
        dialog.stack.push(page)
    }

    private func post(photo: Photo, comment: String, from page: CommentPage) {
        guard !isSubmitting, !completion.isResolved else { return }
        guard let submit else { finish(.posted(photo, comment: comment)); return }
        isSubmitting = true
        page.isBusy = true
        dialog?.cancelButton.isSensitive = false
        Task { [weak self] in
            do {
                try await submit(photo, comment)
                self?.submitEnded()
                self?.finish(.posted(photo, comment: comment))
            } catch {
                guard let self else { return }
                self.submitEnded()
                if self.cancelAfterSubmit {
                    self.finish(.canceled)
                } else {
                    page.isBusy = false
                    page.showError("Couldn't post: \(error)")
                }
            }
        }
    }

    private func submitEnded() {
        isSubmitting = false
        dialog?.cancelButton.isSensitive = true
    }

    /// The one place every Cancel path arrives (Cancel, Escape at the first page, window close, dialog
    /// destroyed, task cancelled). While posting, the post is let finish and decides the result; if the
    /// flow `mustEnd` (dialog gone, task cancelled) a failed post then ends it as canceled.
    private func requestCancel(mustEnd: Bool) {
        if isSubmitting {
            if mustEnd { cancelAfterSubmit = true }
            return
        }
        finish(.canceled)
    }

    private func finish(_ result: Result) {
        guard completion.resolve(result) else { return }
        dialog?.dismiss()
        if Self.current === dialog { Self.current = nil }
        dialog = nil
        picker = nil
        commentPage = nil
    }
}
