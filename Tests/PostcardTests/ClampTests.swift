import Adwaita
import CGtk
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Content keeps a readable width in a wide window and fills a narrow one (``Clamp``, after libadwaita's
/// `AdwClamp`): the generic container, then the app's cards and post page at 1280 and 360 pixels.
final class ClampTests: GtkTestCase, @unchecked Sendable {
    private static let words = String(repeating: "A photo and a few words about where it was taken. ", count: 20)

    /// A window `width` pixels wide holding a clamp (at most 600 px) around wrapped text; returns both.
    @MainActor
    private func clampedText(inWindowOf width: Int) -> (window: Gtk.Window, clamp: Clamp, label: Label) {
        let label = Label(Self.words)
        label.wraps = true
        label.widthInCharacters = 20  // a wrapped label's minimum width; GTK guesses a wide one without it
        let clamp = Clamp(label, maximumWidth: 600)
        let window = Gtk.Window()
        window.setChild(clamp)
        window.setDefaultSize(width: width, height: 400)
        show(window)
        spin(until: { clamp.width > 0 && label.width > 0 }, "laid out")
        return (window, clamp, label)
    }

    func testAClampCentresItsChildAtItsMaximumWidthAndGivesItAllOfANarrowerOne() {
        onMain {
            let wide = clampedText(inWindowOf: 1280)
            let inWide = wide.label.bounds(in: wide.clamp)!
            XCTAssertEqual(inWide.width, 600, "at most the maximum")
            XCTAssertEqual(inWide.x, Double(wide.clamp.width - 600) / 2, accuracy: 1, "centred")
            let narrow = clampedText(inWindowOf: 360)
            let inNarrow = narrow.label.bounds(in: narrow.clamp)!
            XCTAssertEqual(inNarrow.width, Double(narrow.clamp.width), "the whole width when narrower")
            XCTAssertEqual(inNarrow.x, 0)
            XCTAssertLessThanOrEqual(narrow.clamp.width, 360, "the text does not widen the window")
            // Heights are asked for at the width the child will get, so wrapped text is not cut off.
            let label = narrow.label, clamp = narrow.clamp
            XCTAssertEqual(clamp.naturalHeight(forWidth: 1280), label.naturalHeight(forWidth: 600), "at 1280, as tall as at 600")
            XCTAssertEqual(clamp.naturalHeight(forWidth: 360), label.naturalHeight(forWidth: 360), "at 360, as tall as at 360")
            XCTAssertGreaterThan(clamp.naturalHeight(forWidth: 360), clamp.naturalHeight(forWidth: 1280), "narrower is taller")
            wide.window.destroy()
            narrow.window.destroy()
        }
    }

    /// The app in a window `width` pixels wide, with one post on My Profile, once the post's card shows.
    @MainActor
    private func app(width: Int) throws -> AppController {
        let app = try makeApp(posts: ["First coffee of the day."], width: width)
        spin(until: { app.myProfile.feedItems.first.map { $0.view.width > 0 } ?? false }, "the post's card")
        return app
    }

    func testCardsAndThePostPageKeepAReadableWidthInAWideWindowAndFillANarrowOne() throws {
        try onMain {
            let wide = try app(width: 1280)
            let page = wide.myProfile.scroller
            let card = wide.myProfile.feedItems[0].view.bounds(in: page)!
            XCTAssertEqual(card.width, 600, "a 600-pixel card")
            XCTAssertEqual(card.x, (Double(page.width) - 600) / 2, accuracy: 1, "in the middle of the window")
            // Focused from the keyboard, the card draws the focus ring; the row, as wide as the window, does not.
            gtk_window_set_focus_visible(wide.mainWindow.window.pointer(), 1)
            XCTAssertTrue(wide.myProfile.feedItems[0].card!.grabFocus())
            let middle = Int(card.y + card.height / 2)
            func isBlue(_ colour: (red: UInt8, green: UInt8, blue: UInt8)) -> Bool { Int(colour.blue) > Int(colour.red) + 40 }
            // GTK renders nothing until the page has drawn once since the focus moved.
            spin(until: { page.renderedTexture() != nil && (try? self.pixel(of: page, x: Int(card.x) + 1, y: middle)).map(isBlue) == true },
                 "the card's focus ring")
            spin(for: 0.5)  // about time itself: Adwaita fades focus rings in over 200 ms (a CSS transition)
            let rowEdge = try pixel(of: page, x: 1, y: middle)
            XCTAssertFalse(isBlue(rowEdge), "no ring at the row's edge: \(rowEdge)")
            wide.myProfile.feedItems[0].card!.activate()
            spin(until: { (wide.mainWindow.stack.visiblePage as? PhotoDetailPage).map { $0.picture.width > 0 } ?? false
                            && wide.mainWindow.stack.transition == .idle }, "the post's page")
            let detail = wide.mainWindow.stack.visiblePage as! PhotoDetailPage
            let comment = detail.commentLabel.bounds(in: detail.content)!
            XCTAssertEqual(comment.width, Double(PhotoDetailPage.columnWidth - 36), accuracy: 1, "the photo's column is clamped")
            XCTAssertEqual(comment.x, (Double(detail.content.width - Int(PhotoDetailPage.columnWidth)) / 2) + 18, accuracy: 1, "and centred")
            wide.mainWindow.window.destroy()

            let narrow = try app(width: 360)
            let surface = gtk_native_get_surface(OpaquePointer(narrow.mainWindow.window.widget))
            XCTAssertEqual(gdk_surface_get_width(surface), 360, "My Profile fits a 360-pixel window (GNOME's narrowest)")
            let narrowPage = narrow.myProfile.scroller
            let narrowCard = narrow.myProfile.feedItems[0].view.bounds(in: narrowPage)!
            XCTAssertEqual(narrowCard.x, 12, accuracy: 1, "the card's own margin, no more")
            XCTAssertEqual(narrowCard.x + narrowCard.width, Double(narrowPage.width) - 12, accuracy: 1, "the whole width")
            narrow.mainWindow.window.destroy()
        }
    }
}
