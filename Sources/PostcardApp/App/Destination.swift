import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardJourney
import PostcardModel

/// What is presented over the main window, as a value (in the spirit of swift-navigation's
/// presentation-as-state): nothing (nil), a flow of a kind, My Code, Scan a Code, About or Keyboard
/// Shortcuts. ``AppController/presented`` holds it, and only the app's presenters change it, in the turn
/// what they show appears and once it has gone.
///
/// What is *not* a case, and why:
/// - a message: since the split view (issue 43) a message is part of the path (`[.messages,
///   .message(id)]`), beside the list or pushed over it, never presented;
/// - a web page: a web page of the main window is pushed (``Route/webPage(_:)``); one presented alone is
///   always over a flow's page (Help in the photo flow), so it belongs to that flow;
/// - a question: Postcard asks only inside flows (Discard This Post?), over the flow's own dialog.
///
/// Encoded (`Codable`) as its name (`my-code`, `scan-a-code`, `about`, `keyboard-shortcuts`, `flow
/// new-post`), the words a journal uses.
public enum Destination: Hashable, Sendable, CustomStringConvertible {
    /// A flow runs: presented modally (New Post, New Message, Add Friend) or pushed on the main stack
    /// (Reply with Photo, Edit Caption). While it runs it owns the window: links wait for its end.
    case flow(FlowKind)
    /// My Code, from the primary menu.
    case myCode
    /// Scan a Code, from the primary menu.
    case scanner
    /// About Postcard, from the primary menu.
    case about
    /// Keyboard Shortcuts, from the primary menu or Ctrl+?.
    case keyboardShortcuts

    /// Its name, as it is encoded and logged.
    public var description: String {
        switch self {
        case .flow(let kind): "flow \(kind.rawValue)"
        case .myCode: "my-code"
        case .scanner: "scan-a-code"
        case .about: "about"
        case .keyboardShortcuts: "keyboard-shortcuts"
        }
    }

    /// The presentation named `name` (``description``'s form), or nil.
    public init?(name: String) {
        switch name {
        case "my-code": self = .myCode
        case "scan-a-code": self = .scanner
        case "about": self = .about
        case "keyboard-shortcuts": self = .keyboardShortcuts
        default:
            guard name.hasPrefix("flow "), let kind = FlowKind(rawValue: String(name.dropFirst(5))) else { return nil }
            self = .flow(kind)
        }
    }

    /// Whether a launch brings it back when it was open at the last quit: My Code only. A flow comes back
    /// through its draft (Resume on My Profile), Scan a Code would start the camera unasked, and About and
    /// Keyboard Shortcuts are not where a user works.
    public var isRestored: Bool { self == .myCode }

    /// What a journal's dialog is presented as (nil for a message, which is part of the path now).
    init?(_ dialog: JourneyDialog) {
        switch dialog {
        case .myCode: self = .myCode
        case .scanner: self = .scanner
        case .about: self = .about
        case .keyboardShortcuts: self = .keyboardShortcuts
        case .message: return nil
        }
    }

    /// How a journal names it when it is a dialog (nil for a flow, which has its own steps).
    var journeyDialog: JourneyDialog? {
        switch self {
        case .flow: nil
        case .myCode: .myCode
        case .scanner: .scanner
        case .about: .about
        case .keyboardShortcuts: .keyboardShortcuts
        }
    }
}

extension Destination: Codable {
    /// Reads a presentation's name (``description``).
    /// - Throws: `DecodingError.dataCorrupted` when the name is none of them.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Destination(name: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a presentation: \(name)")
        }
        self = value
    }

    /// Writes its name (``description``).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The main window's whole navigation state: the path of its stack and what is presented over it.
/// ``AppController/navigationState`` reads it; ``AppController/navigate(to:)`` sets it, the one way to
/// navigate for code and tests alike; restoration keeps it across launches (presented: My Code only,
/// ``Destination/isRestored``).
public struct NavigationState: Hashable, Codable, Sendable {
    /// The routes above My Profile, bottom first.
    public var path: [Route]
    /// What is presented over the stack, or nil.
    public var presented: Destination?

    /// The state showing `path` with `presented` over it.
    public init(path: [Route] = [], presented: Destination? = nil) {
        self.path = path
        self.presented = presented
    }
}

extension AppController {
    /// The path shown and what is presented over it now.
    public var navigationState: NavigationState { NavigationState(path: router.path, presented: presented) }

    /// Sets the whole navigation state: dismisses what is presented when it is not `state.presented`
    /// (a flow ends as canceled, keeping its draft as Escape does) and waits until it has gone, sets the
    /// path, then presents `state.presented`.
    /// - Returns: whether the state reached is `state` (false when the presentation cannot be shown from
    ///   the page the path shows, such as Edit Caption on a page that is not one's own post, or when a
    ///   route's subject is gone and the path stops before it).
    @discardableResult
    public func navigate(to state: NavigationState) async -> Bool {
        if presented != nil, presented != state.presented {
            dismissPresented()
            await presentationEnds()
        }
        if router.path != state.path { router.setPath(state.path) }
        if let wanted = state.presented, presented != wanted { present(wanted) }
        return navigationState == state
    }

    /// Presents `presentation` over the main window, as its button or menu item does: My Code, Scan a Code,
    /// About, Keyboard Shortcuts, or a flow started from the page shown (New Post and Quick Snap on a
    /// profile, New Message on Messages, Reply with Photo on comments, Edit Caption on one's own post, Add
    /// Friend anywhere).
    /// - Returns: whether it is presented now; false while something else is (one at a time), or when the
    ///   page shown has no such flow, or for a flow that needs more than a page (New Post with a photo, a
    ///   resumed draft).
    @discardableResult
    public func present(_ presentation: Destination) -> Bool {
        guard presented == nil, !mainWindow.window.isDestroyed else { return false }
        switch presentation {
        case .myCode: friends.presentMyCode()
        case .scanner: friends.presentScanner()
        case .about: showAbout()
        case .keyboardShortcuts: showShortcuts()
        case .flow(let kind): startFlow(kind)
        }
        return presented == presentation
    }

    /// Presents `presentation` now, or, while something else is presented, once it has gone (in the order
    /// asked; asking again for one that waits changes nothing): an application action (About, Keyboard
    /// Shortcuts, New Post from Ctrl+N, the desktop or D-Bus) is never dropped without a word. While one
    /// waits, the main window's toast says so and the dialog in use announces it to a screen reader.
    public func presentWhenPossible(_ presentation: Destination) {
        guard presented != nil else {
            presentNow(presentation)
            return
        }
        guard presented != presentation, !waitingPresentations.contains(presentation) else { return }
        waitingPresentations.append(presentation)
        appLog.info("\(presentation) waits for \(presented.map(\.description) ?? "") to close")
        showWaitingToast()
    }

    /// Presents the first of ``waitingPresentations`` that can be (called as ``presented`` becomes nil).
    private func presentNextWaiting() {
        while presented == nil, !waitingPresentations.isEmpty {
            presentNow(waitingPresentations.removeFirst())
        }
        if waitingPresentations.isEmpty && pendingLink == nil { hideWaitingLinkToast() }
    }

    /// Presents `presentation` as its action does: New Post returns to My Profile first.
    private func presentNow(_ presentation: Destination) {
        if presentation == .flow(.newPost) { startNewPost() } else { present(presentation) }
    }

    /// Dismisses what is presented, as its Close, Cancel or Escape would: a dialog closes, a flow ends as
    /// canceled (keeping what was typed as a draft). ``presented`` is nil once it has gone
    /// (``presentationEnds()``).
    public func dismissPresented() {
        switch presented {
        case nil: break
        case .flow: flows.cancelRunning()
        case .myCode, .scanner: friends.dismissPresentedPages()
        case .about: aboutWindow?.close()
        case .keyboardShortcuts: shortcutsWindow?.close()
        }
    }

    /// Returns once nothing is presented (at once when nothing is): woken by the change of ``presented``,
    /// never by a timer.
    public func presentationEnds() async {
        guard presented != nil else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            presentationWaiters.append(continuation)
        }
    }

    /// Told by the presenters: `presentation` now shows (nil: what showed has gone). Tells the journal's
    /// dialogs; once nothing is presented, wakes ``presentationEnds()`` and opens a waiting link; then tells
    /// ``presentationChanges``.
    func setPresented(_ presentation: Destination?) {
        guard presentation != presented else { return }
        let old = presented
        presented = presentation
        appLog.debug("Presented: \(presentation.map(\.description) ?? "nothing")")
        if let dialog = old?.journeyDialog { dialogChanges.notify((dialog, false)) }
        if let dialog = presentation?.journeyDialog { dialogChanges.notify((dialog, true)) }
        if presentation == nil {
            let waiters = presentationWaiters
            presentationWaiters = []
            for waiter in waiters { waiter.resume() }
            openPendingLink()  // in this turn: observers below see the link opened
            if presented == nil { presentNextWaiting() }
        }
        presentationChanges.notify(presentation)
    }

    /// Ends `presentation` if it is the one presented (a dialog gone after another took its place changes
    /// nothing).
    func presentationEnded(_ presentation: Destination) {
        if presented == presentation { setPresented(nil) }
    }

    /// Starts the flow `kind` from the page shown, as its button does.
    private func startFlow(_ kind: FlowKind) {
        let page = stack.visiblePage
        switch kind {
        case .newPost, .quickSnap:
            guard let profile = page as? ProfilePage else { return }
            posting.startPost(on: profile, start: kind == .quickSnap ? .camera(title: localized("Quick Snap")) : .choosePhoto)
        case .newMessage:
            guard let messages = page as? MessagesSplitView else { return }
            messaging.startMessage(from: messages)
        case .replyWithPhoto:
            guard let thread = page as? CommentThreadPage else { return }
            replies.startReply(in: thread)
        case .editCaption:
            guard let detail = page as? PhotoDetailPage, case .post(let id)? = router.visibleRoute,
                  let post = try? store.post(id: id), post.author == Identity.localID else { return }
            captions.startEditing(post, shownIn: detail)
        case .addFriend:
            friends.startAddFriend()
        case .newPostWithPhoto, .resumeDraft:
            appLog.debug("\(kind.rawValue) needs a photo or a draft, not only a page: not started")
        }
    }
}
