import CGtk
import CXTest
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import XCTest

/// A navigation stack driven by a path of route values (`NavigationRouter`), in a real window: setting a
/// path shows the right pages with the right Back tooltips, only new routes get new pages, and the user's
/// Back, Escape and Forward change the path, which observers hear.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread,
/// and the state they touch is the main actor's.)
final class NavigationRouterTests: ToolkitTestCase, @unchecked Sendable {
    enum Color: Hashable, Codable, Sendable { case red, green, blue, shade(String) }

    /// A window on a root page, a router making a page titled after each route, and a count of the pages
    /// it made.
    @MainActor
    private func makeRouter() -> (NavigationWindow, NavigationRouter<Color>, () -> [Color]) {
        let window = NavigationWindow(root: Page(title: "Colors"), width: 640, height: 480)
        show(window.window)
        var made: [Color] = []
        let router = NavigationRouter<Color>(stack: window.stack) { color in
            made.append(color)
            if case .shade("gone") = color { return nil }  // a subject that no longer exists
            let page = Page(title: "\(color)".capitalized)
            page.content.append(Label("A page about \(color)"))  // something to draw (a swipe pictures the page)
            return page
        }
        return (window, router, { made })
    }

    @MainActor
    private func settle(_ stack: NavigationStack) {
        spin(until: { stack.transition == .idle }, "transition end")
    }

    func testSettingAPathShowsItsPagesWithBackToThePageBelow() {
        onMain {
            let (window, router, made) = makeRouter()
            let stack = window.stack
            var heard: [[Color]] = []
            let observation = router.observePath { heard.append($0) }
            defer { observation.cancel() }

            router.setPath([.red, .green, .blue])
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["Colors", "Red", "Green", "Blue"])
            XCTAssertEqual(stack.titleLabel.text, "Blue")
            XCTAssertTrue(stack.backButton.isVisible)
            XCTAssertEqual(stack.backButton.tooltip, "Green", "Back names the page below")
            XCTAssertEqual(router.path, [.red, .green, .blue])
            XCTAssertEqual(stack.lastSlide, .right, "one push, slid in")
            XCTAssertEqual(heard, [[.red, .green, .blue]], "heard once, after the change")

            // A common prefix: Red's page is kept (not made again), Green and Blue go, Shade comes.
            let red = stack.pages[1]
            router.setPath([.red, .shade("pink")])
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["Colors", "Red", "Shade(\"Pink\")"])
            XCTAssertTrue(stack.pages[1] === red, "the kept page is the same page")
            XCTAssertEqual(made(), [.red, .green, .blue, .shade("pink")], "only the new route's page was made")
            XCTAssertEqual(stack.backButton.tooltip, "Red")

            // The same path again changes nothing; a shorter one pops.
            router.setPath([.red, .shade("pink")])
            XCTAssertEqual(heard.count, 2)
            router.setPath([.red])
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["Colors", "Red"])
            XCTAssertEqual(stack.backButton.tooltip, "Colors")

            // A completely different path, then an empty one: the root alone, no Back.
            router.setPath([.blue, .green])
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["Colors", "Blue", "Green"])
            router.setPath([])
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["Colors"])
            XCTAssertFalse(stack.backButton.isVisible)
            XCTAssertEqual(heard, [[.red, .green, .blue], [.red, .shade("pink")], [.red], [.blue, .green], []])
        }
    }

    func testAPathStopsBeforeARouteWhosePageCannotBeMade() {
        onMain {
            let (window, router, _) = makeRouter()
            let shown = router.setPath([.red, .shade("gone"), .blue], animated: false)
            XCTAssertEqual(shown, [.red])
            XCTAssertEqual(window.stack.pages.map(\.title), ["Colors", "Red"])
        }
    }

    func testTheUsersBackEscapeForwardSwipeAndHistoryChangeThePath() {
        onMain {
            let (window, router, _) = makeRouter()
            let stack = window.stack
            var heard: [[Color]] = []
            let observation = router.observePath { heard.append($0) }
            defer { observation.cancel() }
            router.setPath([.red, .green, .blue], animated: false)

            stack.backButton.activate()  // clicked comes a moment later, as GTK shows the press
            spin(until: { router.path == [.red, .green] && stack.transition == .idle }, "the Back button")
            pressKey(XK_Escape)
            spin(until: { router.path == [.red] && stack.transition == .idle }, "Escape")
            pressKey(XK_Right, modifiers: [XK_Alt_L])
            spin(until: { router.path == [.red, .green] && stack.transition == .idle }, "Forward (Alt+Right)")
            XCTAssertEqual(stack.titleLabel.text, "Green", "Forward brings back the page with its route")
            pressKey(XK_Left, modifiers: [XK_Alt_L])
            spin(until: { router.path == [.red] && stack.transition == .idle }, "Alt+Left")

            // A swipe back (a touchpad's two fingers, a touch screen's edge), let go past the threshold.
            router.setPath([.red, .green], animated: false)
            spin(until: { stack.beginSwipeBack() }, "the swipe begins (once the page is drawn)")
            stack.updateSwipeBack(progress: 0.8)
            stack.endSwipeBack(commit: true)
            spin(until: { router.path == [.red] && !stack.isSwipingBack }, "the swipe")

            // The Back button's history menu: straight back to the root.
            router.setPath([.red, .green, .blue], animated: false)
            stack.goBack(to: stack.pages[0])
            settle(stack)
            XCTAssertEqual(router.path, [])
            XCTAssertEqual(heard, [[.red, .green, .blue], [.red, .green], [.red], [.red, .green], [.red],
                                   [.red, .green], [.red], [.red, .green, .blue], []])
        }
    }

    func testPushingARouteTwiceInARowShowsItOnce() {
        onMain {
            let (window, router, made) = makeRouter()
            let first = router.push(.red)
            let second = router.push(.red)
            settle(window.stack)
            XCTAssertTrue(first === second, "the page already shown")
            XCTAssertEqual(window.stack.pages.count, 2)
            XCTAssertEqual(made(), [.red])
            XCTAssertTrue(router.page(for: .red) === first)
            XCTAssertEqual(router.visibleRoute, .red)
        }
    }

    func testPagesWithoutARouteStayOnTopOfAPushAndGoWhenAnotherPathIsSet() {
        onMain {
            let (window, router, _) = makeRouter()
            let stack = window.stack
            router.setPath([.red], animated: false)
            let step = Page(title: "A Flow's Step")
            stack.push(step)
            settle(stack)
            XCTAssertEqual(router.path, [.red], "a page without a route is not part of the path")
            XCTAssertNil(router.visibleRoute)
            XCTAssertNil(step.route)
            XCTAssertEqual(stack.pages[1].route, AnyRoute(Color.red), "the route is kept in the stack's state")
            var removed: [Page] = []
            let observation = stack.observePops { pages, _ in removed += pages }
            defer { observation.cancel() }
            router.setPath([.red, .green])
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["Colors", "Red", "Green"], "the stack shows exactly the path")
            XCTAssertTrue(removed.contains { $0 === step }, "whoever owned the step hears it leave (a pushed flow ends)")
        }
    }

    func testAPathSavedByOneRunIsRebuiltByTheNext() throws {
        try onMain {
            let (_, router, _) = makeRouter()
            router.setPath([.red, .shade("pink")], animated: false)
            let saved = try JSONEncoder().encode(router.path)

            let (window, next, _) = makeRouter()
            next.setPath(try JSONDecoder().decode([Color].self, from: saved), animated: false)
            XCTAssertEqual(window.stack.pages.map(\.title), ["Colors", "Red", "Shade(\"Pink\")"])
        }
    }
}
