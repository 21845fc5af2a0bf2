import CGtk
import CXTest
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// What is presented over the main window as state (``Destination``, ``NavigationState``): one value
/// every way in and out goes through, links that wait on its change (not on a timer), navigation by
/// setting the whole state, and restoration of a message with My Code over it.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread,
/// and the state they touch is the main actor's.)
final class DestinationStateTests: GtkTestCase, @unchecked Sendable {
    /// Ada's post (1) on her profile and a message to Grace (1).
    @MainActor
    private func makeAppWithContent(width: Int? = nil) throws -> AppController {
        let app = try makeApp(width: width)
        let photo = Photo(path: bundledPhotos + "/rocket.jpg")
        _ = try app.store.addNow(photo: photo, comment: "Ada's own", author: "ada", profile: "ada")
        _ = try app.store.addMessageNow(to: "grace", photo: photo, comment: "Hello Grace", author: "me")
        return app
    }

    @MainActor
    private func titles(_ app: AppController) -> [String] { app.mainWindow.stack.pages.map(\.title) }

    /// Runs `body` as a task on the main actor and spins the main loop until it has returned.
    @MainActor
    private func run(_ what: String, _ body: @escaping @MainActor () async -> Void) {
        var done = false
        Task { @MainActor in
            await body()
            done = true
        }
        spin(until: { done }, what)
    }

    func testEveryPresenterSetsTheOneStateAndEveryWayOutClearsIt() throws {
        try onMain {
            let app = try makeAppWithContent()
            var changes: [Destination?] = []
            let token = app.presentationChanges.add { changes.append($0) }
            defer { token.cancel() }

            // My Code from the menu's code path, closed by the window manager (gtk_window_close).
            XCTAssertNotNil(app.presentMyCode())
            XCTAssertEqual(app.presented, .myCode)
            XCTAssertFalse(app.present(.about), "one at a time: About waits for My Code to go")
            XCTAssertNil(app.presentScanner(), "and Scan a Code too")
            let myCode = try XCTUnwrap(app.presentedMyCode)
            spin(until: { myCode.window.isMapped }, "My Code")
            gtk_window_close(myCode.window.pointer())
            spin(until: { app.presented == nil }, "My Code gone")

            // Keyboard Shortcuts, closed by Escape.
            let shortcuts = try XCTUnwrap(app.showShortcuts())
            XCTAssertEqual(app.presented, .keyboardShortcuts)
            spin(until: { shortcuts.isMapped && shortcuts.isActive }, "Keyboard Shortcuts")
            pressKey(XK_Escape)
            spin(until: { app.presented == nil }, "Keyboard Shortcuts gone")

            // A flow, started by setting the state, ended by dismissing it.
            XCTAssertTrue(app.present(.flow(.newPost)))
            XCTAssertEqual(app.flows.current?.kind, .newPost)
            app.dismissPresented()
            spin(until: { app.presented == nil && app.activeFlow == nil }, "the flow canceled")

            XCTAssertEqual(changes, [.myCode, nil, .keyboardShortcuts, nil, .flow(.newPost), nil])
        }
    }

    func testALinkWaitsOnThePresentationAndOpensInTheTurnItEnds() throws {
        try onMain {
            let app = try makeAppWithContent()
            XCTAssertTrue(app.present(.myCode))
            let dialog = try XCTUnwrap(app.presentedMyCode)
            spin(until: { dialog.window.isMapped }, "My Code")
            app.open(link: "postcard://profile/grace")
            XCTAssertEqual(app.pendingLink, .profile("grace"))
            XCTAssertEqual(titles(app), ["My Profile"], "nothing opens under My Code")

            // The link opens in the very turn the presentation becomes nothing: an observer told of that
            // change already finds the path set and nothing waiting (a timer would open it later).
            var pathWhenEnded: [Route]?
            var waitingWhenEnded: Route?? = .none
            let token = app.presentationChanges.add { presented in
                guard presented == nil else { return }
                pathWhenEnded = app.router.path
                waitingWhenEnded = .some(app.pendingLink)
            }
            defer { token.cancel() }
            app.dismissPresented()
            spin(until: { pathWhenEnded != nil }, "My Code gone")
            XCTAssertEqual(pathWhenEnded, [.profile("grace")])
            XCTAssertEqual(waitingWhenEnded, .some(nil))
            spin(until: { self.titles(app) == ["My Profile", "Grace Hopper"] }, "Grace's profile")
            XCTAssertTrue(app.toasts.toasts.allSatisfy { $0.title != AppController.waitingText }, "the waiting toast went")

            // And no timer is left behind looking for it: nothing is presented, nothing waits.
            XCTAssertNil(app.presented)
            XCTAssertNil(app.pendingLink)
        }
    }

    func testNavigatingSetsThePathAndWhatIsPresentedInOneValue() throws {
        try onMain {
            let app = try makeAppWithContent(width: 1280)
            let wanted = NavigationState(path: [.messages, .message(1)], presented: .myCode)
            var reached = false
            run("navigated") { reached = await app.navigate(to: wanted) }
            XCTAssertTrue(reached)
            XCTAssertEqual(app.navigationState, wanted)
            XCTAssertEqual(app.shownMessage?.title, "Message")
            XCTAssertNotNil(app.presentedMyCode)

            // Another state: My Code goes (waited for, not raced), then the path changes.
            let next = NavigationState(path: [.profile("ada"), .post(1)])
            run("navigated again") { reached = await app.navigate(to: next) }
            XCTAssertTrue(reached)
            XCTAssertEqual(app.navigationState, next)
            XCTAssertNil(app.presentedMyCode)
            XCTAssertEqual(titles(app), ["My Profile", "Ada Lovelace", "Post"])

            // Edit Caption cannot be started on someone else's post: the state says what was reached.
            run("not reached") { reached = await app.navigate(to: NavigationState(path: [.profile("ada"), .post(1)], presented: .flow(.editCaption))) }
            XCTAssertFalse(reached)
            XCTAssertNil(app.presented)
        }
    }

    func testTheStateIsCodableAsLinksAndNames() throws {
        let state = NavigationState(path: [.messages, .message(5)], presented: .flow(.newMessage))
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        XCTAssertTrue(json.contains(#""presented":"flow new-message""#), json)
        XCTAssertTrue(json.contains(#""path":["postcard:\/\/messages","postcard:\/\/messages\/5"]"#), json)
        XCTAssertEqual(try JSONDecoder().decode(NavigationState.self, from: Data(json.utf8)), state)
        XCTAssertThrowsError(try JSONDecoder().decode(NavigationState.self, from: Data(#"{"path":[],"presented":"a-dialog"}"#.utf8)))
        for presentation: Destination in [.myCode, .scanner, .about, .keyboardShortcuts, .flow(.addFriend)] {
            XCTAssertEqual(Destination(name: presentation.description), presentation)
        }
    }

    func testRestorationBringsBackAMessageWithMyCodeOverItButNeverAFlow() throws {
        try onMain {
            let app = try makeAppWithContent(width: 1280)
            run("navigated") { await app.navigate(to: NavigationState(path: [.messages, .message(1)], presented: .myCode)) }
            app.shutdown()
            XCTAssertEqual(Files.readText(app.navigationFile),
                           "{'path': <['postcard://messages', 'postcard://messages/1']>, 'presented': <'my-code'>}")

            let next = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            next.mainWindow.window.setDefaultSize(width: 1280, height: 800)
            next.restoreNavigation()  // before the window shows, as at a launch
            show(next.mainWindow.window)
            spin(until: { next.presented == .myCode && next.presentedMyCode?.window.isMapped == true }, "My Code again")
            XCTAssertEqual(next.router.path, [.messages, .message(1)])
            XCTAssertEqual(next.shownMessage?.title, "Message", "the message beside the list, under My Code")

            // A flow open at quit is not presented again (its draft is offered instead): only the path is kept.
            next.dismissPresented()
            spin(until: { next.presented == nil }, "My Code gone")
            XCTAssertTrue(next.present(.flow(.newMessage)))
            next.saveNavigation()
            XCTAssertEqual(Files.readText(app.navigationFile), "{'path': <['postcard://messages', 'postcard://messages/1']>}")
            next.shutdown()

            // An earlier Postcard's file, a plain array of links, still restores its path.
            try Files.writeText("['postcard://profile/ada']", to: app.navigationFile)
            let third = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(third.mainWindow.window)
            third.restoreNavigation()
            spin(until: { self.titles(third) == ["My Profile", "Ada Lovelace"] }, "Ada's profile")
            XCTAssertNil(third.presented)
            third.shutdown()
        }
    }
}
