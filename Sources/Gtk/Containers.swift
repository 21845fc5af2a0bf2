import CGtk

/// A `GtkBox`: children in a row or column.
@MainActor
public final class Box: Widget {
    /// Creates a vertical box that screen readers announce as a dialog: a dialog drawn inside its
    /// parent window (a bottom sheet) rather than as a window of its own.
    package init(dialogRole: Void) {
        super.init(navgtk_box_new_with_role(GTK_ORIENTATION_VERTICAL, GTK_ACCESSIBLE_ROLE_DIALOG), transfer: .none)
    }

    /// Creates a vertical box that screen readers announce as a group (AT-SPI's panel): a part of a window
    /// with a name of its own, as libadwaita's navigation page is.
    package init(groupRole: Void) {
        super.init(navgtk_box_new_with_role(GTK_ORIENTATION_VERTICAL, GTK_ACCESSIBLE_ROLE_GROUP), transfer: .none)
    }

    /// Creates a box; `spacing` is the gap between children in pixels.
    public init(_ orientation: Orientation, spacing: Int = 0) {
        super.init(gtk_box_new(orientation.gtk, Int32(clamping: spacing)), transfer: .full)
    }

    var box: UnsafeMutablePointer<GtkBox> { pointer() }

    /// A new `GtkBox` for a widget class that *is* a box without being a ``Box`` (a title view, a status
    /// page): pass it to `super.init(_:transfer: .full)`, then add children with ``Widget/appendToBox(_:)``.
    package static func makeBox(_ orientation: Orientation, spacing: Int32 = 0) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(gtk_box_new(orientation.gtk, spacing))
    }

    /// Adds `child` at the end.
    public func append(_ child: Widget) { gtk_box_append(box, child.widget) }
    /// Adds `child` at the start.
    public func prepend(_ child: Widget) { gtk_box_prepend(box, child.widget) }
    /// Removes `child`; it must be a child of this box.
    public func remove(_ child: Widget) { gtk_box_remove(box, child.widget) }
    /// Number of children.
    public var childCount: Int {
        var count = 0
        var child = gtk_widget_get_first_child(widget)
        while let current = child { count += 1; child = gtk_widget_get_next_sibling(current) }
        return count
    }
    /// The child pointer at `index`, or nil.
    package func child(at index: Int) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(widget)
        var position = 0
        while let current = child {
            if position == index { return current }
            position += 1
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}

/// A `GtkStack`: shows one child at a time, with an animated transition between them.
///
/// Its pages say nothing of themselves to screen readers: GTK 4.8 gives a stack page with no title the
/// name "GtkStackPage", which Orca 43 spoke as "GtkStackPage panel" before the control focused in it.
/// Each page is named as the application instead, which Orca takes for layout and does not say.
@MainActor
public final class Stack: Widget {
    /// Creates an empty stack.
    public init() { super.init(gtk_stack_new(), transfer: .full) }

    var stack: OpaquePointer { opaque }

    /// Adds `child` under a unique `name`.
    public func add(_ child: Widget, name: String) {
        gtk_stack_add_named(stack, child.widget, name)
        navgtk_stack_pages_quiet_for_screen_readers(widget)
    }
    /// Removes `child`.
    public func remove(_ child: Widget) { gtk_stack_remove(stack, child.widget) }

    /// Shows the child named `name` with `transition` (e.g. `GTK_STACK_TRANSITION_TYPE_OVER_LEFT`).
    package func showChild(named name: String, transition: GtkStackTransitionType) {
        gtk_stack_set_visible_child_full(stack, name, transition)
    }

    /// The name of the visible child, or nil.
    public var visibleChildName: String? { gtk_stack_get_visible_child_name(stack).map { String(cString: $0) } }

    /// How long a transition between children lasts (GTK's default is 200 ms), kept by GTK in whole
    /// milliseconds: a finer duration is rounded down, a negative one is zero.
    public var transitionDuration: Duration {
        get { .milliseconds(gtk_stack_get_transition_duration(stack)) }
        set { gtk_stack_set_transition_duration(stack, newValue.clampedMilliseconds) }
    }

    /// Number of pages (children) in the stack, including ones still sliding out.
    public var childCount: Int {
        var count = 0
        var child = gtk_widget_get_first_child(widget)
        while let current = child { count += 1; child = gtk_widget_get_next_sibling(current) }
        return count
    }

    /// Whether a transition is animating now.
    public var isTransitionRunning: Bool { gtk_stack_get_transition_running(stack) != 0 }

    /// Whether children not visible still count for the size (false: size follows the visible child).
    public var isHomogeneous: Bool {
        get { gtk_stack_get_hhomogeneous(stack) != 0 }
        set {
            gtk_stack_set_hhomogeneous(stack, newValue ? 1 : 0)
            gtk_stack_set_vhomogeneous(stack, newValue ? 1 : 0)
        }
    }

    /// Runs `handler` when a transition starts or ends.
    public func onTransitionRunningChanged(_ handler: @escaping @MainActor (Bool) -> Void) {
        connect("notify::transition-running") { args in
            guard let stack = args.object(at: 0) else { return }
            handler(gtk_stack_get_transition_running(OpaquePointer(stack)) != 0)
        }
    }
}


/// A `GtkScrolledWindow`: scrolls a child larger than itself.
@MainActor
public final class ScrolledWindow: Widget {
    /// Creates a scrolled window around `child` (horizontal scrolling off, vertical automatic).
    public init(_ child: Widget? = nil) {
        super.init(gtk_scrolled_window_new(), transfer: .full)
        gtk_scrolled_window_set_policy(opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        if let child { setChild(child) }
    }

    /// The scrolled content.
    public func setChild(_ child: Widget?) { gtk_scrolled_window_set_child(opaque, child?.widget) }

    /// The vertical scroll position in pixels from the top.
    public var verticalOffset: Double {
        get { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(opaque)) }
        set { gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(opaque), newValue) }
    }

    /// The largest vertical scroll position in pixels (content height minus visible height; 0 when
    /// everything fits).
    public var maximumVerticalOffset: Double {
        let adjustment = gtk_scrolled_window_get_vadjustment(opaque)
        return max(0, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
    }

    /// Runs `handler(width)` after the visible width changes (pixels), from the horizontal adjustment's
    /// page size. The handler runs from an idle callback, after layout, so it may change sizes.
    public func onWidthChanged(_ handler: @escaping @MainActor (Int) -> Void) {
        let adjustment = gtk_scrolled_window_get_hadjustment(opaque)!
        var latest: Int?
        _ = Signals.connect(adjustment, "notify::page-size", after: false) { args in
            guard let emitter = args.object(at: 0) else { return }
            let scheduled = latest != nil
            latest = Int(gtk_adjustment_get_page_size(emitter.assumingMemoryBound(to: GtkAdjustment.self)))
            guard !scheduled else { return }
            MainLoopBridge.afterLayout {  // reads only the value taken above: the adjustment may be gone
                guard let width = latest else { return }
                latest = nil
                handler(width)
            }
        }
    }

    /// Lets the scrolled content draw outside the scrolled window's top and bottom edges (under a
    /// translucent bar above it) instead of being clipped; the scrollbars stay inside.
    public func letContentDrawOutside() {
        drawsOutsideBounds = true
        if let viewport = gtk_scrolled_window_get_child(opaque) {
            gtk_widget_set_overflow(viewport, GTK_OVERFLOW_VISIBLE)
        }
    }
}

/// A `GtkOverlay`: a main child with more children on top of it, each placed where a handler says at
/// layout time (the `get-child-position` signal, emitted from the overlay's size-allocate).
@MainActor
public final class Overlay: Widget {
    /// Creates an empty overlay.
    public init() { super.init(gtk_overlay_new(), transfer: .full) }

    /// The main child (fills the overlay and sets its size).
    public func setChild(_ child: Widget?) { gtk_overlay_set_child(opaque, child?.widget) }

    /// Adds `child` above the main child and earlier overlays. With `measured`, its size also counts
    /// for the overlay's size (`gtk_overlay_set_measure_overlay`).
    public func addOverlay(_ child: Widget, measured: Bool = false) {
        gtk_overlay_add_overlay(opaque, child.widget)
        gtk_overlay_set_measure_overlay(opaque, child.widget, measured ? 1 : 0)
    }

    /// A rectangle in the overlay's coordinates, in pixels.
    public struct Rect: Equatable, Sendable {
        /// Left edge, top edge, width and height, in pixels.
        public var x, y, width, height: Int
        /// Creates a rectangle (pixels).
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// Places overlay children at layout time: `handler(child, overlayWidth, overlayHeight)` returns the
    /// child's rectangle, or nil to let GTK place it by its alignment.
    package func onPlaceChild(_ handler: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>, Int, Int) -> Rect?) {
        connect("get-child-position") { args in
            guard let overlay = args.object(at: 0)?.assumingMemoryBound(to: GtkWidget.self),
                  let child = args.object(at: 1), let out = args.boxed(at: 2),
                  let rect = handler(child.assumingMemoryBound(to: GtkWidget.self),
                                     Int(gtk_widget_get_width(overlay)), Int(gtk_widget_get_height(overlay))) else {
                args.setReturn(false)
                return
            }
            let target = out.assumingMemoryBound(to: GdkRectangle.self)
            target.pointee = GdkRectangle(x: Int32(clamping: rect.x), y: Int32(clamping: rect.y),
                                          width: Int32(clamping: rect.width), height: Int32(clamping: rect.height))
            args.setReturn(true)
        }
    }
}
