import Adwaita
import CGtk
import Glibc
import Gtk
import NavigationGtk
import PostcardModel

/// **Camera**: a live preview from a camera (GStreamer, see ``Camera``) and a shutter button that takes
/// the current frame at the camera's full resolution and writes it as a JPEG (quality 90, EXIF date
/// taken) into ``CameraSettings/captureDirectory``.
///
/// Reports "photo taken" through ``onPhotoTaken`` and "choose a photo instead" (from the problem state)
/// through ``onChoosePhotoInstead``; it knows nothing of the flow that shows it, and the same page is
/// pushed as a step of a flow or presented alone with its own bar.
///
/// - The preview runs while the page is on screen: it pauses while another page covers it, and the
///   pipeline goes to `NULL` and is released when the page leaves its stack or dialog, its window is
///   hidden or destroyed, or the page is freed, so no GStreamer thread outlives what the user sees.
/// - No camera, a busy one, no permission, or a camera that stops mid-preview shows what is wrong and
///   **Choose a Photo Instead**, never a frozen picture.
/// - With more than one camera, a switcher at the end of the bar picks which one shows.
/// - The shutter (icon `camera-photo-symbolic`, accessible name "Take Photo") is focused first, so
///   Space or Return takes a photo at once, as buttons do in GTK.
///
/// Main actor only.
@MainActor
public final class CameraPage: Page {
    /// Called with the photo just taken (a JPEG in the capture folder).
    public var onPhotoTaken: (@MainActor (Photo) -> Void)?
    /// Called when the user picks **Choose a Photo Instead** (no camera, or it failed).
    public var onChoosePhotoInstead: (@MainActor () -> Void)?

    /// Where pictures come from and where photos go.
    public let settings: CameraSettings
    /// The camera's picture, its problems and the camera switcher (see ``CameraPreview``).
    public private(set) var cameraPreview: CameraPreview!
    /// The live preview (the newest frame, scaled to fit).
    public var preview: Picture { cameraPreview.picture }
    /// The shutter button.
    public let shutterButton = Button(iconName: "camera-photo-symbolic", accessibleLabel: localized("Take Photo"))
    /// The problem state: what is wrong, and Choose a Photo Instead.
    public var problemState: StatusPage { cameraPreview.problemState }
    /// The problem state's headline, e.g. "No Camera Found".
    public var problemTitle: String { problemState.title }
    /// The problem state's explanation.
    public var problemDetail: String { problemState.text }
    /// **Choose a Photo Instead**, in the problem state.
    public let chooseInsteadButton = Button(label: localized("Choose a Photo Instead"))
    /// Shows why the last photo could not be saved; hidden until then.
    public let errorLabel = Label()
    /// The camera switcher, when there is more than one camera (at the end of the bar).
    public var cameraSwitcher: DropDown? { cameraPreview.cameraSwitcher }

    /// The cameras found (empty until the first search ends, or when there is none).
    public var devices: [CameraDevice] { cameraPreview.devices }
    /// The camera showing now, or nil (none found, or a problem stopped it).
    public var camera: Camera? { cameraPreview.camera }
    /// The problem shown now, or nil.
    public var problem: CameraProblem? { cameraPreview.problem }
    /// Whether a photo is being written.
    public private(set) var isSaving = false
    /// Whether the camera shows a picture now, so the shutter can take it.
    public var isShowingPicture: Bool { problem == nil && camera?.latestFrame != nil }

    /// Creates the page (nothing starts until it is shown). `title` defaults to "Camera".
    public init(settings: CameraSettings, title: String? = nil) {
        self.settings = settings
        // Translators: the title of the page showing the camera's live picture.
        super.init(title: title ?? localized("Camera"))
        shutterButton.addCSSClass("shutter")
        shutterButton.addCSSClass("circular")
        shutterButton.addCSSClass("suggested-action")
        shutterButton.horizontalAlignment = .center
        shutterButton.isSensitive = false
        shutterButton.onClicked { [weak self] in self?.takePhoto() }
        errorLabel.addCSSClass("error")
        errorLabel.wraps = true
        errorLabel.isVisible = false
        let controls = Box(.vertical, spacing: 6)
        controls.setMargins(12)
        controls.append(errorLabel)
        controls.append(shutterButton)
        cameraPreview = CameraPreview(for: self, settings: settings, controls: controls)
        cameraPreview.onLive = { [weak self] in
            guard let self else { return }
            self.shutterButton.isSensitive = !self.isSaving
            if self.view.rootWindow != nil, !(self.chooseInsteadButton.hasFocus) { _ = self.shutterButton.grabFocus() }
        }
        cameraPreview.onProblem = { [weak self] _ in
            guard let self else { return }
            self.shutterButton.isSensitive = false
            if self.view.isMapped { _ = self.chooseInsteadButton.grabFocus() }
        }
        chooseInsteadButton.onClicked { [weak self] in self?.onChoosePhotoInstead?() }
        problemState.addAction(chooseInsteadButton)
        content.append(cameraPreview.view)
    }

    /// The shutter, so Space or Return takes a photo; **Choose a Photo Instead** in the problem state.
    public override var initialFocus: Widget? { problem == nil ? shutterButton : chooseInsteadButton }

    // MARK: - Taking a photo

    /// Takes the frame showing now, writes it as a JPEG off the main thread, then reports it.
    /// Takes the photo the preview shows, as **Take Photo** (the shutter) does: saved in the camera
    /// folder, then reported (``onPhotoTaken``); a photo that cannot be saved says why on the page.
    /// Nothing while the camera shows no picture or a photo is being saved.
    public func takePhoto() {
        guard !isSaving, let frame = camera?.latestFrame else { return }
        isSaving = true
        shutterButton.isSensitive = false
        errorLabel.isVisible = false
        let directory = settings.captureDirectory
        let now = DateText.nowMicroseconds / 1_000_000
        Task { [weak self] in
            let result: Result<FilePath, Error>
            do {
                result = .success(try await Camera.saveQueue.run { try Self.write(frame, takenAt: now, into: directory) })
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            self.isSaving = false
            self.shutterButton.isSensitive = self.camera != nil
            switch result {
            case .success(let path):
                self.onPhotoTaken?(Photo(path: path))
            case .failure(let error):
                self.errorLabel.text = localized("Couldn't save the photo: %s", "\(error)")
                self.errorLabel.isVisible = true
                if self.view.isMapped { _ = self.shutterButton.grabFocus() }  // it lost focus while disabled
            }
        }
    }

    /// Writes `frame` as "Photo YYYY-MM-DD HH-MM-SS.jpg" (a number added if taken twice in a second) in
    /// `directory`, with its EXIF date taken; the file appears whole (written under another name, then
    /// renamed). Blocking. Returns its path.
    nonisolated static func write(_ frame: PixelBuffer, takenAt seconds: Int64, into directory: FilePath) throws -> FilePath {
        try Files.makeDirectory(directory)
        let stem = "Photo " + DateText.format(unixSeconds: seconds, "%Y-%m-%d %H-%M-%S")
        var name = stem + ".jpg"
        var number = 2
        while Files.exists(directory.appending(name)) {
            name = "\(stem) (\(number)).jpg"
            number += 1
        }
        let path = directory.appending(name), partial = directory.appending(".incoming-" + name)
        do {
            try frame.writeJPEG(to: partial, quality: 90)
            try ImageMetadata.write(dateTaken: seconds, toFileAt: partial)
            guard partial.withCString({ from in path.withCString { rename(from, $0) } }) == 0 else {
                throw GLibError(message: String(cString: strerror(errno)), domain: postcardErrorDomain)
            }
        } catch {
            Files.remove(partial)
            throw error
        }
        return path
    }
}
