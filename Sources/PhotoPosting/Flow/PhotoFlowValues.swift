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

/// Where a ``CommentedPhotoFlow`` keeps what the user typed, so nothing is lost when the flow ends without the user
/// choosing to (the window closed, the app quit or killed, the power cut).
///
/// The flow calls ``save`` a moment (``delay``) after each change of the comment and at once when it
/// ends that way; ``remove`` when the comment is posted, emptied, or discarded by the user (Cancel
/// with nothing typed, or **Discard** in the question).
@MainActor
public final class CommentDrafts {
    /// Keeps `comment` on `photo` (replacing what was kept for this flow before).
    public let save: @MainActor (_ photo: Photo, _ comment: String) -> Void
    /// Forgets what was kept for this flow.
    public let remove: @MainActor () -> Void
    /// Seconds between the last change and saving (typing is not written key by key).
    public var delay: Double = 0.5
    private var pending: Task<Void, Never>?

    /// Drafts saved with `save` and removed with `remove`.
    public init(save: @escaping @MainActor (_ photo: Photo, _ comment: String) -> Void,
                remove: @escaping @MainActor () -> Void) {
        self.save = save
        self.remove = remove
    }

    /// Saves `comment` on `photo` ``delay`` seconds from now, unless another change comes first.
    public func saveSoon(_ photo: Photo, _ comment: String) {
        pending?.cancel()
        pending = Task { [weak self, delay] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled, let self else { return }
            self.pending = nil
            self.save(photo, comment)
        }
    }

    /// Drops a save scheduled by ``saveSoon(_:_:)`` (saving or removing now instead).
    public func cancelPendingSave() {
        pending?.cancel()
        pending = nil
    }
}
