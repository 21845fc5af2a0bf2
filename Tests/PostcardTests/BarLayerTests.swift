import CGtk
import Gtk
import Navigation
import NavigationGtk
import XCTest

/// The bar's per-page layers (issue 42 part 3): a page's bar items are built once and never taken out
/// and put back as pages come and go; they sit exactly where a `GtkHeaderBar` puts items packed into it;
/// and while pages change, both pages' layers are seen cross-fading with the slide or the swipe.
final class BarLayerTests: GtkTestCase, @unchecked Sendable {  // XCTestCase is not Sendable; runs on the main thread only
    /// A label as a bar item or title: the same text gives the same width in both bars compared.
    @MainActor
    private func label(_ text: String, ellipsizes: Bool = false) -> Label {
        let label = Label(text)
        if ellipsizes { label.ellipsizeAtEnd() }
        return label
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
                for width: Int32 in [1280, 700, 480, 400] {
                    window.setDefaultSize(width: width, height: 200)
                    show(window)
                    spin(until: { abs(window.width - width) <= 2 && title.isMapped }, "the window \(width) px wide")
                    spin(for: 0.1)
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
            spin(for: 0.05)
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
}

private extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The box holding a bar item (the layer's end box, whose opacity is the layer's).
    var parentBox: UnsafeMutablePointer<GtkWidget> { gtk_widget_get_parent(self)! }
}

private extension Widget {
    /// Whether the layer part holding this item takes pointer input.
    @MainActor var canTargetInBar: Bool { parentWidget.map { gtk_widget_get_can_target($0) != 0 } ?? false }
}
