import Gtk

/// The times the app's pages show, in the user's language and clock.
enum TimeText {
    /// "7 Aug 2026, 14:05" in the local time zone, in the user's language and clock (12 or 24 hours, as
    /// the desktop shows it; see ``DateText/dateAndTime(unixSeconds:)``). `seconds`: since 1970 UTC.
    @MainActor
    static func dateAndTime(_ seconds: Int64) -> String {
        DateText.dateAndTime(unixSeconds: seconds)
    }

    /// "Posted 7 Aug 2026, 14:05".
    @MainActor
    static func posted(_ seconds: Int64) -> String {
        // Translators: when a post was posted; %s is a date and time, e.g. "7 Aug 2026, 14:05".
        localized("Posted %s", dateAndTime(seconds))
    }

    /// "Posted by me 7 Aug 2026, 14:05": a post of mine on a friend's profile.
    @MainActor
    static func postedByMe(_ seconds: Int64) -> String {
        // Translators: when I (the app's user) posted on a friend's profile; %s is a date and time,
        // e.g. "7 Aug 2026, 14:05".
        localized("Posted by me %s", dateAndTime(seconds))
    }
}
