import Adwaita
import CGtk
import Gtk
import GtkTesting
import XCTest

/// Toasts that come and go quickly, as they do when a user deletes and presses Undo at once: libadwaita
/// 1.2 frees a toast's record when its hide animation ends and then, if its show animation ends in the
/// same frame or later, writes through the freed record (GNOME/libadwaita 1674ebc9, fixed in 1.3; Debian
/// 12 ships 1.2.2). `ToastOverlay` keeps that from happening.
final class ToastTests: GtkTestCase, @unchecked Sendable {
    /// A shown window holding an overlay, laid out.
    @MainActor
    private func overlayInWindow() -> (window: Gtk.Window, overlay: ToastOverlay) {
        let overlay = ToastOverlay(Label("Content"))
        let window = Gtk.Window()
        window.setChild(overlay)
        window.setDefaultSize(width: 640, height: 480)
        show(window)
        spin(until: { overlay.width > 0 }, "laid out")
        return (window, overlay)
    }

    /// The toast widgets the overlay draws now (its children after its content).
    @MainActor
    private func toastWidgets(in overlay: ToastOverlay) -> Int {
        var count = 0
        var child = gtk_widget_get_first_child(overlay.widget).flatMap { gtk_widget_get_next_sibling($0) }
        while let current = child {
            count += 1
            child = gtk_widget_get_next_sibling(current)
        }
        return count
    }

    /// A toast shown while the one before it is still going (libadwaita shows it over 500 ms, the one going
    /// hides over 300 ms) and dismissed at once, in the same frame and one frame later: both go, and no
    /// animation of either touches what libadwaita freed (a GLib critical, or a crash, before the fix).
    func testAToastDismissedAsItIsShownAfterAnotherHasGoneGoesWithoutHarm() {
        onMain {
            let (window, overlay) = overlayInWindow()
            for framesBeforeDismissing in [0, 1, 2] {
                let first = Toast("Deleted", timeout: 0, buttonLabel: "Undo") {}
                overlay.add(first)
                waitForNextFrame(of: overlay)
                first.activateAction()  // Undo at once: the first toast starts hiding
                let second = Toast("Deleted", timeout: 0, buttonLabel: "Undo") {}
                overlay.add(second)  // shown over the first's hiding, by libadwaita's longer replace animation
                for _ in 0..<framesBeforeDismissing { waitForNextFrame(of: overlay) }
                second.dismiss()
                spin(until: { first.isDismissed && second.isDismissed && overlay.toasts.isEmpty }, "both toasts gone")
                // Every animation has ended once the toasts' widgets are gone (each hide animation removes its own).
                spin(until: { !overlay.drawsToasts && toastWidgets(in: overlay) == 0 }, "the toasts' widgets removed")
                settle()
            }
            window.destroy()
        }
    }

    /// A toast dismissed while it waits its turn is never drawn: when the one showing goes, nothing takes
    /// its place (no toast the app has seen go comes up for a moment).
    func testAToastDismissedWhileWaitingItsTurnIsNeverDrawn() {
        onMain {
            let (window, overlay) = overlayInWindow()
            let showing = Toast("Deleted", timeout: 0, buttonLabel: "Undo") {}
            let waiting = Toast("Link copied", timeout: 0)
            overlay.add(showing)
            overlay.add(waiting)
            var mostDrawn = 0
            overlay.addTickCallback { _ in
                mostDrawn = max(mostDrawn, self.toastWidgets(in: overlay))
                return true
            }
            waiting.dismiss()
            XCTAssertTrue(waiting.isDismissed)
            XCTAssertEqual(overlay.toasts.map(\.title), ["Deleted"])
            showing.dismiss()  // at once after it came: hidden a moment later
            XCTAssertTrue(showing.isDismissed, "gone for the app at once")
            XCTAssertTrue(overlay.toasts.isEmpty)
            XCTAssertNil(overlay.shownButton(labeled: "Undo"), "a toast that has gone offers no button, though still drawn")
            spin(until: { !overlay.drawsToasts }, "the toast gone from the screen")
            XCTAssertEqual(mostDrawn, 1, "only the toast that showed was ever drawn")
            settle()
            window.destroy()
        }
    }

    /// Dismissing a toast in the frame it starts to show, and adding a high-priority one over a toast that is
    /// still showing, end the same way: every toast goes once, nothing is left drawn.
    func testToastsEndedAsTheyStartToShowGoOnceEach() {
        onMain {
            let (window, overlay) = overlayInWindow()
            var dismissals = 0
            let plain = Toast("Link copied", timeout: 0)
            plain.onDismissed = { dismissals += 1 }
            overlay.add(plain)
            plain.dismiss()
            plain.dismiss()  // twice: still one dismissal
            let normal = Toast("Posted", timeout: 0)
            normal.onDismissed = { dismissals += 1 }
            overlay.add(normal)
            let urgent = Toast("Couldn't post", timeout: 0, priority: .high)
            urgent.onDismissed = { dismissals += 1 }
            overlay.add(urgent)  // hides the one showing, which comes back after it
            urgent.dismiss()
            spin(until: { urgent.isDismissed }, "the urgent toast gone")
            XCTAssertFalse(normal.isDismissed, "the postponed toast comes back")
            normal.dismiss()
            spin(until: { overlay.toasts.isEmpty && toastWidgets(in: overlay) == 0 }, "every toast gone")
            XCTAssertEqual(dismissals, 3)
            settle()
            window.destroy()
        }
    }
}
