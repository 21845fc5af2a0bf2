import CGtk

/// A custom layout's measure function for a widget that shows its children one over another: the
/// largest minimum and natural size of the children laid out now (visible, not their own surface, and
/// child-visible: a page hidden under the shown one does not count, as in libadwaita's navigation view,
/// so a wide page below never holds the window wider than the page shown needs), no baseline. For `gtk_custom_layout_new`; main thread (GTK calls it there).
package func measureLargestChild(of widget: UnsafeMutablePointer<GtkWidget>?, _ orientation: GtkOrientation, _ forSize: Int32,
                                 _ minimum: UnsafeMutablePointer<Int32>?, _ natural: UnsafeMutablePointer<Int32>?,
                                 _ minimumBaseline: UnsafeMutablePointer<Int32>?, _ naturalBaseline: UnsafeMutablePointer<Int32>?) {
    var largestMinimum: Int32 = 0, largestNatural: Int32 = 0
    var child = widget.flatMap { gtk_widget_get_first_child($0) }
    while let current = child {
        if gtk_widget_should_layout(current) != 0, gtk_widget_get_child_visible(current) != 0 {
            var childMinimum: Int32 = 0, childNatural: Int32 = 0
            gtk_widget_measure(current, orientation, forSize, &childMinimum, &childNatural, nil, nil)
            largestMinimum = max(largestMinimum, childMinimum)
            largestNatural = max(largestNatural, childNatural)
        }
        child = gtk_widget_get_next_sibling(current)
    }
    minimum?.pointee = largestMinimum
    natural?.pointee = largestNatural
    minimumBaseline?.pointee = -1
    naturalBaseline?.pointee = -1
}

/// A custom layout's allocation when the Swift object that lays `widget` out has gone while GTK still
/// shows it (a window GTK keeps after the app let go of its wrappers, until it is destroyed): every child
/// laid out now gets the whole area, one over another. GTK draws only children that have an allocation;
/// one left without warned "Trying to snapshot … without a current allocation" in every frame. Main thread
/// (GTK calls layouts there).
package func allocateEveryChild(of widget: UnsafeMutablePointer<GtkWidget>, width: Int32, height: Int32, baseline: Int32) {
    var child = gtk_widget_get_first_child(widget)
    while let current = child {
        if gtk_widget_should_layout(current) != 0 {
            var area = GtkAllocation(x: 0, y: 0, width: width, height: height)
            gtk_widget_size_allocate(current, &area, baseline)
        }
        child = gtk_widget_get_next_sibling(current)
    }
}

/// Remembers the focused widget of a window and gives focus back to it later (after a modal closes).
///
/// A focus inside a popover (a menu's item, when the menu opened what comes) is remembered as the
/// popover's owner, the button that opened it: the popover closes meanwhile, and GTK gives the focus back
/// to that button as it does, so that is where the user left off. Returning it to the closed menu's item
/// instead made GTK move it on its own a frame later, to the window's first control, after a dialog
/// shown next had taken the focus: Orca 43 then skipped the dialog's focus for the newer one and said
/// nothing at all (the Scan a Code journey under load).
@MainActor
package final class FocusReturn {
    private let widget: Widget?

    package init(in window: UnsafeMutablePointer<GtkWindow>?) {
        var focus = window.flatMap { gtk_window_get_focus($0) }
        // The outermost popover the focus is in, up to the window: its owner takes the focus back.
        var current = focus
        while let widget = current, let window, UnsafeMutableRawPointer(widget) != UnsafeMutableRawPointer(window) {
            let parent = gtk_widget_get_parent(widget)
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_popover_get_type()) != 0 {
                focus = parent
            }
            current = parent
        }
        widget = focus.map { Widget.widget(wrapping: UnsafeMutableRawPointer($0)) }
    }

    /// Gives the keyboard back: the window is presented again (so the desktop, or X without a window
    /// manager, gives it the input focus the closed window had), then the widget is focused, and a
    /// screen reader hears it once the window is active (``Window/sayFocusOnceActive(delay:)``: GTK 4.8
    /// says nothing of a focus that did not change).
    /// A widget no longer on screen (hidden or taken out meanwhile) is not focused: the window keeps the
    /// focus it has.
    package func restore() {
        guard let widget, let window = widget.rootWindow else { return }
        if gtk_widget_get_mapped(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)) != 0 { gtk_window_present(window) }
        if widget.isMapped { _ = widget.grabFocus() }
        (Object.wrapper(of: UnsafeMutableRawPointer(window)) as? Window)?.sayFocusOnceActive()
    }
}
