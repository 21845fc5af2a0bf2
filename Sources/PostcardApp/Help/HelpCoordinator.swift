import Adwaita
import CGtk
import Gtk
import Navigation
import NavigationGtk
import NavigationWeb
import PhotoPosting
import PostcardModel

/// Help and links: the Postcard Guide (pushed with F1 or Help, presented over a flow's page from its
/// Help), and links activated in posts, replies and messages — `postcard://` links open their screen,
/// web pages open as a Web Page (pushed, or presented over a dialog the link was in), anything else in
/// the desktop's default application. Main actor only.
@MainActor
final class HelpCoordinator {
    /// Weak: the app owns this coordinator; its tasks are the app's (`AppController.tasks`), waited for at quit.
    private weak var app: AppController?
    /// The web page presented last (a guide section over a dialog, or a link opened from a message),
    /// while open.
    private(set) var presentedWebPage: ModalDialog?

    init(app: AppController) { self.app = app }

    /// Help inside a photo flow: the guide's "Posting a photo" (or "Taking a photo" on the camera)
    /// presented over the flow's page.
    var flowHelp: FlowHelp {
        FlowHelp { [weak self] page in
            _ = self?.presentGuide(section: page is CameraPage ? "camera" : "posting", over: page)
        }
    }

    /// The guide's folder (`guide/` in the resources), or nil when the resources cannot be found; looked
    /// up once.
    private(set) lazy var guideFolder: FilePath? = (try? ResourceLocator.resourcesDirectory()).map { $0.appending("guide") }

    /// A Web Page showing the guide at `section` (an anchor such as "posting"), or nil: the guide is
    /// missing, or web pages cannot be shown here and the guide opened in the desktop's browser instead.
    func makeGuide(section: String?) -> WebPage? {
        guard let guideFolder else { return nil }
        let uri = Self.guidePage(in: guideFolder).uri + (section.map { "#" + $0 } ?? "")
        // Translators: the title of the app's own help pages (a user guide), shown in the bar.
        guard let guide = try? WebPage(uri: uri, title: localized("Guide"), localFolder: guideFolder) else {
            openOutside(uri)  // no WebKitGTK here: the desktop's browser
            return nil
        }
        asksBeforeOpeningOutside(guide)
        return guide
    }

    /// Makes `web` ask before a link the user clicked to another scheme leaves Postcard, as GNOME Web
    /// asks: "Open in Mail?" (the application that opens it), with the address, Cancel and Open.
    func asksBeforeOpeningOutside(_ web: WebPage) {
        web.confirmOpeningOutside = { [weak web] uri, answer in
            let scheme = g_uri_peek_scheme(uri).map { String(cString: $0) } ?? ""
            let heading = DefaultApplication.name(forScheme: scheme).map {
                // Translators: asked before a link clicked in a web page opens another program; %s is its name ("Mail").
                localized("Open in %s?", $0)
            } ?? localized("Open This Link Outside Postcard?")
            // Translators: the button that opens a link in another program, after the user was asked.
            let question = MessageDialog(over: web?.view, heading: heading, body: String(uri.prefix(300)).escapingControlCharacters,
                                         keepLabel: localized("Cancel"), confirmLabel: localized("Open"))
            question.ask { answer($0 == .confirm) }
        }
    }

    /// The guide in the user's language: `guide/<lang>/index.html` for the first of their languages that
    /// has one (as GNOME help is installed per language), else the English `guide/index.html`.
    static func guidePage(in guideFolder: FilePath) -> FilePath {
        for language in Localization.languageNames where language != "C" {
            let page = guideFolder.appending(language, "index.html")
            if Files.exists(page) { return page }
        }
        return guideFolder.appending("index.html")
    }

    /// Pushes the guide onto the main stack; opened already, it is shown again rather than pushed twice.
    func showGuide(section: String? = nil) -> WebPage? {
        guard let app else { return nil }
        if case .guide? = app.router.visibleRoute { return app.stack.visiblePage as? WebPage }
        return app.router.push(.guide(section: section)) as? WebPage
    }

    /// Presents the guide at `section` alone over `page` (its own bar with Close).
    func presentGuide(section: String?, over page: Page) -> ModalDialog? {
        makeGuide(section: section).map { present($0, over: page, width: 560) }
    }

    /// Opens a link activated in `page` (see the type's docs). A `postcard://` link in a page presented
    /// alone closes that page first, as the user asked from it.
    func openLink(_ uri: String, from page: Page) {
        guard let app else { return }
        if Route.isLink(uri) {
            if page.navigationStack !== app.stack { app.dismissPresentedPages() }
            app.open(link: uri)
            return
        }
        guard uri.hasPrefix("http://") || uri.hasPrefix("https://"), WebPage.unavailableReason == nil else {
            return openOutside(uri)  // mail addresses; or no WebKitGTK here: the desktop's browser
        }
        if page.navigationStack === app.stack {
            app.router.push(.webPage(uri))
        } else if let web = try? WebPage(uri: uri, localFolder: nil) {
            asksBeforeOpeningOutside(web)
            present(web, over: page)
        } else {
            openOutside(uri)
        }
    }

    /// Opens `uri` in the desktop's default application; a failure is logged (nothing else to show it in).
    func openOutside(_ uri: String) {
        do { try DefaultApplication.open(uri) } catch { appLog.problem("Couldn't open \(uri): \(error)") }
    }

    @discardableResult
    private func present(_ web: WebPage, over page: Page, width: Int = 720) -> ModalDialog {
        let dialog = ModalDialog(over: page, presenting: web, width: width, height: 640)
        presentedWebPage = dialog
        dialog.present()
        // Over a flow's page (a link waits for the flow's end, not for this page).
        dialog.whenDismissed { [weak self, weak dialog] in
            if self?.presentedWebPage === dialog { self?.presentedWebPage = nil }
        }
        return dialog
    }

    /// Closes the web page presented alone over the main window, if any.
    func dismissPresentedWebPage() {
        presentedWebPage?.dismiss()
        presentedWebPage = nil
    }
}
