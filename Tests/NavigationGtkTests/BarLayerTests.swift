import CGtk
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import XCTest

/// The bar's per-page layers (issue 42 part 3): a page's bar items are built once and never taken out
/// and put back as pages come and go; they sit exactly where a `GtkHeaderBar` puts items packed into it;
/// and while pages change, both pages' layers are seen cross-fading with the slide or the swipe.
final class BarLayerTests: ToolkitTestCase, @unchecked Sendable {  // XCTestCase is not Sendable; runs on the main thread only
    /// A label as a bar item or title: the same text gives the same width in both bars compared.
    @MainActor
    private func label(_ text: String, ellipsizes: Bool = false) -> Label {
        let label = Label(text)
        if ellipsizes { label.ellipsizeAtEnd() }
        return label
    }

    /// A bar laid out again after its Swift objects have gone (a window GTK still shows, as a test's app
    /// left until tear-down) still gives every part it shows an allocation: a part left without one was
    /// drawn with GTK's "Trying to snapshot GtkBox … without a current allocation" warning (CameraTests,
    /// under make test's load).
    func testABarWhoseOwnersHaveGoneIsStillLaidOutWhole() {
        onMain {
            let item = Label("Share")
            var shown: Gtk.Window?
            do {
                let page = Page(title: "Page")
                page.addStartBarItem(Label("Start"))
                page.addEndBarItem(item)
                let window = NavigationWindow(root: page, width: 640, height: 480)
                show(window.window)
                shown = window.window
            }
            // The stack, its bar's wrapper and the page are gone; GTK still shows the window (its wrapper
            // lives as long as GTK holds it). An item's new text lays the bar out again.
            item.text = "Share with Friends"
            let window = try! XCTUnwrap(shown)
            waitForNextFrame(of: window)
            XCTAssertTrue(item.isMapped)
            XCTAssertGreaterThan(item.width, 0, "the item was given its place")
            window.destroy()
        }
    }

    /// Each item of a layer (start items, the title, end items) against the same item packed straight
    /// into a `GtkHeaderBar` beside it, after the bar's own start item and with the title widget
    /// expanding, as the stack's bar had them: same x and width at every width, left to right and right
    /// to left, including widths where the title is cut.
    func testALayersItemsSitWhereAHeaderBarPutsThemPackedIntoIt() {
        onMain {
            for rightToLeft in [false, true] {
                let window = Gtk.Window()
                let column = Box(.vertical)
                gtk_widget_set_direction(column.widget, rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
                window.setChild(column)
                // Ours: the bar's own Back, one layer with a start item, a title and three end items.
                let ours = HeaderBar()
                ours.showsTitleButtons = false
                ours.packStart(label("Back"))
                let title = label("Choose a Photo from the Pictures Folder", ellipsizes: true)
                let layer = BarLayer(title: title)
                let ourItems = [label("Cancel"), label("Help"), label("Take Photo"), label("Post")]
                layer.packStart(ourItems[0])
                for item in ourItems.dropFirst() { layer.packEnd(item) }
                ours.addLayer(layer)
                ours.showLayer(layer)
                // GTK's: the same, packed into the header bar itself.
                let referenceWidget = gtk_header_bar_new()!
                let reference = OpaquePointer(referenceWidget)
                gtk_header_bar_set_show_title_buttons(reference, 0)
                let referenceTitle = label("Choose a Photo from the Pictures Folder", ellipsizes: true)
                referenceTitle.expandsHorizontally = true
                let referenceItems = [label("Cancel"), label("Help"), label("Take Photo"), label("Post")]
                let referenceBack = label("Back")
                gtk_header_bar_pack_start(reference, referenceBack.widget)
                gtk_header_bar_pack_start(reference, referenceItems[0].widget)
                gtk_header_bar_set_title_widget(reference, referenceTitle.widget)
                for item in referenceItems.dropFirst() { gtk_header_bar_pack_end(reference, item.widget) }
                column.append(ours)
                gtk_box_append(UnsafeMutableRawPointer(column.widget).assumingMemoryBound(to: GtkBox.self),
                               referenceWidget)
                for width: Int in [1280, 700, 480, 400] {
                    window.setDefaultSize(width: width, height: 200)
                    show(window)
                    spin(until: { abs(window.width - width) <= 2 && title.isMapped }, "the window \(width) px wide")
                    settle()
                    for (index, (mine, theirs)) in zip([title] + ourItems, [referenceTitle] + referenceItems).enumerated() {
                        let a = mine.bounds(in: column), b = theirs.bounds(in: column)
                        XCTAssertEqual(a?.x, b?.x, "item \(index) at \(width) px, \(rightToLeft ? "RTL" : "LTR")")
                        XCTAssertEqual(a?.width, b?.width, "item \(index)'s width at \(width) px, \(rightToLeft ? "RTL" : "LTR")")
                    }
                }
                XCTAssertTrue(title.width < title.naturalWidth, "the narrowest width cuts the title (a squeezed layout was compared)")
                window.destroy()
            }
        }
    }

    /// A page's bar item and title stay in the same parent, realized once, through pushes, pops, a
    /// swipe back and a replace: nothing is re-parented (which unrealized a widget and its popovers, the
    /// cause of GTK 4.8's crashes and criticals the re-packing bar had).
    func testAPagesBarItemsAreNeverTakenOutAndPutBack() {
        onMain {
            let counter = LifeCounter()
            let first = CountedPage("First", counter: counter), second = CountedPage("Second", counter: counter)
            let item = Button(label: "Edit")
            first.addEndBarItem(item)
            let window = NavigationWindow(root: first, width: 640, height: 480)
            show(window.window)
            let stack = window.stack
            spin(until: { item.isMapped }, "the item shown")
            let parent = item.parentWidget, titleParent = first.titleView.parentWidget
            var realized = 0, unrealized = 0
            item.connect("realize") { _ in realized += 1 }
            item.connect("unrealize") { _ in unrealized += 1 }
            for round in 0..<3 {
                _ = stack.push(second)
                spin(until: { !stack.view.isTransitionRunning && !item.isMapped }, "pushed, round \(round)")
                _ = stack.pop()
                spin(until: { !stack.view.isTransitionRunning && item.isMapped }, "popped, round \(round)")
                _ = stack.push(second)
                spin(until: { !stack.view.isTransitionRunning }, "pushed again, round \(round)")
                XCTAssertTrue(stack.beginSwipeBack())
                stack.updateSwipeBack(progress: 0.5)
                stack.endSwipeBack(commit: true)
                spin(until: { !stack.isSwipingBack && item.isMapped }, "swiped back, round \(round)")
            }
            stack.replace(with: [first, second], animated: false)
            stack.replace(with: [first], animated: false)
            spin(until: { item.isMapped }, "shown again")
            XCTAssertTrue(item.parentWidget == parent, "the item kept its place in the first page's layer")
            XCTAssertTrue(first.titleView.parentWidget == titleParent, "the title kept its place")
            XCTAssertEqual(realized, 0, "never realized again")
            XCTAssertEqual(unrealized, 0, "never unrealized")
            window.window.destroy()
        }
    }

    /// Mid-swipe, the bar shows both pages' titles and items, the leaving page's fading out and the
    /// page below's fading in, with the swipe's progress; at its end only the page shown is left, whole
    /// and taking input again.
    func testBothPagesLayersCrossFadeWithTheSwipe() {
        onMain {
            let counter = LifeCounter()
            let below = CountedPage("Below", counter: counter), top = CountedPage("Top", counter: counter)
            let belowItem = Button(label: "Share"), topItem = Button(label: "Edit")
            below.addEndBarItem(belowItem)
            top.addEndBarItem(topItem)
            let window = NavigationWindow(root: below, width: 640, height: 480)
            show(window.window)
            let stack = window.stack
            _ = stack.push(top)
            spin(until: { !stack.view.isTransitionRunning && topItem.isMapped && !belowItem.isMapped }, "only the top page's layer")
            XCTAssertTrue(stack.beginSwipeBack())
            stack.updateSwipeBack(progress: 0.25)
            waitForNextFrame(of: stack.view)
            for widget in [top.titleView, topItem, below.titleView, belowItem] {
                XCTAssertTrue(widget.isMapped, "both layers shown mid-swipe")
            }
            XCTAssertEqual(gtk_widget_get_opacity(top.titleView.widget), 0.75, accuracy: 0.001, "the leaving page's title fades out")
            XCTAssertEqual(gtk_widget_get_opacity(below.titleView.widget), 0.25, accuracy: 0.001, "the page below's title fades in")
            XCTAssertEqual(gtk_widget_get_opacity(topItem.widget.parentBox), 0.75, accuracy: 0.001, "and its items with it")
            stack.updateSwipeBack(progress: 0.6)
            XCTAssertEqual(gtk_widget_get_opacity(below.titleView.widget), 0.6, accuracy: 0.001)
            XCTAssertFalse(topItem.canTargetInBar, "no input to a layer while it fades")
            stack.endSwipeBack(commit: true)
            spin(until: { !stack.isSwipingBack && !topItem.isMapped }, "the swipe ended")
            XCTAssertEqual(gtk_widget_get_opacity(below.titleView.widget), 1)
            XCTAssertTrue(belowItem.isMapped && belowItem.canTargetInBar, "the page shown takes input again")
            window.window.destroy()
        }
    }

    /// A menu button among a page's bar items keeps working after every Back without its popover being
    /// made anew when it is realized again (the workaround the re-packing bar needed, gone): its items
    /// are sensitive and run their handlers each time the menu opens.
    func testAMenuInAPagesBarWorksAfterEveryBack() {
        onMain {
            let counter = LifeCounter()
            let first = CountedPage("First", counter: counter), second = CountedPage("Second", counter: counter)
            let menu = MenuButton(iconName: "open-menu-symbolic", accessibleLabel: "Main Menu")
            var chosen = 0
            menu.addItem("Do It") { chosen += 1 }
            first.addEndBarItem(menu)
            let window = NavigationWindow(root: first, width: 640, height: 480)
            show(window.window)
            let stack = window.stack
            for round in 1...3 {
                spin(until: { menu.isMapped && !stack.view.isTransitionRunning }, "the menu button shown, round \(round)")
                menu.openMenu()
                spin(until: { menu.menuPopover?.isMapped == true }, "the menu open, round \(round)")
                let items = modelButtons(in: menu.menuPopover!.widget)
                XCTAssertEqual(items.count, 1, "one item, round \(round)")
                XCTAssertTrue(items.allSatisfy { gtk_widget_is_sensitive($0) != 0 }, "its item is sensitive, round \(round)")
                if let item = items.first { gtk_widget_activate(item) }
                spin(until: { chosen == round && !menu.isMenuOpen }, "the item chosen, round \(round)")
                _ = stack.push(second)
                spin(until: { !stack.view.isTransitionRunning && !menu.isMapped }, "pushed, round \(round)")
                _ = stack.pop()
            }
            window.window.destroy()
        }
    }

    /// In a 360-pixel bar short of room, the next page's part of the bar shows with as many items in
    /// its More as the page before had, in the change's own turn of the main loop: no page's items are
    /// taken out and put back, so nothing needs batching (`HeaderBar.performUpdates`, gone) to keep the
    /// bar from showing every button for a frame.
    func testANarrowBarShowsTheNextPageWithItsOverflowAtOnce() {
        onMain {
            let counter = LifeCounter()
            @MainActor func crowded(_ title: String) -> CountedPage {
                let page = CountedPage(title, counter: counter)
                for name in ["Share", "Copy Link", "Report"] { page.addEndBarItem(Button(label: "\(name) \(title)")) }
                return page
            }
            let first = crowded("First Page Title"), second = crowded("Second Page Title")
            let window = NavigationWindow(root: first, width: 360, height: 480)
            show(window.window)
            let bar = window.stack.headerBar
            spin(until: { bar.overflowCount >= 1 }, "the first page's buttons in More")
            spin(until: { bar.currentLayer?.isArranging == false }, "More settled")
            let inMore = bar.overflowCount
            _ = window.stack.push(second)
            XCTAssertTrue(bar.currentLayer === second.barLayer)
            XCTAssertEqual(second.barLayer.overflowCount, inMore, "as many in More at once")
            let shown = second.endBarItems.filter(\.isVisible).count
            XCTAssertEqual(shown, 3 - min(3, inMore), "the moved ones hidden from the first frame")
            spin(until: { !window.stack.view.isTransitionRunning }, "pushed")
            window.window.destroy()
        }
    }

    /// A page whose own Cancel is in More at 360 px keeps it there while the next page slides in over
    /// it (the layer fading out is not rearranged), and has it in More again when it is shown again.
    func testALayersHiddenCancelStaysHiddenWhileItFadesOut() {
        onMain {
            let counter = LifeCounter()
            @MainActor func crowded(_ title: String) -> (CountedPage, Button) {
                let page = CountedPage(title, counter: counter)
                let cancel = Button(label: "Cancel")
                page.addStartBarItem(cancel)
                for name in ["Share", "Copy Link", "Report"] { page.addEndBarItem(Button(label: name)) }
                return (page, cancel)
            }
            let root = CountedPage("Root", counter: counter)
            let (first, firstCancel) = crowded("A Very Long First Page Title That Cannot Fit Here")
            let (second, _) = crowded("A Very Long Second Page Title That Cannot Fit Here")
            let window = NavigationWindow(root: root, width: 360, height: 480)
            show(window.window)
            let stack = window.stack
            _ = stack.push(first)
            spin(until: { !firstCancel.isVisible && first.barLayer.moreButton.itemLabels.contains("Cancel") },
                 "the first page's Cancel in More")
            _ = stack.push(second)
            XCTAssertTrue(stack.view.isTransitionRunning, "sliding")
            XCTAssertFalse(firstCancel.isVisible, "the first page's Cancel stays in More while its layer fades out")
            spin(until: { !stack.view.isTransitionRunning }, "pushed")
            XCTAssertFalse(firstCancel.isVisible, "and after")
            _ = stack.pop()
            spin(until: { !stack.view.isTransitionRunning && first.barLayer.isArranging == false }, "back, and More settled")
            XCTAssertFalse(firstCancel.isVisible, "in More again on its page")
            XCTAssertTrue(first.barLayer.moreButton.itemLabels.contains("Cancel"))
            window.window.destroy()
        }
    }

    /// 2,000 random pushes, pops, swipes back (completed or not), More and history-menu opens, at 360
    /// and at 1280 px, not waiting for transitions to end: no warning or critical (they fail the test),
    /// the bar shows exactly the visible page's layer at rest, and when the window goes no page is left.
    func testTwoThousandRandomActionsLeaveNoCriticalAndNoPage() {
        onMain {
            // The same actions every run, as the app's stress test (another seed: POSTCARD_SOAK_SEED). A seed new
            // each run made the suite differ from run to run: one found a GTK critical once
            // ('gdk_surface_get_device_position: GDK_IS_SURFACE', a menu's surface gone), not replayable since.
            let seed = ProcessInfo.processInfo.environment["POSTCARD_SOAK_SEED"].flatMap(UInt64.init) ?? 20_261_207
            print("soak: seed \(seed) (replay with POSTCARD_SOAK_SEED=\(seed))")  // a critical fails the test in tearDown, which cannot name it
            var generator = SplitMix64(state: seed)
            let counter = LifeCounter()
            for width: Int in [360, 1280] {
                var made = 0
                @MainActor func makePage() -> CountedPage {
                    made += 1
                    let page = CountedPage("Page \(made) of the soak", counter: counter)
                    for name in ["Share", "Edit", "Report"].prefix(Int.random(in: 0...3, using: &generator)) {
                        page.addEndBarItem(Button(label: name))
                    }
                    if Bool.random(using: &generator) { page.addStartBarItem(Button(label: "Cancel")) }
                    return page
                }
                let window = NavigationWindow(root: makePage(), width: Int(width), height: 600)
                show(window.window)
                let stack = window.stack
                for step in 0..<1_000 {
                    let action = Int.random(in: 0..<10, using: &generator)
                    switch action {
                    case 0...3:
                        _ = stack.push(makePage())
                    case 4, 5:
                        _ = stack.pop()
                    case 6:
                        if stack.beginSwipeBack() {
                            stack.updateSwipeBack(progress: Double.random(in: 0...1, using: &generator))
                            spin(for: 0.01)  // about time itself: the random user's pace (actions land mid-slide)
                            stack.endSwipeBack(commit: Bool.random(using: &generator),
                                               velocity: Double.random(in: -3...3, using: &generator))
                        }
                    case 7:
                        let more = stack.headerBar.moreButton
                        if more.isMapped {
                            more.openMenu()
                            spin(for: 0.02)  // about time itself: the random user's pace (actions land mid-slide)
                            more.closeMenu()
                        }
                    case 8:
                        stack.showHistoryMenu()
                        spin(for: 0.02)  // about time itself: the random user's pace (actions land mid-slide)
                        stack.historyMenu.popdown()
                    default:
                        if stack.pages.count > 3, Bool.random(using: &generator) { _ = stack.pop(to: stack.pages[1]) }
                    }
                    spin(for: Double.random(in: 0.001...0.012, using: &generator))  // about time itself: the random user's pace (actions land mid-slide)
                    if step % 100 == 99 {
                        spin(until: { !stack.view.isTransitionRunning && !stack.isSwipingBack }, "at rest (seed \(seed), step \(step))")
                        let shown = stack.headerBar.layers.filter { $0.title.isVisible }
                        XCTAssertTrue(shown.count == 1 && shown.first === stack.visiblePage?.barLayer,
                                      "only the visible page's layer at rest (seed \(seed), \(width) px, step \(step))")
                        XCTAssertEqual(stack.headerBar.layers.count, stack.pages.count,
                                       "a layer per page on the stack (seed \(seed), \(width) px, step \(step))")
                    }
                }
                window.window.destroy()
                spin(until: { counter.pagesAlive == 0 }, "no page left after the window at \(width) px (seed \(seed))")
            }
        }
    }

    @MainActor
    private func modelButtons(in root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        if String(cString: navgtk_type_name_of(root)) == "GtkModelButton" { found.append(root) }
        var child = gtk_widget_get_first_child(root)
        while let current = child {
            found += modelButtons(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return found
    }
}

private extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The box holding a bar item (the layer's end box, whose opacity is the layer's).
    var parentBox: UnsafeMutablePointer<GtkWidget> { gtk_widget_get_parent(self)! }
}

private extension Widget {
    /// Whether the layer part holding this item takes pointer input.
    @MainActor var canTargetInBar: Bool { parentWidget.map { gtk_widget_get_can_target($0) != 0 } ?? false }
}

/// Large Text (issue 57, item 5): with the desktop's text 1.25× and 2× as large (GtkSettings
/// `gtk-xft-dpi`), at 360 and 1280 px, a pushed page's bar keeps Back and every action shown whole, inside
/// the window and clear of the title and each other; the title is whole or shortened with "…"; the
/// suggested action is in the bar or, as a last resort, in More; and the bar's minimum width stays within
/// 360 px, so it never holds a window wider than a phone.
extension BarLayerTests {
    @MainActor
    private func barProblems(_ window: NavigationWindow, action: Button) -> [String] {
        let stack = window.stack, bar = stack.headerBar
        var found: [String] = []
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(bar.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        if minimum > 360 { found.append("the bar's minimum width is \(minimum) px") }
        guard let layer = stack.visiblePage?.barLayer, stack.backButton.isMapped else { return ["no Back"] }
        let shown: [Widget] = [stack.backButton] + (layer.startItems + layer.endItems + [layer.moreButton]).filter(\.isMapped)
        let boxes = shown.compactMap { $0.bounds(in: window.window) }
        for (index, box) in boxes.enumerated() {
            if box.x < -0.5 || box.x + box.width > Double(window.window.width) + 0.5 { found.append("control \(index) outside: \(box)") }
            for other in boxes[(index + 1)...] where box.x < other.x + other.width - 0.5 && other.x < box.x + box.width - 0.5 {
                found.append("control \(index) \(box) overlaps \(other)")
            }
        }
        guard let title = stack.titleLabel.bounds(in: window.window) else { return found + ["no title"] }
        for box in boxes where title.x < box.x + box.width - 0.5 && box.x < title.x + title.width - 0.5 {
            found.append("the title \(title) is under \(box)")
        }
        gtk_widget_measure(stack.titleLabel.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        if title.width < Double(minimum) { found.append("the title has \(title.width) px of its minimum \(minimum)") }
        if title.width < Double(natural), !stack.titleLabel.isEllipsized { found.append("the title cut without “…”") }
        if !action.isMapped, !layer.moreButton.itemLabels.contains("New Conversation") {
            found.append("the suggested action is neither in the bar nor in More")
        }
        return found
    }

    func testWithLargeTextTheBarKeepsBackAndItsActionsWholeAndFitsAPhone() {
        onMain {
            let dpi = DesktopStyle.textDPI
            defer { DesktopStyle.textDPI = dpi }
            for scale in [1.25, 2] {
                for width in [360, 1280] {
                    DesktopStyle.textDPI = 96 * scale  // as the desktop sets it: gtk-xft-dpi = scale × 96 × 1024
                    let counter = LifeCounter()
                    let root = CountedPage("Inbox", counter: counter)
                    let page = CountedPage("Conversations", counter: counter)
                    let action = Button(label: "New Conversation")
                    action.addCSSClass("suggested-action")
                    page.addEndBarItem(action)
                    page.addEndBarItem(Button(iconName: "edit-find-symbolic", accessibleLabel: "Search"))
                    let window = NavigationWindow(root: root, width: width, height: 480)
                    show(window.window)
                    _ = window.stack.push(page)
                    spin(until: { !window.stack.view.isTransitionRunning && window.stack.titleLabel.isMapped }, "pushed")
                    var found: [String] = []
                    spin(until: {
                        found = self.barProblems(window, action: action)
                        return found.isEmpty && abs(window.window.width - width) <= 12
                    }, "the bar sound at \(scale)× text, \(width) px")
                    XCTAssertEqual(found, [], "\(scale)× text, \(width) px (the window \(window.window.width) px)")
                    XCTAssertLessThanOrEqual(abs(window.window.width - width), 12, "the window as wide as asked")
                    if width == 1280 { XCTAssertTrue(action.isMapped, "room enough: the action in the bar") }
                    window.window.destroy()
                }
            }
        }
    }
}
