import Adwaita
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel

/// A profile: avatar and name, the post action, (on My Profile) the friends list, and the feed of
/// posts on this profile, newest first, each with its photo (scaled), comment and time.
///
/// The whole page is one recycled `GtkListView`: its first row is the profile's header, then one row per
/// post, read from the store a page at a time as the user scrolls (``showPosts(_:)``), so ten thousand
/// posts open as fast as ten. Photos are decoded at the size they are shown, off the main thread.
///
/// The page shows what it is given and reports what the user asks for through ``onNewPost``,
/// ``onFriendSelected`` and ``onOpenPost``; it never navigates or posts itself.
@MainActor
public final class ProfilePage: Page {
    /// The person whose profile this is (My Profile's changes with the user's name, ``rename(to:)``).
    public private(set) var person: Person
    /// "New Post" on My Profile, "Post to Their Profile" on a friend's.
    public let postButton: Button
    /// **Quick Snap** (My Profile only, an icon button at the start of the bar): take a photo and post it
    /// at once.
    public let quickSnapButton: Button?
    /// The friends' buttons (My Profile only), in the order ``showFriends(_:)`` was given them.
    public private(set) var friendButtons: [Button] = []
    /// **Add Friend** under the friends (My Profile only).
    public let addFriendButton: Button?
    /// The feed's rows that exist now (on screen and near it), top (newest) first.
    public var feedItems: [FeedItem] { feed.factory.boundCells.compactMap { $0.cell.item.post == nil ? nil : $0.cell.item } }
    /// The posts read so far, newest first.
    public var posts: [Post] { feed.rows }
    /// Shown when there are no posts, or when they could not be read.
    public let feedStatus = Label()
    /// The scrolled area holding the whole profile.
    public let scroller: ScrolledWindow
    /// The list: the header row, then one row per post.
    public var list: ListView { feed.view }
    /// The page's following of the store's changes (``PostcardStore/PostStore/changes``): it lasts as long
    /// as the page.
    var followsStore: ObservationToken?

    /// Called when the user asks to post (New Post / Post to Their Profile).
    public var onNewPost: (@MainActor () -> Void)?
    /// Called when the user asks for Quick Snap (My Profile only).
    public var onQuickSnap: (@MainActor () -> Void)?
    /// Called with the friend whose row the user activated.
    public var onFriendSelected: (@MainActor (Person) -> Void)?
    /// Called when the user asks to add a friend (My Profile only).
    public var onAddFriend: (@MainActor () -> Void)?
    /// Called with the post whose row the user activated.
    public var onOpenPost: (@MainActor (Post) -> Void)?
    /// Called with the URI of a link the user activated in a post's comment.
    public var onOpenLink: (@MainActor (String) -> Void)?

    private let headerView = Box(.vertical, spacing: 18)
    private let linkRelay = LinkRelay()
    private let feed: PagedListView<Post, FeedCell>
    private let viewer: Person
    private let friendsList = FlowBox()
    private let nameLabel = Label()
    private let noFriendsLabel = Label()
    private var avatar: Avatar?
    /// Follows the desktop's text size (the New Post button's label wraps when it is larger than usual).
    private var textSizeToken: ObservationToken?
    private static let headerKey = "header"

    /// Creates the profile of `person` as seen by `viewer` (the app's user). My Profile (`person` is
    /// `viewer`) lists no friends until ``showFriends(_:)``.
    public init(person: Person, viewer: Person) {
        self.person = person
        self.viewer = viewer
        let isOwn = person.id == viewer.id
        // Translators: the button under the friends on My Profile: add someone from their Postcard code.
        addFriendButton = isOwn ? Button(label: localized("Add Friend…")) : nil
        postButton = Button(label: isOwn
            // Translators: the button on the user's own profile that starts posting a photo with a comment.
            // Keep it short: in a 360-pixel window it shares a row with the avatar and the user's name.
            ? localized("New Post")
            // Translators: on a friend's profile: post a photo with a comment to that friend's profile.
            : localized("Post to Their Profile"))
        // Translators: take a photo with the camera and post it at once.
        quickSnapButton = isOwn ? Button(iconName: "camera-photo-symbolic", accessibleLabel: localized("Quick Snap")) : nil
        let headerRow = headerView
        feed = PagedListView(
            leadingKeys: [Self.headerKey],
            makeCell: { [linkRelay] in
                let cell = FeedCell()
                linkRelay.relay(cell.item.commentLabel)
                return cell
            },
            bindRow: { cell, post, binding in cell.showPost(post, viewer: viewer.id, binding: binding) },
            bindLeading: { cell, _, _ in cell.showHeader(headerRow) },
            unbind: { cell in cell.unbind() })
        scroller = ScrolledWindow(feed.view)
        super.init(title: isOwn ? localized("My Profile") : person.name)
        subject = person.id
        feed.readMoreWhenScrolled()
        linkRelay.onOpenLink = { [weak self] uri in self?.onOpenLink?(uri) }

        headerView.setMargins(top: 18, bottom: 6, start: 12, end: 12)
        headerView.append(header(isOwn: isOwn))
        if isOwn { headerView.append(friendsSection()) }
        let feedHeading = Label(isOwn
            // Translators: the heading above the posts on the user's own profile (a noun, plural).
            ? localized("My Posts")
            // Translators: the heading above the posts on a friend's profile (a noun, plural).
            : localized("Posts"))
        feedHeading.xAlign = 0
        feedHeading.addCSSClass("heading")
        // The list is named by its heading (nameless, Orca 43 reads it by its type name, "GtkListView").
        feed.view.setAccessibleLabel(feedHeading.text)
        headerView.append(feedHeading)
        feedStatus.addCSSClass("dim-label")
        feedStatus.xAlign = 0
        feedStatus.wraps = true
        headerView.append(feedStatus)

        feed.view.addCSSClass("profile")
        feed.view.addCSSClass("feed")
        feed.view.onActivate { [weak self] position in
            guard let self, let post = self.feed.row(at: position) else { return }
            self.onOpenPost?(post)
        }
        feed.onLoadError = { [weak self] error in self?.showFeedError(localized("Can't load more posts: %s", "\(error)")) }
        scroller.expandsVertically = true
        scroller.letContentDrawOutside()
        content.append(scroller)
        postButton.onClicked { [weak self] in self?.onNewPost?() }
        if let quickSnapButton {
            quickSnapButton.onClicked { [weak self] in self?.onQuickSnap?() }
            addStartBarItem(quickSnapButton)  // the start balances Messages at the end: the title stays centred at 360 px
        }
        updateStatus()
    }

    public override var initialFocus: Widget? { postButton }

    /// My Profile's bar holds Quick Snap, Messages, the primary menu and the window's buttons: at 360
    /// pixels its title may lose its last letters ("My Prof…").
    public override var minimumTitleCharacters: Int { 7 }

    /// The feed scrolls under the window's translucent bar.
    public override var extendsUnderTopBar: Bool { true }

    /// Shows the posts `source` reads (newest first), from the top; reads its first page now.
    public func showPosts(_ source: PagedRows<Post>) {
        do {
            try feed.show(source)
            updateStatus()
        } catch {
            showFeedError(localized("Can't load posts: %s", "\(error)"))
        }
    }

    /// Adds `post` at the top of the feed (just posted, here or by another Postcard on the folder) without
    /// rebuilding the list; a post shown already is left as it is. A user scrolled down
    /// the feed stays where they were, focus included; a user at the top stays at the top, with the
    /// profile's header and the new post shown.
    public func insertNewPost(_ post: Post) {
        let wasAtTop = scroller.verticalOffset < 1
        guard feed.insert(post, at: 0) else { return }  // shown already
        updateStatus()
        guard wasAtTop else { return }
        // GTK's list keeps its anchor on the row that had focus (the post opened before, focused again on
        // Back) and scrolls the new post half under the bar when it next lays out: put the top back right
        // after that layout, before the frame is painted. (Only that frame: a later one may be the user's
        // own scroll.)
        list.afterNextLayouts(1) { [weak self] in
            guard let self else { return false }
            if self.scroller.verticalOffset != 0 { self.scroller.verticalOffset = 0 }
            return false
        }
    }

    /// Takes out the post with `id` (deleted, here or by another Postcard) without rebuilding the feed:
    /// the other rows keep their widgets, focus and the scroll position.
    public func removePost(id: Int64) {
        guard feed.remove(id: id) else { return }
        updateStatus()
    }

    /// Shows `post` in place of the post with its id (an edited caption); only that row is rebound.
    public func update(_ post: Post) { feed.replace(post) }

    /// Opens the post at `index` (0: the newest) as activating its row would.
    public func activatePost(at index: Int) { feed.view.activateItem(at: feed.position(ofRowAt: index)) }

    /// The banner offering an unfinished post or reply (a draft kept from an earlier run), while shown.
    public private(set) var draftBanner: Box?
    /// **Resume** and **Discard** in ``draftBanner``.
    public private(set) var draftButtons: (resume: Button, discard: Button)?

    /// Shows `text` ("You have an unfinished post") at the top of the profile with **Resume** and
    /// **Discard**, which run `onResume` or `onDiscard` and hide the banner.
    public func showDraftBanner(_ text: String, detail: String, onResume: @escaping @MainActor () -> Void,
                                onDiscard: @escaping @MainActor () -> Void) {
        hideDraftBanner()
        let banner = Box(.horizontal, spacing: 12)
        banner.addCSSClass("draft-banner")
        let texts = Box(.vertical, spacing: 2)
        texts.expandsHorizontally = true
        let heading = Label(text)
        heading.xAlign = 0
        heading.addCSSClass("heading")
        let quote = Label(detail)
        quote.xAlign = 0
        quote.ellipsizeAtEnd()
        quote.addCSSClass("dim-label")
        texts.append(heading)
        texts.append(quote)
        // Translators: a button on the banner of an unfinished post: open it again where it was left.
        let resume = Button(label: localized("Resume"))
        resume.addCSSClass("suggested-action")
        // Translators: a button on the banner of an unfinished post: throw the unfinished post away.
        let discard = Button(label: localized("Discard"))
        for button in [resume, discard] { button.verticalAlignment = .center }
        resume.onClicked { [weak self] in self?.hideDraftBanner(); onResume() }
        discard.onClicked { [weak self] in self?.hideDraftBanner(); onDiscard() }
        banner.append(texts)
        banner.append(discard)
        banner.append(resume)
        headerView.prepend(banner)
        draftBanner = banner
        draftButtons = (resume, discard)
    }

    /// Hides the unfinished-post banner, if shown.
    public func hideDraftBanner() {
        if let draftBanner { headerView.remove(draftBanner) }
        draftBanner = nil
        draftButtons = nil
    }

    /// Shows that the feed could not be loaded, and why.
    public func showFeedError(_ message: String) {
        feedStatus.text = message
        feedStatus.isVisible = true
    }

    private func updateStatus() {
        feedStatus.text = person.id == viewer.id ? localized("No posts yet. Share a photo with New Post.") : localized("No posts yet.")
        feedStatus.isVisible = feed.rows.isEmpty
    }

    private func header(isOwn: Bool) -> Widget {
        let avatar = Avatar(name: person.name, size: 64)  // read as an image named by the person's name
        avatar.verticalAlignment = .center
        self.avatar = avatar
        let name = nameLabel
        name.text = person.name
        name.xAlign = 0
        name.ellipsizeAtEnd()  // one line: a long name never widens the window
        name.addCSSClass("title-2")
        let subtitle = Label(isOwn
            // Translators: under the user's name on their own profile.
            ? localized("This is you")
            // Translators: under a person's name on their profile: that person is one of the user's friends.
            : localized("Friend"))
        subtitle.xAlign = 0
        subtitle.wraps = true  // with Large Text too, the row fits a 360-pixel window
        subtitle.addCSSClass("dim-label")
        let names = Box(.vertical, spacing: 4)
        names.verticalAlignment = .center
        names.expandsHorizontally = true
        names.append(name)
        names.append(subtitle)
        postButton.addCSSClass("suggested-action")
        postButton.addCSSClass("pill")
        postButton.verticalAlignment = .center
        // "Post to Their Profile" at 2× text is wider than a 360-pixel window: its label wraps when the
        // desktop's text is larger than usual (at the usual size it stays on one line, as before).
        if DesktopStyle.textDPI > 1.1 * 96 { postButton.wrapsLabel() }
        textSizeToken = DesktopStyle.observeTextDPI { [weak postButton] dpi in
            if dpi > 1.1 * 96 { postButton?.wrapsLabel() }
        }
        // The row fits a 360-pixel window: a 64-pixel avatar, 12-pixel gaps, and a name that wraps rather
        // than widen the window when it (or New Post, translated) is long.
        name.wraps = true
        let row = Box(.horizontal, spacing: 12)
        row.append(avatar)
        row.append(names)
        if isOwn {
            row.append(postButton)
        } else {
            // "Post to Their Profile" and a long name do not fit one row of a 360-pixel window: the
            // button goes under the name.
            postButton.horizontalAlignment = .start
            postButton.setMargins(top: 6, bottom: 0, start: 0, end: 0)
            names.append(postButton)
        }
        return row
    }

    private func friendsSection() -> Widget {
        let section = Box(.vertical, spacing: 6)
        let heading = Label(localized("Friends"))
        heading.xAlign = 0
        heading.addCSSClass("heading")
        section.append(heading)
        // A flow box, so the row wraps in a narrow window.
        // Translators: on My Profile, where the friends are listed, when there are none.
        noFriendsLabel.text = localized("No friends yet. Add someone from their Postcard code.")
        noFriendsLabel.xAlign = 0
        noFriendsLabel.wraps = true
        noFriendsLabel.addCSSClass("dim-label")
        noFriendsLabel.isVisible = false
        section.append(noFriendsLabel)
        let list = friendsList
        list.setSpacing(8)
        list.maxChildrenPerLine = 8
        list.horizontalAlignment = .start
        list.addCSSClass("friends")
        section.append(list)
        if let addFriendButton {
            addFriendButton.horizontalAlignment = .start
            addFriendButton.onClicked { [weak self] in self?.onAddFriend?() }
            section.append(addFriendButton)
        }
        return section
    }

    /// Lists `friends` on My Profile, one button each, in this order (replacing those shown).
    public func showFriends(_ friends: [Person]) {
        guard person.id == viewer.id else { return }
        friendsList.removeAll()
        friendButtons = []
        for friend in friends {
            let button = Button(label: friend.name)
            button.ellipsizesLabel()
            button.onClicked { [weak self] in self?.onFriendSelected?(friend) }
            friendButtons.append(button)
            friendsList.append(button, accessibleLabel: friend.name, cellTakesFocus: false)
        }
        noFriendsLabel.isVisible = friends.isEmpty
    }

    /// Shows the person under the name `name` (the user renamed themselves, or a friend their code).
    public func rename(to name: String) {
        person = Person(id: person.id, name: name)
        nameLabel.text = name
        avatar?.name = name
        if person.id != viewer.id { title = name }
    }
}

/// One row of a profile's list: the profile's header (first row only) or a post (``FeedItem``).
@MainActor
final class FeedCell: ListCell {
    let root: Widget
    let item = FeedItem()
    private let column = Box(.vertical)
    private weak var header: Box?

    init() {
        root = Clamp(column, maximumWidth: ListPage.cardColumnWidth)
        column.append(item.view)
    }

    func showHeader(_ header: Box) {
        item.view.isVisible = false
        if header.parentWidget != nil { header.unparent() }
        column.prepend(header)
        self.header = header
    }

    func showPost(_ post: Post, viewer: String, binding: ListItemBinding) {
        dropHeader()
        item.view.isVisible = true
        item.bind(post, viewer: viewer, binding: binding)
    }

    func unbind() {
        dropHeader()
        item.unbind()
    }

    private func dropHeader() {
        if let header, header.parentWidget == column.widget { column.remove(header) }
        header = nil
    }
}
