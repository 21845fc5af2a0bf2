import CGLib
import CGtk

/// An owning Swift reference to a `GObject`.
///
/// A GObject has at most one Swift wrapper: the wrapper records itself on the object (GLib's qdata,
/// `g_object_set_qdata`), and code that meets a GObject made elsewhere (a focus widget, a popover GTK
/// made) finds that wrapper with `Object/wrapper(of:)` or `Widget/widget(wrapping:)`; state kept per
/// object lives on its wrapper. Making a second wrapper for one object is a programming error, reported
/// with a GLib critical.
///
/// The wrapper holds one strong GObject reference for as long as it lives and drops it in its
/// deinitializer, which runs on the main actor whatever thread drops the last Swift reference (an
/// `isolated deinit`: GTK objects are unreferenced on the main thread only). Signal handlers connected with ``connect(_:after:handler:)`` are owned by
/// GLib, not by the wrapper: their closure box is released by the closure's finalize notifier, which GLib
/// calls when the handler is disconnected or the object is finalized.
///
/// Handlers must capture their owner weakly (`[weak self]`): the object owns the handler, so a strong
/// capture of the wrapper forms a cycle and the object is never finalized.
///
/// Call on the main actor only (GTK is single-threaded).
@MainActor
open class Object {
    /// How a C constructor hands over the reference it returns.
    public enum Transfer {
        /// The caller receives a full reference (`transfer full`), or a floating one that is sunk.
        case full
        /// The caller receives no reference (`transfer none`); the wrapper takes its own.
        case none
    }

    /// The wrapped object. Valid for the wrapper's whole lifetime.
    nonisolated(unsafe) package let gobject: UnsafeMutablePointer<GObject>

    /// Wraps `pointer`, taking ownership as `transfer` says. Floating references are always sunk
    /// (`g_object_ref_sink`), so widgets from `gtk_*_new` can be passed with either value. The object
    /// must have no wrapper yet (see `wrapper(of:)`): a second one is reported with a GLib critical.
    package init(_ pointer: UnsafeMutableRawPointer, transfer: Transfer) {
        gobject = pointer.assumingMemoryBound(to: GObject.self)
        if navgtk_is_floating(pointer) != 0 || transfer == .none {
            g_object_ref_sink(pointer)
        }
        register()
    }

    /// Wraps an object whose C type is private (imported as `OpaquePointer`); see ``init(_:transfer:)``.
    package init(_ pointer: OpaquePointer, transfer: Transfer) {
        gobject = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self)
        if navgtk_is_floating(gobject) != 0 || transfer == .none {
            g_object_ref_sink(gobject)
        }
        register()
    }

    /// What an object's qdata holds: its wrapper, weakly (the object does not keep the wrapper alive). A
    /// Swift weak reference reads nil from the moment the wrapper's deinitialization has begun, so a wrapper
    /// whose last reference went on another thread, its `isolated deinit` still waiting for the main actor,
    /// is never handed out again (an unretained pointer was, and using it revived a dying object). Released
    /// by GLib when the qdata is replaced or cleared, or the object finalized, on whatever thread that is.
    private final class WrapperBox: @unchecked Sendable {  // its one field is a weak reference: atomic to read
        weak var wrapper: Object?
        init(_ wrapper: Object) { self.wrapper = wrapper }
    }

    /// The box this wrapper recorded on its object (cleared by the deinitializer if still there).
    private var box: UnsafeMutableRawPointer?

    /// Records this wrapper on its object (see ``WrapperBox``).
    private func register() {
        if let existing = g_object_get_qdata(gobject, Self.wrapperQuark),
           let other = Unmanaged<WrapperBox>.fromOpaque(existing).takeUnretainedValue().wrapper, other !== self {
            navgtk_log_critical("NavigationGtk", "a second Swift wrapper was made for a \(typeName): find the first with Object.wrapper(of:) or Widget.widget(wrapping:)")
            return
        }
        let box = Unmanaged.passRetained(WrapperBox(self)).toOpaque()
        self.box = box
        g_object_set_qdata_full(gobject, Self.wrapperQuark, box) { data in
            if let data { Unmanaged<WrapperBox>.fromOpaque(data).release() }
        }
    }

    /// On the main actor whatever thread drops the last Swift reference: GTK is not thread-safe.
    isolated deinit {
        // Cleared only if it is still this wrapper's box: a new wrapper made meanwhile keeps its own.
        if let box, g_object_get_qdata(gobject, Self.wrapperQuark) == box {
            g_object_set_qdata(gobject, Self.wrapperQuark, nil)  // releases the box
        }
        releaseReference()
    }

    /// Drops the wrapper's reference (a subclass holding it differently, a window's toggle reference,
    /// releases it its own way). Called once, by the deinitializer.
    package func releaseReference() {
        g_object_unref(gobject)
    }

    /// The GLib quark of the qdata that points at an object's wrapper.
    nonisolated static let wrapperQuark: GQuark = g_quark_from_static_string("navgtk-swift-wrapper")

    /// The Swift wrapper of the GObject at `pointer` (a `GObject*` of any type) if it has one: the same
    /// object whoever asks, so state kept on it is found again. Main actor.
    /// Nil too while a wrapper's deinitialization is pending or running (see ``WrapperBox``).
    package static func wrapper(of pointer: UnsafeMutableRawPointer) -> Object? {
        guard let data = g_object_get_qdata(pointer.assumingMemoryBound(to: GObject.self), wrapperQuark) else { return nil }
        return Unmanaged<WrapperBox>.fromOpaque(data).takeUnretainedValue().wrapper
    }

    /// The wrapper of the GObject at `pointer`, or a new plain ``Object`` holding a reference of its own.
    package static func wrapping(_ pointer: UnsafeMutableRawPointer) -> Object {
        wrapper(of: pointer) ?? Object(pointer, transfer: .none)
    }

    /// The object pointer as a specific C type (no run-time check; the wrapper's class guarantees it).
    package func pointer<T>(as type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(gobject).assumingMemoryBound(to: T.self)
    }

    /// The object pointer as an `OpaquePointer`, for GTK types whose struct is private (most final types).
    package var opaque: OpaquePointer { OpaquePointer(gobject) }

    /// The object pointer for C functions that take a private (opaque) GTK type.
    package func pointer() -> OpaquePointer { OpaquePointer(gobject) }

    /// The GType name of the wrapped object, e.g. `"GtkButton"`.
    public var typeName: String { String(cString: navgtk_type_name_of(gobject)) }

    /// Connects `handler` to the signal `name` (e.g. `"clicked"`, `"notify::title"`).
    ///
    /// The handler runs on the main actor with the signal's arguments; index 0 is the emitting object.
    /// A handler of a signal with a return value sets it with ``SignalArguments/setReturn(_:)``.
    ///
    /// - Returns: the handler id, or 0 if the object has no such signal (GLib logs a warning and the
    ///   handler is released at once).
    @discardableResult
    public func connect(
        _ name: String,
        after: Bool = false,
        handler: @escaping @MainActor (SignalArguments) -> Void
    ) -> UInt {
        Signals.connect(gobject, name, after: after, handler: handler)
    }

    /// Disconnects a handler returned by ``connect(_:after:handler:)``; releases its closure. Nothing
    /// for 0, or for a handler already gone (the object was disposed: GObject's dispose disconnects every
    /// handler).
    public func disconnect(_ handlerID: UInt) {
        Signals.disconnect(gobject, handlerID)
    }

    /// Registers `onFinalize` to run when the GObject itself is finalized (a GObject weak reference).
    /// Used by tests to prove that popped pages and closed dialogs are freed.
    public func whenFinalized(_ onFinalize: @escaping @MainActor () -> Void) {
        Signals.whenFinalized(gobject, onFinalize)
    }
}

// MARK: - Escape hatch

extension Object {
    /// **Escape hatch** to GTK's C API, for what these bindings do not cover: the wrapped `GObject*`
    /// (for a widget its `GtkWidget*`, for a window its `GtkWindow*`) as a raw pointer, borrowed: valid
    /// while this wrapper lives; do not unref it. Cast it after `import CGtk`, e.g.
    /// `.assumingMemoryBound(to: GtkWidget.self)`. Everything else in the public API takes and returns
    /// Swift types only. Main actor for widgets (GTK is single-threaded).
    public var unsafeGObjectPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(gobject) }
}

extension Widget {
    /// **Escape hatch**: wraps a widget made with GTK's C API (its `GtkWidget*` as a raw pointer) so it
    /// can go into pages, boxes and bars. `takingOwnership`: true when the caller's reference passes to
    /// the wrapper (a new widget from `gtk_*_new`, floating or not), false to take a reference of its own.
    /// The widget must have no Swift wrapper yet (a second is reported with a GLib critical); for one
    /// that may have, use ``unsafeWrapper(ofGtkWidget:)``. Main actor.
    public convenience init(unsafeGtkWidget pointer: UnsafeMutableRawPointer, takingOwnership: Bool) {
        self.init(pointer, transfer: takingOwnership ? .full : .none)
    }

    /// **Escape hatch**: the one Swift wrapper of a widget GTK or C code made (its `GtkWidget*` as a raw
    /// pointer, e.g. the window's focus widget): the wrapper made before while it lives (a ``Button``
    /// stays a `Button`), else a new plain ``Widget`` with a reference of its own. Main actor.
    public static func unsafeWrapper(ofGtkWidget pointer: UnsafeMutableRawPointer) -> Widget {
        widget(wrapping: pointer)
    }
}

/// The arguments of one signal emission, read during the handler call (on the main actor).
///
/// For a signal emitted on the main thread they are GLib's own values, borrowed: valid only until the
/// handler returns, so read what you need there (the type is not `Sendable`, so it cannot be handed to
/// another task). For a signal emitted on another thread (GStreamer's, GIO's workers) the handler runs
/// later on the main thread with copies of the values that live as long as the arguments.
public struct SignalArguments {
    let values: UnsafePointer<GValue>?
    /// Number of arguments, including the emitting object at index 0.
    public let count: Int
    let returnValue: UnsafeMutablePointer<GValue>?
    /// The copies of an emission from another thread, freed with the last copy of the arguments.
    let copies: SignalValueCopies?

    init(values: UnsafePointer<GValue>?, count: Int, returnValue: UnsafeMutablePointer<GValue>?, copies: SignalValueCopies? = nil) {
        self.values = values
        self.count = count
        self.returnValue = returnValue
        self.copies = copies
    }

    /// The object argument at `index`, or nil.
    package func object(at index: Int) -> UnsafeMutableRawPointer? {
        guard index < count, let values else { return nil }
        return g_value_get_object(values + index)
    }

    /// The boxed or pointer argument at `index` (e.g. a `GdkRectangle*` out-parameter), or nil.
    package func boxed(at index: Int) -> UnsafeMutableRawPointer? {
        guard index < count, let values else { return nil }
        return g_value_get_boxed(values + index)
    }

    /// The unsigned integer argument at `index` (e.g. a keyval or a mouse button), or 0.
    public func uint(at index: Int) -> UInt32 {
        guard index < count, let values else { return 0 }
        let value = values + index
        if navgtk_value_holds_flags(value) != 0 {
            return g_value_get_flags(value)
        }
        return g_value_get_uint(value)
    }

    /// The signed integer argument at `index`, or 0.
    public func int(at index: Int) -> Int32 {
        guard index < count, let values else { return 0 }
        return g_value_get_int(values + index)
    }

    /// The plain pointer argument at `index` (a `G_TYPE_POINTER`, e.g. an array), or nil.
    package func rawPointer(at index: Int) -> UnsafeMutableRawPointer? {
        guard index < count, let values else { return nil }
        return g_value_get_pointer(values + index)
    }

    /// The string argument at `index` (e.g. a link's URI), or nil.
    public func string(at index: Int) -> String? {
        guard index < count, let values, let text = g_value_get_string(values + index) else { return nil }
        return String(cString: text)
    }

    /// The enum argument at `index` (e.g. a load event), or 0.
    public func enumValue(at index: Int) -> Int32 {
        guard index < count, let values else { return 0 }
        return g_value_get_enum(values + index)
    }

    /// The floating-point argument at `index` (e.g. pointer coordinates in pixels), or 0.
    public func double(at index: Int) -> Double {
        guard index < count, let values else { return 0 }
        return g_value_get_double(values + index)
    }

    /// Sets a boolean return value (for signals such as `close-request` or `key-pressed`:
    /// `true` means "handled, stop other handlers").
    public func setReturn(_ handled: Bool) {
        if let returnValue { g_value_set_boolean(returnValue, handled ? 1 : 0) }
    }

    /// Sets an integer return value (for signals such as GApplication's `command-line`: an exit status).
    public func setReturn(int value: Int32) {
        if let returnValue { g_value_set_int(returnValue, value) }
    }
}

/// Signal plumbing: Swift closures boxed into GClosures whose finalize notifier releases the box.
@MainActor
enum Signals {
    final class HandlerBox: @unchecked Sendable {
        let handler: @MainActor (SignalArguments) -> Void
        init(_ handler: @escaping @MainActor (SignalArguments) -> Void) { self.handler = handler }
    }

    final class FinalizeBox: @unchecked Sendable {
        let action: @MainActor () -> Void
        init(_ action: @escaping @MainActor () -> Void) { self.action = action }
    }

    static func connect(
        _ instance: UnsafeMutableRawPointer,
        _ name: String,
        after: Bool,
        handler: @escaping @MainActor (SignalArguments) -> Void
    ) -> UInt {
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        let closure = g_closure_new_simple(guint(MemoryLayout<GClosure>.size), box)!
        g_closure_set_marshal(closure, marshal)
        g_closure_add_finalize_notifier(closure, box, releaseHandlerBox)
        // Own the closure ourselves while connecting: if the signal is unknown (id 0) GLib never sinks
        // it, and our unref below finalizes it, which releases the box.
        g_closure_ref(closure)
        g_closure_sink(closure)
        let id = g_signal_connect_closure(instance, name, closure, after ? 1 : 0)
        g_closure_unref(closure)
        return UInt(id)
    }

    /// Disconnects handler `id` of `instance` unless it is 0 or already gone (disposed).
    nonisolated static func disconnect(_ instance: UnsafeMutableRawPointer, _ id: UInt) {
        guard id != 0, g_signal_handler_is_connected(instance, gulong(id)) != 0 else { return }
        g_signal_handler_disconnect(instance, gulong(id))
    }

    static func whenFinalized(_ instance: UnsafeMutableRawPointer, _ action: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(FinalizeBox(action)).toOpaque()
        g_object_weak_ref(instance.assumingMemoryBound(to: GObject.self), weakNotify, box)
    }

    private static let marshal: GClosureMarshal = { closure, returnValue, count, params, _, _ in
        guard let data = closure?.pointee.data else { return }
        let box = Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue()
        guard navgtk_is_main_thread() != 0 else {
            // Emitted on another thread (a GStreamer or GIO worker): the handler is main-actor code, so it
            // runs on the main thread, later, with copies of the arguments. A signal whose emitter waits
            // for a return value cannot wait for that, so it is reported and gets the default.
            if returnValue != nil {  // GLib passes none for a signal without a return value
                navgtk_log_critical("NavigationGtk", "a signal with a return value was emitted off the main thread; its Swift handler was not called (connect it with C where the emitter needs an answer)")
                return
            }
            let copies = SignalValueCopies(params, count: Int(count))
            let pending = PendingEmission(box: box, copies: copies)
            MainLoopBridge.onMainThread { pending.deliver() }
            return
        }
        // On the main thread: GLib's own values, borrowed for the call (see SignalArguments).
        let emission = Emission(values: params, count: Int(count), returnValue: returnValue)
        MainActor.assumeIsolated {
            box.handler(SignalArguments(values: emission.values, count: emission.count, returnValue: emission.returnValue))
        }
    }

    /// An emission's pointers, moved into the main-actor call made on this same (main) thread: sound
    /// because they never leave the thread, and the call returns before the emission ends.
    private struct Emission: @unchecked Sendable {
        let values: UnsafePointer<GValue>?
        let count: Int
        let returnValue: UnsafeMutablePointer<GValue>?
    }

    /// A signal emitted on another thread, waiting to reach its handler on the main thread.
    private final class PendingEmission: @unchecked Sendable {  // handed to the main thread once, then used only there
        let box: HandlerBox
        let copies: SignalValueCopies
        init(box: HandlerBox, copies: SignalValueCopies) { self.box = box; self.copies = copies }
        @MainActor func deliver() {
            box.handler(SignalArguments(values: UnsafePointer(copies.values), count: copies.count, returnValue: nil, copies: copies))
        }
    }

    private static let releaseHandlerBox: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<HandlerBox>.fromOpaque(data).release()
    }

    private static let weakNotify: GWeakNotify = { data, _ in
        guard let data else { return }
        let box = Unmanaged<FinalizeBox>.fromOpaque(data).takeRetainedValue()
        if navgtk_is_main_thread() != 0 {
            MainActor.assumeIsolated { box.action() }
        } else {
            MainLoopBridge.onMainThread { box.action() }  // finalized by a last unref on another thread
        }
    }
}

/// Copies of a signal's argument values (`g_value_copy`: objects referenced, strings duplicated), freed
/// (`g_value_unset`) when the last ``SignalArguments`` holding them goes.
final class SignalValueCopies: @unchecked Sendable {  // made on the emitting thread, then used only on the main thread
    let values: UnsafeMutablePointer<GValue>
    let count: Int

    init(_ source: UnsafePointer<GValue>?, count: Int) {
        self.count = count
        values = .allocate(capacity: max(count, 1))
        values.initialize(repeating: GValue(), count: max(count, 1))
        guard let source else { return }
        for index in 0..<count {
            g_value_init(values + index, source[index].g_type)
            g_value_copy(source + index, values + index)
        }
    }

    deinit {
        for index in 0..<count where values[index].g_type != 0 { g_value_unset(values + index) }
        values.deallocate()
    }
}

/// Whether `object` is an instance of exactly `type` (`G_TYPE_FROM_INSTANCE(object) == type`; a subclass is
/// not), as the toolkit tells GTK's widgets apart when it walks a tree it did not build. Any thread.
package func isInstance(_ object: UnsafeMutableRawPointer, ofExactly type: GType) -> Bool {
    navgtk_type_of(object) == type
}

/// Whether `object` is an instance of `type` or of a subclass of it (`G_TYPE_CHECK_INSTANCE_TYPE`). Any thread.
package func isInstance(_ object: UnsafeMutableRawPointer, of type: GType) -> Bool {
    type != 0 && g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), type) != 0
}
