import CGtk

/// A `GtkEventControllerScroll` that follows scrolling on both axes, as a touchpad reports a two-finger
/// swipe: a begin, smooth deltas in pixels, an end (a mouse wheel gives deltas without begin and end).
@MainActor
public final class ScrollController: EventController {
    /// Creates a scroll controller for both axes.
    public init() {
        super.init(gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES), transfer: .full)
    }

    /// Runs `handler` when a touchpad scroll sequence starts (fingers down).
    public func onBegin(_ handler: @escaping @MainActor () -> Void) {
        connect("scroll-begin") { _ in handler() }
    }

    /// Runs `handler(dx, dy)` for each scroll, in pixels for a touchpad (positive: right, down); return
    /// true when handled (then nothing else scrolls).
    public func onScroll(_ handler: @escaping @MainActor (Double, Double) -> Bool) {
        connect("scroll") { args in args.setReturn(handler(args.double(at: 1), args.double(at: 2))) }
    }

    /// Runs `handler` when a touchpad scroll sequence ends (fingers up).
    public func onEnd(_ handler: @escaping @MainActor () -> Void) {
        connect("scroll-end") { _ in handler() }
    }
}

/// A `GtkGestureDrag`: a press that moves, reported from where it started.
@MainActor
public final class DragGesture: EventController {
    /// Creates a drag gesture; `touchOnly` ignores the mouse (a touch screen's finger only).
    public init(touchOnly: Bool) {
        super.init(gtk_gesture_drag_new(), transfer: .full)
        gtk_gesture_single_set_touch_only(OpaquePointer(gobject), touchOnly ? 1 : 0)
    }

    /// Runs `handler(x, y)` where a drag starts (widget coordinates, pixels); return false to let the
    /// drag go (the gesture is denied, and the widgets under it get the events).
    public func onBegin(_ handler: @escaping @MainActor (Double, Double) -> Bool) {
        connect("drag-begin") { args in
            guard let gesture = args.object(at: 0) else { return }
            if !handler(args.double(at: 1), args.double(at: 2)) {
                gtk_gesture_set_state(OpaquePointer(gesture), GTK_EVENT_SEQUENCE_DENIED)
            }
        }
    }

    /// Runs `handler(dx, dy)`, the offset from the start in pixels, as the drag moves.
    public func onUpdate(_ handler: @escaping @MainActor (Double, Double) -> Void) {
        connect("drag-update") { args in handler(args.double(at: 1), args.double(at: 2)) }
    }

    /// Runs `handler(dx, dy)` when the drag ends (the finger or button is lifted).
    public func onEnd(_ handler: @escaping @MainActor (Double, Double) -> Void) {
        connect("drag-end") { args in handler(args.double(at: 1), args.double(at: 2)) }
    }
}
