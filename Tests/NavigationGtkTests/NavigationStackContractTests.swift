import CGtk
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import XCTest

/// The stack's contract where libadwaita's `AdwNavigationView` states one (its
/// `tests/test-navigation-view.c`): adding to an empty stack, popping where there is nothing to pop,
/// replace's one event, the visible-page observer only on a real change, added pages that follow their
/// tags, and a page on the stack added for later. Any critical not expected fails the test.
final class NavigationStackContractTests: ToolkitTestCase, @unchecked Sendable {  // XCTestCase is not Sendable; runs on the main thread only
    @MainActor
    private func tagged(_ title: String, _ tag: String, _ counter: LifeCounter) -> CountedPage {
        let page = CountedPage(title, counter: counter)
        page.tag = tag
        return page
    }

    @MainActor
    private func describe(_ event: NavigationStack.Event) -> String {
        switch event {
        case .pushed(let page): "pushed \(page.title)"
        case .popped(let page): "popped \(page.title)"
        case .removed(let page): "removed \(page.title)"
        case .replaced(let removed, let added): "replaced \(removed.map(\.title)) with \(added.map(\.title))"
        }
    }

    func testAddingToAnEmptyStackMakesTheRoot() {
        onMain {
            let counter = LifeCounter()
            let stack = NavigationStack()
            var events: [String] = [], visible: [String?] = []
            let tokens = [stack.observeEvents { event, _ in events.append(self.describe(event)) },
                          stack.observeVisiblePage { visible.append($0?.title) }]
            defer { tokens.forEach { $0.cancel() } }
            let first = tagged("First", "first", counter), second = tagged("Second", "second", counter)
            stack.add(first)
            stack.add(second)
            XCTAssertEqual(stack.pages.map(\.title), ["First"], "the first page added to an empty stack is its root")
            XCTAssertTrue(stack.visiblePage === first)
            XCTAssertEqual(events, ["pushed First"], "pushed once, as libadwaita's add does")
            XCTAssertEqual(visible, ["First"])
            XCTAssertTrue(stack.page(taggedAs: "second") === second, "the second is kept for later")
            XCTAssertTrue(stack.push(tag: "second"))
            XCTAssertEqual(stack.pages.map(\.title), ["First", "Second"])
        }
    }

    func testPoppingWhereThereIsNothingToPopIsSilent() {
        onMain {
            let counter = LifeCounter()
            let window = NavigationWindow(root: tagged("Root", "root", counter), width: 640, height: 480)
            show(window.window)
            let stack = window.stack
            var events: [String] = []
            let token = stack.observeEvents { event, _ in events.append(self.describe(event)) }
            defer { token.cancel() }
            // No critical is expected: an unexpected one fails the test.
            XCTAssertNil(stack.pop(), "at the root")
            XCTAssertTrue(stack.pop(to: CountedPage("Stranger", counter: counter)).isEmpty, "a page not on the stack")
            XCTAssertTrue(stack.pop(toTag: "nowhere").isEmpty, "a tag no page has")
            XCTAssertTrue(stack.pop(toTag: "root").isEmpty, "the visible page's own tag")
            XCTAssertNil(NavigationStack().pop(), "an empty stack")
            XCTAssertEqual(stack.pages.map(\.title), ["Root"])
            XCTAssertEqual(events, [], "nothing happened, so nothing is heard")
        }
    }

    func testReplaceReportsOneReplacedEventAndTheVisiblePageOnlyWhenItChanges() {
        onMain {
            let counter = LifeCounter()
            let window = NavigationWindow(root: CountedPage("Root", counter: counter), width: 640, height: 480)
            show(window.window)
            let stack = window.stack
            let root = stack.pages[0], a = CountedPage("A", counter: counter), b = CountedPage("B", counter: counter)
            var events: [String] = [], visible: [String?] = []
            let tokens = [stack.observeEvents { event, _ in events.append(self.describe(event)) },
                          stack.observeVisiblePage { visible.append($0?.title) }]
            defer { tokens.forEach { $0.cancel() } }

            stack.replace(with: [root, a], animated: false)  // only adds: still one replaced, not pushed
            XCTAssertEqual(events, ["replaced [] with [\"A\"]"])
            XCTAssertEqual(visible, ["A"])
            stack.replace(with: [root], animated: false)  // only removes: not popped
            XCTAssertEqual(events.last, "replaced [\"A\"] with []")
            stack.replace(with: [b, root], animated: false)  // the visible page stays (moved up)
            XCTAssertEqual(events.last, "replaced [] with [\"B\"]")
            XCTAssertEqual(visible, ["A", "Root"], "the visible page did not change: its observer was not called")
            stack.replace(with: [b, root], animated: false)  // nothing changes
            XCTAssertEqual(events.count, 4, "still one replaced event per replace, as libadwaita: \(events)")
            XCTAssertEqual(visible, ["A", "Root"])
            stack.push(a)
            stack.remove(b)  // from below: what is shown stays
            XCTAssertEqual(visible, ["A", "Root", "A"], "a page taken from below does not notify the visible page")
            XCTAssertEqual(events.suffix(2), ["pushed A", "removed B"])
        }
    }

    func testAddedPagesFollowTheirTagsAndCanBeRemoved() {
        onMain {
            let counter = LifeCounter()
            let window = NavigationWindow(root: tagged("Root", "root", counter), width: 640, height: 480)
            show(window.window)
            let stack = window.stack
            let later = tagged("Later", "later", counter), other = tagged("Other", "other", counter)
            stack.add(later)
            stack.add(other)
            later.tag = "renamed"
            XCTAssertTrue(stack.page(taggedAs: "renamed") === later, "found by its new tag")
            XCTAssertNil(stack.page(taggedAs: "later"), "not by its old one")
            expectCritical("tag: “other” is already used by “Other”*") { later.tag = "other" }
            XCTAssertEqual(later.tag, "renamed", "a tag another added page has is refused")
            expectCritical("tag: “root” is already used on this stack*") { later.tag = "root" }
            XCTAssertEqual(later.tag, "renamed", "and one a page on the stack has")
            XCTAssertTrue(stack.page(taggedAs: "other") === other)
            XCTAssertTrue(stack.page(taggedAs: "root") === stack.pages[0])
            XCTAssertTrue(stack.push(tag: "renamed"), "pushed by its new tag")
            stack.pop()
            spin(until: { stack.transition == .idle }, "popped")
            stack.remove(later)
            stack.remove(other)
            XCTAssertNil(stack.page(taggedAs: "renamed"), "removed")
            XCTAssertNil(stack.page(taggedAs: "other"))
            later.tag = "root"  // no longer followed: no critical
            XCTAssertEqual(stack.pages.map(\.title), ["Root"])
        }
    }

    func testAPageOnTheStackAddedForLaterStaysAfterItsPop() {
        onMain {
            let counter = LifeCounter()
            let window = NavigationWindow(root: CountedPage("Root", counter: counter), width: 640, height: 480)
            show(window.window)
            let stack = window.stack
            let a = tagged("A", "a", counter)
            stack.push(a)
            stack.add(a)  // not a duplicate of itself: kept for later
            spin(until: { stack.transition == .idle }, "pushed")
            stack.pop()
            spin(until: { stack.transition == .idle }, "popped")
            XCTAssertTrue(stack.page(taggedAs: "a") === a, "still found after its pop")
            XCTAssertTrue(stack.push(tag: "a"), "and pushed again by its tag")
            spin(until: { stack.transition == .idle }, "pushed again")
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "A"])
            XCTAssertTrue(a.view.isMapped, "its widgets came back")
        }
    }
}
