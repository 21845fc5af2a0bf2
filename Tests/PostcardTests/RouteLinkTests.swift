import Adwaita
import CGtk
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Postcard's routes and `postcard://` links inside the app: every route's link, each opened with its
/// back path, bad links refused without changing anything, a link waiting for an open flow, Copy Link,
/// links in comments, and the saved path.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread,
/// and the state they touch is the main actor's.)
final class RouteLinkTests: GtkTestCase, @unchecked Sendable {
    /// My post (1), my post on Ada's profile (2), Ada's own post on her profile (3) and a message (1).
    @MainActor
    private func makeAppWithContent() throws -> AppController {
        let app = try makeApp(posts: ["Espresso"])
        let photo = Photo(path: bundledPhotos + "/rocket.jpg")
        _ = try app.store.addNow(photo: photo, comment: "For Ada", author: "me", profile: "ada")
        _ = try app.store.addNow(photo: photo, comment: "Ada's own", author: "ada", profile: "ada")
        _ = try app.store.addMessageNow(to: "grace", photo: photo, comment: "Hello Grace", author: "me")
        return app
    }

    @MainActor
    private func settle(_ app: AppController) {
        spin(until: { app.mainWindow.stack.transition == .idle }, "transition end")
    }

    @MainActor
    private func titles(_ app: AppController) -> [String] { app.mainWindow.stack.pages.map(\.title) }

    func testEveryRouteHasALinkThatReadsBackAsTheSameRoute() throws {
        let routes: [Route] = [.myProfile, .profile("ada"), .profile("a b/c"), .post(12), .comments(12), .messages,
                               .message(5), .guide(section: nil), .guide(section: "posting"),
                               .webPage("https://example.org/a?b=c&d=e#f")]
        for route in routes {
            XCTAssertEqual(try Route(link: route.link), route, route.link)
            XCTAssertTrue(Route.isLink(route.link))
        }
        XCTAssertEqual(Route.post(12).link, "postcard://post/12")
        XCTAssertEqual(Route.comments(12).link, "postcard://post/12/comments")
        XCTAssertEqual(Route.profile("ada").link, "postcard://profile/ada")
        XCTAssertEqual(Route.messages.link, "postcard://messages")
        XCTAssertEqual(try Route(link: "POSTCARD://Post/12/"), .post(12), "scheme and screen in any case, a trailing slash")
        XCTAssertFalse(Route.isLink("/home/sam/postcard.jpg"))
        // Saved as links: a later run (or a person) reads them.
        let json = String(decoding: try JSONEncoder().encode([Route.profile("ada"), .post(2)]), as: UTF8.self)
        XCTAssertEqual(json, #"["postcard:\/\/profile\/ada","postcard:\/\/post\/2"]"#)
    }

    /// ESC, BEL and other C0/C1 codes in a link were accepted and shown raw on Not Found, and a refused
    /// link echoed raw escape sequences to the terminal: they are refused, and wherever a link is shown or
    /// logged they are written as their codes.
    func testControlCharactersInALinkAreRefusedAndNeverShownRaw() throws {
        func reason(_ link: String) -> RouteLinkError? {
            do { _ = try Route(link: link); return nil } catch { return error as? RouteLinkError }
        }
        for link in ["postcard://profile/%1B%5B31mred", "postcard://profile/ada%07", "postcard://post/1/%C2%9B31m",
                     "postcard://guide/a%E2%80%AEb", "postcard://web?uri=https%3A%2F%2Fexample.org%2F%1B",
                     "postcard://profile/\u{1B}[2J", "postcard://profile/a\u{9B}b"] {
            XCTAssertEqual(reason(link), .controlCharacters, link)
        }
        XCTAssertEqual(RouteLinkError.unknownScreen("postcard://pots/\u{1B}[2J").description, "Postcard has no screen at postcard://pots/\\u{1B}[2J")
        XCTAssertEqual("a\u{7}b\u{2028}c".escapingControlCharacters, "a\\u{7}b\\u{2028}c")

        // On the command line: refused with exit status 2, and no escape byte reaches the terminal.
        let run = try runPostcard(["postcard://profile/\u{1B}[31mred\u{7}"])
        XCTAssertEqual(run.status, 2)
        XCTAssertFalse(run.errors.contains("\u{1B}") || run.errors.contains("\u{7}"), run.errors)
        XCTAssertTrue(run.errors.contains("\\u{1B}[31mred\\u{7}"), run.errors)
        try onMain {
            let app = try makeApp()
            XCTAssertEqual(app.open(link: "postcard://profile/%1B%5B2J"), .failure(.controlCharacters))
            XCTAssertEqual(app.router.path, [], "no Not Found page showing it")
            XCTAssertEqual(app.toasts.toasts.last?.title, "Can't open the link: the link holds control characters, which no Postcard link has")
        }
    }

    func testBadLinksAreRefusedWithAReason() {
        func reason(_ link: String) -> RouteLinkError? {
            do { _ = try Route(link: link); return nil } catch { return error as? RouteLinkError }
        }
        XCTAssertEqual(reason("https://example.org/post/12"), .unknownScheme("https"))
        XCTAssertEqual(reason("ftp://example.org"), .unknownScheme("ftp"))
        XCTAssertEqual(reason("postcard://pots/12"), .unknownScreen("postcard://pots/12"))
        XCTAssertEqual(reason("postcard://post/twelve"), .unknownScreen("postcard://post/twelve"))
        XCTAssertEqual(reason("postcard://post/-3"), .unknownScreen("postcard://post/-3"))
        XCTAssertEqual(reason("postcard://post/99999999999999999999999"), .unknownScreen("postcard://post/99999999999999999999999"))
        XCTAssertEqual(reason("postcard://post/12/likes"), .unknownScreen("postcard://post/12/likes"))
        XCTAssertEqual(reason("postcard://post/12?delete=1"), .unknownScreen("postcard://post/12?delete=1"))
        XCTAssertEqual(reason("postcard://"), .unknownScreen("postcard://"))
        XCTAssertEqual(reason("postcard://web?uri=javascript:alert(1)"), .unknownScreen("postcard://web?uri=javascript:alert(1)"))
        XCTAssertEqual(reason("postcard://web?uri=file:///etc/passwd"), .unknownScreen("postcard://web?uri=file:///etc/passwd"))
        XCTAssertEqual(reason("postcard://profile/%FF%FE"), .notUTF8)
        XCTAssertEqual(reason("postcard://web?uri=https%3A%2F%2Fexample.org%2F%FF"), .notUTF8)
        XCTAssertEqual(reason("postcard://pro file"), .unknownScreen("postcard://pro file"))
        XCTAssertEqual(reason("postcard://[bad/12"), .malformed)
        XCTAssertEqual(reason("postcard://post/1%zz"), .malformed)
        let long = "postcard://profile/" + String(repeating: "a", count: 2000)
        XCTAssertEqual(reason(long), .tooLong(bytes: long.utf8.count))
        XCTAssertEqual(RouteLinkError.tooLong(bytes: 2019).description, "the link is 2019 bytes long; Postcard reads links of up to 2000")
    }

    func testEachRouteOpensWithItsBackPathAndBackNamesThePageBelow() throws {
        try onMain {
            let app = try makeAppWithContent()
            let stack = app.mainWindow.stack
            let cases: [(String, [String], String?)] = [
                ("postcard://profile/ada", ["My Profile", "Ada Lovelace"], "My Profile"),
                ("postcard://post/2", ["My Profile", "Ada Lovelace", "Post"], "Ada Lovelace"),
                ("postcard://post/3/comments", ["My Profile", "Ada Lovelace", "Post", "Comments"], "Post"),
                ("postcard://post/1", ["My Profile", "Post"], "My Profile"),
                ("postcard://post/1/comments", ["My Profile", "Post", "Comments"], "Post"),
                ("postcard://messages", ["My Profile", "Messages"], "My Profile"),
                ("postcard://guide/posting", ["My Profile", "Guide"], "My Profile"),
                ("postcard://profile/me", ["My Profile"], nil),
            ]
            for (link, expected, back) in cases {
                XCTAssertEqual(try app.open(link: link).get().link, try Route(link: link).link)
                settle(app)
                XCTAssertEqual(titles(app), expected, link)
                XCTAssertEqual(stack.backButton.isVisible, back != nil, link)
                if let back { XCTAssertEqual(stack.backButton.tooltip, back, "Back after \(link)") }
                XCTAssertEqual(app.router.path.last.map { $0 } ?? .myProfile, try Route(link: link), "the path ends at the link's route")
            }

            // A message: Messages, with the message beside the list (the window is wide), its path the
            // same as when narrow (the message over the list).
            app.open(link: "postcard://messages/1")
            settle(app)
            XCTAssertEqual(titles(app), ["My Profile", "Messages"])
            XCTAssertEqual(app.router.path, [.messages, .message(1)])
            spin(until: { app.shownMessage?.view.isMapped == true }, "the message")
            XCTAssertEqual(app.shownMessage?.title, "Message")
            XCTAssertEqual(app.shownMessage?.subtitle, "to Grace Hopper")
            app.router.setPath([.messages])
            spin(until: { app.shownMessage == nil }, "the list alone")

            // The user's Back from a link's page goes down its back path.
            app.open(link: "postcard://post/3/comments")
            settle(app)
            stack.goBack()
            settle(app)
            XCTAssertEqual(app.router.path, [.profile("ada"), .post(3)])
            stack.goBack()
            settle(app)
            XCTAssertEqual(titles(app), ["My Profile", "Ada Lovelace"])
        }
    }

    func testBadLinksChangeNothingAndSayWhyAndMissingOnesShowNotFound() throws {
        try onMain {
            let app = try makeAppWithContent()
            app.open(link: "postcard://profile/ada")
            settle(app)
            let before = app.mainWindow.stack.pages.map(\.id)
            let postsBefore = try app.store.posts(onProfile: "ada")
            for link in ["ftp://example.org", "postcard://pots/12", "postcard://post/%FF",
                         "postcard://profile/" + String(repeating: "x", count: 3000), "postcard://post/2?delete=1"] {
                XCTAssertThrowsError(try app.open(link: link).get(), link)
                settle(app)
                XCTAssertEqual(app.mainWindow.stack.pages.map(\.id), before, "nothing changes for \(link.prefix(40))")
                XCTAssertEqual(app.toasts.toasts.count, 1, "one toast: each replaces the one before")
                XCTAssertTrue(app.toasts.toasts.last?.title.hasPrefix("Can't open the link: ") == true, app.toasts.toasts.last?.title ?? "")
            }
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Can't open the link: Postcard has no screen at postcard://post/2?delete=1"])
            let heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("label|Can't open the link: Postcard has no screen at postcard://post/2?delete=1"),
                          "a screen reader reads the toast:\n\(heard.joined(separator: "\n"))")
            XCTAssertEqual(try app.store.posts(onProfile: "ada"), postsBefore, "a link never changes anything stored")

            // A post that does not exist: Not Found, saying what was asked for, with Back.
            app.open(link: "postcard://post/99/comments")
            settle(app)
            XCTAssertEqual(titles(app), ["My Profile", "Not Found"])
            let notFound = try XCTUnwrap(app.mainWindow.stack.visiblePage as? NotFoundPage)
            XCTAssertEqual(notFound.status.title, "Nothing Here")
            XCTAssertEqual(notFound.status.text, "There is no post 99. It may have been deleted.\npostcard://post/99/comments")
            XCTAssertEqual(app.mainWindow.stack.backButton.tooltip, "My Profile")
            app.open(link: "postcard://profile/zed")
            settle(app)
            XCTAssertEqual((app.mainWindow.stack.visiblePage as? NotFoundPage)?.status.text,
                           "There is no friend called “zed”.\npostcard://profile/zed")
            app.mainWindow.stack.backButton.activate()
            spin(until: { self.titles(app) == ["My Profile"] && app.mainWindow.stack.transition == .idle }, "Back")
        }
    }

    func testALinkArrivingDuringNewPostWaitsAndOpensAfterCancel() throws {
        try onMain {
            let app = try makeAppWithContent()
            app.myProfile.postButton.activate()
            spin(until: { (app.flowDialog?.stack.visiblePage as? PhotoPickerPage)?.hasSettled == true }, "Choose a Photo")
            let dialog = try XCTUnwrap(app.flowDialog)
            (dialog.stack.visiblePage as! PhotoPickerPage).grid.activateItem(at: 0)
            spin(until: { dialog.stack.visiblePage is CommentPage && dialog.stack.transition == .idle }, "Add a Comment")
            let page = dialog.stack.visiblePage as! CommentPage
            page.commentView.text = "Half a thought"
            spin(until: { gtk_window_is_active(dialog.window.pointer()) != 0 }, "the dialog has the keyboard")

            app.open(link: "postcard://post/1")
            app.open(link: "postcard://profile/ada")  // the newest link wins
            settle()
            XCTAssertEqual(titles(app), ["My Profile"], "the main window is untouched")
            XCTAssertTrue(app.flowDialog === dialog && dialog.window.isMapped, "the flow is untouched")
            XCTAssertTrue(dialog.stack.visiblePage === page)
            XCTAssertTrue(gtk_window_is_active(dialog.window.pointer()) != 0, "the dialog stays in front, with the keyboard")
            XCTAssertFalse(app.mainWindow.window.isActive)
            XCTAssertEqual(page.commentView.text, "Half a thought")
            XCTAssertEqual(app.pendingLink, .profile("ada"))
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["A link is waiting: it opens when you close what is open now"])
            let heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("label|A link is waiting: it opens when you close what is open now"),
                          "a screen reader reads it:\n\(heard.joined(separator: "\n"))")

            // Cancel asks about the typed comment; keeping it keeps the link waiting.
            dialog.cancelButton.activate()
            spin(until: { MessageDialog.shown().count == 1 }, "Discard this post?")
            MessageDialog.shown()[0].keepButton.activate()
            spin(until: { MessageDialog.shown().isEmpty }, "kept")
            settle()
            XCTAssertEqual(titles(app), ["My Profile"])
            XCTAssertEqual(page.commentView.text, "Half a thought")
            dialog.cancelButton.activate()
            spin(until: { MessageDialog.shown().count == 1 }, "asked again")
            MessageDialog.shown()[0].confirmButton.activate()
            spin(until: { app.activeFlow == nil }, "the flow ended")
            spin(until: { self.titles(app) == ["My Profile", "Ada Lovelace"] && app.mainWindow.stack.transition == .idle },
                 "the waiting link opens")
            XCTAssertNil(app.pendingLink)
            spin(until: { app.toasts.toasts.isEmpty }, "the waiting link's toast goes")
        }
    }

    func testALinkWaitingForKeyboardShortcutsOpensWhenItCloses() throws {
        try onMain {
            let app = try makeAppWithContent()
            let shortcuts = try XCTUnwrap(app.showShortcuts())
            spin(until: { shortcuts.isMapped }, "Keyboard Shortcuts")
            app.open(link: "postcard://profile/grace")
            app.open(link: "postcard://pots/3")  // a bad one meanwhile: says so, and that the other still waits
            // The bad link's toast shows first; the waiting one comes back after it.
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Can't open the link: Postcard has no screen at postcard://pots/3",
                                                          "A link is waiting: it opens when you close what is open now"])
            settle()
            XCTAssertEqual(titles(app), ["My Profile"])
            shortcuts.destroy()
            spin(until: { self.titles(app) == ["My Profile", "Grace Hopper"] }, "the waiting link opens")
            XCTAssertNil(app.pendingLink)
        }
    }

    func testALinkInAMessageOpensAtOnce() throws {
        try onMain {
            let app = try makeAppWithContent()
            app.open(link: "postcard://messages/1")
            spin(until: { app.shownMessage?.view.isMapped == true }, "the message")
            let message = try XCTUnwrap(app.shownMessage)
            app.openLink("postcard://post/3", from: message)
            spin(until: { self.titles(app) == ["My Profile", "Ada Lovelace", "Post"] }, "the post")
            XCTAssertNil(app.pendingLink, "it did not wait for the message it was in")
            XCTAssertNil(app.shownMessage)
        }
    }

    func testCopyLinkPutsThePostsAndProfilesLinkOnTheClipboard() throws {
        try onMain {
            let app = try makeAppWithContent()
            app.open(link: "postcard://post/2")
            settle(app)
            let detail = try XCTUnwrap(app.mainWindow.stack.visiblePage as? PhotoDetailPage)
            try XCTUnwrap(findButton(labeled: "Copy Link", in: detail.content)).activate()
            spin(until: { !app.toasts.toasts.isEmpty }, "Copy Link")  // clicked comes as GTK shows the press
            XCTAssertEqual(try readClipboard(), "postcard://post/2")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Link copied"])

            app.mainWindow.stack.goBack()
            settle(app)
            let ada = try XCTUnwrap(app.mainWindow.stack.visiblePage as? ProfilePage)
            XCTAssertTrue(try readAccessibilityTree().contains("push button|Copy Link"), "the bar's icon is named for a screen reader")
            try XCTUnwrap(ada.endBarItems.first { $0.hasAccessibleLabel("Copy Link") }).activate()
            spin(until: { (try? self.readClipboard()) == "postcard://profile/ada" }, "Copy Link in the bar")
            XCTAssertEqual(app.toasts.toasts.map(\.title), ["Link copied"], "the new toast replaced the first")
            XCTAssertEqual(try readClipboard(), "postcard://profile/ada")
            XCTAssertEqual(ada.person.id, "ada")
            // And back in: the copied link opens the same screen.
            app.mainWindow.stack.popToRoot()
            settle(app)
            app.open(link: try readClipboard())
            settle(app)
            XCTAssertEqual(titles(app), ["My Profile", "Ada Lovelace"])
        }
    }

    @MainActor
    private func readClipboard() throws -> String {
        var text: String?
        var done = false
        Task { @MainActor in
            text = await Clipboard.readText()
            done = true
        }
        spin(until: { done }, "the clipboard")
        return try XCTUnwrap(text)
    }

    func testAPostcardLinkInACommentOpensItsScreen() throws {
        try onMain {
            let app = try makeApp(posts: ["Look at postcard://profile/grace and postcard://post/7."])
            spin(until: { app.myProfile.feedItems.first != nil }, "the post")
            let label = app.myProfile.feedItems[0].commentLabel
            XCTAssertTrue(label.activateLink("postcard://profile/grace"), "the address is a link")
            settle(app)
            XCTAssertEqual(titles(app), ["My Profile", "Grace Hopper"])
            XCTAssertEqual(Links.find(in: "Look at postcard://post/7.").map(\.uri), ["postcard://post/7"], "the full stop is not part of it")
        }
    }

    func testThePathIsSavedAsLinksAndRestoredThroughTheRoutes() throws {
        try onMain {
            let app = try makeAppWithContent()
            app.open(link: "postcard://post/3/comments")
            settle(app)
            app.shutdown()
            let saved = try XCTUnwrap(Files.readText(app.navigationFile))
            XCTAssertEqual(saved, "{'path': <['postcard://profile/ada', 'postcard://post/3', 'postcard://post/3/comments']>}", "a GVariant dictionary in GLib's text format")

            let next = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(next.mainWindow.window)
            next.restoreNavigation()
            settle(next)
            XCTAssertEqual(titles(next), ["My Profile", "Ada Lovelace", "Post", "Comments"])
            XCTAssertEqual(next.mainWindow.stack.backButton.tooltip, "Post")
            next.shutdown()

            // A web page is not loaded again at launch: the path is kept up to it.
            let web = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(web.mainWindow.window)
            web.router.setPath([.profile("ada"), .webPage("http://127.0.0.1:9/")], animated: false)  // a port WebKit refuses
            XCTAssertEqual(web.router.path.count, 2)
            web.shutdown()
            XCTAssertEqual(Files.readText(app.navigationFile), "{'path': <['postcard://profile/ada']>}")
            // A link that cannot be read ends the path there.
            try Files.writeText("['postcard://profile/ada', 'postcard://pots/3', 'postcard://post/3']", to: app.navigationFile)
            let fourth = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(fourth.mainWindow.window)
            fourth.restoreNavigation()
            settle(fourth)
            XCTAssertEqual(titles(fourth), ["My Profile", "Ada Lovelace"])
            fourth.shutdown()

            // A file that is not a list of links (an older Postcard's JSON, a damaged file) restores nothing, quietly.
            try Files.writeText(#"{"entries":[{"id":{"rawValue":7},"title":"Home","route":"profile/ada"}]}"#, to: app.navigationFile)
            let third = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(third.mainWindow.window)
            third.restoreNavigation()
            settle()
            XCTAssertEqual(titles(third), ["My Profile"])
        }
    }

    func testLinksAreFoundInAnyScriptAndEndWhereTheSentenceDoes() {
        XCTAssertEqual(Links.find(in: "Write to jose\u{301}@example.org.").map(\.uri), ["mailto:jose\u{301}@example.org"],
                       "a combining mark is part of the address, as with ICU's word characters")
        XCTAssertEqual(Links.find(in: "पता: मेल@उदाहरण.भारत देखें").map(\.uri), ["mailto:मेल@उदाहरण.भारत"])
        XCTAssertEqual(Links.find(in: "(see https://en.wikipedia.org/wiki/Foo_(bar)) and www.gnome.org!").map(\.uri),
                       ["https://en.wikipedia.org/wiki/Foo_(bar)", "https://www.gnome.org"])
        XCTAssertEqual(Links.find(in: "Ünïcödé first, then HTTPS://EXAMPLE.ORG/ä?x=1").map(\.uri), ["https://EXAMPLE.ORG/ä?x=1"],
                       "the scheme in lower case, so the link works (Http:// was shown as a link and did nothing)")
        XCTAssertEqual(Links.find(in: "Http://example.org/Path").map(\.uri), ["http://example.org/Path"])
        // A mailto: is reduced to its address: attach=, body=, cc= never reach the mail program.
        XCTAssertEqual(Links.find(in: "mail mailto:ada@example.org?attach=/etc/passwd&body=hi&cc=x@y.org now").map(\.uri),
                       ["mailto:ada@example.org"])
        XCTAssertEqual(Links.find(in: "MailTo:grace@example.org#x").map(\.uri), ["mailto:grace@example.org"])
        XCTAssertTrue(Links.find(in: "mailto:?attach=/etc/passwd").isEmpty, "no address, no link")
        XCTAssertTrue(Links.find(in: "javascript:alert(1) file:///etc/passwd data:text/html,x").isEmpty, "other schemes are never links")
        let text = "Café ☕ at postcard://post/7, then more"
        let found = Links.find(in: text)
        XCTAssertEqual(found.map { String(text[$0.range]) }, ["postcard://post/7"], "the range is the link's own text")
    }

    func testALinkAfterAnUnterminatedRightToLeftOverrideStillReadsLeftToRight() throws {
        try onMain {
            let label = Label()
            let text = "Look \u{202E}here: https://example.org/abc and more"
            label.showText(withLinks: text)
            let window = Gtk.Window()
            window.setChild(label)
            show(window)
            spin(until: { label.isMapped }, "shown")
            // Where the link's first and last characters are drawn (Pango's layout of the label).
            let layout = gtk_label_get_layout(label.pointer())!
            let shown = String(cString: pango_layout_get_text(layout))
            let bytes = Array(shown.utf8)
            let start = try XCTUnwrap((0..<bytes.count).first { Array(bytes[$0...].prefix(5)) == Array("https".utf8) })
            let end = start + "https://example.org/abc".utf8.count - 1
            var first = PangoRectangle(), last = PangoRectangle()
            pango_layout_index_to_pos(layout, Int32(start), &first)
            pango_layout_index_to_pos(layout, Int32(end), &last)
            XCTAssertLessThan(first.x, last.x, "the link reads left to right: the override before it does not reverse it")
            XCTAssertEqual(label.linkURIs, ["https://example.org/abc"])
            window.destroy()
        }
    }
}
