import CGtk
import Gtk
import Navigation

/// A small modal question with two answers, e.g. "Discard this post?" — **Keep Editing** / **Discard**
/// (GNOME HIG: a specific verb for the destructive answer, which is styled `destructive-action`; the
/// safe answer is the default and what Escape or closing the window means).
///
/// Main actor only.
@MainActor
public final class ConfirmationDialog {
    /// The question's window (transient for and modal to its parent).
    public let window = Window(role: .alert)
    /// The safe answer ("Keep Editing"); the default.
    public let keepButton: Button
    /// The destructive answer ("Discard").
    public let confirmButton: Button
    /// The heading label.
    public let headingLabel: Label

    private let answer = FlowCompletion<Bool>()
    /// Where keyboard focus was in the parent, given back when the question closes (as GTK's own dialogs
    /// and libadwaita's `AdwMessageDialog` do).
    private let focusReturn: FocusReturn

    /// The key of the question's window's data that keeps the question (``shown(over:)`` reads it).
    private static let dataKey = "navgtk-confirmation-dialog"

    /// The questions showing now — all of them, or only those over `parent` — read from GTK's own list
    /// of windows (each question is a window of its own, transient for its parent), in no particular
    /// order. For tests and tools that answer a question as a user would; nothing is kept beside GTK's
    /// list. Main actor.
    public static func shown(over parent: Window? = nil) -> [ConfirmationDialog] {
        Window.all().compactMap { window -> ConfirmationDialog? in
            guard parent.map({ gtk_window_get_transient_for(window) == $0.pointer(as: GtkWindow.self) }) ?? true,
                  let data = g_object_get_data(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GObject.self), dataKey)
            else { return nil }
            return Unmanaged<ConfirmationDialog>.fromOpaque(data).takeUnretainedValue()
        }
    }

    /// Creates (does not show) the question over `parent`'s window.
    public init(over parent: Widget?, heading: String, body: String, keepLabel: String, confirmLabel: String) {
        keepButton = Button(label: keepLabel)
        confirmButton = Button(label: confirmLabel)
        headingLabel = Label(heading)
        focusReturn = FocusReturn(in: parent?.rootWindow)
        window.makeModal(over: parent?.rootWindow)
        window.title = heading
        window.addCSSClass("confirmation")
        window.hideTitlebar()
        headingLabel.addCSSClass("title-2")
        headingLabel.wraps = true
        let bodyLabel = Label(body)
        bodyLabel.wraps = true
        let buttons = Box(.horizontal, spacing: 12)
        buttons.horizontalAlignment = .center
        confirmButton.addCSSClass("destructive-action")
        buttons.append(keepButton)
        buttons.append(confirmButton)
        let column = Box(.vertical, spacing: 12)
        column.setMargins(top: 24, bottom: 24, start: 24, end: 24)
        column.setSizeRequest(width: 300)
        column.append(headingLabel)
        column.append(bodyLabel)
        column.append(buttons)
        window.setChild(column)
        window.setDefaultWidget(keepButton)
        keepButton.onClicked { [weak self] in self?.finish(false) }
        confirmButton.onClicked { [weak self] in self?.finish(true) }
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, _ in
            guard keyval == KeyValue.escape else { return false }
            self?.finish(false)
            return true
        }
        window.addController(keys)
        window.onCloseRequest { [weak self] in self?.finish(false); return true }
        window.onDestroy { [weak self] in self?.finish(false) }
    }

    /// Shows the question and waits for the answer: true for the destructive answer, false for the
    /// safe one, Escape, closing the window, the parent going away, or the caller's task cancelled.
    public func ask() async -> Bool {
        show()
        return await answer.value(onCancel: { [weak self] in self?.finish(false) })
    }

    /// Shows the question and calls `onAnswer` with the answer (as ``ask()`` returns it) as soon as it
    /// is given, in the same main-loop turn — for owners whose next step must not wait a turn.
    public func ask(then onAnswer: @escaping @MainActor (Bool) -> Void) {
        answer.whenResolved(onAnswer)
        show()
    }

    /// Answers with the safe choice and closes the question (its owner is going away).
    public func withdraw() { finish(false) }

    private func show() {
        guard !answer.isResolved else { return }  // answered (withdrawn, its window gone) before it was shown
        // While shown, the question's window keeps the question (released when it is answered).
        g_object_set_data_full(window.pointer(as: GObject.self), Self.dataKey, Unmanaged.passRetained(self).toOpaque()) { data in
            Unmanaged<ConfirmationDialog>.fromOpaque(data!).release()
        }
        window.present()
        keepButton.grabFocus()
    }

    private func finish(_ confirmed: Bool) {
        guard answer.resolve(confirmed) else { return }
        withExtendedLifetime(self) {
            g_object_set_data(window.pointer(as: GObject.self), Self.dataKey, nil)
            window.destroy()
            focusReturn.restore()
        }
    }
}
