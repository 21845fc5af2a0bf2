import Adwaita
import CGtk
import Gtk
import NavigationGtk

/// A camera's live picture inside a page, and everything around it that the Camera and Scan Code pages
/// share: finding the cameras (off the main thread), a switcher in the page's bar when there is more
/// than one, "Starting the camera…", the picture, and the problem state (no camera, busy, not permitted,
/// stopped) with the page's own way out.
///
/// The camera runs while the page is on screen: it pauses while another page covers it on its stack, and
/// the pipeline goes to `NULL` and is released when the page leaves its stack or dialog, its window is
/// hidden or destroyed, or the preview is freed, so no GStreamer thread outlives what the user sees.
///
/// Main actor only.
@MainActor
public final class CameraPreview {
    /// The three states: "Starting the camera…", the live picture with `controls` under it, the problem.
    public let view = Stack()
    /// The live picture (the newest frame, scaled to fit).
    public let picture = Picture()
    /// The problem state: what is wrong, and the page's actions.
    public let problemState = StatusPage(iconName: "camera-disabled-symbolic")
    /// The camera switcher, when there is more than one camera (at the end of the page's bar).
    public private(set) var cameraSwitcher: DropDown?
    /// The cameras found (empty until the first search ends, or when there is none).
    public private(set) var devices: [CameraDevice] = []
    /// The camera showing now, or nil (none found, or a problem stopped it).
    public private(set) var camera: Camera?
    /// The problem shown now, or nil.
    public private(set) var problem: CameraProblem?
    /// Whether the live picture shows (a first frame arrived since the camera started).
    public var isLive: Bool { view.visibleChildName == "live" }

    /// Called on the main thread when the first frame shows (the page focuses its control).
    public var onLive: (@MainActor () -> Void)?
    /// Called on the main thread when a problem stopped the camera (the page focuses its way out).
    public var onProblem: (@MainActor (CameraProblem) -> Void)?
    /// Called on the main thread with every code read, while the camera plays (made with `readsCodes`).
    public var onCodeRead: (@MainActor (ScannedCode) -> Void)?

    private let settings: CameraSettings
    private let readsCodes: Bool
    private weak var page: Page?
    private var isSearching = false
    /// While the camera is held under a page pushed above: its stack's pops and destruction, which end
    /// it (the page may never be shown again to be unmapped).
    private var coveredTokens: [ObservationToken] = []

    /// A preview for `page` of the cameras `settings` names, with `controls` under the live picture.
    /// With `readsCodes`, each camera reads codes too (GStreamer's `zbar`; see ``Camera``).
    public init(for page: Page, settings: CameraSettings, controls: Widget?, readsCodes: Bool = false) {
        self.page = page
        self.settings = settings
        self.readsCodes = readsCodes
        // Translators: the name of the camera's live picture, for screen readers.
        picture.alternativeText = localized("Camera preview")
        picture.contentFit = .contain
        picture.canShrink = true
        picture.expandsVertically = true
        picture.expandsHorizontally = true
        let pictureArea = Box(.vertical)
        pictureArea.addCSSClass("camera-preview")
        pictureArea.append(picture)
        let live = Box(.vertical)
        live.append(pictureArea)
        if let controls { live.append(controls) }
        let starting = Label(localized("Starting the camera…"))
        starting.addCSSClass("dim-label")
        view.add(starting, name: "starting")
        view.add(live, name: "live")
        view.add(problemState, name: "problem")
        view.expandsVertically = true
        page.view.onMapChanged { [weak self] mapped in self?.mapChanged(mapped) }
    }

    isolated deinit { camera?.stop() }

    private func mapChanged(_ mapped: Bool) {
        guard let page else { return }
        coveredTokens = []
        if mapped {
            start()
        } else if let stack = page.navigationStack,
                  page.view.rootWindow.map({ gtk_widget_get_visible(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) != 0 }) == true {
            camera?.pause()  // covered by a page pushed above: hold the picture
            // Popped from under the pages above it, or its stack gone with its dialog: release it then.
            stack.observePops { [weak self, weak page] pages, _ in
                if pages.contains(where: { $0 === page }) { self?.release() }
            }.store(in: &coveredTokens)
            stack.observeDestruction { [weak self] in self?.release() }.store(in: &coveredTokens)
        } else {
            release()  // popped, dismissed, or the window hidden or gone
        }
    }

    /// Stops the camera and releases its pipeline (a later showing starts it again).
    private func release() {
        coveredTokens = []
        camera?.stop()
    }

    private func start() {
        if let camera {
            if problem == nil { camera.play() }
            return
        }
        guard devices.isEmpty, !isSearching, problem == nil else { return }
        isSearching = true
        view.showChild(named: "starting", transition: GTK_STACK_TRANSITION_TYPE_NONE)
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
            page?.addEndBarItem(switcher)
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
        let camera = Camera(device: device, readsCodes: readsCodes)
        camera.onFrame = { [weak self] frame in self?.show(frame) }
        camera.onProblem = { [weak self] problem in self?.show(problem) }
        camera.onCodeRead = { [weak self] code in self?.onCodeRead?(code) }
        self.camera = camera
        view.showChild(named: "starting", transition: GTK_STACK_TRANSITION_TYPE_NONE)
        if page?.view.isMapped == true { camera.play() }
    }

    private func show(_ frame: PixelBuffer) {
        picture.texture = Texture(frame)
        if view.visibleChildName != "live" {
            view.showChild(named: "live", transition: GTK_STACK_TRANSITION_TYPE_NONE)
            picture.setHiddenFromScreenReaders(false)
            onLive?()
        }
    }

    private func show(_ problem: CameraProblem) {
        self.problem = problem
        camera = nil
        picture.texture = nil
        picture.setHiddenFromScreenReaders(true)  // GTK 4.8 still exposes a stack's hidden child
        problemState.set(title: problem.title, description: problem.detail)
        view.showChild(named: "problem", transition: GTK_STACK_TRANSITION_TYPE_NONE)
        onProblem?(problem)
    }
}
