import CGtk
import Gtk
import GtkTesting
import NavigationGtk
import XCTest

/// `Window.announce(_:)`, read over AT-SPI as Orca 43 reads it: the result of an action becomes the focused
/// control's description (what Orca says after its name, and says alone when it changes while focused),
/// until focus moves on, when the control's own description (a tooltip that says more than its name)
/// comes back.
final class AnnouncementTests: ToolkitTestCase, @unchecked Sendable {
    func testAResultIsTheFocusedControlsDescriptionUntilFocusMovesOn() throws {
        try onMain {
            let window = Window()
            let box = Box(.vertical)
            let save = Button(label: "Save")
            save.tooltip = "Keeps the draft"
            let other = Button(label: "Other")
            box.append(save)
            box.append(other)
            window.setChild(box)
            show(window)
            XCTAssertTrue(save.grabFocus())
            XCTAssertEqual(try readFocusedOverAtSpi(), ["push button|Save|Keeps the draft"])
            spin(for: 1.1)  // about time itself: a message for a control focused less than a second ago waits (below)
            XCTAssertTrue(window.announce("Saved"))
            XCTAssertEqual(window.pendingAnnouncement, "Saved")
            XCTAssertEqual(try readFocusedOverAtSpi(), ["push button|Save|Saved"], "heard on the focused control")
            XCTAssertTrue(window.announce("Saved again"))
            XCTAssertEqual(try readFocusedOverAtSpi(), ["push button|Save|Saved again"], "a second one replaces the first")
            XCTAssertTrue(other.grabFocus())
            XCTAssertNil(window.pendingAnnouncement, "gone once focus moved on")
            XCTAssertEqual(try readFocusedOverAtSpi(), ["push button|Other|"])
            XCTAssertTrue(save.grabFocus())
            XCTAssertEqual(try readFocusedOverAtSpi(), ["push button|Save|Keeps the draft"],
                           "its own description back, not heard again the next time")
            window.destroy()
        }
    }

    /// Orca 43 reads the description when it says a newly focused control, and again when told it changed:
    /// set while the focus event still waited in its queue, a message was heard twice. So a message for a
    /// control focused less than a second ago becomes its description only a second after the focus came.
    func testAMessageForAControlJustFocusedWaitsUntilTheFocusHasBeenHeard() throws {
        try onMain {
            let window = Window()
            let box = Box(.vertical)
            let save = Button(label: "Save")
            let other = Button(label: "Other")
            box.append(save)
            box.append(other)
            window.setChild(box)
            show(window)
            @MainActor func described(_ button: Button, _ text: String) -> Bool { navgtk_accessible_description_is(button.widget, text) != 0 }
            XCTAssertTrue(save.grabFocus())
            let focused = Date()
            XCTAssertTrue(window.announce("Saved"))
            XCTAssertEqual(window.pendingAnnouncement, "Saved", "pending at once")
            XCTAssertFalse(described(save, "Saved"), "not yet its description: the focus came just now")
            spin(until: { described(save, "Saved") }, timeout: 3, "the description set")
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(focused), 0.95, "a second after the focus came")
            XCTAssertEqual(try readFocusedOverAtSpi(), ["push button|Save|Saved"], "as a screen reader reads it")
            XCTAssertTrue(other.grabFocus())
            XCTAssertTrue(window.announce("Moved"))
            XCTAssertTrue(save.grabFocus(), "focus moved on before the message was set")
            spin(for: 1.2)  // about time itself: the second after which the message would have been set passes
            XCTAssertFalse(described(other, "Moved"), "a message whose control lost focus is never set")
            window.destroy()
        }
    }

    func testAWindowWithNothingFocusedAnnouncesNothing() {
        onMain {
            let window = Window()
            window.setChild(Box(.vertical))
            show(window)
            XCTAssertFalse(window.announce("Saved"), "nothing would be heard")
            XCTAssertNil(window.pendingAnnouncement)
            window.destroy()
        }
    }
}
