import Adwaita
import Gtk
import NavigationGtk
import PostcardModel
import PostcardStore

/// Deleting what the user made — a post (from its page), a reply (from its row in the thread), a message
/// (from its page or its row in Messages) — with **Undo** for as long as the toast that says so shows, as
/// GNOME's own apps do instead of asking first (GNOME HIG: "undo rather than confirm").
///
/// The item is marked deleted in the store at once (every list and page leaves it out; a page showing it
/// is popped or closed), and removed for good with its photo when the toast goes without Undo, when the
/// next toast replaces it, or at quit. Killed in between, the next launch finishes it (see
/// ``PostStore/markDeleted(_:)``). What the user chose last — Delete, or Undo — is written in the turn
/// of the press (``PostStore/recordChoice(_:for:)``), so a quit, SIGTERM, crash or kill a few
/// milliseconds later ends with that choice. Main actor only.
@MainActor
final class DeletionCoordinator {
    /// Weak: a deletion's store work may still be under way when the app is freed (quit right after
    /// Delete); what it does after that is then left undone (the store finishes it at the next launch).
    private weak var app: AppController?
    /// Told after each deletion is marked in the store, before its pages leave (true), and after each
    /// Undo has brought it back (false), in the journal's terms (a friend by their id): a journey's
    /// replayer listens (it waits for the store's work before the next step).
    let changes = Observers<(JourneyDeletion, Bool)>()
    /// Told in the turn of each press of Delete (true) and Undo (false), before the store's work: a
    /// journey's recorder writes the step then, so a page opened right after the press (before the write
    /// lands) follows it in the journal, as it did for the user.
    let presses = Observers<(JourneyDeletion, Bool)>()

    init(app: AppController) { self.app = app }

    /// Deletes `item` (marked at once; for good when the Undo toast goes); `name` is a friend's, for
    /// the toast.
    func delete(_ item: DeletableItem, named name: String? = nil) {
        guard let store = app?.store, let recorded = journeyTerms(item) else { return }
        let noted = store.recordChoice(.delete, for: item)  // the user's word is on disk before anything else happens
        appLog.debug("Delete pressed: \(item)")  // after it: the tests kill the app the moment they read this
        presses.notify((recorded, true))
        app?.tasks.start { [weak self] in
            do {
                try await store.markDeleted(item)
            } catch {
                appLog.problem("Can't delete \(item): \(error)")
                // Translators: a toast when a post, reply or message can't be deleted; %s says why.
                self?.app?.showToast(localized("Can't delete it: %s", "\(error)"))
                return
            }
            guard let self, let app = self.app else { return }
            appLog.info("Deleted \(item), Undo offered")
            self.changes.notify((recorded, true))
            self.leavePages(showing: item, in: app)  // the lists showing it follow the store
            // Translators: the button of the toast after deleting a post, reply or message: brings it back.
            let text = noted ? Self.deletedText(item, named: name) : Self.notNoted(Self.deletedText(item, named: name))
            // Translators: what a screen reader says after a deletion; %s is the toast's text ("Post deleted").
            let spoken = localized("%s. Press Ctrl+Z to undo.", text)
            // Focus goes to the page's first control with the words: the control that had it (the deleted
            // post's row, its page's Delete) is gone, and GTK would put it wherever it could a frame later.
            let toast = app.showToast(text, buttonLabel: localized("Undo"), spoken: spoken,
                                      focusing: app.mainWindow.stack.visiblePage?.initialFocus) { [weak self] in
                self?.undo(item, recorded: recorded, named: name)
            }
            app.undoToast = toast
            // The store, not the app: the toast is dismissed also while the app itself is being freed.
            toast.onDismissed = { [weak toast] in
                guard toast?.wasActionUsed != true else { return }
                store.purgeDeleted(item)
            }
        }
    }

    private func undo(_ item: DeletableItem, recorded: JourneyDeletion, named name: String?) {
        guard let store = app?.store else { return }
        let noted = store.recordChoice(.restore, for: item)  // kept even if the app quits or is killed before the write
        appLog.debug("Undo pressed: \(item)")
        presses.notify((recorded, false))
        app?.returnFocusFromTheToast()  // Undo pressed on the toast (F6): heard where the focus was
        app?.tasks.start { [weak self] in
            var restored = false
            do {
                try await store.restoreDeleted(item)
                appLog.info("Undid the deletion of \(item)")
                restored = true
            } catch {
                // Translators: a toast when Undo can't bring back what was deleted; %s says why.
                self?.app?.showToast(localized("Can't undo: %s", "\(error)"))
            }
            guard let self, let app = self.app else { return }
            if restored { self.changes.notify((recorded, false)) }  // the lists follow the store
            // No toast says it (GNOME apps show none after Undo), but a screen reader user is told.
            if restored { app.mainWindow.window.announce(Self.restoredText(item, named: name)) }
            if restored && !noted { app.showToast(Self.notNoted(Self.restoredText(item, named: name))) }
        }
    }

    /// `text` ("Post deleted") saying that the choice could not be noted in the data folder's `instances`
    /// folder, so a crash before the store's write would lose it.
    private static func notNoted(_ text: String) -> String {
        // Translators: a toast after Delete or Undo when the data folder can't be written; %s is "Post deleted", "Post restored"…
        localized("%s, but not noted on disk: the data folder can't be written. Keep Postcard open until it is saved", text)
    }

    /// `item` as a journal names it: a friend by their id (their row is the store's own).
    private func journeyTerms(_ item: DeletableItem) -> JourneyDeletion? {
        guard let app else { return nil }
        return switch item {
        case .post(let id): .post(id)
        case .reply(let id): .reply(id)
        case .message(let id): .message(id)
        case .friend(let row): .friend(app.people.friends.first { $0.rowID == row }?.id ?? "\(row)")
        }
    }

    /// What a screen reader hears after Undo brought `item` back.
    private static func restoredText(_ item: DeletableItem, named name: String?) -> String {
        switch item {
        // Translators: what a screen reader says after Undo brought a deleted post back.
        case .post: localized("Post restored")
        // Translators: what a screen reader says after Undo brought a deleted reply back.
        case .reply: localized("Reply restored")
        // Translators: what a screen reader says after Undo brought a deleted message back.
        case .message: localized("Message restored")
        // Translators: what a screen reader says after Undo brought a removed friend back; %s is their name.
        case .friend: localized("%s is your friend again", name ?? "")
        }
    }

    private static func deletedText(_ item: DeletableItem, named name: String?) -> String {
        switch item {
        // Translators: a toast after deleting one's post (with Undo).
        case .post: localized("Post deleted")
        // Translators: a toast after deleting one's reply (with Undo).
        case .reply: localized("Reply deleted")
        // Translators: a toast after deleting one's message (with Undo).
        case .message: localized("Message deleted")
        // Translators: a toast after removing a friend (with Undo); %s is their name.
        case .friend: localized("%s removed from your friends", name ?? "")
        }
    }

    /// Pops the pages showing `item` (a post's page and its comments), or closes its message.
    private func leavePages(showing item: DeletableItem, in app: AppController) {
        switch item {
        case .post(let id):
            let path = app.router.path
            let kept = path.filter { $0 != .post(id) && $0 != .comments(id) }
            if kept != path { app.router.setPath(kept) }
        case .message(let id):
            let path = app.router.path
            let kept = path.filter { $0 != .message(id) }
            if kept != path { app.router.setPath(kept) }
        case .friend:
            // Their profile, and what was opened above it, is left; the friends list shows the change
            // (the people follow the store).
            let path = app.router.path
            if let index = path.firstIndex(where: { if case .profile(let id) = $0 { return app.people.friend(id: id) == nil } else { return false } }) {
                app.router.setPath(Array(path[..<index]))
            }
        case .reply:
            break
        }
    }
}
