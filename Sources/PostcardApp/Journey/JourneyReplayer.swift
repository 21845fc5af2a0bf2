import CGtk
import Adwaita
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel

/// Replays a ``Journey`` in `app` (`postcard --replay FILE`) through the same widgets a user's input
/// goes through: a path one route longer pushes it as a row's click does, one shorter activates Back,
/// a flow starts from its page's button, a photo is activated in Choose a Photo's grid, the comment is
/// typed into the comment field (leaving the cursor after it), and Post, Cancel and the discard
/// question's buttons are pressed (as their More menu item does when a narrow bar moved them there);
/// Delete is pressed on the post's page, the reply's or message's row (or the message's page), Remove
/// Friend on the friend's profile, and Undo on the toast that follows.
/// Each step waits for the screen it leads to (up to ``stepTimeout``), and each flow's end and the last
/// path are compared with what the journal says; the posts, replies and messages the replay stores get
/// new ids, which later steps are mapped to. Main actor.
@MainActor
public final class JourneyReplayer {
    /// How fast the steps follow each other.
    public enum Pace: Equatable, Sendable {
        /// As recorded: each step no earlier than its time after the start.
        case recorded
        /// As fast as the screens allow: each step once the one before has shown its screen.
        case fast
    }

    /// How long a step may wait for the screen it needs, in seconds.
    public static let stepTimeout = 20.0

    private let app: AppController
    private let journey: Journey
    private let pace: Pace
    /// The ids the recording gave what the replay stored again, to the replay's ids.
    private var postIDs: [Int64: Int64] = [:], messageIDs: [Int64: Int64] = [:], replyIDs: [Int64: Int64] = [:]
    private var ended: [FlowOutcome] = []
    private var endsToken: ObservationToken?
    /// What the replay deleted (true) and brought back (false), in the replay's ids, as it happened.
    private var deletions: [(JourneyDeletion, Bool)] = []
    private var deletionsToken: ObservationToken?
    /// The step replayed before the one replaying now.
    private var previousStep: JourneyStep?
    /// Called after each step has been replayed and its screen shows (the review gallery saves its
    /// pictures there).
    public var afterStep: (@MainActor (Journey.Entry) async throws -> Void)?
    /// Whether `window` steps resize the main window (true), or are passed over (the review gallery
    /// sets the width of each of its parts itself).
    public var followsWindowSteps = true
    /// Replays a `review` step (``JourneyStep/review(_:_:)``): its name, its values and its entry (for
    /// errors). The review gallery sets this; without it a review step stops the replay.
    public var performReviewStep: (@MainActor (String, [String], Journey.Entry) async throws -> Void)?

    /// A replayer of `journey` in `app`, at `pace`.
    public init(app: AppController, journey: Journey, pace: Pace = .fast) {
        self.app = app
        self.journey = journey
        self.pace = pace
    }

    /// Checks, before anything is replayed, that every step can be tried in `library`: each photo
    /// chosen is in it, and no step needs what a replay cannot give (the inside of Add Friend, a draft
    /// left by an earlier run, or, unless `allowingReviewSteps`, the review gallery's own steps).
    /// - Throws: ``JourneyError`` naming the first step that cannot be replayed.
    nonisolated public static func check(_ journey: Journey, library: FilePath, allowingReviewSteps: Bool = false) throws {
        for entry in journey.entries {
            switch entry.step {
            case .review where !allowingReviewSteps:
                throw JourneyError(line: entry.line, step: entry.step.name, reason: .notReplayable(
                    localized("a step of the review gallery's: replay this journey with postcard-review --journey")))
            case .choose(let name):
                let path = name.hasPrefix("/") ? FilePath(name) : library.appending(name)
                guard Files.exists(path) else {
                    throw JourneyError(line: entry.line, step: entry.step.name, reason: .missingPhoto(name))
                }
            case .start(.resumeDraft), .start(.newPostWithPhoto), .start(.addFriend):
                throw JourneyError(line: entry.line, step: entry.step.name, reason: .notReplayable(
                    // Translators: a recorded journey can't be replayed: %s is how the flow was started ("add-friend").
                    localized("a replay can't start “%s”: it starts in a new data folder, and only the flow's start and end are recorded",
                              (entry.step.words.last ?? ""))))
            default: break
            }
        }
    }

    /// Replays every step, in order.
    /// - Throws: ``JourneyError`` naming the first step that could not be replayed (a screen that did not
    ///   come, a route whose subject is gone, a photo missing) or whose outcome differs from the journal.
    public func run() async throws {
        try Self.check(journey, library: app.library.directory, allowingReviewSteps: performReviewStep != nil)
        endsToken = app.flowEnds.add { [weak self] outcome in self?.ended.append(outcome) }
        deletionsToken = app.deletions.changes.add { [weak self] change in self?.deletions.append(change) }
        defer { endsToken = nil; deletionsToken = nil }
        if let first = journey.entries.first {
            try await wait(first, "the main window") { self.app.mainWindow.window.isMapped && self.app.mainWindow.window.width > 0 }
        }
        let start = DateText.monotonicMicroseconds
        var lastPath: (entry: Journey.Entry, routes: [Route])?
        for entry in journey.entries {
            if pace == .recorded {
                let due = start + Int64(entry.time * 1_000_000)
                let wait = Double(due - DateText.monotonicMicroseconds) / 1_000_000
                if wait > 0 { await MainLoopBridge.sleep(seconds: wait) }
            }
            try await replay(entry)
            previousStep = entry.step
            try await afterStep?(entry)
            if case .path(let routes) = entry.step { lastPath = (entry, routes) }
        }
        if let (entry, routes) = lastPath {
            let expected = map(routes)
            try await wait(entry, "the path \(links(expected))") { self.app.router.path == expected && self.isIdle }
        }
    }

    // MARK: - Steps

    private func replay(_ entry: Journey.Entry) async throws {
        func fail(_ what: String) -> JourneyError {
            JourneyError(line: entry.line, step: entry.step.name, reason: .notReplayable(what))
        }
        switch entry.step {
        case .window where !followsWindowSteps:
            break
        case .window(let width):
            let window = app.mainWindow.window
            var current: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(window.pointer(), &current, &height)
            window.setDefaultSize(width: Int32(width), height: height)
            // Laid out at the new size: the window's width is its default less the shadow around it.
            try await wait(entry, "the window to be \(width) pixels wide") { abs(window.width - Int32(width)) <= 24 }
        case .path(let recorded):
            try await show(map(recorded), entry)
        case .start(let kind):
            guard let button = startButton(for: kind) else {
                throw fail(localized("no button for “%1$s” on the page shown (%2$s)", kind.rawValue, visibleTitle))
            }
            try await wait(entry, "\(kind.rawValue)'s button") { button.isSensitive && self.isIdle }
            press(button)
            try await wait(entry, "the flow \(kind.rawValue)") { self.app.flows.current?.kind == kind && self.isIdle }
        case .choose(let name):
            let picker: PhotoPickerPage = try await visible(entry)
            try await wait(entry, "the photos") { !picker.isScanning }
            let path = name.hasPrefix("/") ? name : app.library.directory.appending(name).displayName
            guard let index = picker.photos.firstIndex(where: { $0.path == path }) else {
                throw JourneyError(line: entry.line, step: entry.step.name, reason: .missingPhoto(name))
            }
            picker.grid.activateItem(at: index)
            let _: CommentPage = try await visible(entry)
        case .takePhoto:
            let picker: PhotoPickerPage = try await visible(entry)
            press(picker.takePhotoButton)
            let _: CameraPage = try await visible(entry)
        case .shutter:
            let camera: CameraPage = try await visible(entry)
            try await wait(entry, "the camera") { camera.shutterButton.isSensitive && camera.shutterButton.isMapped }
            press(camera.shutterButton)
            let _: CommentPage = try await visible(entry, timeout: 30)
        case .chooseInstead:
            let camera: CameraPage = try await visible(entry)
            press(camera.chooseInsteadButton)
            let _: PhotoPickerPage = try await visible(entry)
        case .recipient(let id):
            let page: ChooseRecipientPage = try await visible(entry)
            guard let person = app.people.friendPeople.first(where: { $0.id == id }),
                  let button = page.friendButtons.first(where: { $0.label == person.name }) else {
                throw fail(localized("no friend “%s” to send to", id))
            }
            press(button)
            let _: PhotoPickerPage = try await visible(entry)
        case .comment(let text):
            let page: CommentPage = try await visible(entry)
            guard page.commentView.text != text else { break }
            // Typed: the field then holds the text with the cursor after it.
            page.commentView.text = ""
            page.commentView.insertAtCursor(text)
        case .post:
            let page: CommentPage = try await visible(entry)
            try await wait(entry, "Post to be possible") { page.postButton.isSensitive }
            press(page.postButton)
            // Stored (the flow ends) or refused (the page says why): what the next step sees.
            try await wait(entry, "the post to be stored") { !self.ended.isEmpty || page.errorLabel.isVisible }
        case .back:
            guard let stack = flowStack else { throw fail(localized("no flow is open")) }
            let depth = stack.pages.count
            press(stack.backButton)
            try await wait(entry, "the page before") { stack.pages.count < depth && stack.transition == .idle }
        case .cancel:
            guard let button = cancelButton else { throw fail(localized("no flow is open")) }
            // In a narrow window the bar's More menu holds Cancel (Page's overflow): the same button's
            // action, so it is activated whether it shows in the bar or not.
            try await wait(entry, "Cancel") { button.isSensitive && self.isIdle }
            press(button)
            // What Cancel leads to: the discard question, or the flow's end.
            try await wait(entry, "Discard This Post? or the flow's end") {
                MessageDialog.shown().contains { $0.window.isMapped } || !self.ended.isEmpty
            }
        case .discard, .keepEditing:
            try await wait(entry, "Discard This Post?") { !MessageDialog.shown().isEmpty }
            let question = MessageDialog.shown()[0]
            press(entry.step == .discard ? question.confirmButton : question.keepButton)
            try await wait(entry, "the question to close") { MessageDialog.shown().isEmpty }
        case .end(let recorded):
            try await wait(entry, "the flow to end") { !self.ended.isEmpty }
            let outcome = ended.removeFirst()
            try record(JourneyEnd(outcome), against: recorded, entry)
            try await wait(entry, "the flow's pages to close") { self.app.flows.current == nil && self.isIdle }
        case .present(.message(let recorded)):
            // Journeys recorded before Messages became a split view present a message: it opens as its
            // row's activation opens it now, beside the list or over it.
            let page: MessagesSplitView = try await visibleOnMainStack(entry)
            let id = messageIDs[recorded] ?? recorded
            guard page.list.activateRow(ofMessage: id) else {
                // Translators: a recorded journey opens a message that is not in Messages; %s is its number.
                throw fail(localized("no message %s in Messages", "\(id)"))
            }
            try await wait(entry, "the message") { self.isShown(.message(recorded)) && self.isIdle }
        case .present(let dialog):
            let label = menuLabel(of: dialog)
            guard app.primaryMenu.activateItem(label) else { throw fail(localized("no “%s” in the main menu", label)) }
            try await wait(entry, label) { self.isShown(dialog) }  // a window, or a bottom sheet in the main one
        case .delete(let recorded):
            let item = map(recorded)
            let button = try await deleteButton(for: item, entry)
            deletions.removeAll()
            press(button)
            try await wait(entry, "\(localized("Undo")) after the deletion") {
                self.deletions.contains { $0 == (item, true) } && self.isIdle
                    && self.app.toasts.shownButton(labeled: localized("Undo")) != nil
            }
        case .undo(let recorded):
            let item = map(recorded)
            var undo: Button?
            try await wait(entry, localized("Undo")) {
                undo = self.app.toasts.shownButton(labeled: localized("Undo"))
                return undo != nil
            }
            deletions.removeAll()
            undo!.activate()
            try await wait(entry, "what was deleted, back") { self.deletions.contains { $0 == (item, false) } }
        case .review(let name, let values):
            guard let performReviewStep else { throw fail(localized("a step of the review gallery's: replay this journey with postcard-review --journey")) }
            try await performReviewStep(name, values, entry)
        case .dismiss(.message(let id)) where previousStep == .delete(.message(id)) && !isShown(.message(id)):
            break  // Delete on the message's page closed it
        case .dismiss(let dialog):
            guard isShown(dialog) else { throw fail(localized("“%s” is not open", menuLabel(of: dialog))) }
            switch dialog {
            case .message(let recorded):
                // Closing a message is leaving it: the list alone again.
                let id = messageIDs[recorded] ?? recorded
                app.router.setPath(app.router.path.filter { $0 != .message(id) })
            case .myCode, .scanner:
                guard let shown = presented(dialog) else { throw fail(localized("“%s” is not open", menuLabel(of: dialog))) }
                press(shown.closeButton)
            case .keyboardShortcuts, .about:
                // As its close button, Escape or the window manager closes it.
                (dialog == .about ? app.aboutWindow : app.shortcutsWindow)?.close()
            }
            try await wait(entry, "\(menuLabel(of: dialog)) to close") { !self.isShown(dialog) }
        }
    }

    /// Shows `path` as a user would have reached it from the path shown now.
    private func show(_ path: [Route], _ entry: Journey.Entry) async throws {
        let router = app.router, current = router.path
        guard path != current else { return }
        if path.count == current.count + 1, Array(path.dropLast()) == current, let route = path.last {
            router.push(route)  // what a row's, button's or link's click calls
        } else if current.count == path.count + 1, Array(current.dropLast()) == path, app.stack.backButton.isMapped,
                  app.stack.state.top?.route?.value(as: Route.self) == current.last {  // not a message beside Messages
            press(app.stack.backButton)
        } else {
            router.setPath(path)  // the history menu, a link opened from outside
        }
        try await wait(entry, "the path \(links(path))") { router.path == path && self.isIdle }
        if app.stack.visiblePage is NotFoundPage {
            throw JourneyError(line: entry.line, step: entry.step.name, reason: .notReplayable(
                // Translators: a recorded journey opens a screen whose post, friend or message is not there.
                localized("%s is gone", path.last?.link ?? "")))
        }
    }

    /// Compares the flow's end with the journal's and remembers the ids the replay gave.
    private func record(_ replayed: JourneyEnd, against recorded: JourneyEnd, _ entry: Journey.Entry) throws {
        switch (recorded, replayed) {
        case (.post(let old), .post(let new)), (.caption(let old), .caption(let new)): postIDs[old] = new
        case (.reply(let old), .reply(let new)): replyIDs[old] = new
        case (.message(let old), .message(let new)): messageIDs[old] = new
        case (.friend(let old), .friend(let new)) where old == new: break
        case (.canceled, .canceled): break
        default:
            throw JourneyError(line: entry.line, step: entry.step.name, reason: .differs(
                // Translators: %1$s is how a recorded flow ended ("post 12"), %2$s how it ended when replayed.
                localized("the journal says “%1$s”, the replay ended with “%2$s”",
                          recorded.words.joined(separator: " "), replayed.words.joined(separator: " "))))
        }
    }

    /// The routes with the recording's ids replaced by the replay's.
    private func map(_ routes: [Route]) -> [Route] {
        routes.map { route in
            switch route {
            case .post(let id): .post(postIDs[id] ?? id)
            case .comments(let id): .comments(postIDs[id] ?? id)
            case .message(let id): .message(messageIDs[id] ?? id)
            default: route
            }
        }
    }

    /// What was deleted with the recording's ids replaced by the replay's.
    private func map(_ item: JourneyDeletion) -> JourneyDeletion {
        switch item {
        case .post(let id): .post(postIDs[id] ?? id)
        case .reply(let id): .reply(replyIDs[id] ?? id)
        case .message(let id): .message(messageIDs[id] ?? id)
        case .friend: item
        }
    }

    /// The Delete a user presses for `item` (replay ids): on the post's page, on the reply's row in its
    /// thread, on the message's page when it is open or else its row in Messages, or Remove Friend on
    /// the friend's profile; each waited for on the screen shown.
    private func deleteButton(for item: JourneyDeletion, _ entry: Journey.Entry) async throws -> Widget {
        var found: Widget?
        let what: String
        switch item {
        case .post(let id):
            what = localized("Delete") + " (\(Route.post(id).link))"
            try await wait(entry, what) {
                let page = self.isIdle ? self.app.stack.visiblePage as? PhotoDetailPage : nil
                found = page?.subject == AnyHashable(id) ? page?.actionButton(labeled: localized("Delete")) : nil
                return found != nil
            }
        case .reply(let id):
            what = localized("Delete Reply")
            try await wait(entry, what) {
                let page = self.isIdle ? self.app.stack.visiblePage as? CommentThreadPage : nil
                found = page?.replyRows.first { $0.reply?.id == id && $0.deleteButton.isMapped }?.deleteButton
                return found != nil
            }
        case .message(let id):
            what = localized("Delete Message")
            try await wait(entry, what) {
                if let shown = self.app.shownMessage, shown.subject == AnyHashable(id), self.isIdle {
                    found = shown.actionButton(labeled: localized("Delete"))
                } else {
                    let page = self.isIdle ? (self.app.stack.visiblePage as? MessagesSplitView)?.list : nil
                    found = page?.rows.first { $0.message?.id == id && $0.deleteButton.isMapped }?.deleteButton
                }
                return found != nil
            }
        case .friend(let id):
            what = localized("Remove Friend")
            try await wait(entry, what) {
                let page = self.isIdle ? self.app.stack.visiblePage as? ProfilePage : nil
                found = page?.person.id == id ? page?.endBarItems.first { $0.tooltip == localized("Remove Friend") } : nil
                return found != nil
            }
        }
        return found!
    }

    // MARK: - What is on screen

    private var isIdle: Bool {
        app.stack.transition == .idle && (flowStack?.transition ?? .idle) == .idle && !app.stack.isSwitchingBreakpoint
    }

    /// The stack the running flow's pages are on (its dialog's, or the main one), else the main stack.
    private var flowStack: NavigationStack? {
        guard let flow = app.flows.current?.flow else { return nil }
        return flow.dialog?.stack ?? app.stack
    }

    private var visibleTitle: String { (flowStack ?? app.stack).visiblePage?.title ?? "" }

    /// Waits for a page of type `P` on top of the main stack, idle, with no flow running.
    private func visibleOnMainStack<P: Page>(_ entry: Journey.Entry) async throws -> P {
        var found: P?
        try await wait(entry, "\(P.self)") {
            found = self.isIdle && self.app.flows.current == nil ? self.app.stack.visiblePage as? P : nil
            return found != nil
        }
        return found!
    }

    /// Waits for a page of type `P` on top of the flow's stack (or the main stack), idle.
    private func visible<P: Page>(_ entry: Journey.Entry, timeout: Double = stepTimeout) async throws -> P {
        var found: P?
        try await wait(entry, "\(P.self)", timeout: timeout) {
            let stack = self.flowStack ?? self.app.stack
            found = stack.transition == .idle ? stack.visiblePage as? P : nil
            return found != nil
        }
        return found!
    }

    /// The button on the page shown that starts `kind`.
    private func startButton(for kind: FlowKind) -> Button? {
        let page = app.stack.visiblePage
        switch kind {
        case .newPost: return (page as? ProfilePage)?.postButton
        case .quickSnap: return (page as? ProfilePage)?.quickSnapButton
        case .replyWithPhoto: return (page as? CommentThreadPage)?.replyButton
        case .newMessage: return (page as? MessagesSplitView)?.list.newMessageButton
        case .editCaption:
            return page?.endBarItems.compactMap { $0 as? Button }.first { $0.label == localized("Edit Caption") }
        case .addFriend: return (page as? ProfilePage)?.addFriendButton
        case .newPostWithPhoto, .resumeDraft: return nil
        }
    }

    /// The running flow's Cancel: its dialog's (Close when it shows its first page alone), its own when
    /// pushed, or Back for Edit Caption.
    private var cancelButton: Button? {
        guard let flow = app.flows.current?.flow else { return nil }
        if let dialog = flow.dialog {
            // A page shown alone with its own bar (Quick Snap's camera) has Close there; otherwise the
            // flow's Cancel, in the bar or in its More menu.
            if dialog.cancelButton.isMapped || dialog.stack.pages.count > 1 || !dialog.closeButton.isMapped { return dialog.cancelButton }
            return dialog.closeButton
        }
        if let photoFlow = flow as? CommentedPhotoFlow<Reply>, let own = photoFlow.ownCancelButton { return own }
        return app.stack.backButton
    }

    /// The dialog presented alone for `dialog` (My Code, Scan a Code, a message), if it is open.
    private func presented(_ dialog: JourneyDialog) -> ModalDialog? {
        switch dialog {
        case .myCode: app.presentedMyCode
        case .scanner: app.presentedScanner
        case .message, .keyboardShortcuts, .about: nil
        }
    }

    /// Whether `dialog` shows: its window mapped, or its bottom sheet in the main one.
    private func isShown(_ dialog: JourneyDialog) -> Bool {
        switch dialog {
        case .keyboardShortcuts: app.shortcutsWindow?.isMapped == true
        case .about: app.aboutWindow?.isMapped == true
        case .message(let recorded): app.shownMessage.map { $0.subject == AnyHashable(messageIDs[recorded] ?? recorded) && $0.view.isMapped } ?? false
        default: presented(dialog)?.root.view.isMapped == true
        }
    }

    /// The primary menu's item that opens `dialog` (a message: what its page is called).
    private func menuLabel(of dialog: JourneyDialog) -> String {
        switch dialog {
        case .myCode: localized("My Code")
        case .scanner: localized("Scan a Code")
        case .keyboardShortcuts: localized("Keyboard Shortcuts")
        case .about: localized("About Postcard")
        case .message: localized("Message")
        }
    }

    /// Presses `button` as a click does (`gtk_widget_activate`), or, while it is not shown because a
    /// narrow bar moved it into its More menu, as that menu's item does (`clicked`).
    private func press(_ button: Button) {
        if button.isMapped { button.activate() } else { button.emitClicked() }
    }

    /// Presses `widget` (a button) as a click does, or as its More menu item does while a narrow bar
    /// holds it there.
    private func press(_ widget: Widget) {
        if let button = widget as? Button { press(button) } else { widget.activate() }
    }

    private func links(_ routes: [Route]) -> String { routes.isEmpty ? "(My Profile)" : routes.map(\.link).joined(separator: " ") }

    private func wait(_ entry: Journey.Entry, _ what: String, timeout: Double = stepTimeout, _ condition: () -> Bool) async throws {
        let deadline = DateText.monotonicMicroseconds + Int64(timeout * 1_000_000)
        while !condition() {
            guard DateText.monotonicMicroseconds < deadline else {
                throw JourneyError(line: entry.line, step: entry.step.name, reason: .notReplayable(
                    // Translators: %1$s is what a replayed step waited for ("ChoosePhotoPage"), %2$d seconds.
                    localized("%1$s did not come within %2$d seconds", what, Int(timeout))))
            }
            await MainLoopBridge.sleep(seconds: 0.02)
        }
    }
}
