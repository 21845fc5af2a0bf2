import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// Messages: makes the Messages page (``Route/messages``) and a message's page, runs the message flow
/// (Choose Recipient, then the photo flow as a step) from it, puts the stored message at the top of the
/// list, and presents a message alone over the list. Resumes a message's draft. Main actor only.
@MainActor
final class MessagingCoordinator {
    /// Weak: the app owns this coordinator; its tasks are the app's (`AppController.tasks`), waited for at quit.
    private weak var app: AppController?
    /// The message detail presented last, while open.
    private(set) var presentedMessage: ModalDialog?

    init(app: AppController) { self.app = app }

    /// The Messages page, with New Message.
    func makeMessagesPage() -> MessagesPage {
        let page = MessagesPage { [weak app] id in app?.people.person(id: id)?.name ?? id }
        reload(page)
        page.onNewMessage = { [weak self, weak page] in
            guard let self, let page else { return }
            self.startMessage(from: page)
        }
        page.onOpen = { [weak self, weak page] message in
            guard let self, let page else { return }
            self.present(message, from: page)
        }
        page.onDelete = { [weak self] message in self?.app?.deletions.delete(.message(message.id)) }
        return page
    }

    /// Reads the list from the store, a page of rows at a time.
    func reload(_ page: MessagesPage) {
        guard let app else { return }
        page.showMessages(PagedRows(pageSize: AppController.pageSize) { [store = app.store] last, limit in
            try store.messages(after: last, limit: limit)
        })
    }

    /// Runs the message flow from `page`, resuming a draft when given; nothing while another flow runs.
    /// `resuming` opens on Add a Comment for its recipient, going on with its draft (`draftID`).
    func startMessage(from page: MessagesPage, resuming: (recipient: Person, photo: Photo, comment: String)? = nil,
                      draftID: String? = nil) {
        guard let app else { return }
        let store = app.store
        var resumedID = draftID  // the first step, for the resumed recipient, goes on with the draft
        let flow = SendPhotoMessageFlow<Message>(recipients: app.people.friendPeople, library: app.library, camera: app.camera, drafts: { [store] person in
            defer { resumedID = nil }
            let id = person.id == resuming?.recipient.id ? resumedID ?? PostStore.newDraftID() : PostStore.newDraftID()
            return AppController.drafts(in: store, kind: .message, target: person.id, id: id)
        }) { person, photo, comment in
            try await store.addMessage(to: person.id, photo: photo, comment: comment, author: Identity.localID)
        }
        app.flows.start(resuming == nil ? .newMessage : .resumeDraft, flow) { [weak app] flow in
            let result = await flow.run(from: page, resuming: resuming)
            if case .sent(let message) = result {
                page.insertNewMessage(message)
                let name = app?.people.person(id: message.recipient)?.name ?? message.recipient
                // Translators: a toast after a message was sent; %s is the recipient's name. "View" opens it.
                app?.showToast(localized("Message sent to %s", name), buttonLabel: localized("View")) { [weak app] in
                    app?.openWhenPossible(.message(message.id))
                }
            }
            return .message(result)
        }
    }

    /// Presents a message's photo and comment modally: the detail page shows its own bar with Close.
    func present(_ message: Message, from page: MessagesPage) {
        guard let app else { return }
        let detail = Self.makeMessagePage(message, recipient: app.people.person(id: message.recipient)?.name ?? message.recipient)
        if message.author == Identity.localID {
            detail.actions.append(CaptionCoordinator.deleteButton { [weak self] in self?.app?.deletions.delete(.message(message.id)) })
        }
        let dialog = ModalDialog(over: page, presenting: detail)
        detail.onOpenLink = { [weak self, weak detail] uri in
            guard let self, let detail else { return }
            self.app?.help.openLink(uri, from: detail)
        }
        presentedMessage = dialog
        dialog.present()
        app.dialogChanges.notify((.message(message.id), true))
        // What is presented says so in the turn the dialog goes; a waiting link opens after it has gone.
        dialog.whenDismissed { [weak self, weak dialog] in
            if self?.presentedMessage === dialog { self?.presentedMessage = nil }
            self?.app?.dialogChanges.notify((.message(message.id), false))
        }
        app.tasks.start { [weak self, weak dialog] in
            await dialog?.dismissed()
            self?.app?.openPendingLink()
        }
    }

    /// Closes the message presented alone over the main window, if any.
    func dismissPresentedMessage() {
        presentedMessage?.dismiss()
        presentedMessage = nil
    }

    /// The detail page of a private message: its photo, comment, recipient and time.
    static func makeMessagePage(_ message: Message, recipient name: String) -> PhotoDetailPage {
        // Translators: the title of the page showing one private message (a noun).
        let title = localized("Message")
        // Translators: the subtitle under a message's title: whom it was sent to (%s is a person's name).
        let subtitle = localized("to %s", name)
        // Translators: when a message was sent; %s is a date and time, e.g. "7 Aug 2026, 14:05".
        let sent = localized("Sent %s", TimeText.dateAndTime(message.createdAt))
        let page = PhotoDetailPage(title: title, subtitle: subtitle, photoPath: message.photoPath,
                                   comment: message.comment, detail: sent)
        page.subject = message.id
        return page
    }

    /// Opens a message's draft: Messages, then the flow on Add a Comment for that recipient; a draft for
    /// someone who is not a friend is forgotten.
    func resume(_ draft: Draft) {
        guard let app else { return }
        guard let person = app.people.person(id: draft.target), !person.isMe else {
            app.store.discardDraft(draft)
            return
        }
        app.router.setPath([.messages], animated: false)
        guard let messages = app.stack.visiblePage as? MessagesPage else { return }
        startMessage(from: messages, resuming: (recipient: person, photo: Photo(uri: draft.photoURI), comment: draft.comment),
                     draftID: draft.id)
    }
}
