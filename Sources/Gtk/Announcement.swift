import CGtk

extension Window {
    /// Has a screen reader say `message` — the result of what the user just did ("Posted", "Post
    /// deleted") — where the keyboard focus of this window is, or will be when the window is active again
    /// (a dialog closing gives it back). Main actor.
    ///
    /// GTK 4.8 has no way to announce (`gtk_accessible_announce` is GTK 4.14), and Orca 43 speaks no
    /// live region or alert of a GTK 4 app. What it does speak is the focused control's accessible
    /// description: after the control's name and role when focus lands on it, and alone when it changes
    /// while the control has focus. So `message` becomes the description of the window's focus widget
    /// (`gtk_root_get_focus`) until focus moves to another control or the window stops being active, and
    /// the control's own description (its tooltip, when that says more than its name) then comes back:
    /// the message is heard once, and not again the next time the control is reached. A second
    /// announcement replaces the first.
    ///
    /// When no control has focus (the one that had it was just taken away, say a deleted post's row),
    /// `fallback` is given the message and then the focus, in that order, so that the message is heard
    /// with it once (Orca says a focused control's description again when it changes after the focus
    /// came). With no focus and no `fallback` that takes focus, nothing is done: nothing would be heard.
    /// - Returns: whether a control was given the message.
    @discardableResult
    public func announce(_ message: String, orFocusing fallback: Widget? = nil) -> Bool {
        announcement?.end()
        announcement = nil
        guard !message.isEmpty else { return false }
        if let focus = gtk_root_get_focus(OpaquePointer(widget)) {
            announcement = Announcement(message, on: focus, in: self, after: settlingTime)
            return true
        }
        guard let fallback, fallback.rootWindow == window else { return false }
        let made = Announcement(message, on: fallback.widget, in: self)
        announcement = made
        guard fallback.grabFocus() else {
            made.end()
            return false
        }
        return true
    }

    /// Moves the keyboard focus to `target` with `message` said there: the message becomes its description
    /// first, then it takes focus, so that a screen reader says it once, with the control (as
    /// ``announce(_:orFocusing:)`` does when nothing has focus). For a result that takes away the control
    /// that had focus (a deleted post's row, its page), where focus would otherwise land by chance.
    /// Main actor.
    /// - Returns: whether `target` took the focus.
    @discardableResult
    public func announce(_ message: String, focusing target: Widget) -> Bool {
        announcement?.end()
        announcement = nil
        guard !message.isEmpty, target.rootWindow == window else { return false }
        if target.hasFocus, gtk_root_get_focus(OpaquePointer(widget)) == target.widget {
            announcement = Announcement(message, on: target.widget, in: self, after: settlingTime)
            return true
        }
        let made = Announcement(message, on: target.widget, in: self)
        announcement = made
        guard target.grabFocus(), gtk_root_get_focus(OpaquePointer(widget)) == target.widget else {
            made.end()
            return false
        }
        return true
    }

    /// How long (seconds) a message for the control that has the focus waits: until half a second after
    /// the focus came to it. Orca 43 reads the description when it says a newly focused control, and
    /// says it again when told it changed: set while the focus event still waits in Orca's queue, the
    /// message was heard twice ("Reply posted. Reply posted").
    private var settlingTime: Double {
        guard focusChangedAt > 0 else { return 0 }
        return max(0, 1.0 - Double(g_get_monotonic_time() - focusChangedAt) / 1_000_000)
    }

    /// The message a screen reader hears on the focused control now (``announce(_:orFocusing:)``), or nil when none
    /// is pending. For tests.
    public var pendingAnnouncement: String? { announcement?.message }
}

extension Widget {
    /// Has a screen reader say `message` where the keyboard focus is in the window this widget is in
    /// (``Window/announce(_:orFocusing:)``): for a page that reports a change of its own state ("Your
    /// comment isn't saved yet"), which Orca 43 would not say when shown. Nothing when the widget is in
    /// no window, or nothing in its window has focus. Main actor.
    /// - Returns: whether a control was given the message.
    @discardableResult
    public func announceInWindow(_ message: String) -> Bool {
        guard let root = rootWindow, let window = Object.wrapper(of: UnsafeMutableRawPointer(root)) as? Window else { return false }
        return window.announce(message)
    }
}

/// One ``Window/announce(_:)``: the focused control described by the message until focus leaves it.
@MainActor
final class Announcement {
    let message: String
    let target: UnsafeMutablePointer<GtkWidget>
    private weak var window: Window?
    private var handlers: [UInt] = []
    private var wasActive: Bool
    private var ended = false

    /// The message becomes `target`'s description `delay` seconds from now (at once for 0), unless the
    /// announcement has ended by then.
    init(_ message: String, on target: UnsafeMutablePointer<GtkWidget>, in window: Window, after delay: Double = 0) {
        self.message = message
        self.target = target
        self.window = window
        wasActive = window.isActive
        g_object_ref(target)
        if delay > 0 {
            MainLoopBridge.after(.seconds(delay)) { [weak self] in
                guard let self, !self.ended else { return }
                navgtk_accessible_set_description(self.target, self.message)
            }
        } else {
            navgtk_accessible_set_description(target, message)
        }
        handlers.append(window.connect("notify::focus-widget") { [weak self] _ in
            guard let self, let window = self.window else { return }
            if gtk_root_get_focus(OpaquePointer(window.widget)) != self.target {
                self.end()
            }
        })
        handlers.append(window.connect("notify::is-active") { [weak self] _ in
            guard let self, let window = self.window else { return }
            if window.isActive { self.wasActive = true } else if self.wasActive { self.end() }
        })
        // Not left on a control that is gone from its window.
        handlers.append(Signals.connect(UnsafeMutableRawPointer(target), "unrealize", after: false) { [weak self] _ in
            self?.end()
        })
    }

    /// Gives the control its own description back (``Widget/setAccessibleDescription(_:)``'s, else its
    /// tooltip when that is more than its name, as ``Widget/tooltip`` sets it), once.
    func end() {
        guard !ended else { return }
        ended = true
        if let window {
            for id in handlers.dropLast() { window.disconnect(id) }
        }
        if let last = handlers.last { Signals.disconnect(UnsafeMutableRawPointer(target), last) }
        if let own = g_object_get_data(UnsafeMutableRawPointer(target).assumingMemoryBound(to: GObject.self), Widget.ownDescriptionKey) {
            navgtk_accessible_set_description(target, own.assumingMemoryBound(to: CChar.self))
        } else if let tip = gtk_widget_get_tooltip_text(target).map({ String(cString: $0) }), !repeatsLabel(tip) {
            navgtk_accessible_set_description(target, tip)
        } else {
            navgtk_accessible_reset_description(target)
        }
        if window?.announcement === self { window?.announcement = nil }
        g_object_unref(target)
    }

    private func repeatsLabel(_ text: String) -> Bool {
        guard navgtk_accessible_has_label(target) != 0 else { return false }
        guard let difference = navgtk_accessible_check_label(target, text) else { return true }
        g_free(difference)
        return false
    }
}
