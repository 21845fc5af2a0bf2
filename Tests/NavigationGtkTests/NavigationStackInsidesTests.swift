import CGtk
import CXTest
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import XCTest

/// The navigation stack's insides as a caller sees them: events after changes and in order under
/// re-entrancy, observation tokens, animations on the frame clock, pages kept when they move, unique
/// tags that follow their page, misuse reported with `g_critical` (GLib's expected-message support), and
/// what libadwaita's navigation view has (pop on Escape as a switch, removing a page from below, finding
/// an added page by tag, a page's property changes).
/// `@unchecked Sendable` as every GTK test case: XCTest runs its tests one at a time on the main thread.
final class NavigationStackInsidesTests: ToolkitTestCase, @unchecked Sendable {
    @MainActor
    private func makeWindow(_ counter: LifeCounter, pages titles: [String] = [], width: Int = 640) -> NavigationWindow {
        let window = NavigationWindow(root: CountedPage("Root", counter: counter), width: width, height: 480)
        show(window.window)
        for title in titles { window.stack.push(CountedPage(title, counter: counter)) }
        settle(window.stack)
        return window
    }

    @MainActor
    private func settle(_ stack: NavigationStack) {
        spin(until: { stack.transition == .idle && !stack.isSwipingBack }, "transition end")
    }

    @MainActor
    private func describe(_ event: NavigationStack.Event, _ cause: NavigationStack.Cause) -> String {
        switch event {
        case .pushed(let page): "pushed \(page.title) (\(cause))"
        case .popped(let page): "popped \(page.title) (\(cause))"
        case .removed(let page): "removed \(page.title) (\(cause))"
        case .replaced(let removed, let added): "replaced \(removed.map(\.title)) with \(added.map(\.title)) (\(cause))"
        }
    }

    func testAHandlerThatPopsDuringPushedStartsANewChangeAfterTheCurrentOne() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A"])
            let stack = window.stack
            let a = stack.pages[1], b = CountedPage("B", counter: counter)
            var first: [String] = [], second: [String] = [], lifecycle: [String] = []
            var observations: [ObservationToken] = []
            stack.observeEvents { [weak stack] event, cause in
                first.append(self.describe(event, cause))
                if case .pushed(let page) = event, page === b { stack?.pop() }  // ends what was just pushed
            }.store(in: &observations)
            stack.observeEvents { event, cause in second.append(self.describe(event, cause)) }.store(in: &observations)
            for page in [a, b] {
                page.observeLifecycle { lifecycle.append("\(page.title) \($0)") }.store(in: &observations)
            }
            stack.push(b)
            settle(stack)
            let expected = ["pushed B (code)", "popped B (code)"]
            XCTAssertEqual(first, expected, "the handler's pop comes after the push, each once")
            XCTAssertEqual(second, expected, "every observer hears the same events in the same order")
            XCTAssertEqual(lifecycle, ["A hiding", "B showing", "A hidden", "B shown", "B hiding", "A showing", "B hidden", "A shown"],
                           "each change's lifecycle, in the order the changes were made")
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "A"])
            XCTAssertTrue(stack.visiblePage === a)
            XCTAssertEqual(stack.view.visibleChildName, a.id.description, "the widgets show the model's top")
            XCTAssertEqual(stack.titleLabel.text, "A")
        }
    }

    func testEventsSayWhetherTheUserWentBackOrCodePopped() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A", "B"])
            let stack = window.stack
            var heard: [String] = []
            let observation = stack.observeEvents { event, cause in heard.append(self.describe(event, cause)) }
            stack.goBack()
            settle(stack)
            stack.goForward()
            settle(stack)
            stack.pop()
            settle(stack)
            XCTAssertEqual(heard, ["popped B (userBack)", "pushed B (userForward)", "popped B (code)"])
            observation.cancel()
        }
    }

    func testAnObservationEndsWhenItsTokenIsCancelledOrReleased() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            var kept = 0, cancelled = 0, released = 0
            let keptToken = stack.observeEvents { _, _ in kept += 1 }
            let cancelledToken = stack.observeEvents { _, _ in cancelled += 1 }
            var releasedToken: ObservationToken? = stack.observeEvents { _, _ in released += 1 }
            XCTAssertNotNil(releasedToken)
            stack.push(CountedPage("A", counter: counter))
            settle(stack)
            XCTAssertEqual([kept, cancelled, released], [1, 1, 1])
            cancelledToken.cancel()
            releasedToken = nil
            stack.pop()
            settle(stack)
            XCTAssertEqual([kept, cancelled, released], [2, 1, 1], "only the kept observation hears the pop")
            XCTAssertTrue(cancelledToken.isCancelled)
            keptToken.cancel()
        }
    }

    /// Where `page` is drawn in the stack's view: its left edge, in pixels.
    @MainActor
    private func leftEdge(of page: Page, in stack: NavigationStack) -> Double {
        var bounds = graphene_rect_t()
        _ = gtk_widget_compute_bounds(page.view.widget, stack.view.widget, &bounds)
        return Double(bounds.origin.x)
    }

    func testPushAndPopSlideByTheNavigationSpringFrameByFrame() {
        onMain {
            for rtl in [false, true] {
                gtk_widget_set_default_direction(rtl ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
                defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
                let counter = LifeCounter()
                let window = makeWindow(counter)
                let stack = window.stack
                settle()
                let width = Double(stack.view.width), sign = rtl ? -1.0 : 1.0
                for kind in ["push", "pop"] {
                    let page = kind == "push" ? CountedPage("A", counter: counter) : stack.pages[1]
                    // Each frame's slide, read after the frame's layout (the frame clock's update phase, where
                    // the slide's tick moves it, comes before layout in every frame; the order of two tick
                    // callbacks within one frame is not something to lean on), with the frame's time and
                    // where the moving page was put, against the slide as it is then.
                    var ticks: [(time: Int64, progress: Double)] = []
                    var placed: [(x: Double, expected: Double)] = []
                    var origin: Int64?
                    stack.view.afterNextLayouts(1000) {
                        if let progress = stack.view.slideProgress, let time = stack.view.frameTime {
                            origin = origin ?? stack.view.slideStartTime
                            if ticks.last?.time != time { ticks.append((time, progress)) }
                            placed.append((self.leftEdge(of: page, in: stack),
                                           (sign * width * (kind == "push" ? 1 - progress : progress)).rounded()))
                        }
                        return stack.view.isTransitionRunning || ticks.isEmpty
                    }
                    // The spring counts from the frame clock's time when the change is made. Read outside a
                    // frame, that time is the next frame's, predicted from the clock: it moves on by a frame
                    // interval while a slow machine is still pushing, so the test reads it on both sides.
                    let before = try! XCTUnwrap(stack.view.frameTime)
                    if kind == "push" { stack.push(page) } else { stack.pop() }
                    let after = try! XCTUnwrap(stack.view.frameTime)
                    XCTAssertTrue(stack.view.isTransitionRunning, "\(kind) slides (rtl: \(rtl))")
                    settle(stack)
                    let start = try! XCTUnwrap(origin, "the slide's first frame ran")
                    XCTAssertTrue((before...after).contains(start), "the spring counts from when the \(kind) was made")
                    // libadwaita's navigation spring; a pop is clamped (it ends where it first arrives).
                    let spring = SpringAnimation(spring: .navigation, from: 0, to: 1, clamps: kind == "pop")
                    // Moved over frames, not switched at once (that draws none with a slide's progress). Not a
                    // count of frames: a loaded machine's frame clock skips some (three of the spring's 13 at
                    // 60 Hz, once in make test), and each frame drawn is checked against the spring below.
                    XCTAssertGreaterThanOrEqual(ticks.count, 2, "\(kind) moved over frames (rtl: \(rtl))")
                    for tick in ticks {
                        XCTAssertEqual(tick.progress, spring.value(at: .microseconds(tick.time - start)), accuracy: 0.005,
                                       "\(kind): each frame where the spring is at the frame's time, within 0.5 % (rtl: \(rtl))")
                    }
                    XCTAssertLessThan(Duration.microseconds(ticks.last!.time - start), spring.duration, "it ended at the first frame past the spring's end")
                    XCTAssertFalse(placed.isEmpty)
                    for sample in placed {
                        XCTAssertEqual(sample.x, sample.expected, accuracy: 1, "\(kind): the page drawn where the slide is (rtl: \(rtl))")
                    }
                }
                XCTAssertEqual(stack.pages.map(\.title), ["Root"])
                window.window.destroy()
            }
        }
    }

    func testAReleasedSwipeFollowsTheNavigationSpringOnTheFrameClock() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A"])
            let stack = window.stack
            settle()
            XCTAssertTrue(stack.beginSwipeBack())
            stack.updateSwipeBack(progress: 0.5)
            var frames: [(time: Int64, progress: Double?)] = []
            var origin: Int64?
            // Read after each frame's layout, which comes after the frame's update phase (where the
            // release's spring moves the page) in every frame.
            stack.view.afterNextLayouts(1000) {
                guard let time = stack.view.frameTime, time != frames.last?.time else { return true }
                origin = origin ?? stack.view.slideStartTime
                frames.append((time, stack.swipeBackProgress))
                return stack.isSwipingBack
            }
            // The spring counts from the frame clock's time at the release (read on both sides of it: see
            // the slide's test).
            let before = try! XCTUnwrap(stack.view.frameTime)
            stack.endSwipeBack(commit: true, velocity: 2)
            let after = try! XCTUnwrap(stack.view.frameTime)
            settle(stack)
            let released = try! XCTUnwrap(origin, "the release's first frame ran")
            XCTAssertTrue((before...after).contains(released), "the spring counts from the release")
            XCTAssertEqual(stack.pages.map(\.title), ["Root"], "the swipe went back")
            // libadwaita's pop: the navigation spring from where the finger left the page, at its speed,
            // clamped (it ends where it first arrives).
            let spring = SpringAnimation(spring: .navigation, from: 0.5, to: 1, initialVelocity: 2, clamps: true)
            XCTAssertGreaterThan(frames.count, 3, "drawn over several frames")
            for frame in frames {
                guard let progress = frame.progress else { continue }
                let expected = spring.value(at: .microseconds(frame.time - released))
                XCTAssertEqual(progress, expected, accuracy: 0.005 * 0.5, "each frame where the spring is at the frame's time (0.5 % of the way)")
            }
            XCTAssertNil(frames.last?.progress, "it ended in a frame")
            XCTAssertGreaterThanOrEqual(Duration.microseconds(frames.last!.time - released), spring.duration)
            XCTAssertLessThan(Duration.microseconds(frames.dropLast().last!.time - released), spring.duration,
                              "at the first frame past the spring's duration")
        }
    }

    func testWithAnimationsOffAReleasedSwipeEndsAtOnce() {
        onMain {
            let animations = DesktopStyle.animationsEnabled
            DesktopStyle.animationsEnabled = false  // gtk-enable-animations off, GNOME's Reduce Animation
            defer { DesktopStyle.animationsEnabled = animations }
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A"])
            let stack = window.stack
            settle()
            XCTAssertTrue(stack.beginSwipeBack())
            stack.updateSwipeBack(progress: 0.3)
            stack.endSwipeBack(commit: false)
            XCTAssertFalse(stack.isSwipingBack, "back in place in the same frame")
            XCTAssertEqual(stack.visiblePage?.title, "A")
            settle()
            XCTAssertTrue(stack.beginSwipeBack())
            stack.updateSwipeBack(progress: 0.6)
            stack.endSwipeBack(commit: true)
            XCTAssertFalse(stack.isSwipingBack)
            XCTAssertEqual(stack.pages.map(\.title), ["Root"], "gone back in the same frame")
        }
    }

    func testReplaceKeepsAPageThatMovesToAnotherPlace() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["B"])
            let stack = window.stack
            let root = stack.pages[0], b = stack.pages[1], c = CountedPage("C", counter: counter)
            var heard: [String] = []
            let observation = stack.observeEvents { event, cause in heard.append(self.describe(event, cause)) }
            stack.replace(with: [c, b], animated: false)
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["C", "B"])
            XCTAssertTrue(stack.visiblePage === b, "B is still the visible page")
            XCTAssertEqual(stack.view.visibleChildName, b.id.description, "and its widget is still shown")
            XCTAssertTrue(b.view.isMapped)
            XCTAssertEqual(stack.titleLabel.text, "B")
            XCTAssertTrue(stack.backButton.isVisible)
            XCTAssertEqual(heard, ["replaced [\"Root\"] with [\"C\"] (code)"], "only the pages that really left or came")
            stack.backButton.activate()
            spin(until: { stack.pages.count == 1 && stack.transition == .idle }, "Back")
            XCTAssertTrue(stack.visiblePage === c, "Back goes to the page now under B")
            XCTAssertEqual(stack.view.visibleChildName, c.id.description)
            _ = root
            observation.cancel()
        }
    }

    func testTagsAreUniqueAndFollowTheirPage() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            let a = CountedPage("A", counter: counter)
            a.tag = "first"
            stack.push(a)
            let twin = CountedPage("Twin", counter: counter)
            twin.tag = "first"
            expectCritical("push: the tag “first” of “Twin” is already used*") {
                XCTAssertFalse(stack.push(twin), "a tag already on the stack is refused")
            }
            expectCritical("add: the tag “first” is already used on this stack*") { stack.add(twin) }
            XCTAssertNil(stack.page(taggedAs: "second"))

            a.tag = "renamed"  // followed on the stack at once
            XCTAssertTrue(stack.page(taggedAs: "renamed") === a)
            XCTAssertNil(stack.page(taggedAs: "first"))
            let b = CountedPage("B", counter: counter)
            b.tag = "b"
            stack.push(b)
            settle(stack)
            XCTAssertEqual(stack.pop(toTag: "renamed").map(\.title), ["B"], "pop(toTag:) finds the page by its new tag")
            settle(stack)
            XCTAssertEqual(stack.pop(toTag: "first").count, 0, "a tag no page has any more: nothing, silently")
            let c = CountedPage("C", counter: counter)
            c.tag = "c"
            stack.push(c)
            expectCritical("tag: “renamed” is already used on this stack*") { c.tag = "renamed" }
            XCTAssertTrue(stack.page(taggedAs: "renamed") === a, "the page that had the tag keeps it")
            XCTAssertEqual(c.tag, "c", "and the renamed page keeps its own, as libadwaita refuses it")

            let later = CountedPage("Later", counter: counter)
            later.tag = "later"
            stack.add(later)
            XCTAssertTrue(stack.page(taggedAs: "later") === later, "a page added in advance is found by its tag")
            let other = CountedPage("Other", counter: counter)
            other.tag = "later"
            expectCritical("add: the tag “later” is already used by “Later”*") { stack.add(other) }
            XCTAssertTrue(stack.push(tag: "later"))
            settle(stack)
            XCTAssertTrue(stack.visiblePage === later)
        }
    }

    func testMisuseIsReportedWithACriticalAndIgnored() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A"])
            let stack = window.stack
            let a = stack.pages[1]
            expectCritical("push: “A” is already on a navigation stack*") { XCTAssertFalse(stack.push(a)) }
            let elsewhere = NavigationStack(root: CountedPage("Elsewhere", counter: counter))
            expectCritical("push: “Elsewhere” is already on a navigation stack*") { XCTAssertFalse(stack.push(elsewhere.pages[0])) }
            let stranger = CountedPage("Stranger", counter: counter)
            XCTAssertEqual(stack.pop(to: stranger).count, 0, "popping to a page not on the stack: nothing, silently")
            expectCritical("remove: “Stranger” is not on this navigation stack*") { stack.remove(stranger) }
            expectCritical("remove: “A” is the visible page*") { stack.remove(a) }
            expectCritical("push(tag:): no page tagged “nowhere” was added*") { XCTAssertFalse(stack.push(tag: "nowhere")) }
            expectCritical("add: “Stranger” has no tag*") { stack.add(stranger) }
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "A"], "nothing changed")
            let b = CountedPage("B", counter: counter)
            expectCritical("replace: “B” is listed twice*") { stack.replace(with: [stack.pages[0], b, b], animated: false) }
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "B"], "the later one is left out")
            stack.popToRoot()
            settle(stack)
            XCTAssertNil(stack.pop(), "pop at the root: nothing, silently")
            XCTAssertEqual(stack.pages.map(\.title), ["Root"])
        }
    }

    func testEscapeCanBeLeftToThePagesThemselves() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A"])
            let stack = window.stack
            stack.popsOnEscape = false
            pressKey(XK_Escape)
            settle()
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "A"], "Escape is the page's")
            pressKey(XK_Left, modifiers: [XK_Alt_L])
            spin(until: { stack.pages.count == 1 && stack.transition == .idle }, "Alt+Left still goes back")
            stack.popsOnEscape = true
            stack.push(CountedPage("B", counter: counter))
            settle(stack)
            pressKey(XK_Escape)
            spin(until: { stack.pages.count == 1 && stack.transition == .idle }, "Escape goes back again")
        }
    }

    func testAPageCanBeRemovedFromBelowTheVisibleOne() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A", "B"])
            let stack = window.stack
            let a = stack.pages[1], b = stack.pages[2]
            var heard: [String] = [], lifecycle: [String] = []
            let observation = stack.observeEvents { event, cause in heard.append(self.describe(event, cause)) }
            let bLifecycle = b.observeLifecycle { lifecycle.append("B \($0)") }
            stack.remove(a)
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "B"])
            XCTAssertTrue(stack.visiblePage === b)
            XCTAssertFalse(stack.transition.isRunning, "what's shown does not change")
            XCTAssertEqual(stack.backButton.tooltip, "Root", "Back now goes to the page under it")
            XCTAssertEqual(heard, ["removed A (code)"])
            XCTAssertEqual(lifecycle, [], "the visible page stays shown")
            XCTAssertNil(a.navigationStack)
            stack.goBack()
            settle(stack)
            XCTAssertEqual(stack.pages.map(\.title), ["Root"])
            observation.cancel()
            bLifecycle.cancel()
        }
    }

    func testAPagesTitleTagAndCanPopCanBeObserved() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, pages: ["A"])
            let stack = window.stack
            let a = stack.pages[1]
            var heard: [Page.Property] = []
            var barTitleWhenHeard: [String] = []
            let observation = a.observeProperties { property in
                heard.append(property)
                barTitleWhenHeard.append(stack.titleLabel.text)
            }
            a.title = "Renamed"
            a.subtitle = "Second line"
            a.tag = "a"
            a.canPop = false
            a.canPop = false  // unchanged: not heard
            XCTAssertEqual(heard, [.title, .subtitle, .tag, .canPop])
            XCTAssertEqual(barTitleWhenHeard.first, "Renamed", "heard after the stack's bar took the change")
            XCTAssertFalse(stack.backButton.isVisible)
            observation.cancel()
            a.title = "Again"
            XCTAssertEqual(heard.count, 4)
        }
    }

    func testTheBottomSheetComesUpByLibadwaitasSpring() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, width: 360)
            spin(until: { window.window.width > 0 && window.window.width < ModalDialog.bottomSheetWidth }, "a narrow window")
            let dialog = ModalDialog(over: window.stack.visiblePage, presenting: CountedPage("Sheet", counter: counter))
            let sheet = try! XCTUnwrap(dialog.sheet)
            var samples: [(time: Int64, y: Double)] = []
            var origin: Int64?
            window.overlay.afterNextLayouts(1000) {
                origin = origin ?? dialog.sheetMotionStartTime
                var bounds = graphene_rect_t()
                _ = gtk_widget_compute_bounds(sheet.widget, window.overlay.widget, &bounds)
                samples.append((window.overlay.frameTime ?? 0, Double(bounds.origin.y)))
                return dialog.isSheetMoving
            }
            // The spring counts from the frame clock's time when it is presented (read on both sides: see
            // the slide's test).
            let before = try! XCTUnwrap(window.overlay.frameTime)
            dialog.present()
            let after = try! XCTUnwrap(window.overlay.frameTime)
            XCTAssertTrue(dialog.isSheetMoving)
            spin(until: { !dialog.isSheetMoving }, "the sheet has come up")
            let start = try! XCTUnwrap(origin, "the sheet's first frame ran")
            XCTAssertTrue((before...after).contains(start), "the spring counts from when it was presented")
            let height = Double(window.overlay.height), top = Double(ModalDialog.sheetTopGap)
            let spring = SpringAnimation(spring: .bottomSheet, from: 0, to: 1, epsilon: 0.0001)
            XCTAssertGreaterThan(samples.count, 3, "over several frames")
            for sample in samples.dropLast() {
                let value = spring.value(at: .microseconds(sample.time - start))
                XCTAssertEqual(sample.y, top + max(0, (1 - value) * height), accuracy: max(1, 0.005 * height),
                               "the sheet where the spring is at the frame's time")
            }
            XCTAssertEqual(samples.last?.y ?? 0, top, accuracy: 0.5, "in place at the end")
            dialog.dismiss()
        }
    }

    func testAPresentedPageIsABottomSheetInANarrowWindow() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, width: 360)
            spin(until: { window.window.width > 0 && window.window.width < ModalDialog.bottomSheetWidth }, "a narrow window")
            let page = CountedPage("Shown Alone", counter: counter)
            let dialog = ModalDialog(over: window.stack.visiblePage, presenting: page)
            XCTAssertEqual(dialog.style, .bottomSheet)
            dialog.present()
            spin(until: { page.view.isMapped }, "the sheet")
            XCTAssertTrue(window.presentedSheet != nil)
            XCTAssertTrue(page.isShowingStandaloneBar, "the page's own bar, with Close")
            XCTAssertTrue(page.standaloneBar.contains(dialog.closeButton.widget))
            XCTAssertFalse(dialog.window.isMapped, "no window of its own")
            pressKey(XK_Escape)
            spin(until: { dialog.isDismissed }, "Escape closes it")
            XCTAssertNil(window.presentedSheet)
            XCTAssertFalse(page.isShowingStandaloneBar, "the page is given back")
        }
    }
}
