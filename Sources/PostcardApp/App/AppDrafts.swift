import Gtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// Drafts from an earlier run: offered on My Profile, resumed by the coordinator of their kind.
extension AppController {
    /// Offers the newest draft kept from an earlier run on My Profile: **Resume** opens the same flow on
    /// the same page (a friend's profile, a post's thread) with the photo chosen and the comment typed;
    /// **Discard** forgets it. A draft whose post is gone is forgotten.
    /// - Returns: whether a draft is offered.
    @discardableResult
    public func offerDraft() -> Bool {
        guard let draft = (try? store.drafts())?.first else { return false }
        let text = switch draft.kind {
        // Translators: the banner on My Profile when a post was left unfinished (the app quit or crashed).
        case .post: localized("You have an unfinished post")
        // Translators: the banner on My Profile when a reply was left unfinished (the app quit or crashed).
        case .reply: localized("You have an unfinished reply")
        // Translators: the banner on My Profile when a caption edit was left unfinished (the app quit or crashed).
        case .caption: localized("You have an unfinished caption")
        // Translators: the banner on My Profile when a message was left unfinished (the app quit or crashed).
        case .message: localized("You have an unfinished message")
        }
        myProfile.showDraftBanner(text, detail: String(CommentLimit.shown(draft.comment).map { $0.isNewline ? " " : $0 }), onResume: { [weak self] in
            self?.resume(draft)
        }, onDiscard: { [store] in
            store.discardDraft(draft)
        })
        return true
    }

    /// Opens `draft` again where it was left.
    public func resume(_ draft: Draft) {
        let start = PhotoFlowStart.addComment(Photo(uri: draft.photoURI), comment: draft.comment)
        appLog.debug("Draft resumed: \(draft.kind) \(draft.target)")
        store.claimDraft(draft)  // this instance's from now on: no other Postcard offers it while it is edited
        switch draft.kind {
        case .post: posting.resume(draft, start: start)
        case .reply: replies.resume(draft, start: start)
        case .caption: captions.resume(draft)
        case .message: messaging.resume(draft)
        }
    }
}
