import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// Messages: makes the Messages split view (``Route/messages``: the list, and the message chosen beside
/// it or over it) and a message's page (``Route/message(_:)``), runs the message flow (Choose Recipient,
/// then the photo flow as a step) from it, and puts the stored message at the top of the list. Resumes
/// a message's draft. Main actor only.
@MainActor
final class MessagingCoordinator {
    /// Weak: the app owns this coordinator; its tasks are the app's (`AppController.tasks`), waited for at quit.
    private weak var app: AppController?

    init(app: AppController) { self.app = app }

    /// Messages: the list with New Message; a message activated in it is shown through the router's
    /// path (`[messages, message(ID)]`), beside the list or over it as the width allows.
    func makeMessagesPage() -> MessagesSplitView {
        let list = MessagesPage { [weak app] id in app?.people.person(id: id)?.name ?? id }
        let split = MessagesSplitView(list: list)
        reload(list)
        // The list follows the store: a message stored goes to its top; one deleted or brought back reads
        // the list again.
        list.followsStore = app?.store.changes.add { [weak self, weak list] change in
            guard let self, let list else { return }
            switch change {
            case .messageAdded(let message): list.insertNewMessage(message)
            case .deleted(.message), .restored(.message), .reread: self.reload(list)
            default: break
            }
        }
        list.onNewMessage = { [weak self, weak split] in
            guard let self, let split else { return }
            self.startMessage(from: split)
        }
        list.onOpen = { [weak self] message in self?.show(message) }
        list.onDelete = { [weak self] message in self?.app?.deletions.delete(.message(message.id)) }
        return split
    }

    /// Shows `message` as Messages' content (the list stays beside it, or under it when narrow).
    func show(_ message: Message) {
        guard let app else { return }
        app.router.setPath([.messages, .message(message.id)])
    }

    /// Reads the list from the store, a page of rows at a time.
    func reload(_ page: MessagesPage) {
        guard let app else { return }
        page.showMessages(PagedRows(pageSize: AppController.pageSize) { [store = app.store] last, limit in
            try store.messages(after: last, limit: limit)
        })
    }

    /// Runs the message flow from Messages, resuming a draft when given; nothing while another flow runs.
    /// `resuming` opens on Add a Comment for its recipient, going on with its draft (`draftID`).
    func startMessage(from messages: MessagesSplitView, resuming: (recipient: Person, photo: Photo, comment: String)? = nil,
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
        app.flows.start(resuming == nil ? .newMessage : .resumeDraft, flow) { [weak app, weak messages] flow in
            guard let messages else { return .message(.canceled) }
            let result = await flow.run(from: messages, resuming: resuming)
            if case .sent(let message) = result {  // the list shows it (it follows the store)
                let name = app?.people.person(id: message.recipient)?.name ?? message.recipient
                // Translators: a toast after a message was sent; %s is the recipient's name. "View" opens it.
                app?.showToast(localized("Message sent to %s", name), buttonLabel: localized("View")) { [weak app] in
                    app?.openWhenPossible(.message(message.id))
                }
            }
            return .message(result)
        }
    }

    /// A message's page as Messages shows it: its photo and comment, Delete for the user's own, links
    /// in the comment opening as the app's links do.
    func makeMessageDetail(_ message: Message) -> PhotoDetailPage {
        let detail = Self.makeMessagePage(message, recipient: app?.people.person(id: message.recipient)?.name ?? message.recipient)
        if message.author == Identity.localID {
            detail.actions.append(CaptionCoordinator.deleteButton { [weak self] in self?.app?.deletions.delete(.message(message.id)) })
        }
        detail.onOpenLink = { [weak self, weak detail] uri in
            guard let self, let detail else { return }
            self.app?.help.openLink(uri, from: detail)
        }
        return detail
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
        guard let messages = app.stack.visiblePage as? MessagesSplitView else { return }
        startMessage(from: messages, resuming: (recipient: person, photo: Photo(uri: draft.photoURI), comment: draft.comment),
                     draftID: draft.id)
    }
}
