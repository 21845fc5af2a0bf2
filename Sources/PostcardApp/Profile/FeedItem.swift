import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel

/// One post in a feed: photo (decoded at the size shown, off the main thread), comment, and time, as a
/// card; activating its row opens the post, and its accessible name is the comment. Made once per row
/// widget and bound to post after post.
@MainActor
public final class FeedItem {
    /// The post shown (nil while unbound).
    public private(set) var post: Post?
    /// The row (the list's item widget) while bound: activating it opens the post; a screen reader reads
    /// the comment. Nil while the item is not bound to a post.
    public var card: Widget? { binding?.item }
    /// The item's widget tree inside the row.
    public let view = Box(.vertical, spacing: 6)
    /// The photo: a placeholder of the photo's shape while it loads, then the photo.
    public var picture: Picture { frame.picture }
    /// The comment text.
    public let commentLabel = Label()
    /// "Posted 29 Nov 2026, 14:05" (or "Posted by me 29 Nov 2026, 14:05" on a friend's profile).
    public let detailLabel = Label()
    /// Shown instead of the photo when it cannot be shown, with the reason.
    public let photoErrorLabel = Label()
    /// Whether the photo has been decoded and is shown.
    public private(set) var isPhotoLoaded = false

    /// Height of a feed photo in pixels: fixed, so rows never change height as photos arrive.
    public static let photoHeight = 280
    /// Widest a feed photo is decoded, in pixels (before the device scale).
    static let photoMaximumWidth = 1280

    private let frame = SizedPicture(height: FeedItem.photoHeight)
    private var binding: ListItemBinding?
    private var load: Task<Void, Never>?
    /// The bound post's photo as a URI, made once per bind (the row is mapped again each time its page is
    /// shown again).
    private var photoURI: String?

    init() {
        view.addCSSClass("feed-item")
        view.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        picture.contentFit = .contain
        picture.horizontalAlignment = .start  // lines up with the caption below
        frame.addCSSClass("feed-photo")
        commentLabel.xAlign = 0
        commentLabel.wraps = true
        detailLabel.xAlign = 0
        detailLabel.wraps = true  // the date, at 2× text, is wider than a 360-pixel window's row
        detailLabel.addCSSClass("dim-label")
        detailLabel.addCSSClass("caption")
        photoErrorLabel.addCSSClass("error")
        photoErrorLabel.wraps = true
        photoErrorLabel.xAlign = 0
        photoErrorLabel.isVisible = false
        view.append(frame)
        view.append(photoErrorLabel)
        view.onMapChanged { [weak self] mapped in
            if mapped { self?.startLoading() } else { self?.stopLoading() }
        }
        view.append(commentLabel)
        view.append(detailLabel)
    }

    func bind(_ post: Post, viewer: String, binding: ListItemBinding) {
        self.post = post
        self.binding = binding
        photoURI = post.photoPath.uri
        let comment = CommentLimit.shown(post.comment)  // a longer one (from another program) is cut
        commentLabel.showText(withLinks: comment)
        let byMe = post.author == viewer && post.profile != viewer
        detailLabel.text = byMe ? TimeText.postedByMe(post.createdAt) : TimeText.posted(post.createdAt)
        binding.setAccessibleLabel(comment)
        picture.alternativeText = comment
        frame.isVisible = true
        photoErrorLabel.isVisible = false
        stopLoading()
        if view.isMapped { startLoading() }
    }

    /// Loads the photo while the row is on screen: GTK keeps up to 200 recycled rows bound, but only
    /// the few on screen are mapped, so memory follows what is shown.
    private func startLoading() {
        guard let post, let uri = photoURI, load == nil, !isPhotoLoaded else { return }
        let scale = view.scaleFactor
        let fit = ImageDecoder.Fit.contain(width: Self.photoMaximumWidth * scale, height: Self.photoHeight * scale)
        if let texture = Self.recent.texture(for: uri, fit: fit) {
            picture.texture = texture
            isPhotoLoaded = true
            return
        }
        load = Task { [weak self] in
            do {
                // The photo's shape first (its header only), so the placeholder matches it.
                let shape = try await ImageDecoder.queue.run { try ImageMetadata.uprightSize(uri: uri) }
                guard !Task.isCancelled, let self, self.post == post else { return }
                if self.picture.texture == nil {
                    self.picture.texture = Self.placeholder(width: shape.width, height: shape.height)
                }
                let texture = try await Texture.load(uri: uri, fit: fit)
                guard !Task.isCancelled, self.post == post else { return }
                Self.recent.store(texture, for: uri, fit: fit)
                self.picture.texture = texture
                self.isPhotoLoaded = true
                self.load = nil
            } catch is CancellationError {
            } catch {
                guard let self, self.post == post else { return }
                self.load = nil
                self.frame.isVisible = false
                self.photoErrorLabel.text = localized("Photo unavailable: %s", "\(error)")
                self.photoErrorLabel.isVisible = true
            }
        }
    }

    private func stopLoading() {
        load?.cancel()
        load = nil
        picture.texture = nil  // the recent-photo cache keeps the last few
        isPhotoLoaded = false
    }

    /// The last few feed photos decoded, so scrolling back shows them at once.
    private static let recent = RecentTextures(capacity: 12)

    func unbind() {
        stopLoading()
        post = nil
        photoURI = nil
        binding = nil
    }

    /// A light grey texture with the photo's aspect ratio (at most 64 pixels on its long side).
    static func placeholder(width: Int, height: Int) -> Texture {
        let long = Double(max(width, height, 1))
        return Texture.solid(width: max(1, Int(Double(width) / long * 64)), height: max(1, Int(Double(height) / long * 64)),
                             rgba: 0xDEDDDAFF)
    }
}
