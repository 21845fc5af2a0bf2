import CGtk
import CXTest
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import XCTest

/// The GTK navigation stack, window and dialogs, driven through widgets, keys and mouse buttons.
final class NavigationStackHostTests: ToolkitTestCase, @unchecked Sendable {
    @MainActor
    private func makeWindow(_ counter: LifeCounter, width: Int = 640, height: Int = 480) -> NavigationWindow {
        let window = NavigationWindow(root: CountedPage("Root", counter: counter), width: width, height: height)
        show(window.window)
        return window
    }

    @MainActor
    private func settle(_ stack: NavigationStack) {
        spin(until: { stack.transition == .idle }, "transition end")
    }

    /// Waits for the stack to hold `count` pages with no transition running (a button's `clicked`
    /// comes about 250 ms after keyboard activation, as GTK shows the press).
    @MainActor
    private func settle(_ stack: NavigationStack, count: Int) {
        spin(until: { stack.pages.count == count && stack.transition == .idle }, "\(count) pages")
    }

    /// Checks the whole stack at once by titles, root first, and what the bar shows.
    @MainActor
    private func expectStack(_ stack: NavigationStack, _ titles: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(stack.pages.map(\.title), titles, file: file, line: line)
        XCTAssertEqual(stack.titleLabel.text, titles.last ?? "", file: file, line: line)
        XCTAssertEqual(stack.backButton.isVisible, titles.count > 1, "Back shown iff there is a page to go back to",
                       file: file, line: line)
    }

    func testPushShowsTitleAndBackWithPreviousTitleAsTooltip() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            expectStack(stack, ["Root"])
            stack.push(CountedPage("Friend", counter: counter))
            XCTAssertTrue(stack.transition.isRunning, "push animates")
            XCTAssertEqual(stack.lastSlide, .right, "slides over from the right in left-to-right locales")
            settle(stack)
            expectStack(stack, ["Root", "Friend"])
            XCTAssertEqual(stack.backButton.iconName, "go-previous-symbolic")
            XCTAssertTrue(stack.backButton.hasAccessibleLabel("Back"))
            XCTAssertEqual(stack.backButton.tooltip, "Root")
        }
    }

    func testOpeningTheSamePageTwiceInARowPushesItOnce() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            @MainActor func page(_ title: String, subject: String?) -> CountedPage {
                let page = CountedPage(title, counter: counter)
                page.subject = subject
                return page
            }
            XCTAssertTrue(stack.push(page("Ada", subject: "ada")))
            XCTAssertFalse(stack.push(page("Ada again", subject: "ada")), "the same page, still sliding in: ignored")
            settle(stack)
            XCTAssertFalse(stack.push(page("Ada again", subject: "ada")), "the same page on top: ignored")
            expectStack(stack, ["Root", "Ada"])
            XCTAssertTrue(stack.push(page("Grace", subject: "grace")), "another subject opens")
            XCTAssertTrue(stack.push(page("Ada", subject: "ada")), "Ada again, not on top: a new page, as a link would")
            XCTAssertTrue(stack.push(page("No subject", subject: nil)))
            XCTAssertTrue(stack.push(page("No subject", subject: nil)), "pages without a subject are never merged")
            settle(stack)
            expectStack(stack, ["Root", "Ada", "Grace", "Ada", "No subject", "No subject"])
        }
    }

    func testBackButtonAltLeftBackKeyAndEscapeEachPopOnePage() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            for title in ["A", "B", "C", "D"] { stack.push(CountedPage(title, counter: counter)) }
            settle(stack)
            expectStack(stack, ["Root", "A", "B", "C", "D"])
            stack.backButton.activate()
            settle(stack, count: 4)
            expectStack(stack, ["Root", "A", "B", "C"])
            pressKey(XK_Left, modifiers: [XK_Alt_L])
            settle(stack, count: 3)
            expectStack(stack, ["Root", "A", "B"])
            pressKey(XF86XK_Back)
            settle(stack, count: 2)
            expectStack(stack, ["Root", "A"])
            pressKey(XK_Escape)
            settle(stack, count: 1)
            expectStack(stack, ["Root"])
            pressKey(XK_Escape)  // at the root: nothing to pop, nothing breaks
            settle(stack)
            expectStack(stack, ["Root"])
        }
    }

    func testTwoFastMouseBackPressesPopTwoPages() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            for title in ["A", "B", "C"] { stack.push(CountedPage(title, counter: counter)) }
            settle(stack)
            pressMouseButton(8, over: window.window)
            pressMouseButton(8, over: window.window)  // before the first pop's transition ends
            spin(until: { stack.pages.count <= 2 }, "two pops")
            settle(stack)
            expectStack(stack, ["Root", "A"])
        }
    }

    func testPointerInputIsIgnoredDuringATransitionAndRestoredAfter() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            window.stack.push(CountedPage("A", counter: counter))
            XCTAssertTrue(window.stack.transition.isRunning)
            XCTAssertFalse(window.stack.view.canTarget, "pages ignore the pointer while sliding")
            settle(window.stack)
            XCTAssertTrue(window.stack.view.canTarget)
        }
    }

    func testPushDuringATransitionCompletesCleanlyAndPoppedPagesAreRemovedAfterTheirTransition() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            let first = CountedPage("A", counter: counter)
            stack.push(first)
            stack.push(CountedPage("B", counter: counter))  // during A's transition
            settle(stack)
            expectStack(stack, ["Root", "A", "B"])
            XCTAssertTrue(stack.visiblePage!.view.isMapped)

            stack.pop()
            XCTAssertTrue(stack.transition.isRunning)
            XCTAssertEqual(stack.view.childCount, 3, "the popped page stays until its transition ends")
            settle(stack)
            XCTAssertEqual(stack.view.childCount, 2, "then it is removed")
            spin(until: { counter.viewsFinalized == 1 }, "popped page's widgets finalized")
            XCTAssertEqual(counter.pagesAlive, 2, "root and A")
        }
    }

    /// Over AT-SPI: a page covered by a push is not there for a screen reader, and the page a pop
    /// leaves is gone once its slide has ended (until then it is on screen, sliding out).
    func testAScreenReaderFindsOnlyTheVisiblePageAfterAPushAndAfterAPop() throws {
        try onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            stack.push(CountedPage("Friend", counter: counter))
            settle(stack)
            var heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("push button|Friend Action"), "the visible page: \(heard)")
            XCTAssertFalse(heard.contains("push button|Root Action"), "the page below it: \(heard)")

            stack.pop()
            settle(stack, count: 1)
            heard = try readAccessibilityTree()
            XCTAssertTrue(heard.contains("push button|Root Action"), "the page shown again: \(heard)")
            XCTAssertFalse(heard.contains("push button|Friend Action"), "the popped page: \(heard)")
        }
    }

    func testEdgeCasesHaveDefinedResults() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            XCTAssertTrue(stack.popToRoot().isEmpty, "pop-to-root at the root does nothing")
            XCTAssertNil(stack.pop(), "pop at the root does nothing, silently (Escape at the root is not misuse)")
            do {
                let page = CountedPage("A", counter: counter)
                XCTAssertTrue(stack.push(page))
                expectCritical("push: “A” is already on a navigation stack*") {
                    XCTAssertFalse(stack.push(page), "pushing a page already on the stack is ignored")
                }
            }
            settle(stack)
            expectStack(stack, ["Root", "A"])
            stack.replace(with: [])
            settle(stack)
            expectStack(stack, [])
            XCTAssertNil(stack.visiblePage)
            stack.replace(with: [CountedPage("New Root", counter: counter)])
            settle(stack)
            expectStack(stack, ["New Root"])
            spin(until: { counter.pagesAlive == 1 }, "replaced pages freed: \(counter.pagesAlive) alive")
        }
    }

    /// A page with no control of its own takes focus itself, so that a screen reader says which page came
    /// (Orca 43: "Empty panel"; it used to be "Back push button" and nothing of the page); it is a group
    /// named by its title over AT-SPI, and focusable only until focus leaves it.
    func testFocusIsRememberedPerPageAndAPageWithNothingFocusableTakesFocusItself() throws {
        try onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            let root = stack.visiblePage as! CountedPage
            let second = Button(label: "Second")
            root.content.append(second)
            second.grabFocus()
            let empty = CountedPage("Empty", counter: counter, focusable: false)
            stack.push(empty)
            settle(stack)
            XCTAssertTrue(empty.view.hasFocus, "nothing focusable on the page: the page takes focus")
            let lines = try readAccessibilityTree()
            XCTAssertEqual(lines.filter { $0.hasPrefix("panel|") }, ["panel|Empty"], "the page, named by its title: \(lines)")
            XCTAssertFalse(lines.contains("panel|Root"), "the page below is not there for a screen reader: \(lines)")
            XCTAssertTrue(stack.backButton.grabFocus())
            XCTAssertFalse(empty.view.isFocusable, "Tab does not come back to the page itself")
            stack.pop()
            settle(stack)
            XCTAssertTrue(second.hasFocus, "focus restored to where it was on the root page")
        }
    }

    func testRightToLeftMirrorsTheSlide() {
        onMain {
            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
            let counter = LifeCounter()
            let window = makeWindow(counter)
            window.stack.push(CountedPage("A", counter: counter))
            XCTAssertEqual(window.stack.lastSlide, .left)
            settle(window.stack)
            window.stack.pop()
            XCTAssertEqual(window.stack.lastSlide, .left)
            settle(window.stack)
        }
    }

    /// In a right-to-left layout Back's arrow points right, so Alt+Right goes back and Alt+Left forward
    /// (libadwaita's AdwNavigationView swaps them the same way); the Back key is Back either way.
    func testRightToLeftSwapsTheArrowKeysOfBackAndForward() {
        onMain {
            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            for title in ["A", "B", "C"] { stack.push(CountedPage(title, counter: counter)) }
            settle(stack)
            expectStack(stack, ["Root", "A", "B", "C"])
            pressKey(XK_Right, modifiers: [XK_Alt_L])
            settle(stack, count: 3)
            expectStack(stack, ["Root", "A", "B"])
            pressKey(XK_KP_Right, modifiers: [XK_Alt_L])
            settle(stack, count: 2)
            expectStack(stack, ["Root", "A"])
            pressKey(XK_Left, modifiers: [XK_Alt_L])  // forward again, to the page just left
            settle(stack, count: 3)
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "A", "B"])
            pressKey(XF86XK_Back)
            settle(stack, count: 2)
            expectStack(stack, ["Root", "A"])
        }
    }

    func test200PushPopCyclesLeaveNoPageAlive() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            for cycle in 0..<200 {
                window.stack.push(CountedPage("Page \(cycle)", counter: counter))
                if cycle % 10 == 0 { settle(window.stack) }  // most are popped mid-transition
                window.stack.pop()
                if cycle % 25 == 0 { settle(window.stack) }
            }
            settle(window.stack)
            spin(until: { counter.pagesAlive == 1 && counter.viewsFinalized == 200 }, "all popped pages finalized")
            XCTAssertEqual(counter.pagesAlive, 1, "only the root")
            XCTAssertEqual(counter.viewsFinalized, 200, "every popped page's widgets finalized")
        }
    }

    func testPageShowsItsOwnBarWhenPresentedAloneAndHidesItWhenPushed() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let page = Page(title: "Post", subtitle: "by Sam Rivera")
            page.content.append(Label("A photo"))
            let action = Button(label: "Edit Caption")
            page.addEndBarItem(action)

            let dialog = ModalDialog(over: window.stack.visiblePage, presenting: page)
            dialog.present()
            spin(until: { dialog.window.isMapped }, "dialog shown")
            XCTAssertTrue(page.isShowingStandaloneBar)
            XCTAssertTrue(page.standaloneBar.isMapped)
            XCTAssertEqual(page.titleView.titleLabel.text, "Post")
            XCTAssertEqual(page.titleView.subtitleLabel.text, "by Sam Rivera")
            XCTAssertTrue(dialog.closeButton.hasAccessibleLabel("Close"))
            XCTAssertTrue(dialog.closeButton.isMapped, "Close at the start of the page's own bar")
            XCTAssertTrue(action.isMapped, "the page's bar items are in its own bar")
            XCTAssertTrue(dialog.window.isModal)
            pressKey(XK_Escape)
            spin(until: { dialog.isDismissed }, "Escape closes")

            // The same page, moved onto a stack: its bar hides; the stack's bar shows title and Back.
            window.stack.push(page)
            settle(window.stack)
            XCTAssertFalse(page.isShowingStandaloneBar)
            XCTAssertFalse(page.standaloneBar.isMapped)
            XCTAssertEqual(window.stack.titleView.titleLabel.text, "Post")
            XCTAssertEqual(window.stack.titleView.subtitleLabel.text, "by Sam Rivera")
            XCTAssertTrue(window.stack.backButton.isMapped)
            XCTAssertTrue(action.isMapped, "the bar items moved to the stack's bar")
        }
    }

    func testBarFitsAt360AndAt1280WithTitleAndSubtitleSizedCorrectly() {
        onMain {
            // make test-toolkit runs the toolkit's tests twice: as a plain GTK app uses the toolkit, and with
            // libadwaita loaded and initialized (NAVIGATION_GTK_TESTS_WITH_LIBADWAITA=1), as an app built on it.
            let withLibadwaita = ProcessInfo.processInfo.environment["NAVIGATION_GTK_TESTS_WITH_LIBADWAITA"] == "1"
            XCTAssertEqual(dlsym(nil, "adw_is_initialized") != nil, withLibadwaita,
                           withLibadwaita ? "libadwaita is loaded" : "the toolkit's tests run as a plain GTK app: no libadwaita")
            let counter = LifeCounter()
            for width: Int in [360, 1280] {
                let window = makeWindow(counter, width: width, height: 600)
                let page = Page(title: "Post", subtitle: "by Sam Rivera, who writes a long subtitle")
                page.addEndBarItem(Button(label: "Edit Caption"))
                window.stack.push(page)
                settle(window.stack)
                spin(until: { window.stack.headerBar.currentLayer?.isArranging == false }, "the bar arranged")
                let bar = window.stack.headerBar
                XCTAssertLessThanOrEqual(abs(Int(window.window.width) - width), 12, "the window keeps \(width) px")
                var minimum: Int32 = 0, natural: Int32 = 0  // (libadwaita draws the bar a pixel wider each side than its box)
                gtk_widget_measure(bar.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
                XCTAssertLessThanOrEqual(Int(minimum), window.overlay.width, "the bar fits the window's content at \(width) px")
                let title = window.stack.titleView
                XCTAssertFalse(title.titleLabel.isEllipsized, "“Post” is never cut at \(width) px")
                XCTAssertGreaterThanOrEqual(title.height, title.titleLabel.height + title.subtitleLabel.height,
                                            "both lines fit at \(width) px")
                XCTAssertLessThanOrEqual(title.height, bar.height)
                if width == 1280 { XCTAssertFalse(title.subtitleLabel.isEllipsized) }
                window.window.destroy()
            }
        }
    }

    func testContentStartsBelowTheBarAtLayoutTimeAndFollowsResizeTitleAndReveal() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter, width: 640, height: 480)
            settle()
            let bar = window.stack.headerBar
            @MainActor func expectInset(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
                settle()
                // The bar's layout box: libadwaita draws the bar's bottom line 1 px over the pages (the bar
                // is a pixel taller than the box it is given), as its own windows do.
                let expected = window.isTopBarRevealed ? Int(bar.naturalHeight(forWidth: window.overlay.width)) : 0
                XCTAssertGreaterThan(window.isTopBarRevealed ? expected : 1, 0, what, file: file, line: line)
                XCTAssertEqual(window.topInset, expected, what, file: file, line: line)
                let stackTop = window.stack.view.bounds(in: window.overlay)!.y
                XCTAssertEqual(stackTop, Double(expected), "pages start below the bar: \(what)", file: file, line: line)
            }
            expectInset("at load")
            window.window.setDefaultSize(width: 360, height: 700)
            spin(until: { abs(window.window.width - 360) <= 12 }, "resized")
            expectInset("after a resize")
            let before = bar.height
            window.stack.visiblePage!.subtitle = "A second line"
            expectInset("after a title change")
            XCTAssertGreaterThanOrEqual(bar.height, before)
            window.isTopBarRevealed = false
            expectInset("bar hidden")
            window.isTopBarRevealed = true
            expectInset("bar revealed")
        }
    }

    func testWhileAModalIsOpenTheMainWindowsShortcutsAndEscapeDoNothingBehindIt() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let friend = CountedPage("Friend", counter: counter)
            window.stack.push(friend)
            settle(window.stack)
            let opener = friend.button!
            opener.grabFocus()
            let dialog = ModalDialog(over: friend, root: CountedPage("Choose a Photo", counter: counter))
            var cancelRequests = 0
            dialog.onCancelRequest = { cancelRequests += 1; dialog.dismiss() }
            var dismissed = false
            Task { await dialog.dismissed(); dismissed = true }
            dialog.present()
            spin(until: { dialog.window.isActive }, "dialog active")
            pressKey(XK_Left, modifiers: [XK_Alt_L])
            pressMouseButton(8, over: window.window)
            settle()
            XCTAssertEqual(window.stack.pages.count, 2, "the main window's Back shortcuts don't fire behind the dialog")
            XCTAssertFalse(dismissed)
            pressKey(XK_Escape)  // at the dialog's first page: asks to leave it, does not pop the page behind
            spin(until: { dismissed }, "dismissed")
            XCTAssertEqual(cancelRequests, 1)
            XCTAssertEqual(window.stack.pages.count, 2)
            spin(until: { opener.isFocus }, "focus back on the button that opened the dialog")
        }
    }

    /// A dialog opened from a menu's item (Main Menu → Scan a Code) gives the focus back to the menu's
    /// button when it closes, where GTK put it as the menu closed, and it stays there. Given back to the
    /// closed menu's item, GTK moved it a frame later to the window's first control, after a dialog shown
    /// next had the focus, and Orca 43 said nothing of that dialog.
    func testADialogOpenedFromAMenuGivesTheFocusBackToTheMenusButton() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let page = window.stack.pages[0]
            let first = Button(label: "First")  // the window's first control
            page.addStartBarItem(first)
            let menu = MenuButton(iconName: "open-menu-symbolic", accessibleLabel: "Main Menu")
            var dialog: ModalDialog?
            menu.addItem("Open a Dialog") {
                let opened = ModalDialog(over: page, root: CountedPage("Scan a Code", counter: counter))
                opened.onCancelRequest = { [weak opened] in opened?.dismiss() }
                dialog = opened
                opened.present()
            }
            page.addEndBarItem(menu)
            spin(until: { menu.isMapped }, "the menu button shown")
            XCTAssertTrue(menu.grabFocus())
            pressKey(XK_F10)  // the primary menu opens, its first item focused
            spin(until: { menu.menuPopover?.isMapped == true }, "the menu open")
            pressKey(XK_Return)
            spin(until: { dialog?.window.isActive == true }, "the dialog shown and active")
            var focusedAfterClosing: [String] = []
            let watch = window.window.connect("notify::focus-widget") { _ in
                focusedAfterClosing.append(window.window.focusWidget.map { String(cString: g_type_name_from_instance(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self))) } ?? "nothing")
            }
            defer { window.window.disconnect(watch) }
            pressKey(XK_Escape)
            spin(until: { dialog?.window.isShown != true && window.window.isActive }, "the dialog closed, the window active")
            let menuHasFocus = { window.window.focusWidget.map { menu.contains($0) } ?? false }  // its toggle button
            spin(until: menuHasFocus, "the focus back on the menu's button")
            for _ in 0..<3 { waitForNextFrame(of: window.window) }
            XCTAssertTrue(menuHasFocus(), "still there a few frames later; focus went to: \(focusedAfterClosing)")
            XCTAssertFalse(first.isFocus, "not moved on to the window's first control")
        }
    }

    func testPagesHearShowingShownHidingHiddenAndTheStackHearsPushedPoppedReplaced() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            let root = stack.pages[0], a = CountedPage("A", counter: counter), b = CountedPage("B", counter: counter)
            var heard: [String] = []
            var observations: [ObservationToken] = []
            defer { observations.forEach { $0.cancel() } }
            for page in [root, a, b] {
                page.observeLifecycle { heard.append("\(page.title) \($0)") }.store(in: &observations)
            }
            var events: [String] = []
            stack.observeEvents { event, _ in
                switch event {
                case .pushed(let page): events.append("pushed \(page.title)")
                case .popped(let page): events.append("popped \(page.title)")
                case .removed(let page): events.append("removed \(page.title)")
                case .replaced(let removed, let added):
                    events.append("replaced \(removed.map(\.title)) with \(added.map(\.title))")
                }
            }.store(in: &observations)
            stack.push(a)
            XCTAssertEqual(heard, ["Root hiding", "A showing"], "at the start of the slide")
            settle(stack)
            XCTAssertEqual(heard, ["Root hiding", "A showing", "Root hidden", "A shown"], "at its end")
            heard = []
            stack.push(b)
            stack.pop()  // during the push's slide: the push's lifecycle ends first
            settle(stack)
            XCTAssertEqual(heard, ["A hiding", "B showing", "A hidden", "B shown", "B hiding", "A showing", "B hidden", "A shown"])
            heard = []
            let c = CountedPage("C", counter: counter)
            stack.replace(with: [root, c], animated: false)
            XCTAssertEqual(heard, ["A hiding", "A hidden"], "not animated: at once")
            XCTAssertEqual(events, ["pushed A", "pushed B", "popped B", "replaced [\"A\"] with [\"C\"]"])
            XCTAssertEqual(c.lifecycle, .shown)
        }
    }

    func testTagsPopToATaggedPageAndPushAPageAddedInAdvance() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            let album = CountedPage("Album", counter: counter)
            album.tag = "album"
            stack.push(album)
            stack.push(CountedPage("Photo", counter: counter))
            stack.push(CountedPage("Info", counter: counter))
            settle(stack)
            XCTAssertEqual(stack.pop(toTag: "album").map(\.title), ["Photo", "Info"])
            settle(stack)
            expectStack(stack, ["Root", "Album"])
            let settings = CountedPage("Settings", counter: counter)
            settings.tag = "settings"
            stack.add(settings)
            XCTAssertTrue(stack.push(tag: "settings"))
            settle(stack)
            expectStack(stack, ["Root", "Album", "Settings"])
            XCTAssertFalse(stack.push(tag: "settings"), "already on the stack")
            expectCritical("push(tag:): no page tagged “nowhere” was added*") { XCTAssertFalse(stack.push(tag: "nowhere")) }
        }
    }

    func testAPageThatCannotPopHasNoBackAndIgnoresEveryBackShortcut() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            let checkout = CountedPage("Checkout", counter: counter)
            checkout.canPop = false
            stack.push(checkout)
            settle(stack)
            XCTAssertFalse(stack.backButton.isVisible, "no Back")
            pressKey(XK_Left, modifiers: [XK_Alt_L])
            pressKey(XK_Escape)
            pressMouseButton(8, over: window.window)
            settle()
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "Checkout"], "Alt+Left, Escape and mouse back do nothing")
            checkout.canPop = true
            XCTAssertTrue(stack.backButton.isVisible, "Back comes back at once")
            checkout.canPop = false
            stack.pop()  // code can still pop it
            settle(stack)
            expectStack(stack, ["Root"])
        }
    }

    func testForwardPushesAgainThePageJustLeftWithBackUntilSomethingElseIsPushed() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            let post = CountedPage("Post", counter: counter)
            stack.push(post)
            settle(stack)
            stack.goBack()
            settle(stack)
            pressKey(XK_Right, modifiers: [XK_Alt_L])
            settle(stack, count: 2)
            XCTAssertTrue(stack.visiblePage === post, "the same page again, not a copy")
            pressMouseButton(8, over: window.window)
            settle(stack, count: 1)
            pressMouseButton(9, over: window.window)
            settle(stack, count: 2)
            XCTAssertTrue(stack.visiblePage === post, "mouse button 9 too")
            stack.goBack()
            settle(stack)
            stack.push(CountedPage("Other", counter: counter))
            settle(stack)
            pressKey(XK_Right, modifiers: [XK_Alt_L])
            settle()
            expectStack(stack, ["Root", "Other"])  // a new push cleared it
        }
    }

    /// With the desktop's animations off (Reduce Animation), a push or pop is shown at once: in the frame
    /// it is made in, with no frame in between (libadwaita's widgets do the same).
    func testWithAnimationsOffAPushDrawsNoIntermediateFrame() {
        onMain {
            DesktopStyle.animationsEnabled = false
            defer { DesktopStyle.animationsEnabled = true }
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            settle()
            let root = stack.pages[0], page = CountedPage("A", counter: counter)
            var frames: [(root: Bool, page: Bool, sliding: Bool)] = []
            stack.view.afterNextLayouts(10) {
                frames.append((root.view.isMapped, page.view.isMapped, stack.view.isTransitionRunning))
                return true
            }
            stack.push(page)
            XCTAssertEqual(stack.transition, .idle, "shown at once")
            XCTAssertEqual(stack.lastSlide, .none, "no slide")
            XCTAssertFalse(stack.view.isTransitionRunning)
            XCTAssertTrue(page.view.isMapped)
            XCTAssertFalse(root.view.isMapped, "the page below is gone from the screen in the same call")
            settle()
            XCTAssertFalse(frames.isEmpty)
            for frame in frames {
                XCTAssertTrue(frame.page && !frame.root && !frame.sliding, "every frame drawn after the push shows only the new page")
            }
            stack.pop()
            XCTAssertEqual(stack.transition, .idle)
            expectStack(stack, ["Root"])
            XCTAssertTrue(root.view.isMapped)
        }
    }

    func testAStackWithAnimationsOffSwitchesAtOnce() {
        onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            window.stack.isAnimated = false
            window.stack.push(CountedPage("A", counter: counter))
            XCTAssertEqual(window.stack.transition, .idle, "no slide")
            XCTAssertEqual(window.stack.lastSlide, .none)
            expectStack(window.stack, ["Root", "A"])
        }
    }

    /// Where `widget`'s centre is in its window's X surface (what XTEST clicks take).
    @MainActor
    private func surfaceCentre(of widget: Widget) -> (x: Int32, y: Int32) {
        let root = gtk_widget_get_root(widget.widget)!
        var point = graphene_point_t()
        var centre = graphene_point_t(x: Float(widget.width) / 2, y: Float(widget.height) / 2)
        _ = gtk_widget_compute_point(widget.widget, UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self), &centre, &point)
        var dx = 0.0, dy = 0.0
        gtk_native_get_surface_transform(gtk_widget_get_native(widget.widget), &dx, &dy)
        return (Int32(Double(point.x) + dx), Int32(Double(point.y) + dy))
    }

    func testTheBackButtonsHistoryMenuListsThePagesBelowAndGoesBackToOne() throws {
        try onMain {
            let counter = LifeCounter()
            let window = makeWindow(counter)
            let stack = window.stack
            for title in ["A", "B", "C"] { stack.push(CountedPage(title, counter: counter)) }
            settle(stack)
            let display = try XCTUnwrap(postcard_test_xdisplay())
            // A right click on Back.
            let back = surfaceCentre(of: stack.backButton)
            postcard_test_click(display, UnsafeMutableRawPointer(window.window.gobject), back.x, back.y, 3)
            spin(until: { stack.historyMenu.isOpen }, "the history menu")
            XCTAssertEqual(stack.historyMenu.itemLabels, ["B", "A", "Root"], "every page below, nearest first")
            let heard = try readAccessibilityTree()
            for title in ["B", "A", "Root"] {
                XCTAssertTrue(heard.contains("menu item|\(title)"), "a screen reader hears menu item \(title): \(heard)")
            }
            XCTAssertTrue(stack.historyMenu.activateItem("A"))
            settle(stack)
            expectStack(stack, ["Root", "A"])
            XCTAssertFalse(stack.historyMenu.isOpen)

            // A long press (held past GTK's long-press time) opens it too, and does not also go back.
            stack.push(CountedPage("D", counter: counter))
            settle(stack)
            // The hand goes off Back and comes back before pressing, each move handled before the next. GTK
            // 4.8 ends the closed menu's pointer grab only at the next pointer event it handles, with a
            // grab-broken event queued behind that one, which cancels every gesture under way: a press read
            // in the same batch as that first event was cancelled, and the long press never came (seen
            // beside four busy loops, the grab-broken event logged 7 ms after the press).
            let motion = gtk_event_controller_motion_new()!
            var pointerAt: (x: Double, y: Double)?
            Object.wrapping(UnsafeMutableRawPointer(motion)).connect("motion") { args in
                pointerAt = (args.double(at: 1), args.double(at: 2))
            }
            gtk_widget_add_controller(window.window.widget, motion)
            var dx = 0.0, dy = 0.0  // surface to window coordinates (the window's shadow)
            gtk_native_get_surface_transform(gtk_widget_get_native(window.window.widget), &dx, &dy)
            @MainActor func movePointer(to point: (x: Int32, y: Int32), _ what: String) {
                postcard_test_pointer(display, UnsafeMutableRawPointer(window.window.gobject), point.x, point.y, 0, 0)
                spin(until: { pointerAt.map { abs($0.x + dx - Double(point.x)) < 2 && abs($0.y + dy - Double(point.y)) < 2 } == true }, what)
            }
            movePointer(to: (back.x + 120, back.y + 120), "the pointer off Back")
            movePointer(to: back, "the pointer on Back again")
            settle()
            postcard_test_pointer(display, UnsafeMutableRawPointer(window.window.gobject), back.x, back.y, 1, 1)
            // Held until GTK's long press opens it (released after a fixed time, the release could be handled
            // before the long press's own timeout on a busy machine, and there was no long press).
            spin(until: { stack.historyMenu.isOpen }, "the history menu after a long press")
            postcard_test_pointer(display, UnsafeMutableRawPointer(window.window.gobject), back.x, back.y, 1, 0)
            settle()
            XCTAssertEqual(stack.historyMenu.itemLabels, ["A", "Root"])
            settle()
            expectStack(stack, ["Root", "A", "D"])
            pressKey(XK_Escape)
            spin(until: { !stack.historyMenu.isOpen }, "Escape closes it")
            expectStack(stack, ["Root", "A", "D"])

            // Shift+F10 with Back focused, then the keyboard alone.
            _ = stack.backButton.grabFocus()
            pressKey(XK_F10, modifiers: [XK_Shift_L])
            spin(until: { stack.historyMenu.isOpen }, "the history menu from the keyboard")
            settle()
            pressKey(XK_Down)  // from the nearest page, A (focused first), to Root
            pressKey(XK_Return)
            settle(stack, count: 1)
            expectStack(stack, ["Root"])

            // The window closing while the menu is open: it closes with it, with no warning (fatal here).
            stack.push(CountedPage("E", counter: counter))
            settle(stack)
            stack.showHistoryMenu()
            spin(until: { stack.historyMenu.isOpen }, "open again")
            window.window.destroy()
            settle()
            // ...and lets go of the pointer it held: the next window gets the mouse.
            let next = makeWindow(counter)
            next.stack.push(CountedPage("F", counter: counter))
            settle(next.stack)
            pressMouseButton(8, over: next.window)
            settle(next.stack, count: 1)
        }
    }

    /// The translucent bar comes with the toolkit (a GResource in NavigationGtk, loaded with the first
    /// stack), not from the app's style sheet: red behind the bar shows through it.
    func testTheTranslucentBarShipsWithTheToolkit() throws {
        try onMain {
            let window = NavigationWindow(root: Page(title: "Under the Bar"), width: 400, height: 300)
            let red = gtk_css_provider_new()!
            gtk_css_provider_load_from_data(red, ".behind-the-bar { background-color: #ff0000; }", -1)
            gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(red),
                                                       UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
            defer {
                gtk_style_context_remove_provider_for_display(gdk_display_get_default(), OpaquePointer(red))
                g_object_unref(UnsafeMutableRawPointer(red))
            }
            window.overlay.addCSSClass("behind-the-bar")
            show(window.window)
            spin(until: { window.topInset > 0 }, "laid out")
            let barColor = try pixel(of: window.window, x: 200, y: Int(window.topInset) / 2)
            // Adwaita's own bar is opaque (red = green there); the toolkit's lets 18 % through.
            XCTAssertGreaterThan(Int(barColor.red) - Int(barColor.green), 30, "red shows through the bar: \(barColor)")
            XCTAssertGreaterThan(barColor.green, 150, "yet the bar is there, mostly its own colour: \(barColor)")
        }
    }
}

/// The toolkit's seams with the platform: Swift's executors on GLib and the escape hatch to GTK's C API.
final class ToolkitSeamTests: ToolkitTestCase, @unchecked Sendable {
    /// Fails (within 2 s, never hangs) if the concurrency runtime stops taking GLibExecutors on this
    /// toolchain (see Sources/GLib/Executors.swift).
    func testTheRuntimeRunsMainActorWorkInsideGLibsLoop() {
        onMain {
            XCTAssertTrue(GLibExecutors.isInstalled, "the runtime's main executor is GLib's")
            for _ in 0..<3 {
                XCTAssertTrue(MainLoopBridge.executorsWork(timeout: .seconds(2)), "a main-actor Task did not run inside GLib's loop")
            }
        }
    }

    /// A widget made with GTK's C API goes into a page through the one escape hatch, and comes back out.
    func testTheEscapeHatchWrapsAWidgetMadeInC() {
        onMain {
            let page = Page(title: "Escape Hatch")
            let window = NavigationWindow(root: page, width: 300, height: 200)
            let made = UnsafeMutableRawPointer(gtk_label_new("Made in C")!)
            let label = Widget(unsafeGtkWidget: made, takingOwnership: true)
            page.content.append(label)
            show(window.window)
            spin(until: { label.isMapped }, "shown")
            XCTAssertEqual(label.unsafeGObjectPointer, made, "the same GtkWidget")
            XCTAssertEqual(label.typeName, "GtkLabel")
        }
    }
}

/// Swipe back: a touchpad's two-finger swipe and a touch screen's edge swipe. XTEST under Xvfb can press
/// keys and buttons but cannot make touchpad scroll sequences or touch points, so these tests emit the
/// gestures' own signals (`scroll-begin`/`scroll`/`scroll-end` of the stack's GtkEventControllerScroll,
/// `drag-begin`/`drag-update`/`drag-end` of its touch-only GtkGestureDrag), as GTK does on real input.
final class SwipeBackTests: ToolkitTestCase, @unchecked Sendable {
    @MainActor
    private func makeStack(_ counter: LifeCounter) -> (NavigationWindow, Page, Page) {
        let window = NavigationWindow(root: CountedPage("Root", counter: counter), width: 640, height: 480)
        show(window.window)
        let page = CountedPage("A", counter: counter)
        window.stack.push(page)
        spin(until: { window.stack.transition == .idle }, "pushed")
        return (window, window.stack.pages[0], page)
    }

    @MainActor
    private func scroll(_ stack: NavigationStack, begin: Bool = true, _ deltas: [(Double, Double)], end: Bool = true) -> [Bool] {
        let controller = stack.swipeScrollController!.unsafeGObjectPointer
        if begin { navgtk_emit_signal(controller, "scroll-begin") }
        let handled = deltas.map { navgtk_emit_scroll(controller, $0.0, $0.1) != 0 }
        if end { navgtk_emit_signal(controller, "scroll-end") }
        return handled
    }

    func testATouchpadSwipeFollowsTheFingersAndGoesBackOrReturns() {
        onMain {
            let counter = LifeCounter()
            let (window, root, page) = makeStack(counter)
            let stack = window.stack
            var heard: [String] = []
            var observations: [ObservationToken] = []
            defer { observations.forEach { $0.cancel() } }
            for observed in [root, page] { observed.observeLifecycle { heard.append("\(observed.title) \($0)") }.store(in: &observations) }

            // A short swipe: the page follows, then returns; the page below was shown live meanwhile.
            XCTAssertEqual(scroll(stack, [(-40, 2)], end: false), [true], "sideways toward Back: the swipe takes it")
            XCTAssertTrue(stack.isSwipingBack)
            XCTAssertEqual(stack.swipeBackProgress ?? 0, 40.0 / SwipeTracker.touchpadDistance, accuracy: 0.01,
                           "the page has followed the fingers (libadwaita's 400-unit touchpad way)")
            XCTAssertEqual(stack.view.visibleChildName, root.id.description, "the page below is live underneath")
            XCTAssertEqual(heard, ["A hiding", "Root showing"])
            _ = scroll(stack, begin: false, [])
            spin(until: { !stack.isSwipingBack }, "the page returns")
            XCTAssertEqual(heard, ["A hiding", "Root showing", "A shown", "Root hidden"], "a cancelled swipe: hiding, then shown")
            XCTAssertEqual(stack.pages.map(\.title), ["Root", "A"])
            XCTAssertEqual(stack.view.visibleChildName, page.id.description)
            waitForNextFrame(of: stack.view)  // the page is laid out again (a swipe starts from what is drawn)

            // A long one goes back, and Forward brings the page again.
            heard = []
            XCTAssertEqual(scroll(stack, [(-150, 0), (-150, 4)]), [true, true])
            spin(until: { !stack.isSwipingBack && stack.pages.count == 1 }, "gone back")
            XCTAssertEqual(heard, ["A hiding", "Root showing", "A hidden", "Root shown"], "each event once")
            XCTAssertEqual(stack.titleLabel.text, "Root")
            XCTAssertTrue(stack.goForward(), "Forward after a swipe back")
            spin(until: { stack.transition == .idle && stack.pages.count == 2 }, "forward")

            // Not a swipe back: mostly up and down, the other way, a mouse wheel (no begin), the root.
            XCTAssertEqual(scroll(stack, [(-5, 40)]), [false])
            XCTAssertEqual(scroll(stack, [(60, 0)]), [false], "toward the other edge")
            XCTAssertEqual(scroll(stack, begin: false, [(-60, 0)], end: false), [false], "a wheel")
            XCTAssertFalse(stack.isSwipingBack)
            page.canPop = false
            XCTAssertEqual(scroll(stack, [(-60, 0)]), [false], "a page that cannot pop")
            page.canPop = true
            stack.pop()
            spin(until: { stack.transition == .idle }, "popped")
            XCTAssertEqual(scroll(stack, [(-60, 0)]), [false], "the root")
        }
    }

    func testATouchFromTheLeadingEdgeSwipesBackMirroredRightToLeft() {
        onMain {
            for rtl in [false, true] {
                gtk_widget_set_default_direction(rtl ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
                defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
                let counter = LifeCounter()
                let (window, _, page) = makeStack(counter)
                let stack = window.stack
                let gesture = stack.swipeTouchGesture!.unsafeGObjectPointer
                let width = Double(stack.view.width), edge = rtl ? width - 5 : 5, away = rtl ? -1.0 : 1.0
                navgtk_emit_drag(gesture, "drag-begin", width / 2, 100)
                XCTAssertFalse(stack.isSwipingBack, "a touch in the middle is the page's own (rtl: \(rtl))")
                navgtk_emit_drag(gesture, "drag-begin", edge, 100)
                XCTAssertTrue(stack.isSwipingBack, "from the leading edge (rtl: \(rtl))")
                navgtk_emit_drag(gesture, "drag-update", away * 384, 10)
                XCTAssertEqual(stack.swipeBackProgress ?? 0, 0.6, accuracy: 0.01, "follows the finger (rtl: \(rtl))")
                waitForNextFrame(of: stack.view)  // laid out where the finger is
                var bounds = graphene_rect_t()
                _ = gtk_widget_compute_bounds(page.view.widget, stack.view.widget, &bounds)
                XCTAssertTrue(page.view.isMapped, "the page itself moves, live, not a picture of it (rtl: \(rtl))")
                XCTAssertEqual(Double(bounds.origin.x), away * 384, accuracy: 1, "under the finger (rtl: \(rtl))")
                spin(for: 0.2)  // the finger rests: its speed is spent, where it is decides
                navgtk_emit_drag(gesture, "drag-end", away * 384, 10)
                spin(until: { !stack.isSwipingBack && stack.pages.count == 1 }, "gone back (rtl: \(rtl))")
                window.window.destroy()
            }
        }
    }

    func testAFastShortFlickGoesBackAndTheSameDistanceSlowlyReturns() {
        onMain {
            let counter = LifeCounter()
            let (window, _, _) = makeStack(counter)
            let stack = window.stack
            let gesture = stack.swipeTouchGesture!.unsafeGObjectPointer
            // 80 px of 640 (an eighth of the way) slowly, then resting: the page returns.
            navgtk_emit_drag(gesture, "drag-begin", 5, 100)
            for step in 1...8 {
                navgtk_emit_drag(gesture, "drag-update", Double(step) * 10, 0)
                spin(for: 0.06)  // 10 px per 60 ms: 0.17 px/ms, under the 0.3 threshold
            }
            navgtk_emit_drag(gesture, "drag-end", 80, 0)
            spin(until: { !stack.isSwipingBack }, "the page returns")
            XCTAssertEqual(stack.pages.count, 2, "slow and short: back in place")
            settle()
            // The same 80 px flicked in about 40 ms: the speed carries it back, as GNOME's swipe does.
            navgtk_emit_drag(gesture, "drag-begin", 5, 100)
            for step in 1...4 {
                navgtk_emit_drag(gesture, "drag-update", Double(step) * 20, 0)
                g_usleep(10_000)  // about time itself: the flick's pace, 20 px per 10 ms
            }
            navgtk_emit_drag(gesture, "drag-end", 80, 0)
            spin(until: { !stack.isSwipingBack }, "the swipe ends")
            XCTAssertEqual(stack.pages.count, 1, "fast and short: gone back")
        }
    }

    func testAPageThatAsksBeforeLeavingCanStayAfterASwipe() {
        onMain {
            let counter = LifeCounter()
            let (window, _, page) = makeStack(counter)
            var asked = 0
            page.shouldLeave = { asked += 1; return false }  // e.g. "Discard this post?" → Keep Editing
            _ = scroll(window.stack, [(-400, 0)])
            spin(until: { !window.stack.isSwipingBack }, "the page returns")
            XCTAssertEqual(asked, 1, "asked once")
            XCTAssertEqual(window.stack.pages.map(\.title), ["Root", "A"])
            XCTAssertEqual(page.lifecycle, .shown)
        }
    }
}
