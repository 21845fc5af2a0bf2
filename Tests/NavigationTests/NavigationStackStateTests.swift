import Navigation
import Foundation
import XCTest

/// Model tests: no display, no GTK.
final class NavigationStackStateTests: XCTestCase {
    private func entry(_ title: String) -> NavigationStackState.Entry { .init(id: .make(), title: title) }

    /// Checks the whole stack at once by titles, root first.
    private func expectStack(_ stack: NavigationStackState, _ titles: [String], line: UInt = #line) {
        XCTAssertEqual(stack.entries.map(\.title), titles, line: line)
    }

    func testPushShowsNewTopAndEnablesBack() {
        var stack = NavigationStackState([entry("Profile")])
        XCTAssertFalse(stack.canGoBack)
        XCTAssertTrue(stack.push(entry("Friend")))
        expectStack(stack, ["Profile", "Friend"])
        XCTAssertTrue(stack.canGoBack)
        XCTAssertEqual(stack.previous?.title, "Profile")
    }

    func testPushingPageAlreadyOnStackIsIgnored() {
        let friend = entry("Friend")
        var stack = NavigationStackState([entry("Profile"), friend])
        XCTAssertFalse(stack.push(friend))
        expectStack(stack, ["Profile", "Friend"])
    }

    func testPopAtRootDoesNothing() {
        var stack = NavigationStackState([entry("Profile")])
        XCTAssertNil(stack.pop())
        expectStack(stack, ["Profile"])
        var empty = NavigationStackState()
        XCTAssertNil(empty.pop())
        XCTAssertTrue(empty.popToRoot().isEmpty)
    }

    func testPopToMiddleRemovesPagesAbove() {
        let middle = entry("B")
        var stack = NavigationStackState([entry("A"), middle, entry("C"), entry("D")])
        XCTAssertEqual(stack.pop(to: middle.id).map(\.title), ["C", "D"])
        expectStack(stack, ["A", "B"])
        XCTAssertTrue(stack.pop(to: PageID.make()).isEmpty, "unknown id changes nothing")
        expectStack(stack, ["A", "B"])
    }

    func testPopToRootAtRootIsEmpty() {
        var stack = NavigationStackState([entry("A")])
        XCTAssertTrue(stack.popToRoot().isEmpty)
        expectStack(stack, ["A"])
    }

    func testReplaceWithEmptyEmptiesAndDropsDuplicates() {
        let a = entry("A")
        var stack = NavigationStackState([a, entry("B")])
        stack.replace(with: [])
        XCTAssertNil(stack.top)
        stack.replace(with: [a, a, entry("C")])
        expectStack(stack, ["A", "C"])
    }

    func testChangeClassifiesPushPopReplace() {
        let a = entry("A"), b = entry("B"), c = entry("C")
        let old = NavigationStackState([a, b])
        XCTAssertEqual(old.change(to: NavigationStackState([a, b, c])), .push([c]))
        XCTAssertEqual(old.change(to: NavigationStackState([a])), .pop([b]))
        XCTAssertEqual(old.change(to: NavigationStackState([a, c])), .replace(removed: [b], added: [c]))
        XCTAssertEqual(old.change(to: old), StackChange.none)
        XCTAssertEqual(StackChange.pop([b]).transitionKind, .pop)
        XCTAssertEqual(StackChange.replace(removed: [b], added: [c]).transitionKind, .push)
    }

    func testTitleChangeKeepsIdentity() {
        let a = entry("A")
        var stack = NavigationStackState([a])
        XCTAssertTrue(stack.setTitle("Renamed", of: a.id))
        XCTAssertEqual(stack.top?.id, a.id)
        XCTAssertFalse(stack.setTitle("X", of: PageID.make()))
        expectStack(stack, ["Renamed"])
    }

    func testPopToTagFindsTheTaggedPage() {
        var stack = NavigationStackState([entry("Home"), .init(id: .make(), title: "Album", tag: "album"), entry("Photo"), entry("Info")])
        XCTAssertEqual(stack.entry(taggedAs: "album")?.title, "Album")
        XCTAssertEqual(stack.pop(toTag: "album").map(\.title), ["Photo", "Info"])
        expectStack(stack, ["Home", "Album"])
        XCTAssertEqual(stack.pop(toTag: "album"), [], "already on top")
        XCTAssertEqual(stack.pop(toTag: "nowhere"), [], "no such tag: nothing changes")
        expectStack(stack, ["Home", "Album"])
    }

    func testAPageThatCannotPopHidesBackFromTheUserButCodeCanStillPopIt() {
        var stack = NavigationStackState([entry("Home"), .init(id: .make(), title: "Checkout", canPop: false)])
        XCTAssertTrue(stack.canGoBack)
        XCTAssertFalse(stack.canUserGoBack, "no Back for the user")
        XCTAssertNil(stack.goBack(), "the user's Back does nothing")
        expectStack(stack, ["Home", "Checkout"])
        XCTAssertEqual(stack.pop()?.title, "Checkout", "code can still pop")
        let confirm = entry("Confirm")
        stack.push(confirm)
        XCTAssertTrue(stack.canUserGoBack)
        XCTAssertTrue(stack.setCanPop(false, of: confirm.id))
        XCTAssertFalse(stack.canUserGoBack, "changed while shown")
    }

    func testForwardPushesAgainThePageTheUserJustLeftUntilAnythingElseChanges() {
        var stack = NavigationStackState([entry("Home"), entry("Post")])
        XCTAssertNil(stack.goForward(), "nothing left yet")
        XCTAssertEqual(stack.goBack()?.title, "Post")
        XCTAssertEqual(stack.forwardEntry?.title, "Post")
        XCTAssertEqual(stack.goForward()?.title, "Post", "the same page again")
        expectStack(stack, ["Home", "Post"])
        XCTAssertNil(stack.goForward(), "once")

        stack.goBack()
        stack.push(entry("Other"))
        XCTAssertNil(stack.goForward(), "a new push clears it")
        stack.push(entry("Deeper"))
        stack.goBack()
        stack.pop()
        XCTAssertNil(stack.goForward(), "so does code popping")
        stack.push(entry("A"))
        stack.goBack()
        stack.replace(with: [entry("Fresh")])
        XCTAssertNil(stack.forwardEntry, "and replacing")
    }

    func testEntriesKeepTheRouteTheirPageWasMadeFrom() {
        enum Route: Hashable, Sendable { case post(Int), profile(String) }
        var stack = NavigationStackState([entry("Home")])
        stack.push(.init(id: .make(), title: "Ada", route: AnyRoute(Route.profile("ada"))))
        stack.push(.init(id: .make(), title: "Post", route: AnyRoute(Route.post(12))))
        stack.push(entry("Choose a Photo"))  // a flow's page: no route
        XCTAssertEqual(stack.routes.map { $0?.value(as: Route.self) }, [nil, .profile("ada"), .post(12), nil])
        XCTAssertNil(stack.routes[1]?.value(as: Int.self), "a route of another type is not this one")
        XCTAssertEqual(AnyRoute(Route.post(12)), AnyRoute(Route.post(12)))
        XCTAssertNotEqual(AnyRoute(Route.post(12)), AnyRoute(12), "the same payload in another type differs")
        stack.goBack()
        stack.goBack()
        XCTAssertEqual(stack.forwardEntry?.route, AnyRoute(Route.post(12)), "Forward brings back the page with its route")
    }

    func testPageIDsAreUnique() {
        let ids = (0..<1000).map { _ in PageID.make() }
        XCTAssertEqual(Set(ids).count, 1000)
    }
}

/// Exactly-once completion, without GTK.
final class FlowCompletionTests: XCTestCase {
    @MainActor
    func testFirstResolveWinsAndLaterOnesAreIgnored() async {
        let completion = FlowCompletion<String>()
        var observed: [String] = []
        completion.whenResolved { observed.append($0) }
        XCTAssertTrue(completion.resolve("posted"))
        XCTAssertFalse(completion.resolve("canceled"))
        XCTAssertFalse(completion.resolve("posted"))
        let value = await completion.value(onCancel: {})
        XCTAssertEqual(value, "posted")
        XCTAssertEqual(observed, ["posted"])
    }

    @MainActor
    func testWaiterResumesOnceWhenResolvedLater() async {
        let completion = FlowCompletion<Int>()
        let waiter = Task { @MainActor in await completion.value(onCancel: {}) }
        await Task.yield()
        completion.resolve(1)
        completion.resolve(2)
        let value = await waiter.value
        XCTAssertEqual(value, 1)
    }

    @MainActor
    func testEveryWaitingCallerGetsTheOneResult() async {
        let completion = FlowCompletion<Int>()
        let waiters = (0..<3).map { _ in Task { @MainActor in await completion.value(onCancel: {}) } }
        for _ in 0..<5 { await Task.yield() }
        completion.resolve(7)
        completion.resolve(8)
        var values: [Int] = []
        for waiter in waiters { values.append(await waiter.value) }
        XCTAssertEqual(values, [7, 7, 7], "no caller is left waiting")
        let late = await completion.value(onCancel: {})
        XCTAssertEqual(late, 7)
    }

    @MainActor
    func testCancellingTheCallersTaskRunsOnCancelWhichResolves() async {
        let completion = FlowCompletion<String>()
        var cancelCalls = 0
        let waiter = Task { @MainActor in
            await completion.value(onCancel: {
                cancelCalls += 1
                completion.resolve("canceled")
            })
        }
        await Task.yield()
        waiter.cancel()
        let value = await waiter.value
        XCTAssertEqual(value, "canceled")
        XCTAssertEqual(cancelCalls, 1)
        XCTAssertFalse(completion.resolve("posted"))
    }
}
