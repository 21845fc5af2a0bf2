import CGtk
import Gtk
import NavigationGtk
import XCTest

/// `Window.announce(_:)`, read over AT-SPI as Orca 43 reads it: the result of an action becomes the focused
/// control's description (what Orca says after its name, and says alone when it changes while focused),
/// until focus moves on, when the control's own description (a tooltip that says more than its name)
/// comes back.
final class AnnouncementTests: GtkTestCase, @unchecked Sendable {
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
