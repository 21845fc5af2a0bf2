import Adwaita
import Gtk
import NavigationGtk

/// The "Discard this post?" question a flow asks before throwing away a typed comment: **Keep Editing**
/// (default, also Escape and closing) or **Discard**. At most one is open per flow at a time.
///
/// Main actor only.
@MainActor
public final class DiscardPostQuestion {
    private var question: MessageDialog?

    /// Creates a closed question.
    public init() {}

    /// Whether the question is showing.
    public var isAsking: Bool { question != nil }

    /// Asks over `anchor`'s window, unless already asking; calls `onDiscard` (in the same main-loop turn
    /// as the answer) if the user chooses Discard.
    public func ask(over anchor: Widget?, onDiscard: @escaping @MainActor () -> Void) {
        guard question == nil else { return }
        let question = MessageDialog(
            over: anchor, heading: localized("Discard this post?"), body: localized("The comment you typed will be lost."),
            keepLabel: localized("Keep Editing"), confirmLabel: localized("Discard"))
        self.question = question
        question.ask { [weak self] discard in
            self?.question = nil
            if discard { onDiscard() }
        }
    }

    /// Closes the question as Keep Editing (the flow ended another way). Does nothing when closed.
    public func withdraw() { question?.withdraw() }
}
