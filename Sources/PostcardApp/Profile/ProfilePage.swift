import Gtk
import NavigationGtk

/// A profile: avatar and name, the post action, (on My Profile) the friends list, and the feed of
/// posts on this profile, newest first, each with its photo (scaled), comment and time.
///
/// The page shows what it is given (``showPosts(_:)``) and reports what the user asks for through
/// ``onNewPost`` and ``onFriendSelected``; it never navigates or posts itself.
@MainActor
public final class ProfilePage: Page {
    /// The person whose profile this is.
    public let person: Person
    /// "New Post" on My Profile, "Post to Their Profile" on a friend's.
    public let postButton: Button
    /// The friends' rows (My Profile only), in ``Person/friends`` order.
    public private(set) var friendButtons: [Button] = []
    /// The feed's items, top (newest) first.
    public private(set) var feedItems: [FeedItem] = []
    /// Shown when there are no posts, or when they could not be read.
    public let feedStatus = Label()
    /// The scrolled area holding the whole profile.
    public let scroller: ScrolledWindow

    /// Called when the user asks to post (New Post / Post to Their Profile).
    public var onNewPost: (@MainActor () -> Void)?
    /// Called with the friend whose row the user activated.
    public var onFriendSelected: (@MainActor (Person) -> Void)?
    /// Called with the post whose card the user activated.
    public var onOpenPost: (@MainActor (Post) -> Void)?

    private let feed = Box(.vertical, spacing: 18)
    private let viewer: Person

    /// Creates the profile of `person` as seen by `viewer` (the app's user).
    public init(person: Person, viewer: Person = .me) {
        self.person = person
        self.viewer = viewer
        let isOwn = person == viewer
        postButton = Button(label: isOwn ? "New Post" : "Post to Their Profile")
        let column = Box(.vertical, spacing: 18)
        scroller = ScrolledWindow(column)
        super.init(title: isOwn ? "My Profile" : person.name)

        column.setMargins(top: 18, bottom: 24, start: 18, end: 18)
        column.addCSSClass("profile")
        column.append(header(isOwn: isOwn))
        if isOwn { column.append(friendsSection()) }

        let feedHeading = Label(isOwn ? "My Posts" : "Posts")
        feedHeading.xAlign = 0
        feedHeading.addCSSClass("heading")
        column.append(feedHeading)
        feedStatus.addCSSClass("dim-label")
        feedStatus.xAlign = 0
        feedStatus.wraps = true
        column.append(feedStatus)
        column.append(feed)
        scroller.expandsVertically = true
        scroller.letContentDrawOutside()
        content.append(scroller)
        postButton.onClicked { [weak self] in self?.onNewPost?() }
        showPosts([])
    }

    public override var initialFocus: Widget? { postButton }

    /// The feed scrolls under the window's translucent bar.
    public override var extendsUnderTopBar: Bool { true }

    /// Replaces the feed with `posts` (newest first, as the store returns them).
    public func showPosts(_ posts: [Post]) {
        feed.removeAll()
        feedItems = posts.map { post in
            let item = FeedItem(post: post, viewer: viewer)
            item.card.onClicked { [weak self] in self?.onOpenPost?(post) }
            return item
        }
        for item in feedItems { feed.append(item.card) }
        feedStatus.text = person == viewer ? "No posts yet. Share a photo with New Post." : "No posts yet."
        feedStatus.isVisible = posts.isEmpty
    }

    /// Shows that the feed could not be loaded, and why.
    public func showFeedError(_ message: String) {
        feed.removeAll()
        feedItems = []
        feedStatus.text = message
        feedStatus.isVisible = true
    }

    private func header(isOwn: Bool) -> Widget {
        let avatar = Label(person.initials)
        avatar.addCSSClass("avatar")
        avatar.setSizeRequest(width: 72, height: 72)
        avatar.verticalAlignment = .center
        let name = Label(person.name)
        name.xAlign = 0
        name.addCSSClass("title-2")
        let subtitle = Label(isOwn ? "This is you" : "Friend")
        subtitle.xAlign = 0
        subtitle.addCSSClass("dim-label")
        let names = Box(.vertical, spacing: 4)
        names.verticalAlignment = .center
        names.expandsHorizontally = true
        names.append(name)
        names.append(subtitle)
        postButton.addCSSClass("suggested-action")
        postButton.addCSSClass("pill")
        postButton.verticalAlignment = .center
        let row = Box(.horizontal, spacing: 14)
        row.append(avatar)
        row.append(names)
        row.append(postButton)
        return row
    }

    private func friendsSection() -> Widget {
        let section = Box(.vertical, spacing: 6)
        let heading = Label("Friends")
        heading.xAlign = 0
        heading.addCSSClass("heading")
        section.append(heading)
        // A flow box, so the row wraps in a narrow window.
        let list = FlowBox()
        list.setSpacing(8)
        list.maxChildrenPerLine = 8
        list.horizontalAlignment = .start
        list.addCSSClass("friends")
        for friend in Person.friends {
            let button = Button(label: friend.name)
            button.onClicked { [weak self] in self?.onFriendSelected?(friend) }
            friendButtons.append(button)
            list.append(button, accessibleLabel: friend.name, cellTakesFocus: false)
        }
        section.append(list)
        return section
    }
}

/// One post in a feed: photo (scaled to fit, loaded asynchronously), comment, and time, as one flat
/// button (a card) that opens the post; its accessible name is the comment.
@MainActor
public final class FeedItem {
    /// The post shown.
    public let post: Post
    /// The card: activating it opens the post.
    public let card: Button
    /// The item's widget tree inside the card.
    public let view = Box(.vertical, spacing: 6)
    /// The photo.
    public let picture = Picture()
    /// The comment text.
    public let commentLabel: Label
    /// "Posted 29 Nov 2026, 14:05" (and "by me" on a friend's profile).
    public let detailLabel: Label
    /// Whether the photo has been decoded and is shown.
    public private(set) var isPhotoLoaded = false

    /// Largest photo edge to decode for a feed item, in pixels.
    static let photoSize: Int32 = 720

    init(post: Post, viewer: Person) {
        self.post = post
        commentLabel = Label(post.comment)
        let when = AppController.timeText(post.createdAt)
        let byMe = post.author == viewer.id && post.profile != viewer.id ? " by me" : ""
        detailLabel = Label("Posted\(byMe) \(when)")
        card = Button(label: "")
        card.setChild(view)
        card.hasFrame = false
        card.setAccessibleLabel(post.comment)
        card.addCSSClass("feed-item")
        picture.contentFit = .contain
        picture.canShrink = true
        picture.horizontalAlignment = .start  // lines up with the caption below
        picture.setSizeRequest(height: 280)
        picture.alternativeText = post.comment
        commentLabel.xAlign = 0
        commentLabel.wraps = true
        detailLabel.xAlign = 0
        detailLabel.addCSSClass("dim-label")
        detailLabel.addCSSClass("caption")
        view.append(picture)
        view.append(commentLabel)
        view.append(detailLabel)
        let path = post.photoPath
        Task { [weak self] in
            do {
                let texture = try await Texture.load(path: path, maxSize: Self.photoSize)
                self?.picture.texture = texture
                self?.isPhotoLoaded = true
            } catch {
                self?.showPhotoError("Photo unavailable: \(error)")
            }
        }
    }

    private func showPhotoError(_ message: String) {
        picture.isVisible = false
        let note = Label(message)
        note.addCSSClass("error")
        note.wraps = true
        note.xAlign = 0
        view.prepend(note)
    }
}
