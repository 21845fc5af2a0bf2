import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardStore

/// Friends and codes: My Profile's friends list and **Add Friend…** (the ``AddFriendFlow``, modal),
/// **Scan a Code** presented alone from the primary menu, **My Code** presented alone, the user's name,
/// and **Remove Friend** on a friend's profile (with Undo). Main actor only.
@MainActor
final class FriendsCoordinator {
    /// Weak: the app owns this coordinator; its tasks are the app's (`AppController.tasks`), waited for at quit.
    private weak var app: AppController?
    private var peopleToken: ObservationToken?
    /// Scan a Code while presented.
    private(set) var presentedScanner: ModalDialog?
    /// My Code while presented.
    private(set) var presentedMyCode: ModalDialog?

    init(app: AppController) { self.app = app }

    /// Lists the friends on My Profile (again after each change) and connects Add Friend.
    func wire(_ profile: ProfilePage) {
        guard let app else { return }
        profile.showFriends(app.people.friendPeople)
        peopleToken = app.people.observe { [weak self, weak profile] in
            guard let self, let profile, let app = self.app else { return }
            profile.showFriends(app.people.friendPeople)
            if profile.person.name != app.people.identity.name { profile.rename(to: app.people.identity.name) }
        }
        profile.onAddFriend = { [weak self] in self?.startAddFriend() }
    }

    /// **Remove Friend** for a friend's profile's bar: an icon button (its tooltip and screen-reader
    /// name say it).
    func removeButton(for person: Person) -> Button {
        // Translators: an icon button in the bar of a friend's profile (its tooltip): removes them from
        // the friends (a toast then offers Undo).
        let button = Button(iconName: "user-trash-symbolic", accessibleLabel: localized("Remove Friend"))
        button.onClicked { [weak self] in
            guard let self, let friend = self.app?.people.friend(id: person.id) else { return }
            self.app?.deletions.delete(.friend(friend.rowID), named: friend.name)
        }
        return button
    }

    // MARK: - Add Friend

    /// Runs Add Friend modally from My Profile, from its first page or (`code`) from New Friend.
    /// Nothing while another flow runs.
    func startAddFriend(with code: FriendCode? = nil) {
        guard let app else { return }
        let people = app.people
        let flow = AddFriendFlow(camera: app.camera, start: code.map { .newFriend($0) } ?? .choose,
                                 identity: { [people] in people.identity },
                                 known: { [people] id in (people.friend(id: id) != nil, people.isMe(id)) },
                                 add: { [people] code in try await people.addFriend(id: code.id, name: code.name) })
        flow.onCopyLink = { [weak self] _ in self?.app?.showToast(localized("Link copied")) }
        flow.onRename = { [weak self] name, page in self?.rename(to: name, shownIn: page) }
        let profile = app.myProfile
        app.flows.start(.addFriend, flow) { [weak app] flow in
            let result = await flow.run(from: profile)
            if case .added(let friend) = result {
                // Translators: a toast after someone was added as a friend; %s is their name. "View" opens
                // their profile.
                app?.showToast(localized("%s added", friend.name), buttonLabel: localized("View")) { [weak app] in
                    app?.openWhenPossible(.profile(friend.id))
                }
            }
            return .friend(result)
        }
    }

    // MARK: - Scan a Code

    /// Presents Scan a Code alone over My Profile (its own bar, title and Close). What a code read does:
    /// a Postcard code adds its person (New Friend), or opens their profile when they are a friend; a
    /// `postcard://` link opens its screen; a web address opens in the Web Page; other text stays shown,
    /// with Copy.
    @discardableResult
    func presentScanner() -> ScanCodePage? {
        guard let app else { return nil }
        guard app.presented == nil else { return nil }
        let page = ScanCodePage(settings: app.camera)
        page.onCodeRead = { [weak self, weak page] code in
            guard let self, let page else { return }
            self.scanned(code, on: page)
        }
        page.onCopied = { [weak self] _ in self?.app?.showToast(localized("Copied")) }
        let dialog = ModalDialog(over: app.myProfile, presenting: page)
        presentedScanner = dialog
        dialog.present()
        app.setPresented(.scanner)
        // Presented until it is dismissed (its Close, Escape, the window manager's close, or a link): the
        // state says so in that turn, and a waiting link opens then.
        dialog.whenDismissed { [weak self, weak dialog] in
            if self?.presentedScanner === dialog { self?.presentedScanner = nil }
            self?.app?.presentationEnded(.scanner)
        }
        return page
    }

    private func scanned(_ code: ScannedCode, on page: ScanCodePage) {
        guard let app else { return }
        let text = code.text.trimmingWhitespace()
        let friendCode: FriendCode?
        do {
            friendCode = try FriendCode(reading: text)
        } catch let error where error != .notAPostcardCode {
            return page.refuse(title: error.title, detail: error.description)  // a Postcard code, refused: say why
        } catch {
            friendCode = nil
        }
        if let friendCode {
            if app.people.isMe(friendCode.id) {
                page.showResult(title: localized("This Is Your Own Code"), text: localized("Friends scan it with Add Friend in their Postcard."))
            } else if app.people.friend(id: friendCode.id) != nil {
                closeScanner { $0.open(.profile(friendCode.id)) }
            } else {
                closeScanner { $0.friends.startAddFriend(with: friendCode) }
            }
        } else if Route.isLink(text) {
            do {
                let route = try Route(link: text)
                closeScanner { $0.open(route) }
            } catch {
                page.refuse(title: localized("Can't Open the Link"), detail: "\(error)")
            }
        } else if Route.isWebAddress(text) {
            // A code cannot act for the user: its address is shown, and opens only when they ask.
            // Translators: the headline over a web address read from a QR code (it opens only with Open).
            page.showResult(title: localized("Web Address"), text: text,
                            // Translators: a button under a web address read from a QR code: opens it.
                            actionLabel: localized("Open")) { [weak self] in
                self?.closeScanner { $0.open(.webPage(text)) }
            }
        } else {
            // Translators: the headline over the text of a code that is neither a link nor a web address.
            page.showResult(title: localized("Text"), text: text)
        }
    }

    /// Closes Scan a Code, then (once it is gone) runs `next`.
    private func closeScanner(then next: @escaping @MainActor (AppController) -> Void) {
        guard let dialog = presentedScanner else { return }
        presentedScanner = nil
        dialog.dismiss()
        app?.tasks.start { [weak app] in
            await dialog.dismissed()
            guard let app else { return }
            app.presentationEnded(.scanner)  // before what comes next, which may present something
            next(app)
        }
    }

    // MARK: - My Code and the name

    /// Presents My Code alone over My Profile (its own bar with Close).
    @discardableResult
    func presentMyCode() -> MyCodePage? {
        guard let app else { return nil }
        guard app.presented == nil, let page = try? MyCodePage(identity: app.people.identity) else { return nil }
        page.onCopyLink = { [weak self] _ in self?.app?.showToast(localized("Link copied")) }
        page.onRename = { [weak self, weak page] name in
            guard let self, let page else { return }
            self.rename(to: name, shownIn: page)
        }
        let dialog = ModalDialog(over: app.myProfile, presenting: page)
        presentedMyCode = dialog
        dialog.present()
        app.setPresented(.myCode)
        // Presented until it is dismissed (its Close, Escape, the window manager's close, or a link): the
        // state says so in that turn, and a waiting link opens then.
        dialog.whenDismissed { [weak self, weak dialog] in
            if self?.presentedMyCode === dialog { self?.presentedMyCode = nil }
            self?.app?.presentationEnded(.myCode)
        }
        return page
    }

    /// Stores `name` as the user's, then shows it on `page` (and My Profile, through the people's
    /// observers); a failure says why in a toast, and the page keeps the old name.
    func rename(to name: String, shownIn page: MyCodePage) {
        guard let app else { return }
        let people = app.people
        // An app task: waited for at quit, so the app it reads after the await is still there.
        app.tasks.start { [weak self, weak page] in
            do {
                try await people.rename(to: name)
                // Translators: a toast after the user changed their name.
                self?.app?.showToast(localized("Name changed"))
            } catch {
                self?.app?.showToast(localized("Can't change your name: %s", "\(error)"))
            }
            page?.show(people.identity)
        }
    }

    /// Closes Scan a Code and My Code when presented (a link opens elsewhere).
    func dismissPresentedPages() {
        presentedScanner?.dismiss()
        presentedScanner = nil
        presentedMyCode?.dismiss()
        presentedMyCode = nil
    }
}
