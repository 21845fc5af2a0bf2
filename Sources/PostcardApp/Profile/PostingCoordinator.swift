import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// Posting from profiles: wires My Profile and each friend's profile (New Post or Post to Their
/// Profile, Quick Snap, a post opened, a friend chosen, a link), runs the photo flow modally from them,
/// and puts what was stored at the top of that profile's feed. Resumes a post's draft on its profile.
/// Main actor only.
@MainActor
final class PostingCoordinator {
    /// Weak: the app owns this coordinator; its tasks are the app's (`AppController.tasks`), waited for at quit.
    private weak var app: AppController?

    init(app: AppController) { self.app = app }

    /// Fills `page` from the store and connects what it reports.
    func wire(_ page: ProfilePage) {
        reload(page)
        follow(page)
        page.onNewPost = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startPost(on: page)
        }
        page.onOpenPost = { [weak self] post in self?.app?.router.push(.post(post.id)) }
        page.onOpenLink = { [weak self, weak page] uri in
            guard let self, let page else { return }
            self.app?.help.openLink(uri, from: page)
        }
        page.onQuickSnap = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startPost(on: page, start: .camera(title: localized("Quick Snap")))
        }
        page.onFriendSelected = { [weak self] friend in self?.app?.router.push(.profile(friend.id)) }
    }

    /// A friend's profile for ``Route/profile(_:)``, with Copy Link in its bar.
    func makeProfilePage(for person: Person, route: Route, in app: AppController) -> ProfilePage {
        let page = ProfilePage(person: person, viewer: app.people.me)
        wire(page)
        page.addEndBarItem(app.copyLinkButton(for: route, iconOnly: true))
        page.addEndBarItem(app.friends.removeButton(for: person))
        return page
    }

    /// Makes `page` follow the store: a post stored on its profile (here or by another Postcard on the
    /// folder) goes to the top of its feed, an edited caption is shown in its row, a post deleted is taken
    /// out of it, and one brought back reads the feed again.
    private func follow(_ page: ProfilePage) {
        guard let store = app?.store else { return }
        page.followsStore = store.changes.add { [weak self, weak page] change in
            guard let self, let page else { return }
            switch change {
            case .postAdded(let post) where post.profile == page.person.id: page.insertNewPost(post)
            case .postEdited(let post) where post.profile == page.person.id: page.update(post)
            case .deleted(.post(let id)):
                // In place, once the turn of the deletion is over: the post's own page leaves first, and
                // the feed gets its focus back on the row that opened it (a screen reader hears only where
                // focus then goes, New Post, and the toast), before the row goes.
                MainLoopBridge.afterLayout { [weak page] in page?.removePost(id: id) }
            case .restored(.post), .reread: self.reload(page)
            default: break
            }
        }
    }

    /// Reads `page`'s feed from the store, a page of rows at a time.
    func reload(_ page: ProfilePage) {
        guard let app else { return }
        let profile = page.person.id
        page.showPosts(PagedRows(pageSize: AppController.pageSize) { [store = app.store] last, limit in
            try store.posts(onProfile: profile, after: last, limit: limit)
        })
    }

    /// Runs the photo flow from `page`, opening on `start`, posting to `page`'s profile; the stored post
    /// goes to the top of its feed as the store tells (in place: no reload). Nothing while another flow runs.
    /// `draftID`: the draft the flow goes on with (a resumed one), else a new one.
    /// `kind`: how the user started it (nil: New Post, or Quick Snap on the camera, or New Post with a photo
    /// on Add a Comment).
    func startPost(on page: ProfilePage, start: PhotoFlowStart = .choosePhoto, draftID: String = PostStore.newDraftID(),
                   kind: FlowKind? = nil) {
        guard let app else { return }
        let profile = page.person.id
        let store = app.store
        let flow = CommentedPhotoFlow<Post>(library: app.library, camera: app.camera, start: start, help: app.help.flowHelp,
                                            drafts: app.drafts(.post, target: profile, id: draftID)) { photo, comment in
            try await store.add(photo: photo, comment: comment, author: Identity.localID, profile: profile)
        }
        let started = kind ?? {
            switch start {
            case .choosePhoto: .newPost
            case .camera: .quickSnap
            case .addComment: .newPostWithPhoto
            }
        }()
        app.flows.start(started, flow) { [weak app] flow in
            let result = await flow.run(from: page)
            if case .posted(let post) = result {
                // Translators: a toast after a photo was posted; "View" opens the new post.
                // Translators: what a screen reader says after a photo was posted (focus is back on the profile).
                app?.showToast(localized("Posted"), buttonLabel: localized("View"),
                               spoken: localized("Posted. It is the first post on this page.")) { [weak app] in
                    app?.openWhenPossible(.post(post.id))
                }
            }
            return .post(result)
        }
    }

    /// Opens a post's draft where it was left: the same flow on its profile (mine or a friend's), on Add
    /// a Comment with the photo and comment restored.
    func resume(_ draft: Draft, start: PhotoFlowStart) {
        guard let app else { return }
        if draft.target == Identity.localID {
            app.router.setPath([], animated: false)
            startPost(on: app.myProfile, start: start, draftID: draft.id, kind: .resumeDraft)
        } else if app.people.friend(id: draft.target) != nil {
            app.router.setPath([.profile(draft.target)], animated: false)
            guard let profile = app.stack.visiblePage as? ProfilePage else { return }
            startPost(on: profile, start: start, draftID: draft.id, kind: .resumeDraft)
        }
    }
}
