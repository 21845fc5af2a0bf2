import Adwaita
import CGtk
import CXTest
import Foundation
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import NavigationWeb
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// The guide and links in posts in real WebKitGTK web views (web processes started for real), served
/// from the repository's `Resources/guide` and from an HTTP server the test starts on 127.0.0.1.
final class WebPageTests: GtkTestCase, @unchecked Sendable {
    private var servers: [Process] = []

    override func tearDown() {
        for server in servers where server.isRunning { server.terminate() }
        servers = []
        super.tearDown()
    }

    /// A port on 127.0.0.1 nothing listens on (bound and released).
    private func freePort() -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        process.waitUntilExit()
        return Int(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Serves `files` (name → HTML) over HTTP on 127.0.0.1:`port`; returns once it accepts connections.
    @MainActor
    private func serve(_ files: [String: String], port: Int) throws {
        let folder = makeTemporaryDirectory()
        for (name, html) in files { try html.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", folder]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        servers.append(process)
        spin(until: {
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(probe) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }, "the test server on port \(port)")
    }

    /// Runs `script` in `page` and returns its JSON result.
    @MainActor
    private func evaluate(_ script: String, in page: WebPage) -> String {
        var result: String?
        Task { result = (try? await page.evaluateJavaScript(script)) ?? "error" }
        spin(until: { result != nil }, "script \(script)")
        return result ?? ""
    }

    @MainActor
    private func number(_ script: String, in page: WebPage) -> Double { Double(evaluate(script, in: page)) ?? .nan }

    @MainActor
    private func waitUntilLoaded(_ page: WebPage, _ what: String = "page") {
        spin(until: { !page.isLoading && self.evaluate("document.readyState", in: page) == "\"complete\"" }, timeout: 20, what)
    }

    /// Scales all text as the desktop's text-scaling setting does (GtkSettings `gtk-xft-dpi`).
    @MainActor
    private func setTextScale(_ scale: Double) {
        var value = GValue()
        g_value_init(&value, GType(6 << 2))  // G_TYPE_INT
        g_value_set_int(&value, Int32(96.0 * 1024 * scale))
        g_object_set_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self),
                              "gtk-xft-dpi", &value)
        g_value_unset(&value)
    }

    /// WebKit's web processes started by this process (its descendants named WebKitWebProcess).
    private var webProcesses: Int { webProcessIDs.count }

    /// This process's WebKit web processes (its descendants named WebKitWebProcess), by process id.
    private var webProcessIDs: Set<Int32> { WebProcesses.descending(from: getpid()) }

    /// Where WebKitGTK cannot be opened, creating a page fails with what is missing, instead of stopping
    /// the app (the initialiser trapped before): the app then opens the address in the desktop's browser.
    func testAWebPageWithoutWebKitFailsWithAMessage() throws {
        try onMain {
            XCTAssertThrowsError(try WebPage(uri: "https://example.org/", webKit: WebKitLibrary.open("libwebkitgtk-0.0.so.0"))) { error in
                let reason = (error as? WebPageUnavailable)?.reason ?? "\(error)"
                XCTAssertTrue(reason.hasPrefix("Web pages need WebKitGTK 6.0: "), reason)
                XCTAssertTrue(reason.contains("libwebkitgtk-0.0.so.0"), "names what is missing: \(reason)")
            }
            XCTAssertNil(WebPage.unavailableReason, "WebKitGTK is installed here")
            let page = try WebPage(uri: "about:blank")
            XCTAssertEqual(page.currentURI, "about:blank")
        }
    }

    func testTheGuideStartsBelowTheBarScrollsUnderItAndFollowsTheBarsHeight() throws {
        try onMain {
            let app = try makeApp()
            let window = app.mainWindow
            let before = webProcesses
            pressKey(XK_F1)
            spin(until: { window.stack.visiblePage is WebPage && window.stack.transition == .idle }, "F1 pushes the guide")
            let guide = window.stack.visiblePage as! WebPage
            XCTAssertEqual(window.stack.titleLabel.text, "Guide")
            XCTAssertTrue(window.stack.backButton.isVisible)
            XCTAssertFalse(guide.isShowingStandaloneBar)
            waitUntilLoaded(guide, "the guide")
            let bar = Double(window.topInset)
            XCTAssertGreaterThan(bar, 30)
            XCTAssertEqual(Double(guide.appliedInset), bar, "the inset is the bar's height")
            XCTAssertEqual(guide.webView.bounds(in: window.window)?.y ?? -1, 0, "the view runs under the bar")
            let headingTop = number("document.querySelector('h1').getBoundingClientRect().top", in: guide)
            XCTAssertGreaterThanOrEqual(headingTop, bar, "the first heading starts below the bar")
            let headingBottom = number("document.querySelector('h1').getBoundingClientRect().bottom", in: guide)
            XCTAssertLessThan(headingBottom, Double(window.window.height), "and is on screen")
            XCTAssertGreaterThan(webProcesses, before, "a web process of its own runs")

            _ = evaluate("window.scrollTo(0, 400); window.scrollY", in: guide)
            XCTAssertLessThan(number("document.querySelector('h1').getBoundingClientRect().bottom", in: guide), bar,
                              "scrolled, the content is behind the bar")

            _ = evaluate("location.hash = '#replying'; 0", in: guide)
            settle()
            let anchorTop = number("document.getElementById('replying').getBoundingClientRect().top", in: guide)
            XCTAssertGreaterThanOrEqual(anchorTop, bar - 1, "an anchor jump lands below the bar")
            XCTAssertLessThan(anchorTop, bar + 40, "right below it")

            window.isTopBarRevealed = false
            spin(until: { guide.appliedInset == 0 }, "hiding the bar removes the inset")
            _ = evaluate("window.scrollTo(0, 0); 0", in: guide)
            settle()
            XCTAssertLessThan(number("document.querySelector('h1').getBoundingClientRect().top", in: guide), bar,
                              "without the bar the page starts at the top")
            window.isTopBarRevealed = true
            spin(until: { guide.appliedInset == window.topInset && window.topInset > 0 }, "shown again")

            setTextScale(2.5)  // larger text: a taller bar
            defer { setTextScale(1) }
            spin(until: { Double(window.topInset) > bar && guide.appliedInset == window.topInset }, "a taller bar")
            settle()
            XCTAssertGreaterThanOrEqual(number("document.querySelector('h1').getBoundingClientRect().top", in: guide),
                                        Double(window.topInset), "the heading follows the taller bar")

            window.stack.goBack()
            spin(until: { window.stack.pages.count == 1 && window.stack.transition == .idle }, "popped")
            spin(until: { self.webProcesses <= before }, "the web process ends when the page is popped")
        }
    }

    /// At most one web process per web page shown (issue 46): a path of fifty guide pages set at once
    /// starts one process, for the page on top; a guide covered by a pushed page ends its process once the
    /// push is over, and shown again (Back) loads again where it was scrolled to.
    func testOnlyTheShownWebPageHasAWebProcessAndACoveredOneComesBackWhereItWas() throws {
        try onMain {
            let app = try makeApp()
            let window = app.mainWindow
            let before = webProcessIDs
            func ours() -> Int { webProcessIDs.subtracting(before).count }
            var peak = 0
            let sampler = MainLoopBridge.repeating(milliseconds: 5) { peak = max(peak, ours()); return true }
            defer { g_source_remove(sampler) }
            app.router.setPath(Array(repeating: .guide(section: nil), count: 50))
            spin(until: { window.stack.pages.count == 51 && window.stack.transition == .idle }, "fifty guide pages")
            let top = try XCTUnwrap(window.stack.visiblePage as? WebPage)
            waitUntilLoaded(top, "the guide on top")
            settle()
            XCTAssertEqual(peak, 1, "one web process for fifty guide pages, one shown")
            let covered = window.stack.pages.dropLast().compactMap { $0 as? WebPage }
            XCTAssertEqual(covered.count, 49)
            XCTAssertTrue(covered.allSatisfy(\.isSuspended), "the covered guides have not loaded")

            _ = evaluate("window.scrollTo(0, 400); window.scrollY", in: top)
            app.router.push(.messages)
            spin(until: { window.stack.transition == .idle && top.isSuspended && ours() == 0 },
                 "the covered guide's process ends once the push is over")
            peak = 0
            window.stack.goBack()
            spin(until: { window.stack.visiblePage === top && window.stack.transition == .idle }, "Back to the guide")
            waitUntilLoaded(top, "the guide again")
            spin(until: { self.number("window.scrollY", in: top) == 400 }, "where it was scrolled to")
            XCTAssertEqual(peak, 1, "one process again")
            XCTAssertFalse(top.isSuspended)
        }
    }

    func testHelpInThePrimaryMenuPushesTheGuideAndClosingTheWindowEndsItsWebProcess() throws {
        try onMain {
            let app = try makeApp()
            // By process id: an earlier test's web process may still be ending while this one's starts.
            let before = webProcessIDs
            XCTAssertTrue(app.myProfile.endBarItems.contains { $0 === app.primaryMenu }, "the primary menu ends My Profile's bar")
            XCTAssertTrue(app.primaryMenu.hasAccessibleLabel("Main Menu"))
            XCTAssertTrue(app.primaryMenu.itemLabels.contains("Help"))
            app.primaryMenu.activateItem("Help")
            spin(until: { (app.mainWindow.stack.visiblePage as? WebPage)?.isLoading == false }, timeout: 20, "the guide")
            XCTAssertEqual(app.mainWindow.stack.titleLabel.text, "Guide")
            var guideProcesses = Set<Int32>()
            spin(until: { guideProcesses = self.webProcessIDs.subtracting(before); return !guideProcesses.isEmpty }, "its web process")
            app.shutdown()  // the window closes (what quitting does)
            spin(until: { self.webProcessIDs.isDisjoint(with: guideProcesses) }, "the web process ends with the window")
        }
    }

    func testTheGuidePresentedAloneHasNoInsetAndHelpInThePhotoFlowKeepsTheFlow() throws {
        try onMain {
            let app = try makeApp()
            app.myProfile.postButton.activate()
            spin(until: { app.flowDialog?.stack.visiblePage is PhotoPickerPage }, "the photo flow")
            let dialog = app.flowDialog!
            // F1 in the flow (one binding, the app's): its help over it, as Help does, not the guide pushed
            // on the main window behind the dialog.
            let depth = app.mainWindow.stack.pages.count
            spin(until: { dialog.window.isActive }, "the flow's window has the keyboard")
            pressKey(XK_F1)
            spin(until: { app.presentedWebPage?.window.isMapped == true }, "F1: the guide over the dialog")
            XCTAssertEqual(app.mainWindow.stack.pages.count, depth, "nothing pushed behind the flow")
            let byKey = try XCTUnwrap(app.presentedWebPage)
            byKey.closeButton.activate()
            spin(until: { app.presentedWebPage == nil }, "closed")
            let help = try XCTUnwrap(dialog.stack.headerBar.widgetNamed("Help"), "Help in the dialog's bar")
            help.activate()
            spin(until: { app.presentedWebPage?.window.isMapped == true }, "the guide over the dialog")
            let presented = app.presentedWebPage!
            let guide = presented.root as! WebPage
            XCTAssertTrue(guide.isShowingStandaloneBar, "its own bar")
            XCTAssertTrue(guide.standaloneBar.contains(presented.closeButton.widget), "with Close")
            XCTAssertEqual(guide.titleView.titleLabel.text, "Guide")
            waitUntilLoaded(guide, "the guide section")
            XCTAssertEqual(guide.appliedInset, 0, "an opaque bar: no inset")
            XCTAssertEqual(evaluate("getComputedStyle(document.documentElement).paddingTop", in: guide), "\"0px\"")
            let sectionTop = number("document.getElementById('posting').getBoundingClientRect().top", in: guide)
            XCTAssertGreaterThanOrEqual(sectionTop, -1)
            XCTAssertLessThan(sectionTop, 40, "opened at “Posting a photo”")
            presented.closeButton.activate()
            spin(until: { app.presentedWebPage == nil }, "closed")
            XCTAssertFalse(dialog.isDismissed, "the flow is still open")
            XCTAssertTrue(dialog.stack.visiblePage is PhotoPickerPage)
            dialog.cancelButton.activate()
            spin(until: { app.flowDialog == nil }, "flow ended")
        }
    }

    func testALinkInAPostPushesAWebPageWithThePagesTitle() throws {
        try onMain {
            let port = freePort()
            try serve(["hello.html": "<html><head><title>Hello from the test</title></head><body><h1>Hi</h1>"
                       + "<a id='js' href='javascript:alert(1)'>js</a> <a id='file' href='file:///etc/passwd'>file</a></body></html>"],
                      port: port)
            let uri = "http://127.0.0.1:\(port)/hello.html"
            let app = try makeApp(posts: ["Look at \(uri)."])
            spin(until: { app.myProfile.feedItems.first != nil }, "the post")
            let label = app.myProfile.feedItems[0].commentLabel
            XCTAssertEqual(label.linkURIs, [uri], "the address is a link (without the full stop)")
            label.activateLink(uri)
            spin(until: { app.mainWindow.stack.visiblePage is WebPage }, "a Web Page pushed")
            let web = app.mainWindow.stack.visiblePage as! WebPage
            spin(until: { app.mainWindow.stack.titleLabel.text == "Hello from the test" }, timeout: 20, "the page's title in the bar")
            XCTAssertTrue(web.endBarItems.contains { $0 === web.openInBrowserButton }, "Open in Browser in the bar")
            XCTAssertNil(web.loadError)

            // A file: link in a web page does not load (WebKit blocks it, and so would the page); a
            // javascript: or file: address given to the page is refused with a message.
            _ = evaluate("document.getElementById('file').click(); 0", in: web)
            settle()
            XCTAssertEqual(web.currentURI, uri)
            XCTAssertEqual(evaluate("document.title", in: web), "\"Hello from the test\"")
            web.load("file:///etc/passwd")
            XCTAssertTrue(web.messageLabel.isVisible)
            XCTAssertTrue(web.messageLabel.text.contains("Files are not opened"), web.messageLabel.text)
            XCTAssertEqual(web.currentURI, uri)
            web.load("javascript:alert(1)")
            XCTAssertTrue(web.messageLabel.text.contains("javascript:"), web.messageLabel.text)
            XCTAssertEqual(web.currentURI, uri)
        }
    }

    func testJavascriptAndFileAddressesInPostsAreNotLinks() throws {
        try onMain {
            let app = try makeApp(posts: ["javascript:alert(1) and file:///etc/passwd and data:text/html,hi"])
            spin(until: { app.myProfile.feedItems.first != nil }, "the post")
            let label = app.myProfile.feedItems[0].commentLabel
            XCTAssertEqual(label.linkURIs, [], "nothing to activate")
            XCTAssertFalse(label.activateLink("javascript:alert(1)"))
            XCTAssertFalse(label.activateLink("file:///etc/passwd"))
            settle()
            XCTAssertEqual(app.mainWindow.stack.pages.count, 1, "no page was opened")
            XCTAssertEqual(Links.find(in: "see www.gnome.org, or mail mailto:me@example.com!").map(\.uri),
                           ["https://www.gnome.org", "mailto:me@example.com"])
            XCTAssertEqual(Links.find(in: "write to sam.rivera@example.org.").map(\.uri), ["mailto:sam.rivera@example.org"])
            XCTAssertEqual(Links.find(in: "(see http://en.wikipedia.org/wiki/Foo_(bar)).").map(\.uri),
                           ["http://en.wikipedia.org/wiki/Foo_(bar)"], "a parenthesis the address opened is kept")
        }
    }

    /// A page opened in Postcard started the mail program 60 times in 6 s (mailto: with attach=), any
    /// registered scheme and postcard:// itself, by script and meta refresh, with no click. Served here
    /// by the test itself on loopback: nothing it does by itself leaves the web view; a link the user
    /// clicks to another scheme is asked about first, and declined, is not opened.
    func testAPageCannotOpenOtherProgramsByItselfAndAClickedLinkIsAskedFirst() throws {
        try onMain {
            let port = freePort()
            try serve(["storm.html": """
                <title>Storm</title>
                <meta http-equiv="refresh" content="0;url=mailto:a@example.org?attach=/etc/passwd">
                <a href="mailto:ada@example.org" style="display:block;position:fixed;left:0;top:0;width:100%;height:100%">Write to Ada</a>
                <script>
                location.href = 'postcard://post/1';
                for (let i = 0; i < 20; i++) setTimeout(() => { location.href = 'mailto:x' + i + '@example.org?attach=/etc/passwd'; }, 20 * i);
                setTimeout(() => { location.href = 'x-postcard-test://launch'; }, 450);
                setTimeout(() => { window.open('mailto:popup@example.org'); }, 500);
                setTimeout(() => { document.title = 'Done'; }, 1000);
                </script>
                """], port: port)
            let app = try makeApp()
            let web = try XCTUnwrap(app.router.push(.webPage("http://127.0.0.1:\(port)/storm.html")) as? WebPage)
            spin(until: { app.mainWindow.stack.titleLabel.text == "Done" }, timeout: 20, "the page's own tries")
            settle()
            XCTAssertEqual(web.openedOutside, [], "nothing handed to the desktop")
            XCTAssertTrue(MessageDialog.shown().isEmpty, "nothing the page did by itself was even asked about")
            XCTAssertTrue(web.messageLabel.text.contains("by itself; it was not opened"), web.messageLabel.text)
            XCTAssertEqual(app.router.path, [.webPage("http://127.0.0.1:\(port)/storm.html")], "postcard:// not opened from the page")

            // A real click on the link: asked first (GNOME Web's "Open in Mail?", or this when no program
            // opens mailto: here), with the address; Cancel, and nothing opens.
            pressMouseButton(1, over: app.mainWindow.window)
            spin(until: { MessageDialog.shown().count == 1 }, timeout: 10, "asked about the clicked link")
            let question = MessageDialog.shown()[0]
            XCTAssertTrue(question.heading.hasPrefix("Open "), question.heading)
            XCTAssertEqual(question.keepButton.label, "Cancel")
            XCTAssertEqual(question.confirmButton.label, "Open")
            question.keepButton.activate()
            spin(until: { MessageDialog.shown().isEmpty }, "answered")
            settle()
            XCTAssertEqual(web.openedOutside, [])
        }
    }

    /// A link to the app's own scheme (`WebPage.appSchemes`, which Postcard sets to postcard:) is not
    /// opened from a page even when clicked: a page can't drive the app, and the page says so. The toolkit
    /// itself names no scheme: without the app's, the same click is asked about as any other scheme's is.
    func testAClickedLinkToTheAppsOwnSchemeIsNotOpenedFromAPage() throws {
        try onMain {
            let port = freePort()
            try serve(["own.html": """
                <title>Own</title>
                <a href="postcard://post/1" style="display:block;position:fixed;left:0;top:0;width:100%;height:100%">A post</a>
                """], port: port)
            let app = try makeApp()
            XCTAssertEqual(WebPage.appSchemes, [Route.scheme], "set by the app")
            let address = "http://127.0.0.1:\(port)/own.html"
            let web = try XCTUnwrap(app.router.push(.webPage(address)) as? WebPage)
            spin(until: { app.mainWindow.stack.titleLabel.text == "Own" && !web.isLoading }, timeout: 20, "the page")
            settle()
            pressMouseButton(1, over: app.mainWindow.window)
            spin(until: { web.messageLabel.text.contains("postcard: links are not opened here") }, timeout: 10, "said on the page")
            settle()
            XCTAssertTrue(MessageDialog.shown().isEmpty, "not even asked about")
            XCTAssertEqual(web.openedOutside, [], "nothing handed to the desktop")
            XCTAssertEqual(app.router.path, [.webPage(address)], "no page of the app opened")

            WebPage.appSchemes = []
            defer { WebPage.appSchemes = [Route.scheme] }
            pressMouseButton(1, over: app.mainWindow.window)
            spin(until: { MessageDialog.shown().count == 1 }, timeout: 10, "asked about the clicked link, as for any scheme")
            MessageDialog.shown()[0].keepButton.activate()
            spin(until: { MessageDialog.shown().isEmpty }, "answered")
            settle()
            XCTAssertEqual(web.openedOutside, [])
        }
    }

    func testAFailedLoadShowsWhyAndTryAgainLoadsIt() throws {
        try onMain {
            let port = freePort()
            let uri = "http://127.0.0.1:\(port)/late.html"
            let app = try makeApp(posts: ["Soon at \(uri)"])
            spin(until: { app.myProfile.feedItems.first != nil }, "the post")
            app.myProfile.feedItems[0].commentLabel.activateLink(uri)
            spin(until: { (app.mainWindow.stack.visiblePage as? WebPage)?.loadError != nil }, timeout: 20, "the load fails")
            let web = app.mainWindow.stack.visiblePage as! WebPage
            XCTAssertEqual(web.errorTitle.text, "Can't Show This Page")
            XCTAssertTrue(web.errorDetail.text.contains("127.0.0.1"), web.errorDetail.text)
            XCTAssertTrue(web.tryAgainButton.isMapped, "Try Again shows")
            XCTAssertTrue(web.errorTitle.isMapped, "an error page, not a blank view")
            try serve(["late.html": "<title>Here now</title><p>Loaded.</p>"], port: port)
            web.tryAgainButton.activate()
            spin(until: { web.loadError == nil && app.mainWindow.stack.titleLabel.text == "Here now" }, timeout: 20, "Try Again loads it")
            XCTAssertFalse(web.errorTitle.isMapped)

            // A port WebKit refuses to use (discard, 9) is a failure too, never a blank view.
            web.load("http://127.0.0.1:9/")
            spin(until: { web.loadError != nil }, timeout: 20, "a restricted port fails visibly")
        }
    }
}

extension HeaderBar {
    /// The button in the bar whose accessible name is `name`, if any (for tests).
    @MainActor
    func widgetNamed(_ name: String) -> Widget? {
        func search(_ node: UnsafeMutablePointer<GtkWidget>?) -> Widget? {
            var current = node
            while let widget = current {
                let wrapped = Widget.widget(wrapping: UnsafeMutableRawPointer(widget))
                if String(cString: navgtk_type_name_of(widget)) == "GtkButton", wrapped.hasAccessibleLabel(name), gtk_widget_is_drawable(widget) != 0 { return wrapped }
                if let found = search(gtk_widget_get_first_child(widget)) { return found }
                current = gtk_widget_get_next_sibling(widget)
            }
            return nil
        }
        return search(gtk_widget_get_first_child(widget))
    }
}
