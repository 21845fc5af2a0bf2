import PostcardModel

/// What happened in a photo flow (``CommentedPhotoFlow``), in the flow's own terms: what its pages
/// reported and what the user asked of the flow, delivered after the flow has acted on it (see
/// ``CommentedPhotoFlow/observeEvents(_:)``). A journey recorder writes these down; nothing in the flow
/// depends on anyone hearing them.
public enum PhotoFlowEvent: Equatable, Sendable {
    /// Choose a Photo reported a photo (a tile activated, Open File…, a drop or a paste).
    case photoChosen(Photo)
    /// **Take Photo** on Choose a Photo: the Camera page was pushed.
    case cameraOpened
    /// The Camera page reported a photo taken (saved in the camera folder).
    case photoTaken(Photo)
    /// **Choose a Photo Instead** on the Camera page.
    case chosePhotoInstead
    /// The user went back within the flow (Back, Escape, a swipe: Add a Comment to Choose a Photo, the
    /// Camera page to Choose a Photo); Back past the flow's first page is ``cancelRequested``.
    case wentBack
    /// The comment's text changed (each keystroke, paste or cut; the whole text as it is now).
    case commentChanged(String)
    /// **Post** (or Ctrl+Return) with this comment, trimmed; the flow's `submit` has started.
    case postRequested(String)
    /// The user asked to leave the flow (Cancel, Escape on its first page, closing its dialog, Back past
    /// its first page); what follows is the discard question or the flow's end.
    case cancelRequested
    /// "Discard this post?" is showing.
    case discardQuestionAsked
    /// The user answered the discard question: **Discard**, or **Keep Editing** (also Escape or closing
    /// the question).
    case discardAnswered(DiscardAnswer)
}

/// A step a user takes in a photo flow, in the flow's own terms (what its pages report, what the user
/// asks of it): what ``CommentedPhotoFlow/perform(_:)`` does as the page would have reported it, for a
/// journey's replay. The counterpart of ``PhotoFlowEvent``.
public enum PhotoFlowStep: Equatable, Sendable {
    /// Choose a Photo reports `photo` (as a tile activated, Open File…, a drop or a paste do).
    case choose(Photo)
    /// **Take Photo** on Choose a Photo.
    case openCamera
    /// The Camera page's shutter: the photo the preview shows is taken (once the camera shows one).
    case takePhoto
    /// **Choose a Photo Instead** on the Camera page.
    case choosePhotoInstead
    /// The comment now reads this (with the cursor after it, as typed).
    case comment(String)
    /// **Post** (Send, Save) on Add a Comment.
    case post
    /// Back within the flow (Back past a pushed flow's first page leaves it, as the user's Back does).
    case back
    /// **Cancel** (or Escape): the flow asks about a typed comment, else ends.
    case cancel
    /// The answer to "Discard this post?".
    case answerDiscard(DiscardAnswer)
}
