import Gtk
import NavigationGtk
import PostcardModel

/// What the flow's pages report, by name, and the flow driven through it (``perform(_:)``): a journey's
/// replay takes the steps a user took, without pressing any widget.
extension CommentedPhotoFlow {
    /// Choose a Photo reported `photo`: on to Add a Comment. Returns whether it shows.
    @discardableResult
    func photoChosen(_ photo: Photo) -> Bool {
        guard showCommentPage(for: photo) else { return false }
        events.notify(.photoChosen(photo))
        return true
    }

    /// **Take Photo**: on to the Camera page. Returns whether it shows.
    @discardableResult
    func cameraRequested() -> Bool {
        guard showCameraPage() else { return false }
        events.notify(.cameraOpened)
        return true
    }

    /// **Choose a Photo Instead**: back (or on) to Choose a Photo. Returns whether it shows.
    @discardableResult
    func photoInsteadRequested() -> Bool {
        guard chooseInstead() else { return false }
        events.notify(.chosePhotoInstead)
        return true
    }

    /// Takes `step` as the page showing would have reported it (see ``PhotoFlowStep``): a step the page
    /// showing does not offer (Post on Choose a Photo) does nothing.
    /// - Returns: whether the flow took it. ``PhotoFlowStep/takePhoto`` is taken once the camera shows a
    ///   picture, and what it leads to (Add a Comment) comes when the photo is saved; ``PhotoFlowStep/post``
    ///   when Post is possible (a photo and a comment, not posting already).
    @discardableResult
    public func perform(_ step: PhotoFlowStep) -> Bool {
        guard let host, !completion.isResolved else { return false }
        let visible = host.stack.visiblePage
        switch step {
        case .choose(let photo):
            guard let picker, visible === picker else { return false }
            return photoChosen(photo)
        case .openCamera:
            guard let picker, visible === picker, picker.onTakePhoto != nil else { return false }
            return cameraRequested()
        case .takePhoto:
            guard let cameraPage, visible === cameraPage, !cameraPage.isSaving, cameraPage.isShowingPicture else { return false }
            cameraPage.takePhoto()
            return true
        case .choosePhotoInstead:
            guard let cameraPage, visible === cameraPage else { return false }
            return photoInsteadRequested()
        case .comment(let text):
            guard let commentPage, visible === commentPage else { return false }
            commentPage.type(text)
            return true
        case .post:
            guard let commentPage, visible === commentPage, commentPage.postButton.isSensitive else { return false }
            commentPage.post()
            return true
        case .back:
            guard let visible, host.pages.contains(where: { $0 === visible }) else { return false }
            host.stack.goBack()
            return true
        case .cancel:
            requestCancel(.user)
            return true
        case .answerDiscard(let answer):
            return discardQuestion.answer(answer)
        }
    }
}
