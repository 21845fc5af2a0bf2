import CGtk
import CGLib

/// A `GtkWindow` (toplevel). Main actor only.
///
/// GTK keeps each window alive until it is destroyed (`gtk_window_destroy` drops the reference GTK's
/// list of toplevels holds). The wrapper holds a *toggle reference* (`g_object_add_toggle_ref`, as
/// language bindings hold GObjects): GLib tells it when that is the last reference left, which for a
/// window means GTK has let it go, and the wrapper then disposes the window, so its `destroy` signal
/// is emitted at once rather than when the wrapper goes. The pointer stays valid while the wrapper lives.
@MainActor
public class Window: Widget {
    /// Creates a window; with an `application` it is a `GtkApplicationWindow` that keeps the
    /// application running while open.
    public init(application: Application? = nil) {
        if let application {
            super.init(gtk_application_window_new(application.pointer(as: GtkApplication.self)), transfer: .none)
        } else {
            super.init(gtk_window_new(), transfer: .none)
        }
        holdByToggleReference()
        watchFocusChanges()
    }

    /// Wraps a window GTK made (e.g. from a `GtkBuilder` description, or libadwaita's windows); the
    /// wrapper holds its own reference.
    package init(wrapping window: UnsafeMutableRawPointer) {
        super.init(window, transfer: .none)
        holdByToggleReference()
        watchFocusChanges()
    }

    /// What a window is to a screen reader.
    public enum AccessibleRole: Sendable {
        /// A dialog (AT-SPI role `dialog`): a window a task runs in, over another.
        case dialog
        /// An alert (AT-SPI role `alert`): a question or warning that needs an answer.
        case alert
    }

    /// Creates a window that screen readers announce as `role` (GTK's `accessible-role`, which only
    /// a new window can be given; a plain window reads as a `frame`).
    public init(role: AccessibleRole) {
        let gtkRole = role == .dialog ? GTK_ACCESSIBLE_ROLE_DIALOG : GTK_ACCESSIBLE_ROLE_ALERT_DIALOG
        super.init(navgtk_window_new_with_role(gtkRole), transfer: .none)
        holdByToggleReference()
        watchFocusChanges()
    }

    /// Whether the window has been destroyed (its `destroy` signal emitted).
    public private(set) var isDestroyed = false

    /// Replaces the wrapper's ordinary reference by a toggle reference (see the type's documentation).
    private func holdByToggleReference() {
        g_object_add_toggle_ref(gobject, Self.toggled, Unmanaged.passUnretained(self).toOpaque())
        g_object_unref(gobject)
        // Destroyed by whatever path (GTK's close, the app's quit, destroy()): heard from the object.
        connect("destroy") { [weak self] _ in self?.windowDestroyed() }
    }

    /// Drops the toggle reference (the wrapper's deinitializer).
    package override func releaseReference() {
        g_object_remove_toggle_ref(gobject, Self.toggled, Unmanaged.passUnretained(self).toOpaque())
    }

    /// GLib's toggle notification: `isLast` when the wrapper's reference is the only one left.
    private static let toggled: GToggleNotify = { data, _, isLast in
        guard isLast != 0, let data else { return }
        let address = UInt(bitPattern: data)  // the wrapper: alive while its toggle reference is
        let dispose: @MainActor () -> Void = {
            Unmanaged<Window>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue().disposeOnce()
        }
        if navgtk_is_main_thread() != 0 { MainActor.assumeIsolated(dispose) } else { MainLoopBridge.onMainThread(dispose) }
    }

    /// Disposes the window once (`g_object_run_dispose`, which emits `destroy`): GTK let it go.
    private func disposeOnce() {
        guard !isDisposing else { return }
        isDisposing = true
        g_object_run_dispose(gobject)
    }
    private var isDisposing = false

    /// Keeps the transient parent alive as long as this window points at it: GTK holds no reference to
    /// a transient parent, and a window finalized after its parent would touch the freed parent.
    nonisolated(unsafe) private var transientParentReference: Object?

    /// On the main actor whatever thread drops the last reference (GTK is not thread-safe).
    isolated deinit {
        // Unset the parent while it is certainly alive (held above), before the final unref, and leave
        // no handler (and its closure box) behind on it.
        if let parent = transientParentReference, parentWatchID != 0 {
            Signals.disconnect(parent.gobject, parentWatchID)
        }
        if transientParentReference != nil {
            gtk_window_set_transient_for(UnsafeMutableRawPointer(gobject).assumingMemoryBound(to: GtkWindow.self), nil)
        }
    }

    var window: UnsafeMutablePointer<GtkWindow> { pointer() }

    /// The window title shown by the window manager (and the header bar, when it has no title widget).
    public var title: String? {
        get { gtk_window_get_title(window).map { String(cString: $0) } }
        set { gtk_window_set_title(window, newValue) }
    }

    /// The window's content.
    public func setChild(_ child: Widget?) { gtk_window_set_child(window, child?.widget) }

    /// The widget shown as the title bar (a ``HeaderBar`` for client-side decorations).
    public func setTitlebar(_ titlebar: Widget?) { gtk_window_set_titlebar(window, titlebar?.widget) }

    /// Sets the initial size in pixels (the user may resize).
    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(window, Int32(clamping: width), Int32(clamping: height))
    }

    /// Makes this window modal (blocks input to other windows of the app) or not.
    public var isModal: Bool {
        get { gtk_window_get_modal(window) != 0 }
        set { gtk_window_set_modal(window, newValue ? 1 : 0) }
    }

    /// Sets the parent window: the window manager keeps this one above it and centres it on it.
    package func setTransient(for parent: UnsafeMutablePointer<GtkWindow>?) {
        if let old = transientParentReference, parentWatchID != 0 { old.disconnect(parentWatchID) }
        parentWatchID = 0
        gtk_window_set_transient_for(window, parent)
        transientParentReference = parent.map { Object.wrapping(UnsafeMutableRawPointer($0)) }
        if let parentObject = transientParentReference {
            // The parent's destruction, heard from the parent itself (its `destroy`).
            parentWatchID = parentObject.connect("destroy") { [weak self] _ in
                guard let self, self.destroysWithParent else { return }
                self.destroy()
            }
        }
    }

    /// The parent set with ``setTransient(for:)``.
    package var transientParent: UnsafeMutablePointer<GtkWindow>? { gtk_window_get_transient_for(window) }

    /// Whether the window is destroyed when its transient parent is. GTK's own
    /// `destroy-with-parent` waits for the parent's finalization, which a Swift wrapper of the parent can
    /// postpone indefinitely; this follows ``onDestroy(_:)`` of the parent instead.
    public var destroysWithParent = false

    /// Shows the window and raises it.
    public func present() { gtk_window_present(window) }

    /// Asks the window to close, as the window manager's close button does: emits `close-request`, and
    /// the window is destroyed unless a handler returns true.
    public func close() { gtk_window_close(window) }

    /// Destroys the window now, with no `close-request`, and runs its ``onDestroy(_:)`` handlers — also
    /// when it was never shown (GTK then unrealizes nothing, and emits `destroy` only when the last
    /// reference goes).
    public func destroy() {
        gtk_window_destroy(window)
        // GTK has let it go; another holder of a reference (a C library's) must not keep it from ending.
        disposeOnce()
    }

    /// Whether the window is on screen.
    public var isShown: Bool { gtk_widget_get_visible(widget) != 0 }

    /// The widget that has keyboard focus in this window, if any.
    package var focusWidget: UnsafeMutablePointer<GtkWidget>? { gtk_window_get_focus(window) }

    /// Takes the focus off the window's focus widget and gives it back: GTK tells screen readers of the
    /// focus again (it does on a change only). Nothing when no widget has focus.
    /// A result waiting there to be heard (``announce(_:)``) stays, and is heard with it once.
    package func refocus() {
        guard let focus = gtk_window_get_focus(window) else { return }
        let waiting = announcement.flatMap { $0.target == focus ? $0.message : nil }
        announcement?.end()
        gtk_window_set_focus(window, nil)
        if let waiting { announcement = Announcement(waiting, on: focus, in: self) }
        gtk_widget_grab_focus(focus)
    }

    /// Has a screen reader hear where the keyboard focus is once this window is active (now, or when the
    /// window manager activates it) and `delay` seconds later: the focus is moved off its widget and back
    /// (``refocus()``), or, when no widget has it, to the first control (as Tab would). Main actor.
    ///
    /// GTK 4.8 tells screen readers of a focus change only. A window that gets the focus back with the
    /// same widget focused (a dialog closed over it, focus returned to where it was), or that is shown
    /// with nothing focused (libadwaita's About), was heard by Orca 43 only as "Postcard frame.", or
    /// not at all. The delay (0.15 s) lets the window manager's and GTK's own events of the activation
    /// come first, so that the screen reader hears the focus last. A later call replaces an earlier
    /// one still waiting. Nothing is said while a window transient for this one (a dialog over it) is
    /// shown: the screen reader hears that one's focus.
    package func sayFocusOnceActive(delay: Double = 0.15) {
        if sayFocusHandler != 0 { disconnect(sayFocusHandler) }
        sayFocusHandler = 0
        let say: @MainActor () -> Void = { [weak self] in
            MainLoopBridge.after(.seconds(delay)) { [weak self] in
                // A dialog shown over it meanwhile has the user's attention (its focus is said): focusing
                // here would be said after it, and under load GTK still took this window for the active one.
                guard let self, self.isActive, self.isShown, !self.hasWindowShownOverIt else { return }
                if gtk_window_get_focus(self.window) != nil {
                    self.refocus()
                } else {
                    _ = gtk_widget_child_focus(self.widget, GTK_DIR_TAB_FORWARD)
                }
            }
        }
        if isActive { say(); return }
        sayFocusHandler = connect("notify::is-active") { [weak self] _ in
            guard let self, self.isActive else { return }
            self.disconnect(self.sayFocusHandler)
            self.sayFocusHandler = 0
            say()
        }
    }

    /// Whether another window shown now is transient for this one (a dialog over it).
    private var hasWindowShownOverIt: Bool {
        let toplevels = gtk_window_list_toplevels()
        defer { g_list_free(toplevels) }
        var node = toplevels
        while let current = node {
            if let other = current.pointee.data?.assumingMemoryBound(to: GtkWindow.self),
               gtk_window_get_transient_for(other) == window,
               gtk_widget_get_visible(UnsafeMutableRawPointer(other).assumingMemoryBound(to: GtkWidget.self)) != 0 {
                return true
            }
            node = current.pointee.next
        }
        return false
    }

    /// Sets the focus widget of the window (nil clears it).
    package func setFocus(_ widget: UnsafeMutablePointer<GtkWidget>?) { gtk_window_set_focus(window, widget) }

    /// Runs `handler` on `close-request` (window manager close, ``close()``). Return true to keep the
    /// window open, false to let GTK destroy it.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) {
        connect("close-request") { args in args.setReturn(handler()) }
    }

    /// Runs `handler` once when the window is destroyed, by any path: ``destroy()``, GTK destroying it
    /// (closing, app quit), or its parent being destroyed with ``destroysWithParent``: when its `destroy`
    /// signal is emitted (see the type's documentation for why that is at once).
    /// The handler lasts as long as the window wrapper (as a signal handler does); for one that ends
    /// earlier, use ``observeDestruction(_:)``.
    public func onDestroy(_ handler: @escaping @MainActor () -> Void) {
        observeDestruction(handler).store(in: &ownObservations)
    }

    /// Calls `handler` once when the window is destroyed (see ``onDestroy(_:)``), until the returned
    /// token is cancelled or released.
    public func observeDestruction(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        destructionObservers.add { handler() }
    }

    private let destructionObservers = Observers<Void>()
    private var ownObservations: [ObservationToken] = []
    nonisolated(unsafe) private var parentWatchID: UInt = 0

    private func windowDestroyed() {
        guard !isDestroyed else { return }
        isDestroyed = true
        destructionObservers.notify(())
        destructionObservers.cancelAll()  // once
    }

    /// Whether `window` is still in GTK's list of toplevels (not destroyed).
    package static func isListed(_ window: UnsafeMutablePointer<GtkWindow>) -> Bool { all().contains(window) }

    /// Makes this a dialog of `parent`: modal, transient for it (kept above it, centred on it) and
    /// destroyed with it. With no parent it is only modal.
    package func makeModal(over parent: UnsafeMutablePointer<GtkWindow>?) {
        isModal = true
        setTransient(for: parent)
        destroysWithParent = true
        // Part of the parent's application, so the application's shortcuts (Ctrl+W, Ctrl+Q) work here too.
        if let parent, let application = gtk_window_get_application(parent) {
            gtk_window_set_application(window, application)
        }
    }

    /// Client-side decorations with no separate title bar: the content draws its own bar (a header bar
    /// inside the content, as libadwaita windows do). Without this, GTK would ask the window manager
    /// for a title bar.
    public func hideTitlebar() {
        let none = Box(.horizontal)
        none.isVisible = false
        setTitlebar(none)
    }

    /// Makes `widget` the default widget: Return in an entry activates it.
    public func setDefaultWidget(_ widget: Widget?) { gtk_window_set_default_widget(window, widget?.widget) }

    /// Dialogs shown inside this window (bottom sheets) that are modal to it, as a transient modal
    /// window would be: while there are any, ``hasModalChild`` is true.
    package var modalSheets = 0

    /// The result a screen reader is to hear on the focused control (``announce(_:)``).
    var announcement: Announcement?

    /// When the focus widget last changed (`g_get_monotonic_time`, microseconds), or 0: a result
    /// announced on a control that has just been focused waits (``announce(_:orFocusing:)``).
    var focusChangedAt: gint64 = 0

    private func watchFocusChanges() {
        connect("notify::focus-widget") { [weak self] _ in self?.focusChangedAt = g_get_monotonic_time() }
    }

    /// The handler waiting for this window's activation (``sayFocusOnceActive(delay:)``), or 0.
    private var sayFocusHandler: UInt = 0

    /// What shows itself in this window (a navigation window), held weakly; found from the GtkWindow
    /// through its one wrapper.
    package weak var host: AnyObject?

    /// Whether a modal dialog is over this window (input to this window is blocked): a visible modal
    /// window transient for it, or a dialog drawn inside it (a bottom sheet).
    public var hasModalChild: Bool { modalSheets > 0 || hasModalChildWindow }

    /// Whether a modal window transient for this one is shown (a dialog window over it; not counting
    /// dialogs drawn inside it).
    public var hasModalChildWindow: Bool {
        Self.all().contains { other in
            other != window && gtk_window_get_transient_for(other) == window
                && gtk_window_get_modal(other) != 0 && gtk_widget_get_visible(UnsafeMutableRawPointer(other).assumingMemoryBound(to: GtkWidget.self)) != 0
        }
    }

    /// Brings the window to the front (``present()``), or, while modal windows are over it, those
    /// windows instead, so a dialog the user is in stays in front of its parent.
    public func presentWithModalChildren() {
        let modal = Self.all().filter { other in
            other != window && gtk_window_get_transient_for(other) == window && gtk_window_get_modal(other) != 0
                && gtk_widget_get_visible(UnsafeMutableRawPointer(other).assumingMemoryBound(to: GtkWidget.self)) != 0
        }
        if modal.isEmpty { present() } else { modal.forEach { gtk_window_present($0) } }
    }

    /// Whether the window has the keyboard focus of the desktop (`is-active`).
    public var isActive: Bool { gtk_window_is_active(window) != 0 }

    /// Every toplevel window of the process.
    package static func all() -> [UnsafeMutablePointer<GtkWindow>] {
        let list = gtk_window_list_toplevels()
        defer { g_list_free(list) }
        var result: [UnsafeMutablePointer<GtkWindow>] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { result.append(data.assumingMemoryBound(to: GtkWindow.self)) }
            node = current.pointee.next
        }
        return result
    }
}
