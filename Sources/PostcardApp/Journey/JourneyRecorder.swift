import CGtk
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel

/// Writes a ``Journey`` of what the user does in `app` as it happens (`postcard --record FILE`): the
/// main stack's path after each change, each flow's start, what its pages report and how it ended,
/// what was deleted and brought back with Undo, the dialogs opening and closing, and the main window's
/// width. A line reaches the file
/// whole as soon as it is known (``AppendingTextFile``); the comment being typed is written once it has
/// rested for a second, or before the next step, so a journal holds the text, not every keystroke.
/// Main actor.
@MainActor
public final class JourneyRecorder {
    /// How long typing rests before the comment's text is written, in seconds.
    public static let commentPause = 1.0

    private let app: AppController
    private let file: AppendingTextFile
    private let start = DateText.monotonicMicroseconds
    private var tokens: [ObservationToken] = []
    private var flowTokens: [ObservationToken] = []
    /// The comment typed and not yet written, with when it was typed (seconds).
    private var pendingComment: (text: String, time: Double)?
    private var commentTimer: UInt32 = 0
    private var widthTimer: UInt32 = 0
    private var lastWidth: Int?
    private var widthHandler: UInt = 0
    /// The first write error, if any (the journal stops there; the app goes on).
    public private(set) var writeError: Error?

    /// Starts recording `app` into a new journal at `path` (replacing a file there), beginning with the
    /// window's width and the path shown now.
    /// - Throws: ``GLibError`` when the file cannot be created.
    public init(app: AppController, path: FilePath) throws {
        self.app = app
        file = try AppendingTextFile(creating: path)
        try file.write(line: Journey.header)
        try file.write(line: "# Recorded by Postcard \(AppController.version); photos from \(app.library.directory.displayName)")
        record(.window(width: Int(currentWidth)))
        lastWidth = Int(currentWidth)
        record(.path(app.router.path))
        tokens.append(app.router.observePath { [weak self] path in self?.record(.path(path)) })
        tokens.append(app.flowStarts.add { [weak self] started in self?.flowStarted(started) })
        tokens.append(app.flowEnds.add { [weak self] outcome in
            self?.flowTokens.removeAll()
            self?.record(.end(JourneyEnd(outcome)))
        })
        tokens.append(app.dialogChanges.add { [weak self] dialog, presented in
            self?.record(presented ? .present(dialog) : .dismiss(dialog))
        })
        tokens.append(app.deletions.presses.add { [weak self] item, deleted in
            self?.record(deleted ? .delete(item) : .undo(item))
        })
        widthHandler = app.mainWindow.window.connect("notify::default-width") { [weak self] _ in self?.widthChanged() }
    }

    /// Stops recording: writes the comment still pending and closes the journal. Idempotent.
    public func stop() {
        flushComment()
        tokens.removeAll()
        flowTokens.removeAll()
        MainLoopBridge.cancel(commentTimer)
        MainLoopBridge.cancel(widthTimer)
        if widthHandler != 0 { app.mainWindow.window.disconnect(widthHandler) }
        widthHandler = 0
        file.close()
    }

    private var now: Double { Double(DateText.monotonicMicroseconds - start) / 1_000_000 }

    /// The window's default width (`gtk_window_get_default_size`: the size it opens at, which GTK keeps
    /// as the user resizes it, with the shadow client-side decorations draw), in pixels; its width when
    /// no default was set.
    private var currentWidth: Int32 {
        let window = app.mainWindow.window
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(window.pointer(), &width, &height)
        return width > 0 ? width : Int32(window.width)
    }

    /// Writes `step` now (after the comment typed before it).
    private func record(_ step: JourneyStep, at time: Double? = nil) {
        if case .comment = step {} else { flushComment() }
        write(Journey.Entry(time: time ?? now, step: step))
    }

    private func write(_ entry: Journey.Entry) {
        guard writeError == nil else { return }
        do {
            try file.write(line: Journey.line(for: entry))
        } catch {
            writeError = error
            appLog.problem("The journey can't be recorded any more: \(error)")
        }
    }

    // MARK: - Flows

    private func flowStarted(_ started: StartedFlow) {
        record(.start(started.kind))
        flowTokens.removeAll()
        switch started.flow {
        case let flow as CommentedPhotoFlow<Post>:
            flowTokens.append(flow.observeEvents { [weak self] event in self?.photoFlow(event) })
        case let flow as CommentedPhotoFlow<Reply>:
            flowTokens.append(flow.observeEvents { [weak self] event in self?.photoFlow(event) })
        case let flow as SendPhotoMessageFlow<Message>:
            flowTokens.append(flow.observeEvents { [weak self] event in
                guard let self else { return }
                switch event {
                case .recipientChosen(let person): self.record(.recipient(person.id))
                case .photoStep(let step): self.photoFlow(step)
                case .cancelRequested: self.record(.cancel)
                case .discardQuestionAsked: break
                case .discardAnswered(let answer): self.record(answer == .discard ? .discard : .keepEditing)
                }
            })
        case let flow as EditCaptionFlow<Post>:
            flowTokens.append(flow.observeEvents { [weak self] event in self?.photoFlow(event) })
        default:
            break  // Add Friend: its start and end only
        }
    }

    private func photoFlow(_ event: PhotoFlowEvent) {
        switch event {
        case .photoChosen(let photo): record(.choose(libraryName(of: photo)))
        case .cameraOpened: record(.takePhoto)
        case .photoTaken: record(.shutter)
        case .chosePhotoInstead: record(.chooseInstead)
        case .wentBack: record(.back)
        case .commentChanged(let text): commentChanged(text)
        case .postRequested: record(.post)
        case .cancelRequested: record(.cancel)
        case .discardQuestionAsked: break  // what Cancel led to: the answer is the step
        case .discardAnswered(let answer): record(answer == .discard ? .discard : .keepEditing)
        }
    }

    /// The photo's file name relative to the library folder, or its whole path when it is elsewhere.
    private func libraryName(of photo: Photo) -> String {
        let folder = app.library.directory.absolute.displayName
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return photo.path.hasPrefix(prefix) ? String(photo.path.dropFirst(prefix.count)) : photo.path
    }

    private func commentChanged(_ text: String) {
        pendingComment = (text, now)
        MainLoopBridge.cancel(commentTimer)
        commentTimer = MainLoopBridge.after(.seconds(Self.commentPause)) { [weak self] in
            self?.commentTimer = 0
            self?.flushComment()
        }
    }

    private func flushComment() {
        guard let pending = pendingComment else { return }
        pendingComment = nil
        MainLoopBridge.cancel(commentTimer)
        commentTimer = 0
        write(Journey.Entry(time: pending.time, step: .comment(pending.text)))
    }

    // MARK: - The window

    /// The window's width changed (a drag of its edge gives many): written once it has rested 0.3 s.
    private func widthChanged() {
        MainLoopBridge.cancel(widthTimer)
        widthTimer = MainLoopBridge.after(.seconds(0.3)) { [weak self] in
            guard let self else { return }
            self.widthTimer = 0
            let width = Int(self.currentWidth)
            guard width != self.lastWidth, width > 0 else { return }
            self.lastWidth = width
            self.record(.window(width: width))
        }
    }
}
