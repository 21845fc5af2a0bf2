import CGtk

/// A `GtkEventController`: receives input events for the widget it is added to
/// (``Widget/addController(_:)``).
@MainActor
public class EventController: Object {
    /// In which phase the controller sees events (`GtkPropagationPhase`).
    public enum Phase: Sendable {
        /// Before the widget under the pointer or with focus (parents first).
        case capture
        /// After it, if it did not handle the event (the default).
        case bubble
    }

    /// In which phase the controller sees events.
    public var propagationPhase: Phase {
        get { gtk_event_controller_get_propagation_phase(pointer()) == GTK_PHASE_CAPTURE ? .capture : .bubble }
        set { gtk_event_controller_set_propagation_phase(pointer(), newValue == .capture ? GTK_PHASE_CAPTURE : GTK_PHASE_BUBBLE) }
    }

    /// The time of the event the controller is handling now, in milliseconds on the windowing system's
    /// clock (`gtk_event_controller_get_current_event_time`); nil outside an event's handling (a signal
    /// emitted by code, not by input). Main thread only.
    public var currentEventTime: UInt32? {
        let time = gtk_event_controller_get_current_event_time(pointer())
        return time == 0 ? nil : time
    }
}

/// A `GtkEventControllerKey`: key presses on a widget (or its children, when they bubble up).
@MainActor
public final class KeyController: EventController {
    /// Creates a key controller.
    public init() { super.init(gtk_event_controller_key_new(), transfer: .full) }

    /// Runs `handler(keyval, modifiers)` on each key press; return true when handled (stops it there).
    /// `keyval` is a GDK key value (see ``KeyValue``).
    public func onKeyPressed(_ handler: @escaping @MainActor (UInt32, KeyModifiers) -> Bool) {
        connect("key-pressed") { args in
            let keyval = args.uint(at: 1)
            let state = KeyModifiers(rawValue: args.uint(at: 3))
            args.setReturn(handler(keyval, state))
        }
    }
}

/// A `GtkGestureClick`: pointer button presses (any button when `button` is 0).
@MainActor
public final class ClickGesture: EventController {
    /// Creates a click gesture for `button` (1 primary, 3 secondary, 8 back, 9 forward; 0 any).
    public init(button: UInt32 = 1) {
        super.init(gtk_gesture_click_new(), transfer: .full)
        gtk_gesture_single_set_button(OpaquePointer(gobject), button)
    }

    /// Runs `handler(button)` on each press. Works after this wrapper is released (the widget owns
    /// the gesture): the button is read from the emitting gesture, not from the wrapper.
    public func onPressed(_ handler: @escaping @MainActor (UInt32) -> Void) {
        connect("pressed") { args in
            guard let gesture = args.object(at: 0) else { return }
            handler(gtk_gesture_single_get_current_button(OpaquePointer(gesture)))
        }
    }
}

/// A `GtkGestureLongPress`: a touch or a primary-button press held in place (GTK's long-press time,
/// about half a second), as touch screens open context menus.
@MainActor
public final class LongPressGesture: EventController {
    /// Creates a long-press gesture.
    public init() { super.init(gtk_gesture_long_press_new(), transfer: .full) }

    /// Runs `handler` when a press has been held long enough. The press is then claimed, so the
    /// widget's own click (a button's `clicked`) does not follow when it is released.
    public func onPressed(_ handler: @escaping @MainActor () -> Void) {
        connect("pressed") { args in
            if let gesture = args.object(at: 0) {
                gtk_gesture_set_state(OpaquePointer(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
            }
            handler()
        }
    }
}

/// Modifier keys held during a key press (`GdkModifierType`).
public struct KeyModifiers: OptionSet, Sendable {
    /// The `GdkModifierType` bits.
    public let rawValue: UInt32
    /// Wraps `GdkModifierType` bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Control.
    public static let control = KeyModifiers(rawValue: navgtk_control_mask().rawValue)
    /// Alt.
    public static let alt = KeyModifiers(rawValue: navgtk_alt_mask().rawValue)
    /// Shift.
    public static let shift = KeyModifiers(rawValue: navgtk_shift_mask().rawValue)
}

/// GDK key values (`GDK_KEY_*`) the app matches.
public enum KeyValue {
    /// Return.
    public static let returnKey = UInt32(GDK_KEY_Return)
    /// Enter on the keypad.
    public static let keypadEnter = UInt32(GDK_KEY_KP_Enter)
    /// Escape.
    public static let escape = UInt32(GDK_KEY_Escape)
    /// F1 (help, in GNOME apps).
    public static let f1 = UInt32(GDK_KEY_F1)
    /// F6 (moves the focus between a window's regions, in GNOME apps).
    public static let f6 = UInt32(GDK_KEY_F6)
    /// Left arrow.
    public static let left = UInt32(GDK_KEY_Left)
    /// Left arrow on the keypad.
    public static let keypadLeft = UInt32(GDK_KEY_KP_Left)
    /// Right arrow.
    public static let right = UInt32(GDK_KEY_Right)
    /// Keypad right arrow.
    public static let keypadRight = UInt32(GDK_KEY_KP_Right)
    /// The V key (Ctrl+V pastes).
    public static let v = UInt32(GDK_KEY_v)
    /// The V key with Shift or Caps Lock.
    public static let capitalV = UInt32(GDK_KEY_V)
    /// Z (with Ctrl: Undo).
    public static let z = UInt32(GDK_KEY_z)
    /// Z with Shift or Caps Lock.
    public static let capitalZ = UInt32(GDK_KEY_Z)
    /// The Back key of keyboards with browser keys (`XF86Back`).
    public static let back = UInt32(GDK_KEY_Back)
    /// F10 (with Shift: a context menu, as GTK's text fields open theirs).
    public static let f10 = UInt32(GDK_KEY_F10)
    /// The Menu key (a context menu).
    public static let menu = UInt32(GDK_KEY_Menu)
    /// The Forward key of keyboards that have one (`XF86Forward`).
    public static let forward = UInt32(GDK_KEY_Forward)
}
