import CGtk
import Adwaita
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// Replays a ``Journey`` in `app` (`postcard --replay FILE`) through the app's model, not its widgets:
/// a path one route longer is pushed as a row's click pushes it, one shorter is the user's Back
/// (``NavigationStack/goBack()``), any other is set; a flow is presented (``AppController/present(_:)``)
/// and taken through the steps its pages report (``RunningFlow/perform(_:)``: the photo chosen, the
/// comment typed, Post, Cancel, the discard answer); a dialog is presented and dismissed the same way;
/// Delete runs what its button runs (``DeletionCoordinator``), Undo the toast's action.
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
                if wait > 0 { await MainLoopBridge.sleep(for: .seconds(wait)) }
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
        /// Takes `step` in the running flow once the page it needs shows (`Page`), idle.
        func perform<P: Page>(_ step: PhotoFlowStep, on _: P.Type, timeout: Double = Self.stepTimeout) async throws {
            let _: P = try await visible(entry, timeout: timeout)
            guard let flow = app.flows.current?.flow else { throw fail(localized("no flow is open")) }
            try await wait(entry, "\(P.self) to take “\(entry.step.name)”", timeout: timeout) { self.isIdle && flow.perform(step) }
        }
        switch entry.step {
        case .window where !followsWindowSteps:
            break
        case .window(let width):
            let window = app.mainWindow.window
            var current: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(window.pointer(), &current, &height)
            window.setDefaultSize(width: Int(width), height: Int(height))
            // Laid out at the new size: the window's width is its default less the shadow around it.
            try await wait(entry, "the window to be \(width) pixels wide") { abs(window.width - Int(width)) <= 24 }
        case .path(let recorded):
            try await show(map(recorded), entry)
        case .start(let kind):
            try await wait(entry, "\(kind.rawValue) to start") { self.isIdle && self.app.present(.flow(kind)) }
            try await wait(entry, "the flow \(kind.rawValue)") { self.app.flows.current?.kind == kind && self.isIdle }
        case .choose(let name):
            let photo = Photo(path: name.hasPrefix("/") ? FilePath(name) : app.library.directory.appending(name))
            try await perform(.choose(photo), on: PhotoPickerPage.self)
            let _: CommentPage = try await visible(entry)
        case .takePhoto:
            try await perform(.openCamera, on: PhotoPickerPage.self)
            let _: CameraPage = try await visible(entry)
        case .shutter:
            try await perform(.takePhoto, on: CameraPage.self, timeout: 30)
            let _: CommentPage = try await visible(entry, timeout: 30)
        case .chooseInstead:
            try await perform(.choosePhotoInstead, on: CameraPage.self)
            let _: PhotoPickerPage = try await visible(entry)
        case .recipient(let id):
            let _: ChooseRecipientPage = try await visible(entry)
            guard app.flows.current?.flow.chooseRecipient(id: id) == true else { throw fail(localized("no friend “%s” to send to", id)) }
            let _: PhotoPickerPage = try await visible(entry)
        case .comment(let text):
            try await perform(.comment(text), on: CommentPage.self)
        case .post:
            let page: CommentPage = try await visible(entry)
            try await perform(.post, on: CommentPage.self)
            // Stored (the flow ends) or refused (the page says why): what the next step sees.
            try await wait(entry, "the post to be stored") { !self.ended.isEmpty || page.errorLabel.isVisible }
        case .back:
            guard let stack = flowStack else { throw fail(localized("no flow is open")) }
            let depth = stack.pages.count
            try await perform(.back, on: Page.self)
            try await wait(entry, "the page before") { stack.pages.count < depth && stack.transition == .idle }
        case .cancel:
            guard let flow = app.flows.current?.flow else { throw fail(localized("no flow is open")) }
            try await wait(entry, "Cancel") { self.isIdle && flow.perform(.cancel) }
            // What Cancel leads to: the discard question, or the flow's end.
            try await wait(entry, "Discard This Post? or the flow's end") {
                MessageDialog.shown().contains { $0.window.isMapped } || !self.ended.isEmpty
            }
        case .discard, .keepEditing:
            let answer: DiscardAnswer = entry.step == .discard ? .discard : .keepEditing
            try await wait(entry, "Discard This Post?") { self.app.flows.current?.flow.perform(.answerDiscard(answer)) == true }
            try await wait(entry, "the question to close") { MessageDialog.shown().isEmpty }
        case .end(let recorded):
            try await wait(entry, "the flow to end") { !self.ended.isEmpty }
            let outcome = ended.removeFirst()
            try record(JourneyEnd(outcome), against: recorded, entry)
            try await wait(entry, "the flow's pages to close") { self.app.flows.current == nil && self.isIdle }
        case .present(.message(let recorded)):
            // Journeys recorded before Messages became a split view present a message: it is shown as
            // Messages shows one now, beside the list or over it (the path [messages, message]).
            let _: MessagesSplitView = try await visibleOnMainStack(entry)
            let id = messageIDs[recorded] ?? recorded
            guard (try? app.store.message(id: id)) != nil else {
                // Translators: a recorded journey opens a message that is not in Messages; %s is its number.
                throw fail(localized("no message %s in Messages", "\(id)"))
            }
            app.router.setPath([.messages, .message(id)])
            try await wait(entry, "the message") { self.isShown(.message(recorded)) && self.isIdle }
        case .present(let dialog):
            guard let destination = Destination(dialog) else { throw fail(localized("“%s” is not open", dialog.words.joined(separator: " "))) }
            try await wait(entry, destination.description) { self.isIdle && self.app.present(destination) }
            try await wait(entry, destination.description) { self.isShown(dialog) }  // a window, or a bottom sheet in the main one
        case .delete(let recorded):
            let item = map(recorded)
            let deletable = try await shown(item, entry)
            deletions.removeAll()
            app.deletions.delete(deletable.item, named: deletable.name)  // what its Delete (Remove Friend) runs
            try await wait(entry, "\(localized("Undo")) after the deletion") {
                self.deletions.contains { $0 == (item, true) } && self.isIdle && self.app.undoToast?.isDismissed == false
            }
        case .undo(let recorded):
            let item = map(recorded)
            try await wait(entry, localized("Undo")) { self.app.undoToast?.isDismissed == false }
            deletions.removeAll()
            app.undoToast?.activateAction()  // the toast's action, as Undo on it or Ctrl+Z runs it
            try await wait(entry, "what was deleted, back") { self.deletions.contains { $0 == (item, false) } }
        case .review(let name, let values):
            guard let performReviewStep else { throw fail(localized("a step of the review gallery's: replay this journey with postcard-review --journey")) }
            try await performReviewStep(name, values, entry)
        case .dismiss(.message(let id)) where previousStep == .delete(.message(id)) && !isShown(.message(id)):
            break  // Delete on the message's page closed it
        case .dismiss(let dialog):
            guard isShown(dialog) else { throw fail(localized("“%s” is not open", dialog.words.joined(separator: " "))) }
            if case .message(let recorded) = dialog {
                // Closing a message is leaving it: the list alone again.
                let id = messageIDs[recorded] ?? recorded
                app.router.setPath(app.router.path.filter { $0 != .message(id) })
            } else {
                app.dismissPresented()  // as its Close, Escape or the window manager's close
            }
            try await wait(entry, "“\(dialog.words.joined(separator: " "))” to close") { !self.isShown(dialog) }
        }
    }

    /// Shows `path` as a user would have reached it from the path shown now: one route more is pushed (as
    /// a row's, button's or link's click pushes it), one fewer is the user's Back, anything else is set
    /// (as the history menu or a link from outside sets it).
    private func show(_ path: [Route], _ entry: Journey.Entry) async throws {
        let router = app.router, current = router.path
        guard path != current else { return }
        if path.count == current.count + 1, Array(path.dropLast()) == current, let route = path.last {
            router.push(route)
        } else if current.count == path.count + 1, Array(current.dropLast()) == path, app.stack.state.previous != nil,
                  app.stack.state.top?.route?.value(as: Route.self) == current.last {  // not a message beside Messages
            app.stack.goBack()
        } else {
            router.setPath(path)
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

    /// What `item` (replay ids) is in the store, once the screen a user deletes it from shows it: the
    /// post's page, the reply in its thread, the message beside or over Messages (or its row there), the
    /// friend's profile.
    private func shown(_ item: JourneyDeletion, _ entry: Journey.Entry) async throws -> (item: DeletableItem, name: String?) {
        switch item {
        case .post(let id):
            try await wait(entry, Route.post(id).link) {
                self.isIdle && (self.app.stack.visiblePage as? PhotoDetailPage)?.subject == AnyHashable(id)
            }
            return (.post(id), nil)
        case .reply(let id):
            try await wait(entry, "reply \(id)") {
                self.isIdle && (self.app.stack.visiblePage as? CommentThreadPage)?.replies.contains { $0.id == id } == true
            }
            return (.reply(id), nil)
        case .message(let id):
            try await wait(entry, Route.message(id).link) {
                self.isIdle && (self.app.shownMessage?.subject == AnyHashable(id)
                    || (self.app.stack.visiblePage as? MessagesSplitView)?.list.messages.contains { $0.id == id } == true)
            }
            return (.message(id), nil)
        case .friend(let id):
            var friend: Friend?
            try await wait(entry, Route.profile(id).link) {
                friend = self.isIdle && (self.app.stack.visiblePage as? ProfilePage)?.person.id == id ? self.app.people.friend(id: id) : nil
                return friend != nil
            }
            return (.friend(friend!.rowID), friend!.name)
        }
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

    /// Whether `dialog` shows: its window mapped, or its bottom sheet in the main one.
    private func isShown(_ dialog: JourneyDialog) -> Bool {
        switch dialog {
        case .keyboardShortcuts: app.shortcutsWindow?.isMapped == true
        case .about: app.aboutWindow?.isMapped == true
        case .message(let recorded): app.shownMessage.map { $0.subject == AnyHashable(messageIDs[recorded] ?? recorded) && $0.view.isMapped } ?? false
        case .myCode: app.presentedMyCode?.root.view.isMapped == true
        case .scanner: app.presentedScanner?.root.view.isMapped == true
        }
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
            await MainLoopBridge.sleep(for: .seconds(0.02))
        }
    }
}
