import Gtk
import Navigation
import NavigationGtk
import PhotoPosting
import PostcardModel

/// **Add Friend**: **Scan Their Code** (the ``ScanCodePage`` pushed) or **Enter Their Link**, then
/// **New Friend** showing who the code is, then **Add**; **Show My Code** pushes ``MyCodePage`` for the
/// other person to scan.
///
/// A code that is not a Postcard code, the user's own code, or a friend's already is refused on the
/// page it was read on (the scanner or the link's entry) with what it is, so the user can try again;
/// only a new person's code goes on to New Friend.
///
/// Returns `.added` with the friend stored, or `.canceled`, exactly once (``FlowCompletion``), modal from
/// the page it starts on: Cancel, Escape, closing the dialog, or the dialog going away cancel. Nothing
/// typed is lost by canceling that the user would miss (a link is pasted again), so it does not ask.
///
/// Main actor only.
@MainActor
public final class AddFriendFlow {
    /// How the flow ended.
    public enum Result: Equatable, Sendable {
        /// The friend was stored.
        case added(Friend)
        /// The user left without adding anyone.
        case canceled
    }

    /// Where the flow begins.
    public enum Start: Equatable, Sendable {
        /// The first page, with its three choices.
        case choose
        /// New Friend for a code already read (scanned from My Profile's Scan a Code).
        case newFriend(FriendCode)
    }

    /// Whether the person with this id is already a friend, and whether it is the user's own id.
    public typealias Known = @MainActor (String) -> (isFriend: Bool, isMe: Bool)
    /// The caller's adding action: store the friend; throwing keeps New Friend open with the error.
    public typealias Add = @MainActor (FriendCode) async throws -> Friend

    private let camera: CameraSettings
    private let identity: () -> Identity
    private let known: Known
    private let add: Add
    private let start: Start
    private let completion = FlowCompletion<Result>()
    private var host: FlowHost?
    private var isAdding = false
    /// Called with the link when Copy Link is pressed on My Code, and with the new name on rename.
    var onCopyLink: (@MainActor (String) -> Void)?
    var onRename: (@MainActor (String, MyCodePage) -> Void)?

    /// The flow's dialog while it runs.
    public var dialog: ModalDialog? { host?.dialog }
    /// The flow's stack while it runs.
    public var stack: NavigationStack? { host?.stack }

    /// Creates the flow (not yet shown): `camera` is what Scan Their Code shows, `identity` the user
    /// (for Show My Code), `known` tells friends and the user apart, `add` stores.
    public init(camera: CameraSettings, start: Start = .choose, identity: @escaping () -> Identity,
                known: @escaping Known, add: @escaping Add) {
        self.camera = camera
        self.start = start
        self.identity = identity
        self.known = known
        self.add = add
    }

    /// Shows the flow modally from `page` and waits for its result. Call once per instance; later calls
    /// return the first result.
    public func run(from page: Page) async -> Result {
        if host == nil && !completion.isResolved { begin(from: page) }
        return await completion.value(onCancel: { [weak self] in self?.finish(.canceled) })
    }

    /// Ends the flow now as `.canceled`.
    public func cancel() { finish(.canceled) }

    private func begin(from anchor: Page) {
        let first: Page
        switch start {
        case .choose:
            let choices = AddFriendPage()
            choices.onScan = { [weak self] in self?.pushScanner() }
            choices.onEnterLink = { [weak self] in self?.pushLinkEntry() }
            choices.onShowMyCode = { [weak self] in self?.pushMyCode() }
            first = choices
        case .newFriend(let code):
            first = makeNewFriendPage(code)
        }
        let host = FlowHost(from: anchor, presentation: .modal, first: first)
        host.onCancelRequest = { [weak self] _ in
            guard let self, !self.isAdding else { return }
            self.finish(.canceled)
        }
        self.host = host
    }

    private func pushScanner() {
        guard let host, !isVisible(ScanCodePage.self) else { return }
        let scanner = ScanCodePage(settings: camera, title: localized("Scan Their Code"))
        scanner.onCodeRead = { [weak self, weak scanner] code in
            guard let self, let scanner else { return }
            switch self.check(code.text) {
            case .success(let friendCode): self.pushNewFriend(friendCode)
            case .failure(let refusal): scanner.refuse(title: refusal.title, detail: refusal.detail)
            }
        }
        host.push(scanner)
    }

    private func pushLinkEntry() {
        guard let host, !isVisible(EnterLinkPage.self) else { return }
        let entry = EnterLinkPage()
        entry.onContinue = { [weak self, weak entry] text in
            guard let self, let entry else { return }
            switch self.check(text) {
            case .success(let friendCode): self.pushNewFriend(friendCode)
            case .failure(let refusal):
                entry.refuse(Self.whyNot(text) ?? refusal.detail)  // the whole sentence: no headline above it here
            }
        }
        host.push(entry)
    }

    private func pushMyCode() {
        guard let host, !isVisible(MyCodePage.self), let page = try? MyCodePage(identity: identity()) else { return }
        page.onCopyLink = { [weak self] link in self?.onCopyLink?(link) }
        page.onRename = { [weak self, weak page] name in
            guard let page else { return }
            self?.onRename?(name, page)
        }
        host.push(page)
    }

    private func pushNewFriend(_ code: FriendCode) {
        guard let host, !isVisible(NewFriendPage.self) else { return }
        host.push(makeNewFriendPage(code))
    }

    private func makeNewFriendPage(_ code: FriendCode) -> NewFriendPage {
        let page = NewFriendPage(code: code)
        page.onAdd = { [weak self, weak page] in
            guard let self, let page else { return }
            self.add(code, from: page)
        }
        return page
    }

    private func isVisible<P: Page>(_ type: P.Type) -> Bool { host?.stack.visiblePage is P }

    private struct Refusal: Error {
        /// The headline on the scanner.
        let title: String
        /// The sentence under it, and under the link's entry.
        let detail: String
    }

    /// Why `text` is not a Postcard code, in a whole sentence, or nil when it is one.
    private static func whyNot(_ text: String) -> String? {
        do { _ = try FriendCode(reading: text); return nil } catch { return error.description }
    }

    /// The code in `text`, or why it is refused.
    private func check(_ text: String) -> Swift.Result<FriendCode, Refusal> {
        let code: FriendCode
        do {
            code = try FriendCode(reading: text)
        } catch {
            // Translators: the headline when a scanned code does not add a friend.
            // Under "This Is Not a Postcard Code", what to do is enough.
            let detail = error == .notAPostcardCode ? localized("Ask your friend to open My Code in their Postcard.") : error.description
            return .failure(Refusal(title: error.title, detail: detail))
        }
        let known = known(code.id)
        if known.isMe {
            return .failure(Refusal(title: localized("This Is Your Own Code"),
                                    detail: localized("Scan your friend's code: it is on My Code in their Postcard.")))
        }
        if known.isFriend {
            // Translators: %s is a person's name.
            return .failure(Refusal(title: localized("Already a Friend"), detail: localized("%s is already your friend.", code.name)))
        }
        return .success(code)
    }

    private func add(_ code: FriendCode, from page: NewFriendPage) {
        guard !isAdding, !completion.isResolved else { return }
        isAdding = true
        page.isBusy = true
        host?.dialog?.cancelButton.isSensitive = false
        Task { [weak self, add] in
            do {
                let friend = try await add(code)
                self?.isAdding = false
                self?.finish(.added(friend))
            } catch {
                guard let self else { return }
                self.isAdding = false
                self.host?.dialog?.cancelButton.isSensitive = true
                page.isBusy = false
                page.showError(localized("Couldn't add them: %s", "\(error)"))
            }
        }
    }

    private func finish(_ result: Result) {
        guard completion.resolve(result) else { return }
        host?.end()
        host = nil
    }
}
