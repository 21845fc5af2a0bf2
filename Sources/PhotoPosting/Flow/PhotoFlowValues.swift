import Gtk
import Navigation
import NavigationGtk
import PostcardModel

/// What a ``CommentedPhotoFlow`` made without `submit` returns: the photo chosen and the comment typed,
/// for the caller to post itself.
public struct CommentedPhoto: Equatable, Hashable, Sendable {
    /// The photo chosen or taken.
    public let photo: Photo
    /// The comment typed, as Post sent it.
    public let comment: String

    /// The photo with its comment.
    public init(photo: Photo, comment: String) {
        self.photo = photo
        self.comment = comment
    }
}

/// Help about posting, shown over the flow's visible page without ending the flow (a value, not a
/// bare closure, so a trailing closure after `run(…)` stays the flow's ``Submit``).
@MainActor
public struct FlowHelp {
    let show: @MainActor (_ over: Page) -> Void
    /// Help that runs `show` with the page the flow is showing.
    public init(_ show: @escaping @MainActor (_ over: Page) -> Void) { self.show = show }
}

/// The page a ``CommentedPhotoFlow`` opens on.
public enum PhotoFlowStart: Equatable, Sendable {
    /// Choose a Photo (with Take Photo in its bar when the flow has camera settings).
    case choosePhoto
    /// The Camera page titled `title`; presented modally, it shows its own bar with Close (Quick
    /// Snap). Needs camera settings (without them the flow opens on Choose a Photo).
    case camera(title: String)
    /// Add a Comment on `photo` with `comment` already typed (a photo opened from a file manager or
    /// the command line; a draft resumed), above Choose a Photo, so Back chooses another.
    case addComment(Photo, comment: String = "")
}

/// Whether what the user typed on a page is kept safe (see ``CommentDrafts``), as the page shows it
/// (``CommentPage/showDraftStatus(_:)``).
public enum DraftStatus: Equatable, Sendable {
    /// Saved, or nothing to save yet: the page says nothing.
    case saved
    /// The last save failed, for `reason` (in plain words: "the disk is full"); saving is retried.
    case notSaved(reason: String)
    /// Saved after failing: the page says so once.
    case savedAgain
}

/// Where a ``CommentedPhotoFlow`` keeps what the user typed, so nothing is lost when the flow ends without the user
/// choosing to (the window closed, the app quit or killed, the power cut).
///
/// The flow calls ``saveSoon(_:_:)`` after each change of the comment (saved ``delay`` seconds later)
/// and ``saveNow(_:_:)`` when it ends that way; ``remove()`` when the comment is posted, emptied, or
/// discarded by the user (Cancel with nothing typed, or **Discard** in the question).
///
/// A save that fails (a full disk, a read-only folder, the database held too long by another program)
/// is retried every ``retryInterval`` seconds, and after each change, until one succeeds; meanwhile
/// ``status`` is ``DraftStatus/notSaved(reason:)``, then ``DraftStatus/savedAgain``, and
/// ``onStatusChanged`` is told of each change, so the page can say so.
@MainActor
public final class CommentDrafts {
    /// Writes `comment` on `photo` (replacing what was kept for this flow before) and calls `done`, on
    /// the main thread, with nil once it is kept or with the error that stopped it.
    public typealias Save = @MainActor (_ photo: Photo, _ comment: String, _ done: @escaping @MainActor (Error?) -> Void) -> Void

    private let save: Save
    private let forget: @MainActor () -> Void
    /// Seconds between the last change and saving (typing is not written key by key).
    public var delay: Double = 0.5
    /// Seconds between a failed save and the next try.
    public var retryInterval: Double = 2
    /// Whether the last save kept what was typed.
    public private(set) var status: DraftStatus = .saved {
        didSet { if status != oldValue { onStatusChanged?(status) } }
    }
    /// Called after ``status`` changes.
    public var onStatusChanged: (@MainActor (DraftStatus) -> Void)?
    private var pending: UInt32 = 0  // the GLib timeout of the next save, if any
    private var latest: (photo: Photo, comment: String)?
    private var savesStarted = 0
    private var newestFinished = 0

    /// Drafts written with `save` and removed with `remove`.
    public init(save: @escaping Save, remove: @escaping @MainActor () -> Void) {
        self.save = save
        forget = remove
    }

    /// Forgets what was kept for this flow; a save still on its way, or its retry, never brings it back.
    public func remove() {
        cancelPendingSave()
        latest = nil
        newestFinished = savesStarted  // what the saves started before report is ignored
        forget()
    }

    /// Saves `comment` on `photo` ``delay`` seconds from now, unless another change comes first.
    public func saveSoon(_ photo: Photo, _ comment: String) {
        latest = (photo, comment)
        schedule(after: delay)
    }

    /// Saves `comment` on `photo` now (the flow is ending); a failure is logged and, while the page is
    /// still shown, said on it.
    public func saveNow(_ photo: Photo, _ comment: String) {
        cancelPendingSave()
        latest = (photo, comment)
        write(photo, comment)
    }

    /// Drops a save scheduled by ``saveSoon(_:_:)`` or a retry (saving or removing now instead).
    public func cancelPendingSave() {
        MainLoopBridge.cancel(pending)
        pending = 0
    }

    private func schedule(after seconds: Double) {
        MainLoopBridge.cancel(pending)
        pending = MainLoopBridge.after(.seconds(seconds)) { [weak self] in
            guard let self else { return }
            self.pending = 0
            guard let latest = self.latest else { return }
            self.write(latest.photo, latest.comment)
        }
    }

    private func write(_ photo: Photo, _ comment: String) {
        savesStarted += 1
        let number = savesStarted
        save(photo, comment) { [weak self] error in self?.saveEnded(number, error: error) }
    }

    private func saveEnded(_ number: Int, error: Error?) {
        // Only the newest outcome counts (a store's writer finishes them in order; another may not).
        guard number > newestFinished else { return }
        newestFinished = number
        if let error {
            status = .notSaved(reason: "\(error)")
            // Try again with the latest text, unless a save of a newer change is already on its way.
            if number == savesStarted && pending == 0 { schedule(after: retryInterval) }
        } else if number == savesStarted, case .notSaved = status {
            status = .savedAgain
        }
    }
}

/// What a flow does with its draft as it ends (``CommentDrafts``).
public enum DraftFate: Sendable, Equatable {
    /// Forgotten: the flow posted, or the user chose to leave it (Discard).
    case forgotten
    /// Kept for next time: the flow ended without the user choosing to (the app quit, its window closed
    /// by the system), so the comment comes back when the flow starts again.
    case kept
}
