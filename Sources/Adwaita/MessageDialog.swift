import CAdwaita
import CGtk
import Gtk
import Navigation

/// A small modal question with two answers, e.g. "Discard this post?" — **Keep Editing** / **Discard**:
/// libadwaita's `AdwMessageDialog`. As the GNOME HIG asks, the destructive answer is a specific verb drawn
/// as destructive (`ADW_RESPONSE_DESTRUCTIVE`); the safe answer is the default, and what Escape or closing
/// the window means (its close response). Screen readers hear it as a dialog named by its heading. When it
/// closes, keyboard focus goes back where it was in the parent.
///
/// Main actor only.
@MainActor
public final class MessageDialog {
    /// The question's window (transient for and modal to its parent, destroyed with it).
    public let window: Window
    /// The question, e.g. "Discard this post?".
    public let heading: String
    /// The safe answer's button ("Keep Editing"), the default.
    public let keepButton: Button
    /// The destructive answer's button ("Discard").
    public let confirmButton: Button

    private let answer = FlowCompletion<Answer>()
    private let focusReturn: FocusReturn
    private static let keepResponse = "keep", confirmResponse = "confirm"
    /// The key of the question's window's data that keeps the question (``shown(over:)`` reads it).
    private static let dataKey = "postcard-message-dialog"

    /// The questions showing now — all of them, or only those over `parent` — read from GTK's own list of
    /// windows, in no particular order: for tests and tools that answer as a user would. Main actor.
    public static func shown(over parent: Window? = nil) -> [MessageDialog] {
        Window.all().compactMap { window -> MessageDialog? in
            guard parent.map({ gtk_window_get_transient_for(window) == $0.pointer(as: GtkWindow.self) }) ?? true,
                  let data = g_object_get_data(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GObject.self), dataKey)
            else { return nil }
            return Unmanaged<MessageDialog>.fromOpaque(data).takeUnretainedValue()
        }
    }

    /// Creates (does not show) the question over `parent`'s window; `body` says what the destructive
    /// answer loses. Labels are plain text (an `_` marks a mnemonic, as in GTK).
    public init(over parent: Widget?, heading: String, body: String, keepLabel: String, confirmLabel: String) {
        self.heading = heading
        let parentWindow = parent?.rootWindow
        focusReturn = FocusReturn(in: parentWindow)
        let dialog = adw_message_dialog_new(parentWindow, heading, body)!
        let question = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)
        adw_message_dialog_add_response(question, Self.keepResponse, keepLabel)
        adw_message_dialog_add_response(question, Self.confirmResponse, confirmLabel)
        adw_message_dialog_set_response_appearance(question, Self.confirmResponse, ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(question, Self.keepResponse)
        adw_message_dialog_set_close_response(question, Self.keepResponse)
        window = Window(wrapping: UnsafeMutableRawPointer(dialog))
        window.makeModal(over: parentWindow)
        // libadwaita closes the dialog before it reports the answer: hidden, not destroyed, so the answer
        // is heard first (the question destroys its window once answered).
        gtk_window_set_hide_on_close(window.pointer(), 1)
        // The answers' buttons, as libadwaita made them (found by their labels), for keyboard focus and
        // for tests that press them.
        let buttons = Self.buttons(in: window)
        func button(labelled label: String) -> Button {
            buttons.first { $0.label == label } ?? Button(label: label)
        }
        keepButton = button(labelled: keepLabel)
        confirmButton = button(labelled: confirmLabel)
        // libadwaita makes them mnemonic buttons (two of each: for a wide and a narrow dialog), which GTK
        // 4.8 names twice ("Discard Discard"): once.
        for button in buttons where button.label == keepLabel || button.label == confirmLabel {
            button.nameMnemonicLabelOnce()
        }
        window.connect("response") { [weak self] args in
            self?.finish(args.string(at: 1) == Self.confirmResponse ? .confirm : .keep)
        }
        window.onDestroy { [weak self] in self?.finish(.keep) }
    }

    private static func buttons(in window: Window) -> [Button] {
        var found: [Button] = []
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if isInstance(widget, ofExactly: gtk_button_get_type()) {
                found.append(Button.button(wrapping: widget))
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        visit(window.pointer())
        return found
    }

    /// An answer to the question.
    public enum Answer: Sendable, Equatable {
        /// The safe answer (**Keep Editing**), also Escape, closing the window, the parent going away, or
        /// the asking task cancelled.
        case keep
        /// The destructive answer (**Discard**).
        case confirm
    }

    /// Shows the question and waits for the answer (``Answer``).
    public func ask() async -> Answer {
        show()
        return await answer.value(onCancel: { [weak self] in self?.finish(.keep) })
    }

    /// Shows the question and calls `onAnswer` with the answer (as ``ask()`` returns it) as soon as it is
    /// given, in the same main-loop turn — for owners whose next step must not wait a turn.
    public func ask(then onAnswer: @escaping @MainActor (Answer) -> Void) {
        answer.whenResolved(onAnswer)
        show()
    }

    /// Answers with the safe choice and closes the question (its owner is going away).
    public func withdraw() { finish(.keep) }

    /// Answers `given` and closes the question, as the user's press of its button would (a journey's
    /// replay). Does nothing once answered.
    public func answer(_ given: Answer) { finish(given) }

    private func show() {
        guard !answer.isResolved else { return }  // answered (withdrawn, its window gone) before it was shown
        // While shown, the question's window keeps the question (released when it is answered).
        g_object_set_data_full(window.pointer(as: GObject.self), Self.dataKey, Unmanaged.passRetained(self).toOpaque()) { data in
            Unmanaged<MessageDialog>.fromOpaque(data!).release()
        }
        window.present()
        _ = keepButton.grabFocus()
    }

    private func finish(_ given: Answer) {
        guard answer.resolve(given) else { return }
        withExtendedLifetime(self) {
            g_object_set_data(window.pointer(as: GObject.self), Self.dataKey, nil)
            window.destroy()
            focusReturn.restore()
        }
    }
}
