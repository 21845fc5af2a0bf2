import CGtk
import Gtk
import Navigation
import NavigationGtk
import NavigationWeb
import PostcardModel
import PostcardStore
import PostcardModel

/// The main window's routes: the one place that makes a page for a ``Route`` (``page(for:)``), the
/// path each route opens with (``backPath(for:)``), and `postcard://` links (``open(link:)``), which
/// wait while a flow or dialog is open and never change anything but what is shown.
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
            guard let person = Person.named(id), person != .me else { return NotFoundPage(route) }
            return posting.makeProfilePage(for: person, route: route)
        case .post(let id):
            guard let post = try? store.post(id: id) else { return NotFoundPage(route) }
            return captions.makePostPage(post)
        case .comments(let id):
            guard let post = try? store.post(id: id) else { return NotFoundPage(route) }
            return replies.makeThreadPage(post)
        case .messages:
            return messaging.makeMessagesPage()
        case .message(let id):
            guard let message = try? store.message(id: id) else { return NotFoundPage(route) }
            return MessagingCoordinator.makeMessagePage(message)
        case .guide(let section):
            return help.makeGuide(section: section)
        case .webPage(let uri):
            guard WebPage.unavailableReason == nil else { help.openOutside(uri); return nil }
            return WebPage(uri: uri, localFolder: nil)
        }
    }

    /// The path `route` opens with from outside (a link, a resumed draft), so Back goes where the user
    /// expects: a post on a friend's profile above that profile, a post's comments above the post, a
    /// message over Messages. A route whose subject is gone opens alone (its Not Found page).
    public func backPath(for route: Route) -> [Route] {
        switch route {
        case .myProfile: return []
        case .post(let id):
            guard let post = try? store.post(id: id), post.profile != Person.me.id, Person.named(post.profile) != nil else { return [route] }
            return [.profile(post.profile), route]
        case .comments(let id):
            guard (try? store.post(id: id)) != nil else { return [route] }
            return backPath(for: .post(id)) + [route]
        case .message: return [.messages]
        case .profile, .messages, .guide, .webPage: return [route]
        }
    }

    /// Whether the subject of `route` still exists (restoration stops at the first route without one).
    func subjectExists(_ route: Route) -> Bool {
        switch route {
        case .myProfile, .messages, .guide, .webPage: true
        case .profile(let id): Person.named(id).map { $0 != .me } ?? false
        case .post(let id), .comments(let id): (try? store.post(id: id)) != nil
        case .message(let id): (try? store.message(id: id)) != nil
        }
    }

    /// Shows `route` with its back path (``backPath(for:)``); a message is then presented over Messages.
    /// Nothing else changes: no post, message or draft is touched.
    public func open(_ route: Route) {
        guard Window.isListed(mainWindow.window.pointer()) else { return }  // the window is gone (the app quits)
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
        var presented = ""
        if case .message(let id) = route, let messages = stack.visiblePage as? MessagesPage {
            if let message = try? store.message(id: id) {
                messaging.present(message, from: messages)
                presented = ", presenting " + (presentedMessage?.root.title ?? "")
            } else {
                router.push(route)  // its Not Found page, above Messages
            }
        }
        appLog.debug("Opened \(route.link): \(stack.pages.map(\.title).joined(separator: " › "))"
                  + (stack.state.previous.map { " (Back: \($0.title))" } ?? "") + presented)
    }

    /// Whether a flow or a dialog is open over the main window: a link then waits (``open(link:)``).
    package var isBusyWithAFlowOrDialog: Bool {
        activeFlow != nil || mainWindow.window.hasModalChild || presentedMessage != nil || presentedWebPage != nil
    }

    /// Opens a `postcard://` link (given on the command line, by the desktop, or activated in a post):
    /// its route with its back path. While a flow or a dialog is open, the link waits and opens when it
    /// closes (the newest link wins), and the main window says so in a notice a screen reader reads.
    /// A link that cannot be read changes nothing; the notice says why.
    /// - Returns: the route, or the reason the link cannot be opened.
    @discardableResult
    public func open(link: String) -> Result<Route, RouteLinkError> {
        let route: Route
        do {
            route = try Route(link: link)
        } catch let error as RouteLinkError {
            appLog.problem("Can't open the link: \(error)")
            // Translators: a notice when a postcard:// link can't be opened; %s says why.
            showNotice(localized("Can't open the link: %s", error.description), waiting: false)
            return .failure(error)
        } catch {
            return .failure(.malformed)
        }
        openWhenPossible(route)
        return .success(route)
    }

    /// Opens `route` (from a link) now, or, while a flow or a dialog is open, when it closes (the newest
    /// link wins; the main window says it is waiting). Raises the main window, or the dialogs over it.
    public func openWhenPossible(_ route: Route) {
        mainWindow.window.presentWithModalChildren()  // to the front, but not over a dialog the user is in
        guard !isBusyWithAFlowOrDialog else {
            appLog.debug("Link waiting for the open flow or dialog: \(route.link)")
            pendingLink = route
            showNotice(Self.waitingText, waiting: true)
            return
        }
        hideNotice()
        open(route)
    }

    /// Opens the waiting link, if any, once nothing is open over the main window.
    func openPendingLink() {
        guard let route = pendingLink else { return }
        guard !isBusyWithAFlowOrDialog else {
            // Whatever is open says when it closes (a flow's end, a dialog dismissed, a window unmapped);
            // a dialog window may take a moment longer to go: look again for up to 2 seconds.
            var tries = 0
            MainLoopBridge.repeating(milliseconds: 100) { [weak self] in
                tries += 1
                guard let self, self.pendingLink == route else { return false }
                guard !self.isBusyWithAFlowOrDialog else { return tries < 20 }
                self.openPendingLink()
                return false
            }
            return
        }
        pendingLink = nil
        hideNotice()
        open(route)
    }

    /// Called when a window over the main window that is not a flow's (Keyboard Shortcuts, About) goes.
    func watchForClose(_ window: Gtk.Window) {
        window.connect("unmap") { [weak self] _ in
            MainLoopBridge.afterLayout { self?.openPendingLink() }
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

    /// Puts the link of `route` on the clipboard (as text) and says so in a notice.
    public func copyLink(to route: Route) {
        Clipboard.setText(route.link)
        // Translators: a notice after Copy Link; %s is the link, such as postcard://post/12.
        showNotice(localized("Link copied: %s", route.link), waiting: false)
    }

    // MARK: - The notice

    /// Shows `text` at the bottom of the main window (a waiting link stays until it opens; other notices
    /// go after 5 seconds).
    func showNotice(_ text: String, waiting: Bool) {
        let notice = self.notice ?? Notice(in: mainWindow)
        self.notice = notice
        guard waiting || pendingLink == nil else {
            // A link is still waiting: say this and that, until it opens.
            notice.show(text + "\n" + Self.waitingText, hidesAfter: nil)
            return
        }
        notice.show(text, hidesAfter: waiting ? nil : 5)
    }

    /// What the notice says while a link waits.
    static var waitingText: String {
        // Translators: a notice while a dialog is open and a link was opened from outside the app.
        localized("A link is waiting: it opens when you close what is open now")
    }

    func hideNotice() {
        notice?.hide()
    }
}
