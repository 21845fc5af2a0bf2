import Gtk

/// Filling the app's pages from the store a page of rows at a time, and the times they show.
extension AppController {
    /// Rows per page read from the store as a list scrolls (a feed row is about 370 px tall: 24 rows fill
    /// several screens, and reading them is quick enough not to miss a frame).
    static let pageSize = 24

    func reload(_ page: ProfilePage) {
        let profile = page.person.id
        page.showPosts(PagedRows(pageSize: Self.pageSize) { [store] last, limit in
            try store.posts(onProfile: profile, after: last, limit: limit)
        })
    }

    func reload(_ page: CommentThreadPage) {
        let post = page.post
        do {
            let total = try store.replyCount(to: post)
            page.showReplies(PagedRows(pageSize: Self.pageSize) { [store] last, limit in
                try store.replies(to: post, after: last, limit: limit)
            }, total: total)
        } catch {
            page.showError(localized("Can't load replies: %s", "\(error)"))
        }
    }

    func reload(_ page: MessagesPage) {
        page.showMessages(PagedRows(pageSize: Self.pageSize) { [store] last, limit in
            try store.messages(after: last, limit: limit)
        })
    }

    /// "7 Aug 2026, 14:05" in the local time zone, in the user's language and clock (12 or 24 hours, as
    /// the desktop shows it; see ``DateText/dateAndTime(unixSeconds:)``).
    static func timeText(_ seconds: Int64) -> String {
        DateText.dateAndTime(unixSeconds: seconds)
    }

    /// "Posted 7 Aug 2026, 14:05".
    static func postedLine(_ seconds: Int64) -> String {
        // Translators: when a post was posted; %s is a date and time, e.g. "7 Aug 2026, 14:05".
        localized("Posted %s", timeText(seconds))
    }

    /// "Posted by me 7 Aug 2026, 14:05": a post of mine on a friend's profile.
    static func postedByMeLine(_ seconds: Int64) -> String {
        // Translators: when I (the app's user) posted on a friend's profile; %s is a date and time,
        // e.g. "7 Aug 2026, 14:05".
        localized("Posted by me %s", timeText(seconds))
    }
}
