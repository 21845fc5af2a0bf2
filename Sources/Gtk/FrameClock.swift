import CGtk

extension Widget {
    /// Calls `tick` once per frame of the widget's frame clock — GTK's `gtk_widget_add_tick_callback`, what
    /// GTK's and libadwaita's own animations run on — with the frame's time in microseconds
    /// (`gdk_frame_clock_get_frame_time`: the time the frame will be shown, the same for every tick of
    /// one frame). The first call comes with the next frame; none while the widget is not mapped.
    /// `tick` returns true to be called again, false to stop. Main actor.
    /// - Returns: an id for ``removeTickCallback(_:)`` (valid until `tick` returns false).
    @discardableResult
    public func addTickCallback(_ tick: @escaping @MainActor (_ frameTime: Int64) -> Bool) -> UInt32 {
        let box = Unmanaged.passRetained(TickBox(tick)).toOpaque()
        return UInt32(gtk_widget_add_tick_callback(widget, { _, clock, data in
            guard let data, let clock else { return 0 }
            let box = Unmanaged<TickBox>.fromOpaque(data).takeUnretainedValue()
            let time = gdk_frame_clock_get_frame_time(clock)
            return MainActor.assumeIsolated { box.tick(Int64(time)) } ? 1 : 0
        }, box, { data in
            guard let data else { return }
            Unmanaged<TickBox>.fromOpaque(data).release()  // GTK calls this when the callback is removed
        }))
    }

    /// Stops a callback added with ``addTickCallback(_:)``. Pass only an id whose callback has not
    /// returned false yet.
    public func removeTickCallback(_ id: UInt32) {
        gtk_widget_remove_tick_callback(widget, guint(id))
    }

    /// Calls `body` after GTK has laid out each of the widget's next `frames` frames (the frame clock's
    /// `layout` phase, connected after GTK's own handler), before they are painted: what `body` changes
    /// there is laid out again in the same frame (GDK repeats the layout phase when it is asked for
    /// again), so nothing is drawn in between. `body` returns false to stop early. Nothing is called
    /// while the widget is in no realized window. Main actor.
    public func afterNextLayouts(_ frames: Int, _ body: @escaping @MainActor () -> Bool) {
        guard frames > 0, let clock = gtk_widget_get_frame_clock(widget) else { return }
        let id = HandlerID()
        var left = frames
        // The handler holds no reference to the clock (it disconnects through the emitting instance), so
        // a clock that goes away first frees the handler with it.
        id.value = Signals.connect(UnsafeMutableRawPointer(clock), "layout", after: true) { args in
            left -= 1
            if !body() || left <= 0, let emitter = args.object(at: 0) {
                g_signal_handler_disconnect(emitter, gulong(id.value))
            }
        }
        gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_LAYOUT)
    }

    /// The frame time of the widget's frame clock now, in microseconds, or nil when the widget is not in
    /// a realized window (see ``addTickCallback(_:)``).
    public var frameTime: Int64? {
        gtk_widget_get_frame_clock(widget).map { Int64(gdk_frame_clock_get_frame_time($0)) }
    }
}

private final class TickBox {
    let tick: @MainActor (Int64) -> Bool
    init(_ tick: @escaping @MainActor (Int64) -> Bool) { self.tick = tick }
}
