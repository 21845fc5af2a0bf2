import Gtk
import PostcardApp

/// What a screen reader said during the review tour, screen by screen: the tour run under Orca
/// (`make review`, through `Tests/orca/review-under-orca.py`) with `POSTCARD_REVIEW_SPEECH` naming a
/// file that the harness appends each of Orca's utterances to, one per line, as Orca says them. At each
/// screen the tour waits until Orca has been quiet for a moment, then takes the utterances since the
/// last screen as what Orca said when this one appeared (``take()``), and saves them beside the
/// screen's pictures (`DIR/<screen>/spoken.txt`) instead of saving pictures; the gallery's index shows
/// them under the screen (``ReviewGallery/spokenFileName``).
@MainActor
final class SpokenWords {
    /// The file Orca's utterances are appended to.
    let file: FilePath
    /// How many of its lines earlier screens took.
    private var taken = 0

    /// How long Orca must have said nothing before a screen's words are complete, in seconds: as the
    /// spoken journeys wait after a key (`QUIET` in `orca-journeys.py`).
    static let quiet = 1.5
    /// The longest a screen waits for Orca to be quiet, in seconds (a screen that keeps talking, such as
    /// a toast's countdown, is cut there).
    static let longestWait = 10.0

    /// The words of the run `POSTCARD_REVIEW_SPEECH` names, nil when it names none (the gallery's own
    /// parts, which run with no screen reader).
    static let ofThisProcess: SpokenWords? = Files.environmentPath("POSTCARD_REVIEW_SPEECH").map { SpokenWords(file: $0) }

    init(file: FilePath) { self.file = file }

    /// Whether this process runs the tour under Orca (`POSTCARD_REVIEW_SPEECH` is set). Any thread.
    nonisolated static var isUnderOrca: Bool { Files.environmentPath("POSTCARD_REVIEW_SPEECH") != nil }

    /// Waits until nothing new was said for ``quiet`` seconds (at most ``longestWait``), then returns
    /// what was said since the last call, in order.
    func take() async -> [String] {
        var lines = utterances(), quietSince = DateText.monotonicMicroseconds
        let start = quietSince
        while DateText.monotonicMicroseconds - quietSince < Int64(Self.quiet * 1_000_000),
              DateText.monotonicMicroseconds - start < Int64(Self.longestWait * 1_000_000) {
            await MainLoopBridge.sleep(for: .seconds(0.1))
            let now = utterances()
            if now.count != lines.count { lines = now; quietSince = DateText.monotonicMicroseconds }
        }
        let new = Array(lines.dropFirst(taken))
        taken = lines.count
        return new
    }

    private func utterances() -> [String] {
        (Files.readText(file) ?? "").split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
