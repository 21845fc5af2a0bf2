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
    /// The live preview (the newest frame, scaled to fit).
    public let preview = Picture()
    /// The shutter button.
    public let shutterButton = Button(iconName: "camera-photo-symbolic", accessibleLabel: localized("Take Photo"))
    /// The problem state: what is wrong, and Choose a Photo Instead.
    public let problemState = Adwaita.StatusPage(iconName: "camera-disabled-symbolic")
    /// The problem state's headline, e.g. "No Camera Found".
    public var problemTitle: String { problemState.title }
    /// The problem state's explanation.
    public var problemDetail: String { problemState.text }
    /// **Choose a Photo Instead**, in the problem state.
    public let chooseInsteadButton = Button(label: localized("Choose a Photo Instead"))
    /// Shows why the last photo could not be saved; hidden until then.
    public let errorLabel = Label()
    /// The camera switcher, when there is more than one camera (at the end of the bar).
    public private(set) var cameraSwitcher: DropDown?

    /// The cameras found (empty until the first search ends, or when there is none).
    public private(set) var devices: [CameraDevice] = []
    /// The camera showing now, or nil (none found, or a problem stopped it).
    public private(set) var camera: Camera?
    /// The problem shown now, or nil.
    public private(set) var problem: CameraProblem?
    /// Whether a photo is being written.
    public private(set) var isSaving = false

    private let views = Stack()
    private let startingLabel = Label(localized("Starting the camera…"))
    private var isSearching = false

    /// Creates the page (nothing starts until it is shown). `title` defaults to "Camera".
    public init(settings: CameraSettings, title: String? = nil) {
        self.settings = settings
        // Translators: the title of the page showing the camera's live picture.
        super.init(title: title ?? localized("Camera"))
        preview.contentFit = .contain
        preview.canShrink = true
        preview.alternativeText = localized("Camera preview")
        preview.expandsVertically = true
        preview.expandsHorizontally = true
        let previewArea = Box(.vertical)
        previewArea.addCSSClass("camera-preview")
        previewArea.append(preview)

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
        let live = Box(.vertical)
        live.append(previewArea)
        live.append(controls)

        chooseInsteadButton.onClicked { [weak self] in self?.onChoosePhotoInstead?() }
        problemState.addAction(chooseInsteadButton)

        startingLabel.addCSSClass("dim-label")
        views.add(startingLabel, name: "starting")
        views.add(live, name: "live")
        views.add(problemState, name: "problem")
        views.expandsVertically = true
        content.append(views)
        view.onMapChanged { [weak self] mapped in self?.mapChanged(mapped) }
    }

    isolated deinit { camera?.stop() }

    /// The shutter, so Space or Return takes a photo; **Choose a Photo Instead** in the problem state.
    public override var initialFocus: Widget? { problem == nil ? shutterButton : chooseInsteadButton }

    // MARK: - Showing and hiding

    private func mapChanged(_ mapped: Bool) {
        if mapped {
            start()
        } else if navigationStack != nil, view.rootWindow.map({ gtk_widget_get_visible(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) != 0 }) == true {
            camera?.pause()  // covered by a page pushed above: hold the preview
        } else {
            camera?.stop()  // popped, dismissed, or the window hidden or gone: release the camera
        }
    }

    private func start() {
        if let camera {
            if problem == nil { camera.play() }
            return
        }
        guard devices.isEmpty, !isSearching, problem == nil else { return }
        isSearching = true
        views.showChild(named: "starting", transition: GTK_STACK_TRANSITION_TYPE_NONE)
        Task { [weak self, settings] in
            let found = await CameraDevice.available(for: settings.sources)
            guard let self else { return }
            self.isSearching = false
            self.devicesFound(found)
        }
    }

    private func devicesFound(_ found: [CameraDevice]) {
        devices = found
        guard !found.isEmpty else { return show(.noCamera()) }
        if found.count > 1 {
            // Translators: the name of the list that picks which camera shows.
            let switcher = DropDown(choices: found.map(\.name), accessibleLabel: localized("Camera"))
            switcher.onSelectionChanged { [weak self] index in self?.switchCamera(to: index) }
            cameraSwitcher = switcher
            addEndBarItem(switcher)
        }
        use(found[0])
    }

    private func switchCamera(to index: Int) {
        guard devices.indices.contains(index), camera?.device != devices[index] else { return }
        camera?.stop()
        camera = nil
        use(devices[index])
    }

    private func use(_ device: CameraDevice) {
        problem = nil
        let camera = Camera(device: device)
        camera.onFrame = { [weak self] frame in self?.show(frame) }
        camera.onProblem = { [weak self] problem in self?.show(problem) }
        self.camera = camera
        views.showChild(named: "starting", transition: GTK_STACK_TRANSITION_TYPE_NONE)
        if view.isMapped { camera.play() }
    }

    private func show(_ frame: PixelBuffer) {
        preview.texture = Texture(frame)
        if views.visibleChildName != "live" {
            views.showChild(named: "live", transition: GTK_STACK_TRANSITION_TYPE_NONE)
            shutterButton.isSensitive = !isSaving
            if view.rootWindow != nil, !(chooseInsteadButton.hasFocus) { _ = shutterButton.grabFocus() }
        }
    }

    private func show(_ problem: CameraProblem) {
        self.problem = problem
        camera = nil
        preview.texture = nil
        shutterButton.isSensitive = false
        problemState.set(title: problem.title, description: problem.detail)
        views.showChild(named: "problem", transition: GTK_STACK_TRANSITION_TYPE_NONE)
        if view.isMapped { _ = chooseInsteadButton.grabFocus() }
    }

    // MARK: - Taking a photo

    /// Takes the frame showing now, writes it as a JPEG off the main thread, then reports it.
    private func takePhoto() {
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
