/// How long a comment (a post's caption, a reply, a message) may be: 2,200 characters, the caption limit
/// of the photo-sharing apps Postcard's users know (Instagram's), long enough for a story with a photo and
/// short enough that every page showing one stays responsive. Characters are Unicode code points, as
/// GTK counts them (an emoji with a skin tone is two).
///
/// Add a Comment shows a counter near the limit and cuts what is typed or pasted past it; text that
/// arrives longer (a draft or a post written by another program) is shown cut, with an ellipsis, by
/// every page (``shown(_:)``), and left whole in the store.
public enum CommentLimit {
    /// The most characters a comment may have.
    public static let maximumCharacters = 2_200

    /// From how many characters left the counter shows.
    public static let counterThreshold = 200

    /// `comment` as pages show it: whole when within ``maximumCharacters``, else its first
    /// ``maximumCharacters`` characters and "…". Any thread.
    public static func shown(_ comment: String) -> String {
        let scalars = comment.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: maximumCharacters, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return comment }
        return String(scalars[..<end]) + "…"
    }
}
