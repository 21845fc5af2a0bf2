import Adwaita
import CGtk
import Gtk
import NavigationGtk
import PostcardModel

/// **Post** (or **Message**): one photo, large, with its comment and when and by whom it was shared.
///
/// Used both ways without knowing which: pushed onto the main stack when opened from a feed (the stack's
/// bar shows "Post" and Back), and presented alone in a dialog when opened from a message (its own
/// standalone bar shows "Message" and Close). Reports nothing; callers may add bar items (Edit Caption)
/// and content actions (Comments) and listen to them.
@MainActor
public final class PhotoDetailPage: Page {
    /// The photo.
    public let picture = Picture()
    /// The comment.
    public let commentLabel = Label()
    /// When and by whom.
    public let detailLabel = Label()
    /// Extra actions below the comment (e.g. Comments), added by the caller.
    public let actions = Box(.horizontal, spacing: 8)
    /// The button among ``actions`` whose label reads `label` (mnemonic underscores left out), or nil:
    /// what a journey's replay and the review tour press, as a click would.
    public func actionButton(labeled label: String) -> Widget? {
        var index = 0
        while let child = actions.child(at: index) {
            if isInstance(child, ofExactly: gtk_button_get_type()),
               let text = gtk_button_get_label(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkButton.self)),
               String(cString: text).filter({ $0 != "_" }) == label {
                return Widget.widget(wrapping: UnsafeMutableRawPointer(child))
            }
            index += 1
        }
        return nil
    }

    /// Whether the photo is decoded and shown.
    public private(set) var isPhotoLoaded = false
    /// Called with the URI of a link the user activated in the comment.
    public var onOpenLink: (@MainActor (String) -> Void)?

    /// The widest the photo and its comment get, in pixels, margins included; wider windows centre them
    /// (``Clamp``), narrower ones fill. Wider than a feed card: this page is for looking at the photo.
    public static let columnWidth: Int32 = 836

    /// Creates the page for the photo at `photoPath` with `comment` (cut as ``CommentLimit/shown(_:)``
    /// says); `title` and `subtitle` go in the bar (e.g. "Post", "by Sam Rivera"); `detail` is the line
    /// under the comment.
    public init(title: String, subtitle: String?, photoPath: FilePath, comment: String, detail: String) {
        let comment = CommentLimit.shown(comment)  // a longer one (from another program) is cut
        super.init(title: title, subtitle: subtitle)
        picture.contentFit = .contain
        picture.canShrink = true
        picture.horizontalAlignment = .start  // lines up with the comment below
        picture.alternativeText = comment
        picture.setSizeRequest(height: 200)
        commentLabel.showText(withLinks: comment)
        commentLabel.wraps = true
        commentLabel.xAlign = 0
        detailLabel.text = detail
        detailLabel.xAlign = 0
        detailLabel.addCSSClass("dim-label")
        detailLabel.addCSSClass("caption")
        let column = Box(.vertical, spacing: 8)
        column.setMargins(top: 12, bottom: 18, start: 18, end: 18)
        column.append(picture)
        column.append(commentLabel)
        column.append(detailLabel)
        column.append(actions)
        arrangeActions(forTextDPI: DesktopStyle.textDPI)
        textSizeToken = DesktopStyle.observeTextDPI { [weak self] dpi in self?.arrangeActions(forTextDPI: dpi) }
        let scroller = ScrolledWindow(Clamp(column, maximumWidth: Self.columnWidth,
                                                    tighteningThreshold: Self.columnWidth))  // the photo as large as fits
        scroller.expandsVertically = true
        content.append(scroller)
        commentLabel.onActivateLink { [weak self] uri in
            self?.onOpenLink?(uri)
            return true
        }
        Task { [weak self] in
            do {
                let texture = try await Texture.load(path: photoPath, maxSize: 1280)
                self?.picture.texture = texture
                self?.isPhotoLoaded = true
            } catch {
                self?.commentLabel.text = comment + "\n\n" + localized("The photo can't be shown: %s", "\(error)")
            }
        }
    }

    private var textSizeToken: ObservationToken?

    /// Lays ``actions`` out in a row at the desktop's usual text size, and one under another when text is
    /// larger (GNOME's Large Text, 1.25×, and beyond): there a row of Comments, Edit Caption and Delete is
    /// 405 px at 1.25× and about 520 px at 2×, wider than a phone's 360 px, and would hold the window wider. Follows the text size, not the width, so it never
    /// changes inside a layout; the buttons keep their order for the keyboard and screen readers.
    private func arrangeActions(forTextDPI dpi: Double) {
        let stacked = dpi > 1.1 * 96
        gtk_orientable_set_orientation(OpaquePointer(actions.widget), stacked ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL)
        actions.horizontalAlignment = stacked ? .start : .fill
    }

    /// Shows a new comment (after Edit Caption).
    public func setComment(_ comment: String) {
        let comment = CommentLimit.shown(comment)
        commentLabel.showText(withLinks: comment)
        picture.alternativeText = comment
    }
}
