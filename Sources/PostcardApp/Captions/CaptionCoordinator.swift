import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// A post's page (``Route/post(_:)``) and its captions: makes the detail page (Comments, Copy Link and,
/// on my own posts, Edit Caption), runs Edit Caption pushed from it, and shows the saved caption there
/// and in every feed on the stack. Resumes a caption's draft. Main actor only.
@MainActor
final class CaptionCoordinator {
    /// Weak: the app owns this coordinator; its tasks are the app's (`AppController.tasks`), waited for at quit.
    private weak var app: AppController?

    init(app: AppController) { self.app = app }

    /// The detail page of `post`, with Comments, Copy Link and (on my own posts) Edit Caption.
    func makePostPage(_ post: Post, in app: AppController) -> PhotoDetailPage {
        let author = app.people.person(id: post.author)?.name ?? post.author
        // Translators: the title of the page showing one post (a noun: a photo with a comment); translate
        // only what follows the "|". The subtitle below it is "by %s" with the author's name. Keep it
        // short: in a 360-pixel window the bar also holds Back and Edit Caption.
        let title = localized("page title|Post")
        // Translators: the subtitle under a post's title: who posted it (%s is a person's name).
        let subtitle = localized("by %s", author)
        let page = PhotoDetailPage(title: title, subtitle: subtitle, photoPath: post.photoPath,
                                   comment: post.comment, detail: TimeText.posted(post.createdAt))
        page.subject = post.id
        // Translators: a button under a post that opens its comment thread.
        let comments = Button(label: localized("Comments"))
        comments.onClicked { [weak self] in self?.app?.router.push(.comments(post.id)) }
        page.actions.append(comments)
        page.actions.append(app.copyLinkButton(for: .post(post.id)))
        page.onOpenLink = { [weak self, weak page] uri in
            guard let self, let page else { return }
            self.app?.help.openLink(uri, from: page)
        }
        if post.author == Identity.localID {
            // Translators: a button in the bar of one's own post (and the title of the page it opens): edit
            // the post's caption, its comment. Keep it short: the bar also holds Back and the post's title.
            let edit = Button(label: localized("Edit Caption"))
            edit.onClicked { [weak self, weak page] in
                guard let self, let page else { return }
                self.startEditing(post, shownIn: page)
            }
            page.addEndBarItem(edit)
            page.actions.append(Self.deleteButton { [weak self] in self?.app?.deletions.delete(.post(post.id)) })
        }
        return page
    }

    /// **Delete** for a page showing what the user made (a post, a message): `action` deletes it, with Undo.
    static func deleteButton(_ action: @escaping @MainActor () -> Void) -> Button {
        // Translators: a button under one's own post or message: deletes it (a toast then offers Undo).
        let button = Button(label: localized("Delete"))
        button.addCSSClass("destructive-action")
        button.onClicked(action)
        return button
    }

    /// Pushes Edit Caption from `detail` with the post's current caption (or `draft`); once saved, the
    /// detail page shows it (and every feed, as the store tells them). Nothing while another flow runs.
    func startEditing(_ post: Post, shownIn detail: PhotoDetailPage, resuming draft: Draft? = nil) {
        guard let app else { return }
        let store = app.store
        let current = (try? store.post(id: post.id))?.comment ?? post.comment
        let flow = EditCaptionFlow<Post>(photo: Photo(path: post.photoPath), caption: current, draft: draft?.comment,
                                         drafts: app.drafts(.caption, target: String(post.id), id: draft?.id ?? PostStore.newDraftID())) { caption in
            try await store.updateComment(ofPost: post.id, to: caption)
            // Read once, for the detail page and the feeds; what was saved if it can't be read back.
            return (try? store.post(id: post.id))
                ?? Post(id: post.id, author: post.author, profile: post.profile, comment: caption,
                        photoPath: post.photoPath, createdAt: post.createdAt)
        }
        app.flows.start(draft == nil ? .editCaption : .resumeDraft, flow) { [weak self] flow in
            let result = await flow.run(from: detail)
            if case .saved(let updated) = result {
                detail.setComment(updated.comment)  // the feeds follow the store
                // Translators: a toast after Edit Caption saved the new caption.
                self?.app?.showToast(localized("Caption saved"))
            }
            return .caption(result)
        }
    }

    /// Opens a caption's draft on its post's page (above its profile when that is a friend's); a draft
    /// whose post is gone, or is not mine, is forgotten.
    func resume(_ draft: Draft) {
        guard let app else { return }
        guard let id = Int64(draft.target), let post = try? app.store.post(id: id), post.author == Identity.localID else {
            app.store.discardDraft(draft)  // its post is gone
            return
        }
        app.router.setPath(app.backPath(for: .post(post.id)), animated: false)
        guard let detail = app.stack.visiblePage as? PhotoDetailPage else { return }
        startEditing(post, shownIn: detail, resuming: draft)
    }
}
