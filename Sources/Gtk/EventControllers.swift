import CGtk

/// A `GtkEventController`: receives input events for the widget it is added to
/// (``Widget/addController(_:)``).
@MainActor
public class EventController: Object {
    /// In which phase the controller sees events: `GTK_PHASE_CAPTURE` runs before the target widget
    /// (parents first), `GTK_PHASE_BUBBLE` (default) after it.
    public var propagationPhase: GtkPropagationPhase {
        get { gtk_event_controller_get_propagation_phase(pointer()) }
        set { gtk_event_controller_set_propagation_phase(pointer(), newValue) }
    }
}

/// A `GtkEventControllerKey`: key presses on a widget (or its children, when they bubble up).
@MainActor
public final class KeyController: EventController {
    /// Creates a key controller.
    public init() { super.init(gtk_event_controller_key_new(), transfer: .full) }

    /// Runs `handler(keyval, modifiers)` on each key press; return true when handled (stops it there).
    /// `keyval` is a GDK key value such as `GDK_KEY_Escape`; `modifiers` a `GdkModifierType` mask.
    public func onKeyPressed(_ handler: @escaping @MainActor (UInt32, GdkModifierType) -> Bool) {
        connect("key-pressed") { args in
            let keyval = args.uint(at: 1)
            let state = GdkModifierType(args.uint(at: 3))
            args.setReturn(handler(keyval, state))
        }
    }
}

/// A `GtkGestureClick`: pointer button presses (any button when ``button`` is 0).
@MainActor
public final class ClickGesture: EventController {
    /// Creates a click gesture for `button` (1 primary, 3 secondary, 8 back, 9 forward; 0 any).
    public init(button: UInt32 = 1) {
        super.init(gtk_gesture_click_new(), transfer: .full)
        gtk_gesture_single_set_button(OpaquePointer(gobject), button)
    }

    /// Runs `handler(button)` on each press.
    public func onPressed(_ handler: @escaping @MainActor (UInt32) -> Void) {
        connect("pressed") { [weak self] _ in
            guard let self else { return }
            handler(gtk_gesture_single_get_current_button(OpaquePointer(self.gobject)))
        }
    }
}

/// Key modifier masks, for matching key presses.
public enum KeyModifiers {
    /// The Control key mask.
    public static var control: GdkModifierType { postcard_control_mask() }
    /// The Alt key mask.
    public static var alt: GdkModifierType { postcard_alt_mask() }
    /// The Shift key mask.
    public static var shift: GdkModifierType { postcard_shift_mask() }
}
