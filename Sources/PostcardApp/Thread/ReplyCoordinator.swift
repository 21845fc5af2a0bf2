import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// Replies: makes a post's comment thread (``Route/comments(_:)``), runs the photo flow pushed in place
/// from it (Reply with Photo), and appends the stored reply to the thread. Resumes a reply's draft in its
/// thread. Main actor only.
@MainActor
final class ReplyCoordinator {
    /// Weak: the app owns this coordinator; its tasks are the app's (`AppController.tasks`), waited for at quit.
    private weak var app: AppController?

    init(app: AppController) { self.app = app }

    /// The comment thread of `post`, with Reply with Photo.
    func makeThreadPage(_ post: Post) -> CommentThreadPage {
        let thread = CommentThreadPage(post: post)
        reload(thread)
        // The thread follows the store: a reply to its post is added at the end; one deleted or brought
        // back reads the thread again.
        thread.followsStore = app?.store.changes.add { [weak self, weak thread] change in
            guard let self, let thread else { return }
            switch change {
            case .replyAdded(let reply) where reply.postID == thread.post.id: thread.appendReply(reply)
            case .deleted(.reply), .restored(.reply), .reread: self.reload(thread)
            default: break
            }
        }
        thread.onReply = { [weak self, weak thread] in
            guard let self, let thread else { return }
            self.startReply(in: thread)
        }
        thread.onOpenLink = { [weak self, weak thread] uri in
            guard let self, let thread else { return }
            self.app?.help.openLink(uri, from: thread)
        }
        thread.onDelete = { [weak self] reply in self?.app?.deletions.delete(.reply(reply.id)) }
        return thread
    }

    /// Reads `page`'s replies from the store, a page of rows at a time.
    func reload(_ page: CommentThreadPage) {
        guard let app else { return }
        let post = page.post
        do {
            let total = try app.store.replyCount(to: post)
            page.showReplies(PagedRows(pageSize: AppController.pageSize) { [store = app.store] last, limit in
                try store.replies(to: post, after: last, limit: limit)
            }, total: total)
        } catch {
            page.showError(localized("Can't load replies: %s", "\(error)"))
        }
    }

    /// Pushes the photo flow in place from `thread` and stores a reply; nothing while another flow runs.
    /// `draftID`: the draft the flow goes on with (a resumed one), else a new one.
    func startReply(in thread: CommentThreadPage, start: PhotoFlowStart = .choosePhoto, draftID: String = PostStore.newDraftID()) {
        guard let app else { return }
        let post = thread.post
        let store = app.store
        let flow = CommentedPhotoFlow<Reply>(library: app.library, presentation: .pushed, camera: app.camera, start: start,
                                             help: app.help.flowHelp, drafts: app.drafts(.reply, target: String(post.id), id: draftID)) { photo, comment in
            try await store.addReply(to: post, photo: photo, comment: comment, author: Identity.localID)
        }
        app.flows.start(start == .choosePhoto ? .replyWithPhoto : .resumeDraft, flow) { [weak app] flow in
            let result = await flow.run(from: thread)
            if case .posted = result {  // the thread shows it (it follows the store)
                // Translators: a toast after a reply was posted in a comment thread (the thread shows it).
                app?.showToast(localized("Reply posted"))
            }
            return .reply(result)
        }
    }

    /// Opens a reply's draft in its thread (above the post, as a link would); a draft whose post is gone
    /// is forgotten.
    func resume(_ draft: Draft, start: PhotoFlowStart) {
        guard let app else { return }
        guard let id = Int64(draft.target), let post = try? app.store.post(id: id) else {
            app.store.discardDraft(draft)  // its post is gone
            return
        }
        app.router.setPath(app.backPath(for: .comments(post.id)), animated: false)
        guard let thread = app.stack.visiblePage as? CommentThreadPage else { return }
        startReply(in: thread, start: start, draftID: draft.id)
    }
}
