import CGtk

/// A `GtkWidget`: the base of everything shown on screen. Main actor only.
@MainActor
open class Widget: Object {
    /// The wrapped `GtkWidget*`.
    package var widget: UnsafeMutablePointer<GtkWidget> { pointer() }

    /// Adds `child` at the end of this widget, which must be a `GtkBox` (made with ``Box/makeBox(_:spacing:)``).
    package func appendToBox(_ child: Widget) {
        gtk_box_append(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self), child.widget)
    }

    /// The Swift wrapper of the widget at `pointer` (a `GtkWidget*`, e.g. the focus widget or a popover
    /// GTK made): its own wrapper when it has one (a ``Button`` stays a `Button`), else a new plain
    /// ``Widget`` holding a reference of its own, found again by the next call while it lives. Main actor.
    package static func widget(wrapping pointer: UnsafeMutableRawPointer) -> Widget {
        if let existing = wrapper(of: pointer) as? Widget { return existing }
        return Widget(pointer, transfer: .none)
    }

    /// Whether the widget is shown (`gtk_widget_set_visible`).
    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget and its ancestors are visible and it is mapped on screen.
    public var isMapped: Bool { gtk_widget_get_mapped(widget) != 0 }

    /// Whether the widget reacts to input (`gtk_widget_set_sensitive`); insensitive widgets are greyed out.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    /// The tooltip text, or nil for none.
    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
        set {
            // GTK asks the X server where the pointer is whenever a visible widget's tooltip changes
            // (`gtk_widget_trigger_tooltip_query`): a round trip per button a page builds. A widget not in
            // any window yet has no tooltip to show, so it is set while the widget is hidden.
            let fresh = gtk_widget_get_parent(widget) == nil && gtk_widget_get_visible(widget) != 0 && !(self is Window)
            if fresh { gtk_widget_set_visible(widget, 0) }
            gtk_widget_set_tooltip_text(widget, newValue)
            if fresh { gtk_widget_set_visible(widget, 1) }
            // GTK 4.8 makes the tooltip the accessible description too, which Orca 43 speaks after the
            // name: a tooltip that only repeats the name ("Messages push button. Messages") is not.
            if let newValue, navgtk_accessible_has_label(widget) != 0, hasAccessibleLabel(newValue) {
                navgtk_accessible_reset_description(widget)
            }
        }
    }

    /// Sets the accessible description: what a screen reader says after the control's name and role when
    /// focus lands on it (Orca 43 does), as more about it: "Add" on a page that says whom it adds. nil
    /// drops it. It comes back after a ``Window/announce(_:orFocusing:)`` on the control has been heard.
    /// Main actor.
    public func setAccessibleDescription(_ description: String?) {
        if let description {
            g_object_set_data_full(gobject, Self.ownDescriptionKey, g_strdup(description), g_free)
            navgtk_accessible_set_description(widget, description)
        } else {
            g_object_set_data(gobject, Self.ownDescriptionKey, nil)
            navgtk_accessible_reset_description(widget)
        }
    }

    /// The key of the description set with ``setAccessibleDescription(_:)`` in the widget's data.
    static let ownDescriptionKey = "navgtk-own-accessible-description"

    /// Drops the accessible description (GTK 4.8 makes a tooltip the description, and Orca 43 speaks it
    /// after the name), for a tooltip that is there for the pointer only.
    package func clearAccessibleDescription() {
        navgtk_accessible_reset_description(widget)
    }

    /// Drops the accessible name set with ``setAccessibleLabel(_:)`` (the widget is named by its content
    /// again, or not at all).
    package func clearAccessibleLabel() {
        navgtk_accessible_reset_label(widget)
    }

    /// Sets the accessible name that screen readers announce (ATK/AT-SPI "name"). Every control should
    /// have one equal to its visible label.
    public func setAccessibleLabel(_ label: String) {
        navgtk_accessible_set_label(widget, label)
    }

    /// Tells screen readers that the widget also opens a menu (ARIA `aria-haspopup`), e.g. a Back button
    /// with a history menu.
    public func setAccessibleHasPopup(_ hasPopup: Bool) {
        navgtk_accessible_set_has_popup(widget, hasPopup ? 1 : 0)
    }

    /// Hides the widget from screen readers (decoration that says nothing the text beside it does not).
    public func hideFromScreenReaders() { navgtk_accessible_set_hidden(widget, 1) }

    /// Hides the widget and everything in it from screen readers, or shows it to them again
    /// (`GTK_ACCESSIBLE_STATE_HIDDEN`): for content that is kept but not on screen, such as the pages
    /// below the top of a navigation stack, which GTK 4.8 would otherwise still expose as visible.
    public func setHiddenFromScreenReaders(_ hidden: Bool) { navgtk_accessible_set_hidden(widget, hidden ? 1 : 0) }

    /// Whether the accessible name equals `label`: the accessible label when one is set (GTK 4.8 has no
    /// getter; uses GTK's test API), else a text button's own label, which GTK names it by.
    public func hasAccessibleLabel(_ label: String) -> Bool {
        if navgtk_accessible_has_label(widget) != 0 {
            guard let message = navgtk_accessible_check_label(widget, label) else { return true }
            g_free(message)
            return false
        }
        guard isInstance(widget, ofExactly: gtk_button_get_type()),
              let text = gtk_button_get_label(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)) else {
            return false
        }
        return String(cString: text) == label
    }

    /// Adds a CSS style class (e.g. `"suggested-action"`, `"flat"`, or one from Resources/style.css).
    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(widget, name) }
    /// Removes a CSS style class; does nothing if it is not set.
    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(widget, name) }
    /// Whether the CSS style class is set.
    public func hasCSSClass(_ name: String) -> Bool { gtk_widget_has_css_class(widget, name) != 0 }

    /// Sets margins in pixels on each side.
    public func setMargins(top: Int = 0, bottom: Int = 0, start: Int = 0, end: Int = 0) {
        gtk_widget_set_margin_top(widget, Int32(clamping: top))
        gtk_widget_set_margin_bottom(widget, Int32(clamping: bottom))
        gtk_widget_set_margin_start(widget, Int32(clamping: start))
        gtk_widget_set_margin_end(widget, Int32(clamping: end))
    }

    /// Sets the same margin, in pixels, on all four sides.
    public func setMargins(_ all: Int) { setMargins(top: all, bottom: all, start: all, end: all) }

    /// Whether the widget takes extra horizontal space.
    public var expandsHorizontally: Bool {
        get { gtk_widget_get_hexpand(widget) != 0 }
        set { gtk_widget_set_hexpand(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes extra vertical space.
    public var expandsVertically: Bool {
        get { gtk_widget_get_vexpand(widget) != 0 }
        set { gtk_widget_set_vexpand(widget, newValue ? 1 : 0) }
    }

    /// Horizontal alignment within the space the parent gives.
    public var horizontalAlignment: Alignment {
        get { Alignment(gtk_widget_get_halign(widget)) }
        set { gtk_widget_set_halign(widget, newValue.gtk) }
    }

    /// Vertical alignment within the space the parent gives.
    public var verticalAlignment: Alignment {
        get { Alignment(gtk_widget_get_valign(widget)) }
        set { gtk_widget_set_valign(widget, newValue.gtk) }
    }

    /// Requests a minimum size in pixels; -1 leaves a dimension natural.
    public func setSizeRequest(width: Int = -1, height: Int = -1) {
        gtk_widget_set_size_request(widget, Int32(clamping: width), Int32(clamping: height))
    }

    /// The allocated width in pixels (0 before the first layout).
    public var width: Int { Int(gtk_widget_get_width(widget)) }
    /// The allocated height in pixels (0 before the first layout).
    public var height: Int { Int(gtk_widget_get_height(widget)) }

    /// Whether the widget can take keyboard focus itself.
    public var isFocusable: Bool {
        get { gtk_widget_get_focusable(widget) != 0 }
        set { gtk_widget_set_focusable(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget (and its children) can receive pointer input; false makes clicks pass
    /// through as if it were not there (`gtk_widget_set_can_target`).
    public var canTarget: Bool {
        get { gtk_widget_get_can_target(widget) != 0 }
        set { gtk_widget_set_can_target(widget, newValue ? 1 : 0) }
    }

    /// Whether children may draw outside this widget's allocation (`GTK_OVERFLOW_VISIBLE`) or are
    /// clipped to it (`GTK_OVERFLOW_HIDDEN`).
    public var drawsOutsideBounds: Bool {
        get { gtk_widget_get_overflow(widget) == GTK_OVERFLOW_VISIBLE }
        set { gtk_widget_set_overflow(widget, newValue ? GTK_OVERFLOW_VISIBLE : GTK_OVERFLOW_HIDDEN) }
    }

    /// The width the widget would like, in pixels, when its height is not fixed (its natural width).
    public var naturalWidth: Int {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return Int(natural)
    }

    /// The natural height in pixels the widget asks for at `width` pixels wide (`gtk_widget_measure`).
    public func naturalHeight(forWidth width: Int) -> Int {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, Int32(clamping: width), &minimum, &natural, nil, nil)
        return Int(natural)
    }

    /// The widget's bounds in `other`'s coordinate space, in pixels, or nil when they share no window.
    public func bounds(in other: Widget) -> (x: Double, y: Double, width: Double, height: Double)? {
        var rect = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget, other.widget, &rect) != 0 else { return nil }
        return (Double(rect.origin.x), Double(rect.origin.y), Double(rect.size.width), Double(rect.size.height))
    }

    /// Runs `handler(true)` when the widget is mapped (it and its ancestors are shown: a recycled list
    /// row on screen) and `handler(false)` when it is unmapped (scrolled out of view, hidden, or its window
    /// closed).
    public func onMapChanged(_ handler: @escaping @MainActor (Bool) -> Void) {
        connect("map") { _ in handler(true) }
        connect("unmap") { _ in handler(false) }
    }

    /// Runs `handler` once, after the next frame that draws this widget's window has been painted (the
    /// frame clock's `after-paint`), realizing nothing itself: call it before or after presenting.
    public func afterNextPaint(_ handler: @escaping @MainActor () -> Void) {
        var fired = false
        func watch(_ clock: OpaquePointer) {
            let clockObject = Object.wrapping(UnsafeMutableRawPointer(clock))
            let id = HandlerID()
            id.value = clockObject.connect("after-paint") { _ in
                guard !fired else { return }
                fired = true
                clockObject.disconnect(id.value)
                handler()
            }
        }
        if let clock = gtk_widget_get_frame_clock(widget) {
            watch(clock)
        } else {
            let realizeID = HandlerID()
            realizeID.value = connect("realize") { [weak self] _ in
                guard let self else { return }
                self.disconnect(realizeID.value)
                if let clock = gtk_widget_get_frame_clock(self.widget) { watch(clock) }
            }
        }
    }

    /// The widget's parent, or nil when it has none.
    package var parentWidget: UnsafeMutablePointer<GtkWidget>? { gtk_widget_get_parent(widget) }

    /// Removes the widget from its parent (any container); the Swift wrapper keeps it alive for reuse.
    public func unparent() { gtk_widget_unparent(widget) }

    /// The device pixels per logical pixel of the monitor the widget is on (1, or 2 on a HiDPI screen):
    /// decode images at logical size × this to keep them sharp.
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widget)) }

    /// Whether the widget lays out right-to-left (for mirrored transitions in RTL locales).
    public var isRightToLeft: Bool { gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL }

    /// Moves keyboard focus to this widget (or its first focusable child).
    /// - Returns: whether focus moved.
    @discardableResult
    public func grabFocus() -> Bool { gtk_widget_grab_focus(widget) != 0 }

    /// Whether this widget has the keyboard focus (it is its window's focus widget and the window is
    /// active).
    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }

    /// Whether this widget is its window's focus widget (it gets the keys when the window is active).
    public var isFocus: Bool { gtk_widget_is_focus(widget) != 0 }

    /// Activates the widget as a user would (a button clicks, a flow-box child is chosen).
    /// - Returns: false if the widget is not activatable.
    @discardableResult
    public func activate() -> Bool { gtk_widget_activate(widget) != 0 }

    /// The toplevel window pointer this widget is in, or nil when not in a window.
    package var rootWindow: UnsafeMutablePointer<GtkWindow>? {
        guard let root = gtk_widget_get_root(widget) else { return nil }
        return UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWindow.self)
    }

    /// Schedules a new size negotiation (after a change the widget itself cannot see).
    public func queueResize() { gtk_widget_queue_resize(widget) }

    /// Asks for the widget to be drawn again in the next frame (`gtk_widget_queue_draw`).
    public func queueDraw() { gtk_widget_queue_draw(widget) }

    /// Adds an event controller (key, click, shortcut); the widget owns it from then on.
    public func addController(_ controller: EventController) {
        g_object_ref(controller.gobject)  // gtk_widget_add_controller takes ownership of one reference
        gtk_widget_add_controller(widget, controller.pointer())
    }

    /// Whether `other` is this widget or a descendant of it.
    package func contains(_ other: UnsafeMutablePointer<GtkWidget>) -> Bool {
        other == widget || gtk_widget_is_ancestor(other, widget) != 0
    }
}

extension Widget {
    /// The widget as it is on screen now, rendered into a texture of its own size by its window's
    /// renderer, or nil when it is not mapped, has no size or has not been drawn yet.
    package func renderedTexture() -> Texture? { try? render(croppedToWidget: true) }

    /// Renders the widget as it is on screen now: into a texture of its own size when
    /// `croppedToWidget`, else of everything it draws (a window's shadow too), with `overlays` (open
    /// popovers of its window) drawn over it where they are on screen. At the widget's scale factor
    /// (``scaleFactor``): on a 2× screen the texture has twice the pixels each way, as the screen shows it.
    /// - Throws: `GLibError` saying why: not shown, no size, nothing drawn, rendering failed.
    private func render(croppedToWidget: Bool, overlays: [Widget] = []) throws -> Texture {
        guard isMapped, let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else {
            throw GLibError.toolkit("can't snapshot \(typeName): not shown on screen")
        }
        let paintable = gtk_widget_paintable_new(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let width = Double(gdk_paintable_get_intrinsic_width(paintable)), height = Double(gdk_paintable_get_intrinsic_height(paintable))
        guard width > 0, height > 0 else { throw GLibError.toolkit("can't snapshot \(typeName): it has no size") }
        let snapshot = gtk_snapshot_new()!
        let scale = Float(max(1, scaleFactor))
        if scale > 1 { gtk_snapshot_scale(snapshot, scale, scale) }
        gdk_paintable_snapshot(paintable, snapshot, width, height)
        // The picture grows to take in popovers that reach past the window, as they do on screen.
        var bounds = (minX: 0.0, minY: 0.0, maxX: width, maxY: height)
        for overlay in overlays where overlay.isMapped {
            guard let offset = overlay.offset(inNativeOf: self) else { continue }
            let overlayPaintable = gtk_widget_paintable_new(overlay.widget)!
            defer { g_object_unref(UnsafeMutableRawPointer(overlayPaintable)) }
            let overlayWidth = Double(gdk_paintable_get_intrinsic_width(overlayPaintable))
            let overlayHeight = Double(gdk_paintable_get_intrinsic_height(overlayPaintable))
            bounds = (min(bounds.minX, offset.x), min(bounds.minY, offset.y),
                      max(bounds.maxX, offset.x + overlayWidth), max(bounds.maxY, offset.y + overlayHeight))
            gtk_snapshot_save(snapshot)
            var point = graphene_point_t(x: Float(offset.x), y: Float(offset.y))
            gtk_snapshot_translate(snapshot, &point)
            gdk_paintable_snapshot(overlayPaintable, snapshot, overlayWidth, overlayHeight)
            gtk_snapshot_restore(snapshot)
        }
        guard let node = gtk_snapshot_free_to_node(snapshot) else {
            throw GLibError.toolkit("can't snapshot \(typeName): nothing drawn")
        }
        defer { gsk_render_node_unref(node) }
        var viewport = croppedToWidget
            ? graphene_rect_t(origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width) * scale, height: Float(height) * scale))
            : graphene_rect_t(origin: graphene_point_t(x: Float(bounds.minX) * scale, y: Float(bounds.minY) * scale),
                              size: graphene_size_t(width: Float(bounds.maxX - bounds.minX) * scale, height: Float(bounds.maxY - bounds.minY) * scale))
        guard let texture = croppedToWidget || bounds != (0, 0, width, height) ? gsk_renderer_render_texture(renderer, node, &viewport)
                                                                               : gsk_renderer_render_texture(renderer, node, nil) else {
            throw GLibError.toolkit("can't snapshot \(typeName): rendering failed")
        }
        return Texture(taking: texture)
    }

    /// Where this widget's origin is in `other`'s coordinates when this widget is in a popup surface
    /// of `other`'s window (a popover): the popup's position on its parent surface, less where each
    /// widget sits inside its own surface. Nil when either is not on screen.
    private func offset(inNativeOf other: Widget) -> (x: Double, y: Double)? {
        guard let native = gtk_widget_get_native(widget), let surface = gtk_native_get_surface(native),
              let otherNative = gtk_widget_get_native(other.widget) else { return nil }
        var popX = 0.0, popY = 0.0, windowX = 0.0, windowY = 0.0
        gtk_native_get_surface_transform(native, &popX, &popY)
        gtk_native_get_surface_transform(otherNative, &windowX, &windowY)
        let popup = surface  // a popover's surface is a GdkPopup
        return (Double(gdk_popup_get_position_x(popup)) + popX - windowX, Double(gdk_popup_get_position_y(popup)) + popY - windowY)
    }

    /// Renders the widget into a PNG file as GTK paints it in its window's next frame: asks for that frame
    /// (`gtk_widget_queue_draw`) and renders in the frame clock's `after-paint`, after GTK's own drawing and
    /// before anything can ask for a redraw again. A widget keeps what it last drew only until something
    /// in it asks to be drawn again (GTK drops the drawing then, until the next frame): a web page, a
    /// spinner or a scroll indicator can ask at any time, so a picture taken outside a frame may find
    /// nothing. Waits for up to `frames` frames that still draw nothing (a window waiting for its layout).
    /// Otherwise as ``saveSnapshot(toPNG:overlays:)``. Main actor.
    /// - Throws: `GLibError` when the widget is not on screen, has no size, is not drawn within `frames`
    ///   frames or 10 seconds (the frame clock stopped: its window was hidden), or the file cannot be
    ///   written.
    public func saveSnapshotOfNextFrame(toPNG path: FilePath, overlays: [Widget] = [], frames: Int = 100) async throws {
        guard isMapped, let clock = gtk_widget_get_frame_clock(widget) else {
            throw GLibError.toolkit("can't snapshot \(typeName): not shown on screen")
        }
        let texture: Texture = try await withCheckedThrowingContinuation { continuation in
            MainActor.assumeIsolated {  // the continuation's body runs at once, on the caller's actor
                var continuation: CheckedContinuation<Texture, Error>? = continuation
                var left = frames
                let handler = HandlerID(), timeout = HandlerID()
                let clockObject = Object.wrapping(UnsafeMutableRawPointer(clock))  // the handler holds the clock until it ends
                @MainActor func end(_ result: Result<Texture, Error>) {
                    guard let waiting = continuation else { return }
                    continuation = nil
                    clockObject.disconnect(handler.value)
                    MainLoopBridge.cancel(UInt32(timeout.value))
                    waiting.resume(with: result)
                }
                handler.value = clockObject.connect("after-paint", after: true) { [self] _ in
                    do {
                        end(.success(try render(croppedToWidget: false, overlays: overlays)))
                    } catch where left > 0 && isMapped {
                        left -= 1  // nothing drawn in this frame (its layout was still to come): the next one
                        queueDraw()
                    } catch {
                        end(.failure(error))
                    }
                }
                timeout.value = UInt(MainLoopBridge.after(.seconds(10)) { [typeName] in
                    timeout.value = 0
                    end(.failure(GLibError.toolkit("can't snapshot \(typeName): no frame drawn in 10 seconds")))
                })
                queueDraw()
                for overlay in overlays where overlay.isMapped { overlay.queueDraw() }
            }
        }
        guard texture.save(toPNG: path) else { throw GLibError.toolkit("can't write \(path)") }
    }

    /// Renders the widget as it is on screen now (a window includes its title bar) into a PNG file,
    /// at its scale factor (``scaleFactor``). `overlays` are open popovers (menus) of its window,
    /// drawn over it where the screen shows them (a popover is a surface of its own, not part of its
    /// window's drawing). The widget must be mapped (shown in a realized window).
    /// - Throws: `GLibError` when it is not mapped, has no size, or the file cannot be written.
    public func saveSnapshot(toPNG path: FilePath, overlays: [Widget] = []) throws {
        guard try render(croppedToWidget: false, overlays: overlays).save(toPNG: path) else {
            throw GLibError.toolkit("can't write \(path)")
        }
    }
}

/// A signal handler id that a handler can read to disconnect itself (set once, right after connecting).
@MainActor
final class HandlerID {
    var value: UInt = 0
}
