import CGtk
import Gtk
import GtkTesting
import NavigationGtk
@testable import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// The main window's bar with the desktop's text made larger (GNOME's Large Text is a text scaling factor
/// of 1.25; the tests go to 2): at 360 and 1280 px, on Messages, Comments, a post and a friend's profile, Back
/// and every action shown are whole, inside the window and clear of the title and of each other, the
/// title is whole or shortened with "…", and neither the bar nor the page's content (a profile's header and
/// feed, a page hidden below the one shown) holds the window wider than 360 px (issue 57, item 5).
final class LargeTextBarTests: GtkTestCase {
    /// What is wrong with the bar now (empty: nothing), as compared from the widgets' allocated bounds.
    @MainActor
    private func problems(in app: AppController) -> [String] {
        let window = app.mainWindow.window
        let stack = app.mainWindow.stack
        let bar = stack.headerBar
        var found: [String] = []
        // Neither the bar nor the page holds the window wider than a phone.
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(bar.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        if minimum > 360 { found.append("the bar's minimum width is \(minimum) px") }
        if let content = gtk_window_get_child(window.pointer()) {
            gtk_widget_measure(content, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
            if minimum > 360 { found.append("the window's content's minimum width is \(minimum) px") }
        }
        // The controls shown in the bar: Back, the page's start and end items, More, the window's buttons.
        var controls: [(name: String, box: (x: Double, y: Double, width: Double, height: Double))] = []
        if stack.isShowingBackButton {
            guard stack.backButton.isMapped, let box = stack.backButton.bounds(in: window) else { return ["Back is not shown"] }
            controls.append(("Back", box))
        }
        guard let layer = stack.visiblePage?.barLayer else { return ["no bar layer"] }
        for item in layer.startItems + layer.endItems + [layer.moreButton] where item.isMapped {
            guard let box = item.bounds(in: window) else { continue }
            controls.append(((item as? Button).map { $0.label ?? $0.tooltip ?? "?" } ?? "item", box))
        }
        for box in Self.descendants(of: bar.widget, named: "windowcontrols") where gtk_widget_get_mapped(box) != 0 {
            var rect = graphene_rect_t()
            guard gtk_widget_compute_bounds(box, window.widget, &rect) != 0, rect.size.width > 0 else { continue }
            controls.append(("window controls", (Double(rect.origin.x), Double(rect.origin.y), Double(rect.size.width), Double(rect.size.height))))
        }
        let width = Double(window.width)
        for control in controls where control.box.x < -0.5 || control.box.x + control.box.width > width + 0.5 {
            found.append("\(control.name) is not inside the window: x \(control.box.x), width \(control.box.width) of \(width)")
        }
        func overlap(_ a: (x: Double, y: Double, width: Double, height: Double), _ b: (x: Double, y: Double, width: Double, height: Double)) -> Bool {
            a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5
        }
        for (index, control) in controls.enumerated() {
            for other in controls[(index + 1)...] where overlap(control.box, other.box) {
                found.append("\(control.name) \(control.box) overlaps \(other.name) \(other.box)")
            }
        }
        let title = stack.titleLabel
        guard title.isMapped, let titleBox = title.bounds(in: window) else { return found + ["the title is not shown"] }
        for control in controls where overlap(titleBox, control.box) {
            found.append("the title \(titleBox) is under \(control.name) \(control.box)")
        }
        // Whole, or shortened with "…": never given less than its minimum (it would be drawn past its ends).
        var titleMinimum: Int32 = 0, titleNatural: Int32 = 0
        gtk_widget_measure(title.widget, GTK_ORIENTATION_HORIZONTAL, -1, &titleMinimum, &titleNatural, nil, nil)
        let margins = Double(gtk_widget_get_margin_start(title.widget) + gtk_widget_get_margin_end(title.widget))
        if titleBox.width + margins < Double(titleMinimum) {
            found.append("the title has \(titleBox.width) px, less than its minimum \(titleMinimum): neither whole nor shortened")
        } else if titleBox.width + margins < Double(titleNatural) && !title.isEllipsized {
            found.append("the title is cut without “…”")
        }
        return found
    }

    /// Minimum and natural widths of the bar's parts, for a failure's message.
    @MainActor
    private func measurements(_ app: AppController) -> String {
        func size(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
            var minimum: Int32 = 0, natural: Int32 = 0
            gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
            return "\(minimum)/\(natural)@\(gtk_widget_get_width(widget))"
        }
        let stack = app.mainWindow.stack
        guard let layer = stack.visiblePage?.barLayer else { return "" }
        var parts = ["window \(size(app.mainWindow.window.widget))", "bar \(size(stack.headerBar.widget))",
                     "back \(size(stack.backButton.widget))", "title \(size(layer.title.widget))",
                     "titleLabel \(size(stack.titleLabel.widget))", "start \(size(layer.startBox.widget))",
                     "end \(size(layer.endBox.widget))", "overflow \(layer.overflowCount)"]
        for item in layer.endItems { parts.append("\((item as? Button)?.label ?? "?") \(size(item.widget)) visible \(item.isVisible)") }
        for box in Self.descendants(of: stack.headerBar.widget, named: "windowcontrols") { parts.append("controls \(size(box))") }
        return parts.joined(separator: ", ")
    }

    /// The widgets under `widget` whose CSS name is `name`.
    @MainActor
    private static func descendants(of widget: UnsafeMutablePointer<GtkWidget>, named name: String) -> [UnsafeMutablePointer<GtkWidget>] {
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if String(cString: gtk_widget_get_css_name(current)) == name { found.append(current) }
            found += descendants(of: current, named: name)
            child = gtk_widget_get_next_sibling(current)
        }
        return found
    }

    /// Scales the desktop's text as GNOME's text scaling factor does (GtkSettings `gtk-xft-dpi`).
    @MainActor
    private func setTextScale(_ scale: Double) { DesktopStyle.textDPI = 96 * scale }

    @MainActor
    private func checkBar(on route: Route?, scale: Double, width: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        setTextScale(scale)
        defer { setTextScale(1) }
        let app = try makeApp(posts: ["A coffee"], width: width)
        let main = app.mainWindow.window
        let stack = app.mainWindow.stack
        // A message to a friend and a reply, so that Messages and Comments have rows (a date, a name) too.
        let photo = Photo(path: bundledPhotos + "/coffee.png")
        _ = try app.store.addMessageNow(to: "grace", photo: photo, comment: "Look who I met!", author: "me")
        var route = route
        if case .comments = route, let post = try app.store.posts(onProfile: "me").first {
            _ = try app.store.addReplyNow(to: post, photo: photo, comment: "Chelsea approves.", author: "me")
            route = .comments(post.id)
        }
        if case .post = route, let post = try app.store.posts(onProfile: "me").first { route = .post(post.id) }
        if let route { app.open(route) }  // nil: My Profile, where the app starts
        let name = route.map { "\($0)" } ?? "My Profile"
        spin(until: { (route == nil) == (stack.pages.count == 1) && stack.transition == .idle && stack.titleLabel.isMapped },
             "\(name) shown", file: file, line: line)
        // Asked again, as a user narrows the window: what the first page's content held it at (see below) goes.
        main.setDefaultSize(width: width, height: 720)
        // The window as wide as asked (never held wider by the bar), and the bar sound once laid out.
        var found: [String] = []
        spin(until: {
            found = self.problems(in: app)
            return found.isEmpty && abs(main.width - width) <= 12
        }, timeout: 5, "\(name) at \(scale)× text, \(width) px: the bar sound", file: file, line: line)
        if !found.isEmpty || abs(main.width - width) > 12 {
            print("MEASURE \(name) \(scale)x \(width)px: \(measurements(app))")
            XCTFail("\(name) at \(scale)× text, \(width) px (the window \(main.width) px): \(found)", file: file, line: line)
        }
        main.destroy()
        spin(until: { !main.isMapped }, "closed")
    }

    func testTheBarFitsWithLargeTextAt360And1280() throws {
        try onMain {
            for scale in [1.25, 2] {
                for width in [360, 1280] {
                    for route: Route? in [.messages, .comments(0), .post(0), .profile("ada"), nil] {
                        try checkBar(on: route, scale: scale, width: width)
                    }
                }
            }
        }
    }
}
