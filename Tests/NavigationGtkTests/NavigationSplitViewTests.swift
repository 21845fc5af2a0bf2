import CGtk
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import XCTest

/// The split view (issue 43): libadwaita's `tests/test-navigation-split-view.c` ported (its 11 tests, in
/// its order, the GObject `notify` counts as ``NavigationSplitView/observeSplitProperties(_:)`` counts),
/// then what collapsing into a navigation stack and expanding out of it must keep.
final class NavigationSplitViewTests: ToolkitTestCase, @unchecked Sendable {  // XCTestCase is not Sendable; runs on the main thread only
    /// Counts of a page's lifecycle events.
    @MainActor
    private final class LifecycleCount {
        var showing = 0, shown = 0, hiding = 0, hidden = 0
        private var token: ObservationToken?
        init(_ page: Page) {
            token = page.observeLifecycle { [unowned self] event in
                switch event {
                case .showing: self.showing += 1
                case .shown: self.shown += 1
                case .hiding: self.hiding += 1
                case .hidden: self.hidden += 1
                }
            }
        }
        var counts: [Int] { [showing, shown, hiding, hidden] }
    }

    /// Counts notifications of one property.
    @MainActor
    private func counter(_ split: NavigationSplitView, _ property: NavigationSplitView.SplitProperty) -> (token: ObservationToken, count: () -> Int) {
        final class Box { var value = 0 }
        let box = Box()
        let token = split.observeSplitProperties { if $0 == property { box.value += 1 } }
        return (token, { box.value })
    }

    // MARK: - libadwaita's tests

    func testSidebar() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .sidebar)
            XCTAssertNil(split.sidebar)
            split.sidebar = nil
            XCTAssertEqual(notified.count(), 0)
            let page = Page(title: "Sidebar")
            let life = LifecycleCount(page)
            split.sidebar = page
            XCTAssertTrue(split.sidebar === page)
            XCTAssertEqual(notified.count(), 1)
            XCTAssertEqual(life.counts, [1, 1, 0, 0])
            split.sidebar = nil
            XCTAssertNil(split.sidebar)
            XCTAssertEqual(notified.count(), 2)
            XCTAssertEqual(life.counts, [1, 1, 1, 1])
            _ = notified.token
        }
    }

    func testContent() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .contentPage)
            XCTAssertNil(split.contentPage)
            split.contentPage = nil
            XCTAssertEqual(notified.count(), 0)
            let page = Page(title: "Content")
            let life = LifecycleCount(page)
            split.contentPage = page
            XCTAssertTrue(split.contentPage === page)
            XCTAssertEqual(notified.count(), 1)
            XCTAssertEqual(life.counts, [1, 1, 0, 0])
            split.contentPage = nil
            XCTAssertNil(split.contentPage)
            XCTAssertEqual(notified.count(), 2)
            XCTAssertEqual(life.counts, [1, 1, 1, 1])
            _ = notified.token
        }
    }

    func testSidebarPosition() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .sidebarPosition)
            XCTAssertEqual(split.sidebarPosition, .start)
            split.sidebarPosition = .start
            XCTAssertEqual(notified.count(), 0)
            split.sidebarPosition = .end
            XCTAssertEqual(split.sidebarPosition, .end)
            XCTAssertEqual(notified.count(), 1)
            split.sidebarPosition = .start
            XCTAssertEqual(notified.count(), 2)
            _ = notified.token
        }
    }

    func testCollapsed() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .collapsed)
            XCTAssertFalse(split.isCollapsed)
            split.isCollapsed = false
            XCTAssertEqual(notified.count(), 0)
            split.isCollapsed = true
            XCTAssertTrue(split.isCollapsed)
            XCTAssertEqual(notified.count(), 1)
            split.isCollapsed = false
            XCTAssertEqual(notified.count(), 2)

            let sidebar = Page(title: "Sidebar"), content = Page(title: "Content")
            let s = LifecycleCount(sidebar), c = LifecycleCount(content)
            split.sidebar = sidebar
            XCTAssertEqual(s.counts, [1, 1, 0, 0])
            split.isCollapsed = true
            XCTAssertEqual(notified.count(), 3)
            split.isCollapsed = false
            XCTAssertEqual(notified.count(), 4)
            split.sidebar = nil
            split.contentPage = content
            XCTAssertEqual(s.counts, [1, 1, 1, 1])
            XCTAssertEqual(c.counts, [1, 1, 0, 0])
            split.isCollapsed = true
            XCTAssertEqual(notified.count(), 5)
            split.isCollapsed = false
            XCTAssertEqual(notified.count(), 6)
            split.sidebar = sidebar
            XCTAssertEqual(s.counts, [2, 2, 1, 1])

            split.showsContent = true
            split.isCollapsed = true
            XCTAssertEqual(notified.count(), 7)
            XCTAssertEqual(s.counts, [2, 2, 2, 2])
            XCTAssertEqual(c.counts, [1, 1, 0, 0])
            split.isCollapsed = false
            XCTAssertEqual(notified.count(), 8)
            XCTAssertEqual(s.counts, [3, 3, 2, 2])
            XCTAssertEqual(c.counts, [1, 1, 0, 0])

            split.showsContent = false
            split.isCollapsed = true
            XCTAssertEqual(notified.count(), 9)
            XCTAssertEqual(s.counts, [3, 3, 2, 2])
            XCTAssertEqual(c.counts, [1, 1, 1, 1])
            split.isCollapsed = false
            XCTAssertEqual(notified.count(), 10)
            XCTAssertEqual(s.counts, [3, 3, 2, 2])
            XCTAssertEqual(c.counts, [2, 2, 1, 1])
            _ = notified.token
        }
    }

    func testShowContent() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .showsContent)
            XCTAssertFalse(split.showsContent)
            split.showsContent = false
            XCTAssertEqual(notified.count(), 0)
            split.showsContent = true
            XCTAssertEqual(notified.count(), 1)
            split.showsContent = false
            XCTAssertEqual(notified.count(), 2)
            split.sidebar = Page(title: "Sidebar")
            split.showsContent = true
            XCTAssertTrue(split.showsContent)
            XCTAssertEqual(notified.count(), 3)
            split.showsContent = false
            XCTAssertEqual(notified.count(), 4)
            split.contentPage = Page(title: "Content")
            split.sidebar = nil
            split.showsContent = true
            XCTAssertEqual(notified.count(), 5)
            split.showsContent = false
            XCTAssertEqual(notified.count(), 6)
            split.sidebar = Page(title: "Sidebar")
            split.showsContent = true
            XCTAssertEqual(notified.count(), 7)
            split.showsContent = false
            XCTAssertFalse(split.showsContent)
            XCTAssertEqual(notified.count(), 8)
            _ = notified.token
        }
    }

    func testMinSidebarWidth() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .minSidebarWidth)
            XCTAssertEqual(split.minSidebarWidth, 180)
            split.minSidebarWidth = 180
            XCTAssertEqual(notified.count(), 0)
            split.minSidebarWidth = 200
            XCTAssertEqual(split.minSidebarWidth, 200)
            XCTAssertEqual(notified.count(), 1)
            split.minSidebarWidth = 180
            XCTAssertEqual(notified.count(), 2)
            _ = notified.token
        }
    }

    func testMaxSidebarWidth() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .maxSidebarWidth)
            XCTAssertEqual(split.maxSidebarWidth, 280)
            split.maxSidebarWidth = 280
            XCTAssertEqual(notified.count(), 0)
            split.maxSidebarWidth = 200
            XCTAssertEqual(split.maxSidebarWidth, 200)
            XCTAssertEqual(notified.count(), 1)
            split.maxSidebarWidth = 280
            XCTAssertEqual(notified.count(), 2)
            _ = notified.token
        }
    }

    func testSidebarWidthFraction() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .sidebarWidthFraction)
            XCTAssertEqual(split.sidebarWidthFraction, 0.25)
            split.sidebarWidthFraction = 0.25
            XCTAssertEqual(notified.count(), 0)
            split.sidebarWidthFraction = 0.2
            XCTAssertEqual(split.sidebarWidthFraction, 0.2)
            XCTAssertEqual(notified.count(), 1)
            split.sidebarWidthFraction = 0.25
            XCTAssertEqual(notified.count(), 2)
            _ = notified.token
        }
    }

    func testSidebarWidthUnit() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .sidebarWidthUnit)
            XCTAssertEqual(split.sidebarWidthUnit, .sp)
            split.sidebarWidthUnit = .sp
            XCTAssertEqual(notified.count(), 0)
            split.sidebarWidthUnit = .px
            XCTAssertEqual(split.sidebarWidthUnit, .px)
            XCTAssertEqual(notified.count(), 1)
            split.sidebarWidthUnit = .sp
            XCTAssertEqual(notified.count(), 2)
            _ = notified.token
        }
    }

    func testPageTags() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let sidebar = Page(title: "Sidebar")
            sidebar.tag = "sidebar"
            split.sidebar = sidebar
            let clash = Page(title: "Content")
            clash.tag = "sidebar"
            expectCritical("*already has the same tag*") { split.contentPage = clash }
            XCTAssertNil(split.contentPage)
            let content = Page(title: "Content")
            content.tag = "content"
            split.contentPage = content
            expectCritical("*already has the same tag*") { sidebar.tag = "content" }
            XCTAssertEqual(sidebar.tag, "sidebar")
            sidebar.tag = "sidebar"
            expectCritical("*already has the same tag*") { content.tag = "sidebar" }
            XCTAssertEqual(content.tag, "content")
        }
    }

    func testActions() {
        onMain {
            let split = NavigationSplitView(title: "Split")
            let notified = counter(split, .showsContent)
            let sidebar = Page(title: "Sidebar"), content = Page(title: "Content")
            sidebar.tag = "sidebar"
            content.tag = "content"
            split.sidebar = sidebar
            split.contentPage = content
            XCTAssertFalse(split.showsContent)
            expectCritical("*already in the navigation stack*") { split.push(tag: "sidebar") }
            expectCritical("*No page with the tag*") { split.push(tag: "something") }
            split.push(tag: "content")
            XCTAssertTrue(split.showsContent)
            XCTAssertEqual(notified.count(), 1)
            split.push(tag: "content")
            split.push(tag: "content")
            XCTAssertEqual(notified.count(), 1)
            expectCritical("*already in the navigation stack*") { split.push(tag: "sidebar") }
            split.popToSidebar()
            XCTAssertFalse(split.showsContent)
            XCTAssertEqual(notified.count(), 2)
            _ = notified.token
        }
    }

    // MARK: - On a navigation stack, in a window

    /// A window whose stack has a root page and the split view pushed above it (Messages over My Profile).
    @MainActor
    private func splitOnStack(width: Int = 1200) -> (window: Gtk.Window, stack: NavigationStack, root: Page, split: NavigationSplitView,
                                                         sidebar: Page, content: Page, reply: Button) {
        let root = Page(title: "Root")
        let stack = NavigationStack(root: root)
        let window = Gtk.Window()
        window.setDefaultSize(width: width, height: 600)
        window.setTitlebar(stack.headerBar)
        window.setChild(stack.view)
        let split = NavigationSplitView(title: "Messages")
        let sidebar = Page(title: "Conversations"), content = Page(title: "Ada")
        sidebar.content.append(Button(label: "Ada"))
        let reply = Button(label: "Reply")
        content.content.append(reply)
        split.sidebar = sidebar
        split.contentPage = content
        stack.isAnimated = false
        stack.push(split)
        show(window)
        spin(until: { split.view.isMapped && split.view.width > 0 }, "the split view shown")
        return (window, stack, root, split, sidebar, content, reply)
    }

    /// Collapsing with the content shown puts [split view (sidebar), content] on the stack, with the
    /// stack's Back; the user's Back shows the sidebar and pops nothing below the split view; expanding
    /// takes the content back beside the sidebar. The content page stays on screen throughout and hears
    /// no lifecycle event; the sidebar hears hiding and showing once each.
    func testCollapsingPutsTheContentOnTheStackAndExpandingTakesItBack() {
        onMain {
            let (window, stack, root, split, sidebar, content, _) = splitOnStack()
            split.showsContent = true
            let s = LifecycleCount(sidebar), c = LifecycleCount(content)
            XCTAssertTrue(sidebar.view.isMapped && content.view.isMapped, "expanded: both panes on screen")
            split.isCollapsed = true
            settle()
            XCTAssertTrue(stack.pages.map { $0 === root || $0 === split || $0 === content } == [true, true, true] && stack.pages.count == 3,
                          "collapsed: [root, split view, content] on the stack")
            XCTAssertTrue(stack.visiblePage === content)
            XCTAssertTrue(stack.backButton.isVisible, "the stack's Back goes to the sidebar")
            XCTAssertEqual(c.counts, [0, 0, 0, 0], "the content stayed on screen")
            XCTAssertEqual(s.counts, [0, 0, 1, 1], "the sidebar was covered")

            split.isCollapsed = false
            settle()
            XCTAssertTrue(stack.visiblePage === split && stack.pages.count == 2, "expanded: the split view on top again")
            XCTAssertTrue(content.view.isMapped && sidebar.view.isMapped)
            XCTAssertEqual(c.counts, [0, 0, 0, 0])
            XCTAssertEqual(s.counts, [1, 1, 1, 1])

            split.isCollapsed = true
            stack.goBack()  // the user's Back from the content
            spin(until: { stack.visiblePage === split }, "the sidebar shown")
            XCTAssertFalse(split.showsContent, "Back from the content shows the sidebar")
            XCTAssertEqual(stack.pages.count, 2, "nothing below the split view was popped")
            XCTAssertTrue(sidebar.view.isMapped)
            window.destroy()
        }
    }

    /// Expanding after more than one page was pushed above the split view puts the deepest on the
    /// right with its own Back, which goes to the one under it.
    func testExpandingKeepsTheDeepestContentPageWithItsOwnBack() {
        onMain {
            let (window, stack, _, split, _, content, _) = splitOnStack(width: 360)
            split.isCollapsed = true
            split.showsContent = true
            let reply = Page(title: "Reply")
            stack.push(reply)
            spin(until: { stack.visiblePage === reply }, "the reply pushed")
            split.isCollapsed = false
            settle()
            XCTAssertTrue(split.contentPages.last === reply && split.contentPages.first === content)
            XCTAssertTrue(reply.view.isMapped, "the deepest page is in the content pane")
            XCTAssertTrue(reply.isShowingStandaloneBar, "with its own bar")
            XCTAssertTrue(split.popContent(), "its Back goes to the page under it")
            settle()
            XCTAssertTrue(content.view.isMapped && !reply.view.isMapped)
            window.destroy()
        }
    }

    /// Focus stays where it was when its page stays on screen across a collapse and an expand.
    func testFocusStaysInAPageThatStaysOnScreen() {
        onMain {
            let (window, stack, _, split, _, _, reply) = splitOnStack()
            split.showsContent = true
            XCTAssertTrue(reply.grabFocus())
            split.isCollapsed = true
            settle()
            XCTAssertTrue(reply.isFocus, "focus stayed on Reply after collapsing")
            split.isCollapsed = false
            settle()
            XCTAssertTrue(reply.isFocus, "focus stayed on Reply after expanding")
            XCTAssertTrue(stack.visiblePage === split)
            window.destroy()
        }
    }

    /// The sidebar is clamp(width × 0.25, 180, 280) sp wide and grows with Large Text (a text scale of
    /// 1.25); the content takes the rest.
    func testTheSidebarWidthIsAClampedFractionInSp() {
        onMain {
            let (window, stack, _, split, _, _, _) = splitOnStack(width: 1200)
            spin(until: { split.allocatedSidebarWidth > 0 }, "the panes laid out")
            XCTAssertEqual(split.allocatedSidebarWidth, 280, "about 1200 × 0.25 = 300, clamped to 280")
            XCTAssertEqual(split.allocatedSidebarWidth + 1 + split.allocatedContentWidth, Int(window.width))
            let dpi = DesktopStyle.textDPI
            DesktopStyle.textDPI = 120  // Large Text
            defer { DesktopStyle.textDPI = dpi }
            split.sidebarWidthFraction = 0.25  // unchanged; the text size alone moves it
            split.view.queueResize()
            XCTAssertTrue(stack.visiblePage === split)
            let quarter = Int((Double(split.view.width) * 0.25).rounded())
            spin(until: { split.allocatedSidebarWidth == quarter }, "280 sp at 1.25 is 350 px, so the fraction's \(quarter) px wins")
            window.setDefaultSize(width: 800, height: 600)
            spin(until: { split.view.width < 820 }, "the window 800 px wide")
            settle()
            XCTAssertEqual(split.allocatedSidebarWidth, 225, "180 sp at 1.25 = 225 px, more than a quarter of \(split.view.width) px")
            XCTAssertEqual(split.allocatedSidebarWidth + 1 + split.allocatedContentWidth, Int(split.view.width))
            window.destroy()
        }
    }

    // MARK: - Breakpoints

    /// Resizes `window` to `width` (its page area a little narrower) and lets the layout and the
    /// breakpoint's tick run.
    @MainActor
    private func resize(_ window: Gtk.Window, to width: Int, _ reached: () -> Bool, _ what: String) {
        window.setDefaultSize(width: width, height: 600)
        spin(until: reached, what)
        settle()
    }

    /// A breakpoint at 600 sp collapses the split view below it and expands it above it, at every
    /// crossing, with the value it had before coming back; focus stays where it was.
    func testABreakpointCollapsesTheSplitViewBelowItsWidthAndRestoresItAbove() {
        onMain {
            let (window, stack, _, split, _, content, reply) = splitOnStack(width: 1000)
            split.showsContent = true
            let breakpoint = try! Breakpoint("max-width: 600sp")
            breakpoint.addSetter(split, \.isCollapsed, true)
            stack.addBreakpoint(breakpoint)
            settle()
            XCTAssertFalse(split.isCollapsed, "1000 px: expanded")
            XCTAssertTrue(reply.grabFocus())
            for round in 1...3 {
                resize(window, to: 500, { split.isCollapsed }, "collapsed at 500 px (round \(round))")
                XCTAssertTrue(stack.visiblePage === content, "the content is on the stack")
                XCTAssertTrue(breakpoint.isApplied)
                XCTAssertTrue(reply.isFocus, "focus kept on Reply collapsing")
                resize(window, to: 1000, { !split.isCollapsed }, "expanded at 1000 px (round \(round))")
                XCTAssertTrue(stack.visiblePage === split)
                XCTAssertTrue(reply.isFocus, "focus kept on Reply expanding")
            }
            window.destroy()
        }
    }

    /// Of two matching breakpoints the last added wins; with none matching, the original value is back.
    func testTheLastMatchingBreakpointWinsAndNoneMatchingRestoresTheOriginal() {
        onMain {
            let (window, stack, _, _, _, _, reply) = splitOnStack(width: 1000)
            reply.label = "Reply"
            let wide = try! Breakpoint("max-width: 800px"), narrow = try! Breakpoint("max-width: 500px")
            wide.addSetter(reply, \.label, Optional("Wide"))
            narrow.addSetter(reply, \.label, Optional("Narrow"))
            stack.addBreakpoint(wide)
            stack.addBreakpoint(narrow)
            resize(window, to: 400, { reply.label == "Narrow" }, "the narrow breakpoint at 400 px")
            XCTAssertTrue(narrow.isApplied && !wide.isApplied)
            resize(window, to: 700, { reply.label == "Wide" }, "the wide breakpoint at 700 px")
            resize(window, to: 1000, { reply.label == "Reply" }, "the original label at 1000 px")
            XCTAssertFalse(narrow.isApplied || wide.isApplied)
            window.destroy()
        }
    }

    /// Lengths in sp follow the text size: at 700 px, 600 sp matches with Large Text (750 px) and not
    /// without it.
    func testAnSpBreakpointMovesWithLargeText() {
        onMain {
            let dpi = DesktopStyle.textDPI
            defer { DesktopStyle.textDPI = dpi }
            let (window, stack, _, split, _, _, _) = splitOnStack(width: 720)
            let breakpoint = try! Breakpoint("max-width: 600sp")
            breakpoint.addSetter(split, \.isCollapsed, true)
            stack.addBreakpoint(breakpoint)
            settle()
            XCTAssertFalse(split.isCollapsed, "about 710 px is more than 600 sp at 96 dpi")
            DesktopStyle.textDPI = 120
            spin(until: { split.isCollapsed }, "collapsed with Large Text: 600 sp is 750 px")
            DesktopStyle.textDPI = 96
            spin(until: { !split.isCollapsed }, "expanded again at the normal text size")
            window.destroy()
        }
    }

    // MARK: - Routes

    enum SplitRoute: Hashable, Codable, Sendable { case list, item(Int) }

    /// A router's path shows the same screens at both widths: through an expanded split view its
    /// content pages are in the pane; collapsed they are on the stack; the path is the same either way
    /// and across every collapse and expand.
    func testARoutersPathShowsTheSameScreensCollapsedAndExpanded() {
        onMain {
            let root = Page(title: "Root")
            let stack = NavigationStack(root: root)
            stack.isAnimated = false
            let window = Gtk.Window()
            window.setDefaultSize(width: 1000, height: 600)
            window.setTitlebar(stack.headerBar)
            window.setChild(stack.view)
            show(window)
            var splits: [NavigationSplitView] = []
            let router = NavigationRouter<SplitRoute>(stack: stack) { route in
                switch route {
                case .list:
                    let split = NavigationSplitView(title: "List")
                    split.sidebar = Page(title: "Items")
                    splits.append(split)
                    return split
                case .item(let number):
                    return Page(title: "Item \(number)")
                }
            }
            router.setPath([.list, .item(1)])
            guard let split = splits.first else { return XCTFail("no split view made") }
            XCTAssertTrue(stack.visiblePage === split && stack.pages.count == 2, "expanded: the item is in the pane, not on the stack")
            XCTAssertEqual(split.contentPage?.title, "Item 1")
            XCTAssertEqual(router.path, [.list, .item(1)])
            XCTAssertEqual(router.visibleRoute, .item(1))

            split.isCollapsed = true
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "List", "Item 1"], "collapsed: the item on the stack")
            XCTAssertEqual(router.path, [.list, .item(1)])

            router.setPath([.list, .item(2)])
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "List", "Item 2"])
            split.isCollapsed = false
            XCTAssertEqual(stack.pages.count, 2)
            XCTAssertEqual(split.contentPage?.title, "Item 2")
            XCTAssertEqual(router.path, [.list, .item(2)])

            var heard: [[SplitRoute]] = []
            let token = router.observePath { heard.append($0) }
            router.setPath([.list, .item(3)])
            XCTAssertEqual(split.contentPage?.title, "Item 3", "another item replaces the content in the pane")
            XCTAssertEqual(heard.last, [.list, .item(3)], "observers hear a change in the pane")
            router.setPath([.list])
            XCTAssertNil(split.contentPage, "a path ending at the split view empties its pane")
            XCTAssertEqual(router.path, [.list])

            router.setPath([.list, .item(4)])
            split.isCollapsed = true
            stack.goBack()  // the user's Back from the item
            spin(until: { stack.visiblePage === split }, "the list shown")
            XCTAssertEqual(router.path, [.list], "Back from the content leaves the split view's own route")
            _ = token
            window.destroy()
        }
    }
}
