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
    /// The question ("Discard this post?") and what it says below it.
    private let heading: String
    private let body: String

    /// Creates a closed question asking `heading` (default "Discard this post?") with `body` below it
    /// (default "The comment you typed will be lost."): a flow that sends a message or a reply names
    /// what it sends.
    public init(heading: String? = nil, body: String? = nil) {
        self.heading = heading ?? localized("Discard this post?")
        self.body = body ?? localized("The comment you typed will be lost.")
    }

    /// Whether the question is showing.
    public var isAsking: Bool { question != nil }

    /// Asks over `anchor`'s window, unless already asking; calls `onAnswer` with the answer (in the same
    /// main-loop turn): ``DiscardAnswer/discard`` for **Discard**, ``DiscardAnswer/keepEditing`` for
    /// **Keep Editing** (also Escape and closing). Not called when the question is withdrawn.
    public func ask(over anchor: Widget?, onAnswer: @escaping @MainActor (DiscardAnswer) -> Void) {
        guard question == nil else { return }
        let question = MessageDialog(
            over: anchor, heading: heading, body: body,
            keepLabel: localized("Keep Editing"), confirmLabel: localized("Discard"))
        self.question = question
        question.ask { [weak self] answer in
            guard let self, self.question === question else { return }  // withdrawn
            self.question = nil
            onAnswer(answer == .confirm ? .discard : .keepEditing)
        }
    }

    /// Answers the question showing with `answer`, as its button would (a journey's replay): the asker
    /// hears it as the user's. Returns false when no question shows.
    @discardableResult
    public func answer(_ answer: DiscardAnswer) -> Bool {
        guard let question else { return false }
        question.answer(answer == .discard ? .confirm : .keep)
        return true
    }

    /// Closes the question as Keep Editing (the flow ended another way). Does nothing when closed.
    public func withdraw() {
        let question = self.question
        self.question = nil
        question?.withdraw()
    }
}

/// The user's answer to "Discard this post?".
public enum DiscardAnswer: Sendable, Equatable {
    /// **Keep Editing** (also Escape, or closing the question): the flow goes on.
    case keepEditing
    /// **Discard**: the flow ends as canceled, its draft forgotten.
    case discard
}
