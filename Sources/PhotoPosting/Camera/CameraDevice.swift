import CGStreamer
import Glibc
import Gtk

/// Where the Camera page takes pictures from (the app's `--camera` option and `POSTCARD_CAMERA`).
public enum CameraSource: Equatable, Sendable {
    /// The cameras GStreamer's device monitor lists (class `Video/Source`), in its order; the first is
    /// shown first, and a switcher offers the others.
    case automatic
    /// One V4L2 device node, e.g. `/dev/video0` (GStreamer's `v4l2src`).
    case device(path: String)
    /// GStreamer's test picture (`videotestsrc`, pattern "ball", 1280 × 720 at 30 frames a second): the
    /// whole path — pipeline, preview, capture, post — on a machine without a camera.
    case test
    /// A picture file shown as a still camera (decoded by GStreamer, repeated ten times a second), for
    /// computers without a camera and for tests: a QR code to scan, a scene to take.
    case image(path: String)

    /// What `POSTCARD_CAMERA` says (see ``init(option:)``), else `.automatic`; as a list of sources.
    public static var fromEnvironment: [CameraSource] {
        [getenv("POSTCARD_CAMERA").flatMap { CameraSource(option: String(cString: $0)) } ?? .automatic]
    }

    /// Parses an option value: `test`, `auto` (or empty), `image:FILE` (a picture shown as a still
    /// camera), or a device path such as `/dev/video0`; nil for anything else.
    public init?(option: String) {
        switch option {
        case "test": self = .test
        case "auto", "": self = .automatic
        case let value where value.hasPrefix("image:") && value.count > 6:
            self = .image(path: String(value.dropFirst(6)))
        default:
            guard option.hasPrefix("/") else { return nil }
            self = .device(path: option)
        }
    }
}

/// What the Camera page needs from its owner: where pictures come from and where taken photos are
/// written (a folder of the app's data, created when the first photo is taken).
public struct CameraSettings: Equatable, Sendable {
    /// The sources offered, first one first (more than one shows a camera switcher).
    public var sources: [CameraSource]
    /// The folder taken photos are written to.
    public var captureDirectory: FilePath

    /// Creates settings for `sources` (default: the cameras GStreamer finds) writing into
    /// `captureDirectory`.
    public init(sources: [CameraSource] = [.automatic], captureDirectory: FilePath) {
        self.sources = sources
        self.captureDirectory = captureDirectory
    }
}

/// One camera the page can show: a name for the switcher and how to make its GStreamer source element.
public struct CameraDevice: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case test(pattern: String)
        case image(path: String)
        /// A picture that is not shown as a camera (not a regular file, or larger than a camera's
        /// picture), with why; found off the main thread before GStreamer would open it.
        case refusedImage(path: String, reason: String)
        case v4l2(path: String)
        case monitored(DeviceHandle)
    }

    /// The name shown in the camera switcher, e.g. "Integrated Camera".
    public let name: String
    let kind: Kind

    /// The GStreamer source element for this camera (a floating reference), or nil when GStreamer
    /// cannot make one. Main actor or any thread.
    func makeSourceElement() -> UnsafeMutablePointer<GstElement>? {
        switch kind {
        case .test(let pattern):
            guard let source = gst_element_factory_make("videotestsrc", "camera-source") else { return nil }
            gst_util_set_object_arg(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GObject.self), "pattern", pattern)
            gst_util_set_object_arg(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GObject.self), "is-live", "true")
            return source
        case .image(let path):
            // The file decoded once, then repeated as a live source (imagefreeze), as a camera sends frames.
            // Only imagefreeze's output is ghosted: ghosting every unlinked pad would also ghost
            // videoconvert's input, which decodebin links to only once it has found the file's type.
            var error: UnsafeMutablePointer<GError>?
            guard let parsed = gst_parse_bin_from_description("filesrc name=file ! decodebin ! videoconvert ! imagefreeze name=still is-live=true",
                                                              0, &error) else {
                g_clear_error(&error)
                return nil
            }
            let bin = UnsafeMutableRawPointer(parsed).assumingMemoryBound(to: GstBin.self)
            let element = UnsafeMutableRawPointer(parsed).assumingMemoryBound(to: GstElement.self)
            guard let file = gst_bin_get_by_name(bin, "file"), let still = gst_bin_get_by_name(bin, "still") else {
                gst_object_unref(UnsafeMutableRawPointer(parsed))
                return nil
            }
            defer {
                gst_object_unref(UnsafeMutableRawPointer(file))
                gst_object_unref(UnsafeMutableRawPointer(still))
            }
            gst_util_set_object_arg(UnsafeMutableRawPointer(file).assumingMemoryBound(to: GObject.self), "location", path)
            if let output = gst_element_get_static_pad(still, "src") {
                _ = gst_element_add_pad(element, gst_ghost_pad_new("src", output))
                gst_object_unref(UnsafeMutableRawPointer(output))
            }
            return element
        case .refusedImage:
            return nil
        case .v4l2(let path):
            guard let source = gst_element_factory_make("v4l2src", "camera-source") else { return nil }
            gst_util_set_object_arg(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GObject.self), "device", path)
            return source
        case .monitored(let handle):
            return gst_device_create_element(handle.device, "camera-source")
        }
    }

    /// Extra caps the source must produce before conversion (the test picture's size and rate), or nil.
    var sourceCaps: String? {
        switch kind {
        case .test: "video/x-raw,width=1280,height=720,framerate=30/1"
        case .image: "video/x-raw,framerate=10/1"
        case .refusedImage, .v4l2, .monitored: nil
        }
    }

    /// The picture file this camera shows, for ``CameraSource/image(path:)``; else nil.
    var imagePath: String? {
        switch kind {
        case .image(let path), .refusedImage(let path, _): path
        default: nil
        }
    }

    /// Why the picture this camera would show is not shown, or nil.
    var refusal: String? {
        if case .refusedImage(_, let reason) = kind { return reason }
        return nil
    }

    /// The most pixels a picture shown as a camera may have: 4096 × 4096, more than a camera's picture
    /// (GStreamer decodes it whole and converts each frame).
    static let maximumImagePixels: Int64 = 4096 * 4096

    /// The camera for the picture at `path`: refused when it is not a regular file (a FIFO would block
    /// GStreamer's open for ever) or, by its header alone, larger than ``maximumImagePixels``. Blocking:
    /// off the main thread. A missing or undecodable file is left to GStreamer, which says why.
    static func image(at path: String) -> CameraDevice {
        let name = FilePath(path).lastComponent.displayName
        var info = stat()
        if path.withCString({ stat($0, &info) }) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                return CameraDevice(name: name, kind: .refusedImage(path: path, reason: toolkitLocalized("It is not a regular file (a pipe or a device), so it is not opened")))
            }
            if let header = try? ImageDecoder.header(uri: FilePath(path).uri),
               Int64(header.width) * Int64(header.height) > maximumImagePixels {
                // Translators: a picture given as the camera is too large; %1$d × %2$d its size, %3$d × %3$d the largest.
                let reason = localized("it is %1$d × %2$d pixels; a picture shown as a camera is at most %3$d × %3$d", header.width, header.height, 4096)
                return CameraDevice(name: name, kind: .refusedImage(path: path, reason: reason))
            }
        }
        return CameraDevice(name: name, kind: .image(path: path))
    }

    /// Finds the cameras for `sources`, in order: `.automatic` asks GStreamer's device monitor (class
    /// `Video/Source`); a missing device path is still listed (starting it shows what is wrong).
    /// Runs GStreamer's set-up (a plugin registry scan the first time on a machine) and the device
    /// probe off the main thread.
    /// Returns on the caller's actor (`nonisolated(nonsending)`: no hop to Swift's global executor).
    nonisolated(nonsending)
    public static func available(for sources: [CameraSource]) async -> [CameraDevice] {
        (try? await Camera.queue.run { () -> [CameraDevice] in
            Camera.initializeGStreamer()
            var devices: [CameraDevice] = []
            var testCount = 0
            for source in sources {
                switch source {
                case .test:
                    testCount += 1
                    let name = testCount == 1
                        // Translators: the name of GStreamer's test picture, offered as a camera.
                        ? localized("Test Picture")
                        // Translators: the name of a second (third, …) test picture offered as a camera.
                        : localized("Test Picture %d", testCount)
                    devices.append(CameraDevice(name: name,
                                                kind: .test(pattern: testCount == 1 ? "ball" : "smpte")))
                case .device(let path):
                    devices.append(CameraDevice(name: path, kind: .v4l2(path: path)))
                case .image(let path):
                    devices.append(image(at: path))
                case .automatic:
                    devices += monitoredDevices()
                }
            }
            return devices
        }) ?? []
    }

    /// The video sources GStreamer's device monitor lists now. Blocking.
    private static func monitoredDevices() -> [CameraDevice] {
        guard let monitor = gst_device_monitor_new() else { return [] }
        defer { gst_object_unref(UnsafeMutableRawPointer(monitor)) }
        _ = gst_device_monitor_add_filter(monitor, "Video/Source", nil)
        var devices: [CameraDevice] = []
        consumeObjectList(gst_device_monitor_get_devices(monitor)) { object in
            let device = object.assumingMemoryBound(to: GstDevice.self)
            let name = gst_device_get_display_name(device).map { text in
                defer { g_free(text) }
                return String(cString: text)
            } ?? localized("Camera")
            devices.append(CameraDevice(name: name, kind: .monitored(DeviceHandle(device))))  // takes its own reference
        }
        return devices
    }
}

/// A reference to a `GstDevice` (GObjects are safe to reference from any thread).
final class DeviceHandle: @unchecked Sendable, Equatable {
    let device: UnsafeMutablePointer<GstDevice>

    init(_ device: UnsafeMutablePointer<GstDevice>) {
        self.device = device
        gst_object_ref(UnsafeMutableRawPointer(device))
    }

    deinit { gst_object_unref(UnsafeMutableRawPointer(device)) }

    static func == (a: DeviceHandle, b: DeviceHandle) -> Bool { a.device == b.device }
}
