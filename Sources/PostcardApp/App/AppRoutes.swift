import Adwaita
import CGtk
import Gtk
import Navigation
import NavigationGtk
import NavigationWeb
import PostcardModel
import PostcardStore

/// The main window's routes: the one place that makes a page for a ``Route`` (``page(for:)``), the
/// path each route opens with (``backPath(for:)``), and `postcard://` links (``open(link:)``), which
/// wait while something is presented (``presented``) and never change anything but what is shown.
extension AppController {
    /// Makes the page for `route`, wired to the app — the only place pages of the main window are made.
    /// A route whose subject is gone (a deleted post, a person who is not a friend) gets a Not Found
    /// page naming what was asked for; nil only for ``Route/myProfile`` (the root, never pushed) and for
    /// the guide or a web page when they cannot be shown here (they open in the desktop's browser).
    func page(for route: Route) -> Page? {
        switch route {
        case .myProfile:
            return nil
        case .profile(let id):
            guard let friend = people.friend(id: id) else { return NotFoundPage(route) }
            return posting.makeProfilePage(for: Person(friend), route: route, in: self)
        case .post(let id):
            guard let post = try? store.post(id: id) else { return NotFoundPage(route) }
            return captions.makePostPage(post, in: self)
        case .comments(let id):
            guard let post = try? store.post(id: id) else { return NotFoundPage(route) }
            return replies.makeThreadPage(post)
        case .messages:
            return messaging.makeMessagesPage()
        case .message(let id):
            guard let message = try? store.message(id: id) else { return NotFoundPage(route) }
            return messaging.makeMessageDetail(message)
        case .guide(let section):
            return help.makeGuide(section: section)
        case .webPage(let uri):
            guard let web = try? WebPage(uri: uri, localFolder: nil) else { help.openOutside(uri); return nil }  // no WebKitGTK
            help.asksBeforeOpeningOutside(web)
            web.waitsForLoadButton = isRestoringNavigation  // brought back at start: nobody asked for it now
            return web
        }
    }

    /// The path `route` opens with from outside (a link, a resumed draft), so Back goes where the user
    /// expects: a post on a friend's profile above that profile, a post's comments above the post, a
    /// message in Messages. A route whose subject is gone opens alone (its Not Found page).
    public func backPath(for route: Route) -> [Route] {
        switch route {
        case .myProfile: return []
        case .post(let id):
            guard let post = try? store.post(id: id), post.profile != Identity.localID, people.friend(id: post.profile) != nil else { return [route] }
            return [.profile(post.profile), route]
        case .comments(let id):
            guard (try? store.post(id: id)) != nil else { return [route] }
            return backPath(for: .post(id)) + [route]
        case .message: return [.messages, route]
        case .profile, .messages, .guide, .webPage: return [route]
        }
    }

    /// Whether the subject of `route` still exists (restoration stops at the first route without one).
    func subjectExists(_ route: Route) -> Bool {
        switch route {
        case .myProfile, .messages, .guide, .webPage: true
        case .profile(let id): people.friend(id: id) != nil
        case .post(let id), .comments(let id): (try? store.post(id: id)) != nil
        case .message(let id): (try? store.message(id: id)) != nil
        }
    }

    /// Makes again the pages of the path from the first Not Found page whose route's subject exists now
    /// (a post brought back by Undo), so it shows what the link asked for.
    func replaceNotFoundPagesWhoseSubjectIsBack() {
        let path = router.path
        guard let index = stack.pages.dropFirst().firstIndex(where: { page in
            (page as? NotFoundPage).map { subjectExists($0.requestedRoute) } ?? false
        }).map({ $0 - 1 }), index < path.count else { return }
        router.setPath(Array(path[..<index]), animated: false)
        router.setPath(path, animated: false)
    }

    /// Shows `route` with its back path (``backPath(for:)``). Nothing else changes: no post, message or
    /// draft is touched.
    public func open(_ route: Route) {
        guard !mainWindow.window.isDestroyed else { return }  // the window is gone (the app quits)
        // The user's own profile link (from their code) is My Profile; a stranger's code opened as a link
        // (from outside) is Add Friend on New Friend: their profile does not exist here yet.
        let route = if case .profile(let id) = route, people.isMe(id) { Route.myProfile } else { route }
        if case .profile(let id) = route, let code = linkedFriendCode, code.id == id, people.friend(id: id) == nil {
            linkedFriendCode = nil
            friends.startAddFriend(with: code)
            return
        }
        switch route {
        case .guide, .webPage:
            // Without WebKitGTK (or the guide's files) these open in the browser, if at all: the user
            // keeps the page they are on.
            let isWebPage = if case .webPage = route { true } else { false }
            guard WebPage.unavailableReason == nil, isWebPage || help.guideFolder != nil else {
                _ = page(for: route)
                return
            }
        default: break
        }
        let path = backPath(for: route)
        router.setPath(path)
        // The pages shown, root first; a message beside Messages (a wide window) after Messages.
        let titles = stack.pages.flatMap { page in
            [page.title] + ((page as? NavigationSplitView).map { $0.isCollapsed ? [] : $0.contentPages.map(\.title) } ?? [])
        }
        appLog.debug("Opened \(route.link): \(titles.joined(separator: " › "))"
                  + (stack.state.previous.map { " (Back: \($0.title))" } ?? ""))
    }

    /// Opens a `postcard://` link (given on the command line, by the desktop, or activated in a post):
    /// its route with its back path. While something is presented (a flow, a dialog), the link waits and
    /// opens once it has gone (the newest link wins), and the main window says so in a toast.
    /// A link that cannot be read changes nothing; a toast says why.
    /// - Returns: the route, or the reason the link cannot be opened.
    @discardableResult
    public func open(link: String) -> Result<Route, RouteLinkError> {
        let route: Route
        do {
            route = try Route(link: link)
        } catch let error as RouteLinkError {
            appLog.problem("Can't open the link: \(error)")
            // Translators: a toast when a postcard:// link can't be opened; %s says why.
            showToast(localized("Can't open the link: %s", error.description))
            return .failure(error)
        } catch {
            return .failure(.malformed)
        }
        linkedFriendCode = try? FriendCode(reading: link)
        openWhenPossible(route)
        return .success(route)
    }

    /// Opens a `postcard://` link that arrived from outside — the desktop's Open (`gio open`, a launcher,
    /// D-Bus), a later launch's command line — as ``open(link:)`` does, except that links arriving faster
    /// than they can be shown are coalesced, the newest winning, as while a flow is open: a link opens
    /// once no newer one has come for a tenth of a second (at most a second while they keep coming), and
    /// only the newest one waiting opens. So a thousand links sent within a second cost the main loop a
    /// parse each and build two paths, not a thousand. A link that cannot be read changes nothing; a toast
    /// says why. Main actor.
    /// - Returns: the route, or the reason the link cannot be opened.
    @discardableResult
    public func receive(link: String) -> Result<Route, RouteLinkError> {
        let route: Route
        do {
            route = try Route(link: link)
        } catch is RouteLinkError {
            return open(link: link)  // says why, the same way
        } catch {
            return .failure(.malformed)
        }
        receive(route, friendCode: try? FriendCode(reading: link))
        return .success(route)
    }

    /// Opens `route`, from a link that arrived from outside (`friendCode`: the stranger's code it carries),
    /// coalesced with the links arriving after it as ``receive(link:)`` says.
    public func receive(_ route: Route, friendCode: FriendCode? = nil) {
        switch route {
        case .guide, .webPage:
            // WebKitGTK's library loads on a thread while the link waits (some 50-90 ms that the turn
            // building the page took on the main thread: the one turn of a link storm over 100 ms).
            WebPage.preload()
        default: break
        }
        pendingLink = route
        linkedFriendCode = friendCode
        let now = DateText.monotonicMicroseconds
        let firstArrival = firstWaitingArrival ?? now
        firstWaitingArrival = firstArrival
        MainLoopBridge.cancel(linkArrivals)
        // Opened once no other link has come for a moment, but never held back longer than a second.
        let waited = Double(now - firstArrival) / 1_000_000
        let delay = max(0, min(Self.linkQuietTime, Self.longestLinkWait - waited))
        linkArrivals = MainLoopBridge.after(.seconds(delay)) { [weak self] in
            guard let self else { return }
            self.linkArrivals = 0
            self.firstWaitingArrival = nil
            guard let route = self.pendingLink else { return }  // opened meanwhile (a flow ended)
            self.pendingLink = nil
            self.openWhenPossible(route)
        }
    }

    /// How long a link from outside waits for a newer one before it opens, in seconds: long enough that a
    /// burst of links builds one path (each path of web pages starts a web process), short enough not to
    /// be noticed after a click.
    static let linkQuietTime = 0.1
    /// The longest a link from outside waits while newer ones keep coming, in seconds: a storm that does
    /// not stop still shows its newest link every second.
    static let longestLinkWait = 1.0

    /// Opens `route` (from a link) now, or, while something is presented (``presented``), once it has gone
    /// (the newest link wins; the main window says it is waiting). Raises the main window, or the dialogs
    /// over it.
    public func openWhenPossible(_ route: Route) {
        mainWindow.window.presentWithModalChildren()  // to the front, but not over a dialog the user is in
        guard presented == nil else {
            appLog.debug("Link waiting for the open flow or dialog: \(route.link)")
            pendingLink = route
            showWaitingLinkToast()
            return
        }
        hideWaitingLinkToast()
        open(route)
    }

    /// Opens the waiting link, if any, when nothing is presented: called as ``presented`` changes to nil
    /// (no timer: the presenters say when what they showed has gone).
    func openPendingLink() {
        guard let route = pendingLink, presented == nil else { return }
        pendingLink = nil
        hideWaitingLinkToast()
        open(route)
    }

    /// Marks `window` (Keyboard Shortcuts, About: not a flow's, not a ``ModalDialog``) as `presentation`
    /// while it shows, unless something else is presented already, and its end once it has gone (its
    /// `unmap`: closed by its close button, Escape or the window manager, or destroyed).
    func track(_ window: Gtk.Window, as presentation: Destination) {
        guard presented == nil else { return }
        setPresented(presentation)
        let handler = HandlerID()
        handler.id = window.connect("unmap") { [weak self, weak window] _ in
            guard handler.id != 0 else { return }
            window?.disconnect(handler.id)
            handler.id = 0
            self?.presentationEnded(presentation)
        }
    }

    // MARK: - Copy Link

    /// A **Copy Link** button that puts the `postcard://` link of `route` on the clipboard (an icon
    /// with its name for screen readers and its tooltip when `iconOnly`, for a bar).
    func copyLinkButton(for route: Route, iconOnly: Bool = false) -> Button {
        // Translators: a button that puts the link to this post or profile on the clipboard.
        let name = localized("Copy Link")
        let button = iconOnly ? Button(iconName: "edit-copy-symbolic", accessibleLabel: name) : Button(label: name)
        button.onClicked { [weak self] in self?.copyLink(to: route) }
        return button
    }

    /// Puts the link of `route` on the clipboard (as text) and says so in a toast.
    public func copyLink(to route: Route) {
        Clipboard.setText(route.link)
        // Translators: a toast after Copy Link.
        showToast(localized("Link copied"))
    }

    // MARK: - Toasts

    /// Says `title` in a toast at the bottom of the main window, for 5 seconds (with an action when
    /// `buttonLabel` is given), and returns it. It replaces the toast about what happened before (which
    /// goes at once, as if its time ran out, or, when neither has an action, says the new text in place),
    /// so toasts never queue up behind each other; a waiting link's toast comes back after it.
    ///
    /// Every toast has libadwaita's normal priority: libadwaita 1.2 frees a toast that was put back in its
    /// queue by a high-priority one while its hiding animation still runs (a crash when toasts follow each
    /// other quickly), so a toast is only ever dismissed, then the next one added.
    ///
    /// A screen reader hears `spoken` (the title when nil) where focus is in the main window, or where it
    /// comes back when a dialog closes (``Window/announce(_:)``): Orca 43 says nothing of a toast itself.
    /// With `focusing`, focus moves there with the words (after a deletion took away the control that had
    /// it). A toast with Undo is also used by Ctrl+Z while it shows.
    @discardableResult
    func showToast(_ title: String, buttonLabel: String? = nil, spoken: String? = nil, focusing: Widget? = nil,
                   action: (@MainActor () -> Void)? = nil) -> Toast {
        if let focusing {
            mainWindow.window.announce(spoken ?? title, focusing: focusing)
        } else if let dialog = dialogInUse {
            dialog.announce(spoken ?? title)
        } else {
            mainWindow.window.announce(spoken ?? title, orFocusing: mainWindow.stack.visiblePage?.initialFocus)
        }
        // A toast with no action still showing says the new text in place, its time started again:
        // dismissing toasts while they still slide in (several links refused at once) crashed libadwaita
        // 1.2 (a hide animation skipped on a toast already freed).
        if let last = lastToast, !last.isDismissed, last.buttonLabel == nil, buttonLabel == nil {
            last.update(title: title)
            toasts.add(last)
            return last
        }
        lastToast?.dismiss()
        let linkWaits = waitingLinkToast != nil
        hideWaitingLinkToast()
        let toast = Toast(title, buttonLabel: buttonLabel, action: action)
        lastToast = toast
        toasts.add(toast)
        if linkWaits { showWaitingLinkToast() }
        return toast
    }

    /// The dialog window the user is in now, over the main window (My Code, a flow's dialog), or nil
    /// when it is the main window: a result of what was done there is heard there, at once, rather than
    /// when the dialog closes.
    private var dialogInUse: Gtk.Window? {
        guard let application = gtk_window_get_application(mainWindow.window.pointer(as: GtkWindow.self)),
              let active = gtk_application_get_active_window(application),
              active != mainWindow.window.pointer(as: GtkWindow.self), gtk_window_is_active(active) != 0 else { return nil }
        return Object.wrapper(of: UnsafeMutableRawPointer(active)) as? Gtk.Window
    }

    /// Shows (after any toast before it) that a link waits, until ``hideWaitingLinkToast()``; a screen
    /// reader hears it in the dialog that makes it wait.
    func showWaitingLinkToast() {
        guard waitingLinkToast == nil else { return }
        dialogInUse?.announce(Self.waitingText)
        let toast = Toast(Self.waitingText, timeout: 0)
        waitingLinkToast = toast
        toasts.add(toast)
    }

    /// Says that something asked for waits for what is open now (``presentWhenPossible(_:)``): the same
    /// toast as a waiting link's, in words that fit.
    func showWaitingToast() {
        let text = Self.waitingPresentationText
        dialogInUse?.announce(text)
        guard waitingLinkToast == nil else { return }
        let toast = Toast(text, timeout: 0)
        waitingLinkToast = toast
        toasts.add(toast)
    }

    /// What the toast says while a dialog or flow that was asked for waits.
    static var waitingPresentationText: String {
        // Translators: a toast while a dialog is open and another (About, Keyboard Shortcuts, New Post) was asked for.
        localized("Waiting: what you asked for opens when you close what is open now")
    }

    /// What the toast says while a link waits.
    static var waitingText: String {
        // Translators: a toast while a dialog is open and a link was opened from outside the app.
        localized("A link is waiting: it opens when you close what is open now")
    }

    func hideWaitingLinkToast() {
        waitingLinkToast?.dismiss()
        waitingLinkToast = nil
    }
}

/// A signal handler's id, for a handler that disconnects itself (see ``AppController/track(_:as:)``).
@MainActor
private final class HandlerID {
    var id: UInt = 0
}
