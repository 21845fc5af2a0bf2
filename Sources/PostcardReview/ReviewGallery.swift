import CGtk
import Glibc
import Gtk
import PostcardApp
import NavigationGtk
import PostcardModel

/// A window size, scale and text direction the review tour runs at, in a process of its own: the main
/// window `width` × `height` logical pixels, drawn at `scale` device pixels per logical pixel (GTK's
/// `GDK_SCALE`), laid out right to left from the start when `rightToLeft` (as in an Arabic or Hebrew
/// locale; GTK 4.8 does not re-align text already laid out when the direction changes later). Named as
/// in `POSTCARD_REVIEW_PARTS`: `360`, `1280-rtl`, `360@2x`.
public struct ReviewPart: Equatable, Sendable {
    /// The main window's width in logical pixels.
    public let width: Int
    /// The main window's height in logical pixels.
    public let height: Int
    /// Device pixels per logical pixel (1 to 3).
    public let scale: Int
    /// Whether every widget lays out right to left.
    public let rightToLeft: Bool

    /// The part named `name` (`<width>[@<scale>x][-rtl]`, e.g. `360@2x`, `1280-rtl`); nil when it is not
    /// one. The height is 720 px for widths under 450 (a phone held upright), else 800.
    public init?(name: String) {
        rightToLeft = name.hasSuffix("-rtl")
        let pieces = (rightToLeft ? String(name.dropLast(4)) : name).split(separator: "@", omittingEmptySubsequences: false)
        guard let width = Int(pieces[0]), width >= 300, width <= 4000, pieces.count <= 2 else { return nil }
        var scale = 1
        if pieces.count == 2 {
            guard pieces[1].hasSuffix("x"), let value = Int(pieces[1].dropLast()), value >= 1, value <= 3 else { return nil }
            scale = value
        }
        self.width = width
        self.scale = scale
        height = width < 450 ? 720 : 800  // narrower than ModalDialog.bottomSheetWidth: a phone's height
    }

    /// `360`, `360@2x` at scale 2, `1280-rtl` right to left.
    public var name: String { sizeName + (rightToLeft ? "-rtl" : "") }

    /// `360` or `360@2x`: the start of its pictures' file names.
    var sizeName: String { scale == 1 ? "\(width)" : "\(width)@\(scale)x" }

    /// The parts `postcard-review --review-tour` runs when `POSTCARD_REVIEW_PARTS` does not name others: a
    /// phone-sized window (where flows are bottom sheets) and a desktop-sized one, each left to right and
    /// right to left, and the phone size at 2×.
    public static let all = ["360", "360-rtl", "1280", "1280-rtl", "360@2x"].compactMap(ReviewPart.init(name:))
}

/// A style and text direction every screen is saved in.
public struct ReviewVariant: Equatable, Sendable {
    /// libadwaita's dark style (as when the desktop prefers dark; see `StyleManager`), else light.
    public var dark: Bool
    /// Laid out right to left (``Localization/setRightToLeft(_:)``), else left to right.
    public var rightToLeft: Bool
    /// libadwaita's high-contrast style (as when the desktop asks for it: Settings → Accessibility →
    /// High Contrast), light.
    public var highContrast: Bool

    /// Creates a variant.
    public init(dark: Bool, rightToLeft: Bool, highContrast: Bool = false) {
        self.dark = dark
        self.rightToLeft = rightToLeft
        self.highContrast = highContrast
    }

    /// `light-ltr`, `dark-rtl`, `hc-ltr`, …
    public var name: String { "\(styleName)-\(rightToLeft ? "rtl" : "ltr")" }

    /// `light`, `dark` or `hc` (high contrast).
    public var styleName: String { highContrast ? "hc" : dark ? "dark" : "light" }

    /// The order of the contact sheet's columns: light, dark, high contrast.
    var styleOrder: Int { highContrast ? 2 : dark ? 1 : 0 }

    /// Light, dark and high contrast, each left to right and right to left.
    public static let all = [false, true].flatMap { rtl in styles(rightToLeft: rtl) }

    /// Light, dark and high contrast in `part`'s direction: what one part's process saves.
    public static func all(in part: ReviewPart) -> [ReviewVariant] { styles(rightToLeft: part.rightToLeft) }

    private static func styles(rightToLeft: Bool) -> [ReviewVariant] {
        [ReviewVariant(dark: false, rightToLeft: rightToLeft), ReviewVariant(dark: true, rightToLeft: rightToLeft),
         ReviewVariant(dark: false, rightToLeft: rightToLeft, highContrast: true)]
    }
}

/// One screen in one state of the review gallery, with what a reviewer should look at.
public struct ReviewScreen: Sendable {
    /// The screen's folder name in the gallery (`choose-a-photo-no-photos`); stable, so galleries compare.
    public let name: String
    /// The screen (a row group of the contact sheet), e.g. "Choose a Photo".
    public let screen: String
    /// The state it is in (a row), e.g. "an empty folder".
    public let state: String
    /// What to look at.
    public let caption: String
}

/// The review gallery (`postcard-review --review-tour DIR`, `make review`): the review tour run once per
/// ``ReviewPart`` in a process of its own (the scale is fixed when GTK starts, and flows present as
/// bottom sheets or windows by the window's width when they open), each saving every screen in every
/// ``ReviewVariant``; then `DIR/index.html`, a contact sheet grouping the pictures by screen, one row per
/// state, a column per style × width × direction, and, with `--compare OLDDIR`, the pictures that changed
/// since that gallery with a picture of the pixels that differ.
@MainActor
public enum ReviewGallery {
    /// Every screen the tour saves, in the order of the contact sheet.
    public static let screens: [ReviewScreen] = [
        ReviewScreen(name: "my-profile", screen: "My Profile", state: "first start, no posts",
                     caption: "The bar's title, New Post, Quick Snap and the main menu; the empty feed says how to post."),
        ReviewScreen(name: "primary-menu", screen: "My Profile", state: "main menu open",
                     caption: "Keyboard Shortcuts, Help and About Postcard with their shortcuts; the menu points at its button."),
        ReviewScreen(name: "my-profile-posted-toast", screen: "My Profile", state: "just posted: the toast",
                     caption: "A toast at the bottom says Posted, with View to open the post and Close; it goes by itself after 5 s."),
        ReviewScreen(name: "my-profile-with-post", screen: "My Profile", state: "after posting",
                     caption: "The new post first, with its photo, comment and time; the dialog is gone."),
        ReviewScreen(name: "my-profile-scrolled-under-the-bar", screen: "My Profile", state: "scrolled under the bar",
                     caption: "The feed shows through the translucent bar; the text stays readable over photos."),
        ReviewScreen(name: "choose-a-photo", screen: "Choose a Photo", state: "New Post, the flow's first page",
                     caption: "Cancel at the start; Take Photo and Open File… at the end; thumbnails newest first, none cut off."),
        ReviewScreen(name: "choose-a-photo-no-photos", screen: "Choose a Photo", state: "an empty folder",
                     caption: "Says there are no photos and offers Open File…; nothing looks broken."),
        ReviewScreen(name: "choose-a-photo-damaged-photo", screen: "Choose a Photo", state: "a damaged photo beside a good one",
                     caption: "The damaged file is a placeholder tile saying it can't be opened; the good photo shows."),
        ReviewScreen(name: "choose-a-photo-reply-pushed", screen: "Choose a Photo", state: "a reply, pushed on Comments",
                     caption: "The main window's bar: Back to Comments and the flow's Cancel; the same page as in New Post."),
        ReviewScreen(name: "choose-a-photo-message", screen: "Choose a Photo", state: "a message, after Choose Recipient",
                     caption: "Back to Choose Recipient beside Cancel; the title says what the photo is for."),
        ReviewScreen(name: "add-a-comment", screen: "Add a Comment", state: "New Post, text typed",
                     caption: "The chosen photo, the comment with its text, Post enabled at the bar's end."),
        ReviewScreen(name: "add-a-comment-failed", screen: "Add a Comment", state: "the post failed (the database refused it)",
                     caption: "The error says why in plain words; the text is kept and Post can be pressed again."),
        ReviewScreen(name: "add-a-comment-not-saved", screen: "Add a Comment", state: "the draft can't be saved (a full disk)",
                     caption: "Above the field, in an alert a screen reader reads: the comment isn't saved yet, why, and that Postcard keeps trying."),
        ReviewScreen(name: "add-a-comment-near-the-limit", screen: "Add a Comment", state: "near the 2,200-character limit",
                     caption: "Under the field, at its end: how many characters are left (from 200 left)."),
        ReviewScreen(name: "add-a-comment-more-menu", screen: "Add a Comment", state: "360 px wide: the bar's More menu open",
                     caption: "Back, the whole title, More and Post fit; More holds what did not fit (Cancel last), by name."),
        ReviewScreen(name: "add-a-comment-reply-pushed", screen: "Add a Comment", state: "a reply, pushed",
                     caption: "The stack's bar with Back to Choose a Photo; the page is the same as in the dialog."),
        ReviewScreen(name: "add-a-comment-message", screen: "Add a Comment", state: "a message",
                     caption: "Post reads as sending the message; the text field has room."),
        ReviewScreen(name: "add-a-comment-after-quick-snap", screen: "Add a Comment", state: "after Quick Snap's shot",
                     caption: "The photo just taken; Back returns to the camera. (A frame of the moving test picture.)"),
        ReviewScreen(name: "discard-this-post", screen: "Discard this post?", state: "Cancel with text typed",
                     caption: "The question names what is lost; Keep Editing is the default, Discard is marked destructive."),
        ReviewScreen(name: "friend-profile", screen: "A friend's profile", state: "pushed on My Profile",
                     caption: "Back names My Profile; the title is the friend's name; New Post posts to them."),
        ReviewScreen(name: "post-detail-pushed", screen: "Post detail", state: "pushed on My Profile, the stack's bar",
                     caption: "The stack's bar shows the title and Back; the page's own bar is hidden; the photo fits."),
        ReviewScreen(name: "message-shown", screen: "Messages", state: "a message chosen: beside the list when wide, over it at 360 px",
                     caption: "The split view: at 1280 px the list keeps its place with the row highlighted and the message shows its own bar beside it; at 360 px the message is pushed over the list, with Back."),
        ReviewScreen(name: "message-shown-narrowed", screen: "Messages", state: "at 1280 px with a message, New Message opened with text typed; then the window behind it narrowed to 360 px",
                     caption: "Collapsed into the stack: the message over the list, the stack's Back to the list, its bar the stack's; nothing lost (the flow is its own window)."),
        ReviewScreen(name: "message-shown-widened-again", screen: "Messages", state: "still mid-flow, widened back to 1280 px",
                     caption: "Expanded again: the same message beside the list, its row highlighted, as before narrowing."),
        ReviewScreen(name: "add-a-comment-after-resizing", screen: "Add a Comment", state: "New Message, after the window behind it was narrowed and widened",
                     caption: "The flow is where it was: the photo, the recipient and the text typed, Post enabled."),
        ReviewScreen(name: "message-shown-large-text", screen: "Messages", state: "Large Text (text scale 1.25)",
                     caption: "The sidebar's width is in sp: wider with the text; below 600 sp the window collapses sooner."),
        ReviewScreen(name: "messages-large-text-360", screen: "Messages", state: "Large Text (text scale 1.25), 360 px in every part",
                     caption: "Back, the title and More fit: New Message is in More (by name), not over the title; the rows wrap."),
        ReviewScreen(name: "comments-large-text-360", screen: "Comments", state: "Large Text (text scale 1.25), 360 px in every part",
                     caption: "Back whole; the title whole or shortened with “…”, never under Back or Reply; Reply in More if it does not fit."),
        ReviewScreen(name: "friend-profile-large-text-360", screen: "A friend's profile", state: "Large Text (text scale 1.25), 360 px in every part",
                     caption: "Back and the friend's name in the bar; Post to Their Profile wraps rather than widen the window."),
        ReviewScreen(name: "messages-text-2x-360", screen: "Messages", state: "text scale 2, 360 px in every part",
                     caption: "Twice the text: Back and the window's buttons whole, the title shortened with “…”, New Message in More."),
        ReviewScreen(name: "comments-text-2x-360", screen: "Comments", state: "text scale 2, 360 px in every part",
                     caption: "Twice the text: Back whole, the title shortened with “…”, Reply in More; nothing drawn under anything."),
        ReviewScreen(name: "post-text-2x-360", screen: "Post detail", state: "text scale 2, 360 px in every part",
                     caption: "Twice the text: the post's buttons one under another, so the window stays 360 px wide."),
        ReviewScreen(name: "friend-profile-text-2x-360", screen: "A friend's profile", state: "text scale 2, 360 px in every part",
                     caption: "Twice the text: the header and the posts' dates wrap; the window stays 360 px wide."),
        ReviewScreen(name: "post-opened-by-link", screen: "Post detail", state: "opened by a postcard:// link, above the friend's profile",
                     caption: "Back names the friend's profile the post is on; Copy Link beside Comments; the link in the caption is a link."),
        ReviewScreen(name: "post-deleted-undo", screen: "Post detail", state: "Delete pressed: the page gone, Undo offered",
                     caption: "Back on the profile the post was on, without it; the toast says Post deleted, with Undo, for 5 s."),
        ReviewScreen(name: "link-not-found", screen: "Not Found", state: "a link to a post that is gone",
                     caption: "Says what was asked for and that it may have been deleted, with the link; Back to My Profile."),
        ReviewScreen(name: "comments", screen: "Comments", state: "a post's comments, no replies",
                     caption: "Reply with a Photo is easy to find; the empty state is not alarming."),
        ReviewScreen(name: "swiping-back", screen: "Comments", state: "a swipe back held at 40 %, over the post",
                     caption: "Comments follows the finger over the post below; the bar shows both pages' titles and items cross-fading (Reply fading out, Copy Link and Comments fading in)."),
        ReviewScreen(name: "back-history-menu", screen: "Comments", state: "Back's history menu open",
                     caption: "Every page below, nearest first, by title; the menu points at Back."),
        ReviewScreen(name: "comments-with-reply", screen: "Comments", state: "after a reply",
                     caption: "The reply with its photo; the flow's pages are gone from the stack."),
        ReviewScreen(name: "edit-caption", screen: "Edit Caption", state: "pushed on the Post detail",
                     caption: "Save at the end of the bar; the caption in the field."),
        ReviewScreen(name: "scan-a-code", screen: "Scan a Code", state: "presented alone from the main menu, looking",
                     caption: "Its own bar with Close and the title; the camera's picture (a still photo here) and the hint under it."),
        ReviewScreen(name: "scan-a-code-read", screen: "Scan a Code", state: "a code of plain text read",
                     caption: "Code Read: the text as written, with Copy and Scan Again; the picture goes on."),
        ReviewScreen(name: "scan-a-code-web-address", screen: "Scan a Code", state: "a web address read",
                     caption: "Web Address: the address shown, not opened; Open beside Copy and Scan Again opens it, only when asked."),
        ReviewScreen(name: "scan-a-code-no-camera", screen: "Scan a Code", state: "no camera",
                     caption: "No Camera Found, what to do, and Close; nothing looks broken."),
        ReviewScreen(name: "my-code", screen: "My Code", state: "presented alone from the main menu",
                     caption: "A sharp black-on-white QR code in every style, the link as text, Copy Link, and the name to change."),
        ReviewScreen(name: "add-friend", screen: "Add Friend", state: "the flow's first page",
                     caption: "Scan Their Code first, Enter Their Link, Show My Code; Cancel at the bar's start."),
        ReviewScreen(name: "add-friend-not-a-postcard-code", screen: "Scan a Code", state: "pushed in Add Friend: a web address read",
                     caption: "The flow's bar with Back and Cancel, the page's title; This Is Not a Postcard Code, and Scan Again."),
        ReviewScreen(name: "add-friend-new-friend", screen: "New Friend", state: "a friend's code read",
                     caption: "Their avatar and name as text, their id, and Add at the bar's end."),
        ReviewScreen(name: "messages", screen: "Messages", state: "no messages",
                     caption: "New Message at the bar's end; the empty state says what to do."),
        ReviewScreen(name: "messages-with-message", screen: "Messages", state: "a message sent",
                     caption: "The row names the recipient and shows the photo."),
        ReviewScreen(name: "choose-recipient", screen: "Choose Recipient", state: "the message flow's first page",
                     caption: "Each friend a button with a name; Cancel at the start."),
        ReviewScreen(name: "camera-pushed", screen: "Camera", state: "pushed in New Post (Take Photo)",
                     caption: "The live picture under the stack's bar with Back and Cancel; the shutter centred. (The test picture moves, so this one differs on every run.)"),
        ReviewScreen(name: "camera-presented", screen: "Camera", state: "presented alone (Quick Snap), its own bar",
                     caption: "The page's own bar with Close; the same page as pushed. (The test picture moves.)"),
        ReviewScreen(name: "camera-no-camera", screen: "Camera", state: "no camera",
                     caption: "Says no camera was found and offers Choose a Photo Instead; no black box."),
        ReviewScreen(name: "web-page-pushed", screen: "Web page (the guide)", state: "pushed, at the top",
                     caption: "The page starts below the translucent bar; nothing hidden under it."),
        ReviewScreen(name: "web-page-scrolled-under-the-bar", screen: "Web page (the guide)", state: "pushed, scrolled",
                     caption: "The page runs under the translucent bar and shows through it."),
        ReviewScreen(name: "web-page-presented", screen: "Web page (the guide)", state: "presented alone over New Post, its own bar",
                     caption: "The page's own bar with Close, over the flow; the right section of the guide."),
        ReviewScreen(name: "web-page-failed-to-load", screen: "Web page (the guide)", state: "failed to load",
                     caption: "Says the page could not load and why, with Try Again; no blank page."),
        ReviewScreen(name: "keyboard-shortcuts", screen: "Keyboard Shortcuts", state: "from the main menu",
                     caption: "Every shortcut grouped and named; Back, Forward and the history menu listed."),
        ReviewScreen(name: "about", screen: "About Postcard", state: "from the main menu",
                     caption: "Name, version, icon and licence."),
    ]

    /// The screens of a gallery of `journey` (`postcard-review --journey FILE`): one per step, in its
    /// order, named `journey-<line>-<step>` (`journey-007-choose`: stable while the journal's lines stay
    /// where they are, so galleries of the same journal compare), grouped under the journal's file name
    /// `title`, each captioned with its line as written.
    /// A journal with `review snapshot SCREEN` steps (also `snapshot-more-menu`, `snapshot-missing-camera`:
    /// the built-in tour) has those screens instead: the
    /// gallery's own (``screens``, in their order) when it names only those, else one per snapshot.
    static func screens(of journey: Journey, title: String) -> [ReviewScreen] {
        let snapshots = journey.entries.compactMap { entry -> (String, Journey.Entry)? in
            if case .review(let step, let values) = entry.step, step.hasPrefix("snapshot"), let name = values.first { (name, entry) } else { nil }
        }
        if !snapshots.isEmpty {
            let names = Set(snapshots.map(\.0))
            if names.isSubset(of: Set(screens.map(\.name))) { return screens.filter { names.contains($0.name) } }
            return snapshots.map { name, entry in
                ReviewScreen(name: name, screen: "Journey \(title)", state: name, caption: Journey.line(for: entry))
            }
        }
        return journey.entries.enumerated().map { index, entry in
            let number = String(entry.line)
            let name = "journey-" + String(repeating: "0", count: max(0, 3 - number.count)) + number + "-" + entry.step.name
            return ReviewScreen(name: name, screen: "Journey \(title)", state: "step \(index + 1), line \(entry.line): \(entry.step.name)",
                                caption: Journey.line(for: entry))
        }
    }

    /// The columns of the contact sheet: each part with each style, light before dark, narrow first,
    /// left to right before right to left, 2× last.
    static func columns(parts: [ReviewPart]) -> [(part: ReviewPart, variant: ReviewVariant)] {
        parts.flatMap { part in ReviewVariant.all(in: part).map { (part: part, variant: $0) } }.sorted { a, b in
            (a.part.scale, a.variant.styleOrder, a.part.width, a.variant.rightToLeft ? 1 : 0)
                < (b.part.scale, b.variant.styleOrder, b.part.width, b.variant.rightToLeft ? 1 : 0)
        }
    }

    /// A picture's file name inside its screen's folder: `<part>-<variant>.png` (`360@2x-dark-rtl.png`),
    /// or `<variant>.png` without a part.
    static func fileName(part: ReviewPart?, variant: ReviewVariant) -> String {
        (part.map { "\($0.sizeName)-" } ?? "") + variant.name + ".png"
    }

    /// The parts `POSTCARD_REVIEW_PARTS` names (comma-separated, e.g. `360,1280-rtl`), else ``ReviewPart/all``.
    /// - Throws: ``AppOptionsError`` naming a part that is not `<width>` or `<width>@<scale>x`.
    static func partsFromEnvironment() throws -> [ReviewPart] {
        guard let value = Files.environment("POSTCARD_REVIEW_PARTS"), !value.isEmpty else { return ReviewPart.all }
        return try value.split(separator: ",").map { name in
            guard let part = ReviewPart(name: String(name)) else {
                throw ReviewError(message: "POSTCARD_REVIEW_PARTS: “\(name)” is not a part such as 360, 1280-rtl or 360@2x")
            }
            return part
        }
    }

    /// The part this process is, when `postcard-review --review-tour` started it for one (`POSTCARD_REVIEW_PART`).
    nonisolated static var partOfThisProcess: ReviewPart? { Files.environment("POSTCARD_REVIEW_PART").flatMap(ReviewPart.init(name:)) }

    /// Sets this process up as `part` before the app builds anything: the text direction, GNOME's
    /// window buttons (its default `button-layout`, not GTK's fallback with minimize and maximize that
    /// a bare X server gets) and no blinking text cursor.
    static func prepare(for part: ReviewPart) {
        if part.rightToLeft { Localization.setRightToLeft(true) }
        DesktopStyle.decorationLayout = "appmenu:close"
        DesktopStyle.setBooleanSetting("gtk-cursor-blink", false)
    }

    /// The store's clock in the gallery: always 1 Dec 2026, 09:41 UTC, so that pictures of the same app
    /// come out the same on every run. (A clock running on from there put a post's time at 09:41 on one
    /// run and 09:42 on another, as the tour took more or less than a minute to reach it.) Posts stored
    /// at the same second keep their order by id.
    static let clock: @Sendable () -> Int64 = { 1_796_118_060 }

    /// Makes the gallery in `directory`: runs this program (`arguments`, byte for byte) once per part
    /// with `POSTCARD_REVIEW_PART` and `GDK_SCALE` set, waits for each, then checks every picture and
    /// writes `index.html`, comparing with the gallery in `compare` when given. Blocking; runs before
    /// GTK starts in this process (the parts open the display).
    /// - Returns: the exit status: 0 when every part ran and every picture is there and not blank, 1
    ///   otherwise (what went wrong is printed to standard error and listed in the index).
    static func make(in directory: FilePath, compare: FilePath?, screens: [ReviewScreen] = screens,
                     arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        let parts: [ReviewPart]
        do {
            parts = try partsFromEnvironment()
            try Files.makeDirectory(directory)
        } catch {
            PostcardMain.printError("postcard: \(error)")
            return 1
        }
        var problems: [String] = []
        Files.removeTree(directory.appending(".data"))  // the parts' posts from an earlier run
        for part in parts {
            print("Review tour at \(part.name) (\(part.width) × \(part.height) px, scale \(part.scale)\(part.rightToLeft ? ", right to left" : ""))…")
            fflush(nil)
            if let failure = runPart(part, arguments: arguments) { problems.append("the \(part.name) tour failed: \(failure)") }
        }
        let pictures = check(directory, parts: parts, screens: screens)
        problems += pictures.problems
        let changes = compare.map { compareGalleries(new: directory, old: $0, parts: parts, screens: screens) }
        do {
            try Files.writeText(indexHTML(in: directory, parts: parts, screens: screens, problems: problems, compared: compare, changes: changes),
                                to: directory.appending("index.html"))
        } catch {
            problems.append("can't write index.html: \(error)")
        }
        for problem in problems { PostcardMain.printError("postcard: review gallery: \(problem)") }
        print("Review gallery: \(pictures.count) pictures of \(screens.count) screens in \(directory.appending("index.html"))"
              + (changes.map { ", \($0.filter { $0.kind != .same }.count) changed since \(compare!)" } ?? ""))
        return problems.isEmpty ? 0 : 1
    }

    /// Runs this program for `part` and waits; nil when it exited with 0, else what happened.
    private static func runPart(_ part: ReviewPart, arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> String? {
        var environment = g_get_environ()
        environment = g_environ_setenv(environment, "POSTCARD_REVIEW_PART", part.name, 1)
        environment = g_environ_setenv(environment, "GDK_SCALE", "\(part.scale)", 1)
        // No screen reader reads the parts; each would otherwise look for the accessibility bus the part
        // before it started, which may have ended with it (GTK warns then).
        environment = g_environ_setenv(environment, "GTK_A11Y", "none", 1)
        // WebKit draws web pages without its accelerated compositing (as it does where no GPU is usable):
        // composited, under Xvfb's software GL, the glyphs of a page's text came out with slightly different
        // antialiasing from run to run (0.6 to 2.5 % of a web page's pixels), so every comparison listed the
        // web pages as changed. Drawn this way two runs match pixel for pixel; against the composited
        // drawing only the text's antialiasing differs, not where anything is.
        environment = g_environ_setenv(environment, "WEBKIT_DISABLE_COMPOSITING_MODE", "1", 1)
        defer { g_strfreev(environment) }
        var status: Int32 = 0
        var error: UnsafeMutablePointer<GError>?
        let program = Files.executablePath
        // argv[0] replaced by this executable's own path (argv[0] may be a bare name found on PATH).
        let spawned = (program ?? FilePath(String(cString: arguments[0]!))).withCString { path -> gboolean in
            let saved = arguments[0]
            arguments[0] = UnsafeMutablePointer(mutating: path)
            defer { arguments[0] = saved }
            return g_spawn_sync(nil, arguments, environment, G_SPAWN_CHILD_INHERITS_STDIN, nil, nil, nil, nil, &status, &error)
        }
        if spawned == 0 {
            defer { g_error_free(error) }
            return error.map { String(cString: $0.pointee.message) } ?? "it could not start"
        }
        var checkError: UnsafeMutablePointer<GError>?
        if g_spawn_check_wait_status(status, &checkError) == 0 {
            defer { g_error_free(checkError) }
            return checkError.map { String(cString: $0.pointee.message) } ?? "exit status \(status)"
        }
        return nil
    }

    // MARK: - Pictures

    /// A picture's pixels, 8-bit RGBA rows (GdkPixbuf's PNG loader).
    struct Picture {
        let width: Int, height: Int
        let rgba: [UInt8]

        /// Loads the PNG at `path`; nil when it is missing or not an image.
        init?(path: FilePath) {
            var error: UnsafeMutablePointer<GError>?
            guard let loaded = path.withCString({ gdk_pixbuf_new_from_file($0, &error) }) else {
                g_clear_error(&error)
                return nil
            }
            let pixbuf = gdk_pixbuf_add_alpha(loaded, 0, 0, 0, 0)!
            g_object_unref(UnsafeMutableRawPointer(loaded))
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            width = Int(gdk_pixbuf_get_width(pixbuf))
            height = Int(gdk_pixbuf_get_height(pixbuf))
            let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
            let pixels = gdk_pixbuf_read_pixels(pixbuf)!
            var rgba: [UInt8] = []
            rgba.reserveCapacity(width * height * 4)
            for row in 0..<height {  // rows without their padding
                rgba.append(contentsOf: UnsafeBufferPointer(start: pixels + row * stride, count: width * 4))
            }
            self.rgba = rgba
        }

        /// How many different colours it has, counted up to `limit`.
        func colorCount(upTo limit: Int) -> Int {
            var seen = Set<UInt32>()
            var index = 0
            while index < rgba.count, seen.count < limit {
                seen.insert(UInt32(rgba[index]) << 24 | UInt32(rgba[index + 1]) << 16 | UInt32(rgba[index + 2]) << 8 | UInt32(rgba[index + 3]))
                index += 4 * 7  // every 7th pixel is plenty to tell a screen from a blank
            }
            return seen.count
        }
    }

    /// The smallest number of colours a picture of a screen has; fewer is a blank or a single colour.
    static let minimumColors = 8

    /// Checks that every screen has every column's picture, and that none is blank.
    static func check(_ directory: FilePath, parts: [ReviewPart], screens: [ReviewScreen] = screens) -> (count: Int, problems: [String]) {
        var count = 0, problems: [String] = []
        for screen in screens {
            for column in columns(parts: parts) {
                let name = fileName(part: column.part, variant: column.variant)
                let file = "\(screen.name)/\(name)"
                guard let picture = Picture(path: directory.appending(screen.name, name)) else {
                    problems.append("\(file) is missing")
                    continue
                }
                count += 1
                if picture.colorCount(upTo: minimumColors) < minimumColors { problems.append("\(file) is blank or a single colour") }
            }
        }
        return (count, problems)
    }

    // MARK: - Comparing

    /// How a picture differs from the one of the same name in an earlier gallery.
    struct Change {
        enum Kind { case same, changed, resized, added }
        let screen: ReviewScreen
        let file: String
        let kind: Kind
        /// Share of the pixels that differ, 0…1 (1 when resized or added).
        let fraction: Double
        /// The picture of the difference (changed pixels red over the new picture, faded), for `.changed`.
        let diffFile: String?
    }

    /// Compares every picture of the gallery in `new` with the one of the same name in `old`, writing a
    /// picture of each difference into `new/changes/`.
    static func compareGalleries(new: FilePath, old: FilePath, parts: [ReviewPart], screens: [ReviewScreen] = screens) -> [Change] {
        var changes: [Change] = []
        try? Files.makeDirectory(new.appending("changes"))
        for screen in screens {
            for column in columns(parts: parts) {
                let file = fileName(part: column.part, variant: column.variant)
                guard let current = Picture(path: new.appending(screen.name, file)) else { continue }
                guard let earlier = Picture(path: old.appending(screen.name, file)) else {
                    changes.append(Change(screen: screen, file: file, kind: .added, fraction: 1, diffFile: nil))
                    continue
                }
                guard current.width == earlier.width, current.height == earlier.height else {
                    changes.append(Change(screen: screen, file: file, kind: .resized, fraction: 1, diffFile: nil))
                    continue
                }
                var differing = 0
                var diff = [UInt8](repeating: 0, count: current.rgba.count)
                for pixel in 0..<(current.width * current.height) {
                    let base = pixel * 4
                    let same = current.rgba[base] == earlier.rgba[base] && current.rgba[base + 1] == earlier.rgba[base + 1]
                        && current.rgba[base + 2] == earlier.rgba[base + 2] && current.rgba[base + 3] == earlier.rgba[base + 3]
                    if same {
                        let grey = UInt8((Int(current.rgba[base]) + Int(current.rgba[base + 1]) + Int(current.rgba[base + 2])) / 3)
                        let faded = UInt8(191 + Int(grey) / 4)
                        diff[base] = faded; diff[base + 1] = faded; diff[base + 2] = faded; diff[base + 3] = 255
                    } else {
                        differing += 1
                        diff[base] = 224; diff[base + 1] = 27; diff[base + 2] = 36; diff[base + 3] = 255
                    }
                }
                guard differing > 0 else {
                    changes.append(Change(screen: screen, file: file, kind: .same, fraction: 0, diffFile: nil))
                    continue
                }
                let diffFile = "changes/\(screen.name)--\(file)"
                let saved = diff.withUnsafeBytes { bytes -> Bool in
                    let data = g_bytes_new(bytes.baseAddress, gsize(bytes.count))
                    defer { g_bytes_unref(data) }
                    guard let pixbuf = gdk_pixbuf_new_from_bytes(data, GDK_COLORSPACE_RGB, 1, 8, Int32(current.width), Int32(current.height),
                                                                 Int32(current.width * 4)) else { return false }
                    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
                    var error: UnsafeMutablePointer<GError>?
                    defer { g_clear_error(&error) }
                    return new.appending("changes", "\(screen.name)--\(file)").withCString { gdk_pixbuf_savev(pixbuf, $0, "png", nil, nil, &error) } != 0
                }
                changes.append(Change(screen: screen, file: file, kind: .changed,
                                      fraction: Double(differing) / Double(current.width * current.height),
                                      diffFile: saved ? diffFile : nil))
            }
        }
        return changes
    }

}
