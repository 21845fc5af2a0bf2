import CGtk
import Gtk

/// A `GtkDrawingArea`: a widget that draws itself with cairo each time GTK paints it, at the widget's
/// scale factor (the cairo context's device scale is ``Widget/scaleFactor``: one unit is one logical
/// pixel, and `1 / scaleFactor` units one device pixel). The app's own, not the toolkit's: the toolkit's
/// public API has no C pointers, and a cairo context is one. ``QRCodeView`` draws with it. Main actor only.
@MainActor
package final class DrawingArea: Widget {  // package, not internal: Swift 6.3 warns of a recursion in an internal one's synthesized deinit that is not there
    /// Creates an area asking for `width` × `height` logical pixels (GTK's `content-width` and
    /// `content-height`; it may be given more). `readAsImage`: screen readers read it as an image
    /// (`GTK_ACCESSIBLE_ROLE_IMG`, named by its accessible label), for a drawing that is a picture.
    init(width: Int32, height: Int32, readAsImage: Bool = false) {
        super.init(readAsImage ? navgtk_image_drawing_area_new() : gtk_drawing_area_new(), transfer: .full)
        gtk_drawing_area_set_content_width(area, width)
        gtk_drawing_area_set_content_height(area, height)
    }

    private var area: UnsafeMutablePointer<GtkDrawingArea> {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkDrawingArea.self)
    }

    /// Draws with `draw` from now on: it is given the cairo context (`cairo_t *`) and the area's size in
    /// logical pixels, on the main thread, whenever GTK paints the area (after ``queueDraw()``, a
    /// resize, or a change of scale factor). Replaces an earlier `draw`.
    func onDraw(_ draw: @escaping @MainActor (_ cairo: OpaquePointer, _ width: Int32, _ height: Int32) -> Void) {
        let box = Unmanaged.passRetained(DrawBox(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(area, { _, cairo, width, height, data in
            guard let cairo, let data else { return }
            let box = Unmanaged<DrawBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.draw(cairo, width, height) }
        }, box, { data in
            if let data { Unmanaged<DrawBox>.fromOpaque(data).release() }  // replaced, or the area is freed
        })
    }
}

private final class DrawBox {
    let draw: @MainActor (OpaquePointer, Int32, Int32) -> Void
    init(_ draw: @escaping @MainActor (OpaquePointer, Int32, Int32) -> Void) { self.draw = draw }
}
