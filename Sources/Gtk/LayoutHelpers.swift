import CGtk

/// A box around one child that says the width it is given each time it is laid out (GTK 4 has no
/// size-allocate signal): a `GtkCustomLayout` that measures and allocates the child as its own size.
/// The layout's C callback finds the box through the widget's one wrapper (``Object/wrapper(of:)``).
@MainActor
package final class AllocationBox: Widget {  // package, not internal: Swift 6.3 warns of a recursion in an internal one's synthesized deinit that is not there
    /// The box itself, to put where the child would go.
    var view: Widget { self }
    /// The child.
    let child: Widget
    /// Called after each layout with the width given, in pixels.
    var onAllocated: (@MainActor (Int32) -> Void)?

    init(around child: Widget) {
        self.child = child
        super.init(Box.makeBox(.horizontal), transfer: .full)
        appendToBox(child)
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(
            nil,
            { widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
                var childMinimum: Int32 = 0, childNatural: Int32 = 0
                if let widget, let child = gtk_widget_get_first_child(widget), gtk_widget_should_layout(child) != 0 {
                    gtk_widget_measure(child, orientation, forSize, &childMinimum, &childNatural, nil, nil)
                }
                minimum?.pointee = childMinimum
                natural?.pointee = childNatural
                minimumBaseline?.pointee = -1
                naturalBaseline?.pointee = -1
            },
            { widget, width, height, baseline in
                guard let widget else { return }
                if let child = gtk_widget_get_first_child(widget), gtk_widget_should_layout(child) != 0 {
                    var area = GtkAllocation(x: 0, y: 0, width: width, height: height)
                    gtk_widget_size_allocate(child, &area, baseline)
                }
                let key = UnsafeMutableRawPointer(widget)
                MainActor.assumeIsolated { (Object.wrapper(of: key) as? AllocationBox)?.onAllocated?(width) }
            }))
    }
}

/// Remembers the focused widget of a window and gives focus back to it later (after a modal closes).
@MainActor
package final class FocusReturn {
    private let widget: Widget?

    package init(in window: UnsafeMutablePointer<GtkWindow>?) {
        widget = window.flatMap { gtk_window_get_focus($0) }.map { Widget.widget(wrapping: UnsafeMutableRawPointer($0)) }
    }

    /// Gives the keyboard back: the window is presented again (so the desktop, or X without a window
    /// manager, gives it the input focus the closed window had), then the widget is focused.
    package func restore() {
        guard let widget, let window = widget.rootWindow else { return }
        if gtk_widget_get_mapped(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)) != 0 { gtk_window_present(window) }
        _ = widget.grabFocus()
    }
}
