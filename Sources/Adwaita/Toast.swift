import CAdwaita
import CGtk
import Gtk

/// A short message at the bottom of a window that says what just happened ("Posted", "Link copied"),
/// optionally with one action ("View", "Undo"), and goes by itself after a few seconds: libadwaita's
/// `AdwToast`, shown by a ``ToastOverlay``. As the GNOME HIG says, a toast never holds the only way to do
/// something and is not used for errors that need an answer. Main actor only.
@MainActor
public final class Toast {
    /// Whether a toast is shown at once (over the one showing, which comes back after it) or waits its turn.
    public enum Priority: Sendable {
        /// Waits until the toasts before it have gone (`ADW_TOAST_PRIORITY_NORMAL`).
        case normal
        /// Shown at once (`ADW_TOAST_PRIORITY_HIGH`).
        case high
    }

    /// What the toast says (plain text).
    public private(set) var title: String
    /// The action's label ("View", "Undo"), if it has one.
    public let buttonLabel: String?
    /// Whether the toast has gone: its time ran out, it was closed, or its action was used.
    public private(set) var isDismissed = false
    /// Whether it is shown at once or waits its turn.
    public let priority: Priority
    /// Whether the user used its action.
    public private(set) var wasActionUsed = false
    /// Called once when the toast goes, however it goes (after ``onAction``, if the action was used).
    public var onDismissed: (@MainActor () -> Void)?

    let toast: Object
    private let onAction: (@MainActor () -> Void)?

    /// A toast saying `title`, gone after `timeout` seconds (libadwaita's default is 5; 0: until
    /// ``dismiss()``), with an action button `buttonLabel` that runs `action` (the toast then goes).
    public init(_ title: String, timeout: UInt32 = 5, priority: Priority = .normal, buttonLabel: String? = nil,
                action: (@MainActor () -> Void)? = nil) {
        self.title = title
        self.buttonLabel = buttonLabel
        self.priority = priority
        onAction = action
        let made = adw_toast_new(markupEscaped(title))!  // the title is markup
        toast = Object(UnsafeMutableRawPointer(made), transfer: .full)
        adw_toast_set_timeout(made, timeout)
        adw_toast_set_priority(made, priority == .high ? ADW_TOAST_PRIORITY_HIGH : ADW_TOAST_PRIORITY_NORMAL)
        if let buttonLabel { adw_toast_set_button_label(made, buttonLabel) }
        toast.connect("button-clicked") { [weak self] _ in
            guard let self, !self.isDismissed else { return }  // gone, still drawn for a moment (ToastOverlay)
            self.wasActionUsed = true
            self.onAction?()
        }
        toast.connect("dismissed") { [weak self] _ in
            guard let self else { return }
            // libadwaita 1.2's overlay frees a toast's record when it has hidden, while a show animation may
            // still run and write through it (see ToastOverlay): a toast that goes too soon after one started
            // to show has gone for the app at once, and is hidden by libadwaita a moment later.
            let holdBack = self.overlay?.mustHoldBackDismissal(of: self) == true
            self.dismissed()
            if holdBack, let overlay = self.overlay {
                overlay.holdBack(self)
                g_signal_stop_emission_by_name(self.toast.gobject, "dismissed")
            }
        }
    }

    /// The overlay the toast was added to (it keeps the toast while it shows).
    weak var overlay: ToastOverlay?

    /// Says `title` instead, in place (a toast showing changes its text).
    public func update(title: String) {
        self.title = title
        adw_toast_set_title(toast.pointer(), markupEscaped(title))
    }

    /// Uses the toast's action as its button does (Undo by Ctrl+Z, say), and the toast goes. Does nothing
    /// when it has no action or has gone already.
    public func activateAction() {
        guard !isDismissed, buttonLabel != nil else { return }
        wasActionUsed = true
        onAction?()
        dismiss()
    }

    /// Hides the toast now (or takes it out of the queue): it has gone at once (``isDismissed``,
    /// ``onDismissed``), though one that started to show less than half a second ago is drawn, inert, until
    /// its show animation has ended (see ``ToastOverlay``).
    public func dismiss() {
        guard !isDismissed else { return }
        adw_toast_dismiss(toast.pointer())
    }

    private var dismissHandlers: [@MainActor () -> Void] = []
    func whenDismissed(_ handler: @escaping @MainActor () -> Void) { dismissHandlers.append(handler) }

    private func dismissed() {
        guard !isDismissed else { return }
        isDismissed = true
        for handler in dismissHandlers { handler() }
        dismissHandlers = []
        onDismissed?()
    }
}

/// Shows ``Toast``s over its child, one at a time at the bottom centre, in the order they were added
/// (high-priority ones first): libadwaita's `AdwToastOverlay`. Put it around a window's content.
/// Main actor only.
///
/// libadwaita 1.2 (Debian 12's) frees a toast's record when the toast has hidden, but the toast's show
/// animation (300 ms, or 500 ms when it replaces one that is hiding) can end later or in the same frame and
/// then writes through the freed record: a GLib critical, or a crash (GNOME/libadwaita 1674ebc9, fixed in
/// 1.3). A user meets it by pressing Undo at once after deleting twice in a row. So libadwaita hides no
/// toast while a show animation may still run: a toast dismissed then (by ``Toast/dismiss()``, its buttons
/// or its timeout) has gone for the app at once (``Toast/isDismissed``, ``toasts``), but stays drawn, taking
/// no clicks, until a frame of the overlay's clock is 500 ms past the last toast's start; libadwaita hides
/// it after that frame, once its own animations have ticked in it.
@MainActor
public final class ToastOverlay: Widget {
    /// The toasts added and not yet gone, in the order they were added: the one showing, and the ones
    /// waiting.
    public private(set) var toasts: [Toast] = []

    /// Whether the overlay draws any toast now: one showing, or one that has gone and is still sliding
    /// away or held back (see above). False once every toast added has gone from the screen too.
    public var drawsToasts: Bool {
        gtk_widget_get_first_child(widget).flatMap { gtk_widget_get_next_sibling($0) } != nil
    }

    /// The frame time (µs) before which a toast's show animation may still run; 0: none runs.
    private var showsRunUntil: Int64 = 0
    /// Whether the frame that passed `showsRunUntil` has ended (its animations ticked): toasts may go.
    private var showsEnded = true
    /// Whether a high-priority toast has come while another showed (libadwaita then queues that one again,
    /// with its show animation perhaps still running).
    private var hasPostponedAToast = false
    /// Toasts whose dismissal waits for `showsEnded`, in the order they were dismissed.
    private var heldBack: [Toast] = []
    /// The tick callback waiting for `showsRunUntil`, while there is one.
    private var waitingTick: UInt32?
    /// The longest show animation of libadwaita 1.2's overlay (`REPLACE_DURATION`), in microseconds.
    private static let longestShow: Int64 = 500_000

    /// An overlay around `child`.
    public init(_ child: Widget) {
        super.init(UnsafeMutableRawPointer(adw_toast_overlay_new()), transfer: .full)
        adw_toast_overlay_set_child(pointer(), child.widget)
        // An overlay taken off screen has skipped every animation (libadwaita's own unmap handlers run
        // before this one): the toasts held back go now.
        connect("unmap", after: true) { [weak self] _ in self?.releaseHeldBack() }
    }

    /// Whether `toast`'s dismissal must not reach libadwaita now: a show animation may still run, and the
    /// toast has been shown (one that has only waited its turn has no animation, and goes at once, unless a
    /// high-priority toast has put one that was showing back in the queue).
    func mustHoldBackDismissal(of toast: Toast) -> Bool {
        isMapped && !showsEnded && (hasPostponedAToast || toastWidget(showing: toast) != nil)
    }

    /// Keeps `toast`, gone for the app, from libadwaita's overlay until no show animation runs; it is
    /// dismissed there then. Meanwhile it is drawn but takes no clicks.
    func holdBack(_ toast: Toast) {
        guard !heldBack.contains(where: { $0 === toast }) else { return }
        heldBack.append(toast)
        if let drawn = toastWidget(showing: toast) { gtk_widget_set_can_target(drawn, 0) }
        waitForShowsToEnd()
    }

    /// The widget libadwaita draws `toast` with (a child of the overlay after its content), if it is shown.
    private func toastWidget(showing toast: Toast) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(widget).flatMap { gtk_widget_get_next_sibling($0) }
        while let current = child {
            if shownToast(of: current) == UnsafeMutableRawPointer(toast.toast.gobject) { return current }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The `AdwToast` a toast widget of libadwaita's shows (its `toast` property), or nil.
    private func shownToast(of toastWidget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutableRawPointer? {
        let object = UnsafeMutableRawPointer(toastWidget).assumingMemoryBound(to: GObject.self)
        let objectClass = UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        guard let property = g_object_class_find_property(objectClass, "toast"),
              property.pointee.value_type == adw_toast_get_type() else { return nil }
        var value = GValue()
        g_value_init(&value, adw_toast_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(object, "toast", &value)
        return g_value_get_object(&value)
    }

    /// A toast may have started to show just now (one was added, or one went and the next is shown).
    private func showMayHaveStarted() {
        guard isMapped, let now = frameTime else { return }  // unmapped: libadwaita animates nothing
        showsRunUntil = max(showsRunUntil, now + Self.longestShow)
        showsEnded = false
        waitForShowsToEnd()
    }

    private func waitForShowsToEnd() {
        guard waitingTick == nil else { return }
        waitingTick = addTickCallback { [weak self] frameTime in
            guard let self else { return false }
            guard frameTime >= self.showsRunUntil else { return true }
            self.waitingTick = nil
            // libadwaita's animations tick after this callback in this frame (GTK runs the newest first);
            // an idle comes once the frame is done.
            MainLoopBridge.afterLayout { [weak self] in
                guard let self, self.waitingTick == nil else { return }  // else another toast started meanwhile
                self.showsEnded = true
                self.releaseHeldBack()
            }
            return false
        }
    }

    private func releaseHeldBack() {
        // Each may start the next toast's show, which holds the rest back again.
        while !heldBack.isEmpty, showsEnded || !isMapped {
            let toast = heldBack.removeFirst()
            // Emitted, not `adw_toast_dismiss`: the toast's own first handler has already let go of its
            // overlay (so dismissing does nothing now), while the overlay's handler, which hides it, has not run.
            navgtk_emit(toast.toast.gobject, "dismissed")
        }
    }

    /// Shows `toast` (at once, or after the ones before it); the overlay keeps it until it goes.
    ///
    /// A toast's action button is named once for screen readers, and its close button "Close", when it is
    /// shown (GTK 4.8 reads libadwaita's mnemonic button by its label twice, "View View", and the close icon
    /// as "GtkImage"): at once, or, for one that waits its turn, when the toast before it goes.
    /// Adding a toast the overlay shows already starts its time again; adding one that is going does nothing.
    public func add(_ toast: Toast) {
        guard !heldBack.contains(where: { $0 === toast }) else { return }  // going: not shown again
        if !toasts.contains(where: { $0 === toast }) {
            toasts.append(toast)
            toast.overlay = self
            toast.whenDismissed { [weak self, weak toast] in
                self?.toasts.removeAll { $0 === toast }
                // The next toast waiting its turn is shown now: its buttons are named once it is laid out.
                MainLoopBridge.afterLayout { [weak self] in self?.nameButtonsOnce() }
            }
            // After libadwaita's own handler (a dismissal held back never gets here): the next toast shows.
            toast.toast.connect("dismissed", after: true) { [weak self] _ in self?.showMayHaveStarted() }
        }
        if toast.priority == .high, toasts.contains(where: { $0 !== toast }) { hasPostponedAToast = true }
        g_object_ref(toast.toast.gobject)  // the overlay takes a reference of its own (transfer full)
        adw_toast_overlay_add_toast(pointer(), toast.toast.pointer())
        showMayHaveStarted()
        nameButtonsOnce()
    }

    /// The action button drawn in a toast now showing whose label reads `label` (without its mnemonic
    /// mark: "Undo"), or nil: to press it as a user would, from a tour or a test. A toast that has gone and
    /// is still drawn for a moment (see above) is not searched.
    public func shownButton(labeled label: String) -> Button? {
        func find(in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
            if isInstance(widget, ofExactly: gtk_button_get_type()), gtk_widget_is_drawable(widget) != 0,
               let text = gtk_button_get_label(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)),
               String(cString: text).filter({ $0 != "_" }) == label {
                return widget
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                if let found = find(in: current) { return found }
                child = gtk_widget_get_next_sibling(current)
            }
            return nil
        }
        let going = Set(heldBack.map { UnsafeMutableRawPointer($0.toast.gobject) })
        var child = gtk_widget_get_first_child(widget).flatMap { gtk_widget_get_next_sibling($0) }
        while let current = child {
            let isGoing = shownToast(of: current).map { going.contains($0) } ?? false
            if !isGoing, let found = find(in: current) { return Button.button(wrapping: found) }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    private func nameButtonsOnce() {
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if isInstance(widget, ofExactly: gtk_button_get_type()) {
                let button = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)
                if gtk_button_get_label(button) != nil {
                    Button.button(wrapping: widget).nameMnemonicLabelOnce()
                } else if navgtk_accessible_has_label(widget) == 0 {
                    // The toast's own close button: an icon GTK 4.8 reads as "GtkImage".
                    navgtk_accessible_set_label(widget, localized("Close"))
                    gtk_widget_set_tooltip_text(widget, localized("Close"))
                }
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        // The toasts are the overlay's children after its content (the first child).
        var child = gtk_widget_get_first_child(widget).flatMap { gtk_widget_get_next_sibling($0) }
        while let current = child {
            visit(current)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}

