import CGStreamer
import Glibc
import Gtk
import Synchronization

/// A live camera: a GStreamer pipeline `source → videoconvert → appsink` (RGB), whose frames are
/// handed to the main thread without blocking it, newest only (a slow main thread skips frames instead
/// of queueing them). Made with `readsCodes`, the source also feeds a second branch,
/// `queue (leaky) → videoconvert → zbar → fakesink`, whose codes come to ``onCodeRead`` (a slow
/// reader drops frames rather than holding up the preview).
///
/// - ``play()`` starts (or resumes) the preview; ``pause()`` holds it (a page pushed above the preview);
///   ``stop()`` puts the pipeline in `NULL` and releases it, which ends its streaming threads. Dropping
///   the last reference stops it too.
/// - Problems (no device, busy, no permission, unplugged, no frames for ``frameTimeout`` seconds) stop
///   the pipeline and are reported once through ``onProblem``.
///
/// Main actor only (GStreamer's own threads never call into the page).
@MainActor
public final class Camera {
    /// One background thread for GStreamer's set-up and the device probe.
    nonisolated static let queue = ThreadPoolExecutor(label: "camera", width: 1, niceness: 0)
    /// One background thread for writing photos (a slow disk never holds up a camera starting).
    nonisolated static let saveQueue = ThreadPoolExecutor(label: "camera-save", width: 1, niceness: 0)

    /// The camera this pipeline shows.
    public let device: CameraDevice
    /// Called on the main thread with each frame shown (the newest, at the camera's full resolution).
    public var onFrame: (@MainActor (PixelBuffer) -> Void)?
    /// Called on the main thread when the camera stops with a problem (once per ``play()``).
    public var onProblem: (@MainActor (CameraProblem) -> Void)?
    /// Called on the main thread with each code the `zbar` branch reads (cameras made with
    /// `readsCodes`), once per frame that shows it: deciding what is new is the caller's.
    public var onCodeRead: (@MainActor (ScannedCode) -> Void)?
    /// Whether the pipeline has the code-reading branch.
    public let readsCodes: Bool
    /// The newest frame received, at full resolution (what the shutter captures); nil before the first.
    public private(set) var latestFrame: PixelBuffer?
    /// Frames received since the last ``play()``.
    public private(set) var frameCount = 0

    /// Seconds without a frame, while playing, after which the camera counts as stopped.
    public static let frameTimeout: UInt32 = 5

    /// The pipeline's state as the page drives it.
    public enum State: Equatable, Sendable {
        /// No pipeline exists (never started, stopped, or failed): the state GStreamer calls `NULL`.
        case released
        /// Showing frames (`PLAYING`).
        case playing
        /// Held (`PAUSED`): the preview is not visible.
        case paused
    }

    /// Where the pipeline is now.
    public private(set) var state: State = .released

    private var pipeline: UnsafeMutablePointer<GstElement>?
    private var busWatch: guint = 0
    private var watchdog: guint = 0
    private var framesAtLastCheck = 0
    private var mailbox: FrameMailbox?

    /// Creates a camera for `device` (nothing starts until ``play()``); with `readsCodes`, it reads
    /// codes from its picture too (``onCodeRead``).
    public init(device: CameraDevice, readsCodes: Bool = false) {
        self.device = device
        self.readsCodes = readsCodes
    }

    isolated deinit { stop() }

    /// Runs `gst_init` once in the process (any thread).
    nonisolated static func initializeGStreamer() {
        _ = gstreamerReady
    }

    nonisolated private static let gstreamerReady: Bool = {
        gst_init_check(nil, nil, nil) != 0
    }()

    /// Starts or resumes the preview. A device that cannot be opened reports its problem through
    /// ``onProblem`` (and the pipeline is released). Blocking for as long as GStreamer takes to open the
    /// device (it is already set up by ``CameraDevice/available(for:)``).
    public func play() {
        if state == .playing { return }
        if pipeline == nil {
            do { try build() } catch let problem as CameraProblem { return fail(problem) } catch { return }
            frameCount = 0
        }
        guard let pipeline else { return }
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            if let problem = pendingProblem() { return fail(problem) }
            // Translators: %s is the name of a camera, e.g. "Integrated Camera".
            let detail = localized("GStreamer could not start %s.", device.name)
            return fail(CameraProblem(kind: .failed, title: localized("The Camera Didn't Start"), detail: detail))
        }
        state = .playing
        startWatchdog()
    }

    /// Holds the preview (the pipeline keeps the device, in `PAUSED`); ``play()`` resumes it.
    public func pause() {
        guard state == .playing, let pipeline else { return }
        stopWatchdog()
        _ = gst_element_set_state(pipeline, GST_STATE_PAUSED)
        state = .paused
    }

    /// Puts the pipeline in `NULL` and releases it: the device is closed, GStreamer's streaming for it has
    /// stopped when this returns, and its threads (idle in GLib's thread pool) are told to end.
    /// Idempotent.
    public func stop() {
        stopWatchdog()
        mailbox?.close()
        mailbox = nil
        if let pipeline {
            _ = gst_element_set_state(pipeline, GST_STATE_NULL)
            if busWatch != 0 { g_source_remove(busWatch) }
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            // GStreamer's streaming threads come from GLib's thread pools: a thread whose task is done
            // waits half a second for another task of its pool, then idles among GLib's unused threads
            // for up to 15 s. End it once it is there, so no thread of the camera outlives it.
            g_timeout_add(700, { _ in
                g_thread_pool_stop_unused_threads()
                return 0
            }, nil)
        }
        busWatch = 0
        pipeline = nil
        state = .released
    }

    // MARK: - Building

    private func build() throws {
        Self.initializeGStreamer()
        let pipeline = gst_pipeline_new("postcard-camera")!
        func make(_ factory: String) throws -> UnsafeMutablePointer<GstElement> {
            guard let element = gst_element_factory_make(factory, nil) else {
                gst_object_unref(UnsafeMutableRawPointer(pipeline))
                // Translators: %s is the name of a GStreamer element, e.g. "videoconvert"; keep the package names.
                let detail = localized("GStreamer's %s element is missing (install gstreamer1.0-plugins-base and -good).", factory)
                throw CameraProblem(kind: .failed, title: localized("The Camera Can't Be Shown"), detail: detail)
            }
            return element
        }
        if let reason = device.refusal {
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            throw CameraProblem(kind: .noCamera, title: localized("The Picture Can't Be Shown"),
                                detail: localized("Postcard can't show the picture %1$s as a camera: %2$s", device.name, reason))
        }
        guard let source = device.makeSourceElement() else {
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            // Translators: %s is the name of a camera; keep the package name.
            let detail = localized("GStreamer has no source for %s (install gstreamer1.0-plugins-good).", device.name)
            throw CameraProblem(kind: .failed, title: localized("The Camera Can't Be Shown"), detail: detail)
        }
        var chain = [source]
        if let caps = device.sourceCaps {
            let filter = try make("capsfilter")
            gst_util_set_object_arg(object(filter), "caps", caps)
            chain.append(filter)
        }
        var codeBranch: [UnsafeMutablePointer<GstElement>] = []
        if readsCodes {
            let tee = try make("tee")
            let toReader = try make("queue"), toPreview = try make("queue")
            gst_util_set_object_arg(object(toReader), "leaky", "downstream")
            gst_util_set_object_arg(object(toReader), "max-size-buffers", "1")
            guard let reader = gst_element_factory_make("zbar", nil) else {
                gst_object_unref(UnsafeMutableRawPointer(pipeline))
                // Translators: keep the package name.
                let detail = localized("GStreamer's zbar element, which reads codes, is missing (install gstreamer1.0-plugins-bad).")
                throw CameraProblem(kind: .failed, title: localized("Codes Can't Be Read"), detail: detail)
            }
            let sink = try make("fakesink")
            gst_util_set_object_arg(object(sink), "sync", "false")
            codeBranch = [tee, toReader, try make("videoconvert"), reader, sink]
            chain += [tee, toPreview]
        }
        chain.append(try make("videoconvert"))
        let sink = try make("appsink")
        let rgb = gst_caps_from_string("video/x-raw,format=RGB")
        gst_app_sink_set_caps(appSink(sink), rgb)
        gst_caps_unref(rgb)
        gst_app_sink_set_max_buffers(appSink(sink), 1)
        gst_app_sink_set_drop(appSink(sink), 1)
        gst_util_set_object_arg(object(sink), "sync", "false")
        chain.append(sink)
        for element in chain + codeBranch.dropFirst() { _ = gst_bin_add(bin(pipeline), element) }
        let links = Array(zip(chain, chain.dropFirst())) + Array(zip(codeBranch, codeBranch.dropFirst()))
        for (from, to) in links where gst_element_link(from, to) == 0 {
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            // Translators: %s is the name of a camera.
            let detail = localized("GStreamer could not convert %s's pictures.", device.name)
            throw CameraProblem(kind: .failed, title: localized("The Camera Can't Be Shown"), detail: detail)
        }

        let mailbox = FrameMailbox { [weak self] frame in self?.receive(frame) }
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, data in
            guard let sink, let data else { return GST_FLOW_OK }
            Unmanaged<FrameMailbox>.fromOpaque(data).takeUnretainedValue().pull(from: sink)
            return GST_FLOW_OK
        }
        gst_app_sink_set_callbacks(appSink(sink), &callbacks, Unmanaged.passRetained(mailbox).toOpaque(), Self.releaseMailbox)
        self.mailbox = mailbox

        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        let box = Unmanaged.passRetained(WeakCamera(self)).toOpaque()
        busWatch = gst_bus_add_watch_full(bus, G_PRIORITY_DEFAULT, { _, message, data in
            guard let message, let data else { return 1 }
            let camera = Unmanaged<WeakCamera>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { camera.camera?.handle(message) }
            return 1
        }, box) { data in
            if let data { Unmanaged<WeakCamera>.fromOpaque(data).release() }
        }
        self.pipeline = pipeline
    }

    /// Frees the mailbox when GStreamer drops the appsink's callbacks: on whatever thread finalizes the
    /// sink, which is a streaming thread when one still held it as the pipeline stopped (nonisolated: a
    /// closure written inside this main-actor class would check that it runs on the main thread, and trap).
    private nonisolated static let releaseMailbox: GDestroyNotify = { data in
        if let data { Unmanaged<FrameMailbox>.fromOpaque(data).release() }
    }

    private func receive(_ frame: PixelBuffer) {
        guard state != .released else { return }
        latestFrame = frame
        frameCount += 1
        onFrame?(frame)
    }

    // MARK: - Problems

    fileprivate func handle(_ message: UnsafeMutablePointer<GstMessage>) {
        switch postcard_message_type(message) {
        case GST_MESSAGE_ERROR:
            fail(problem(from: message))
        case GST_MESSAGE_ELEMENT:
            guard state == .playing, let code = Self.code(in: message) else { return }
            onCodeRead?(code)
        case GST_MESSAGE_EOS:
            // Translators: %s is the name of a camera.
            let detail = localized("%s stopped sending pictures.", device.name)
            fail(CameraProblem(kind: .stopped, title: localized("The Camera Stopped"), detail: detail))
        default:
            break
        }
    }

    /// The code a `zbar` element's `barcode` message carries (its `symbol` and `type`), else nil.
    private static func code(in message: UnsafeMutablePointer<GstMessage>) -> ScannedCode? {
        guard let structure = gst_message_get_structure(message), gst_structure_has_name(structure, "barcode") != 0,
              let symbol = gst_structure_get_string(structure, "symbol") else { return nil }
        let type = gst_structure_get_string(structure, "type").map { String(cString: $0) } ?? ""
        return ScannedCode(text: String(cString: symbol), type: type)
    }

    /// An error message already on the bus (a failed state change posts one), as a problem.
    private func pendingProblem() -> CameraProblem? {
        guard let pipeline, let bus = gst_element_get_bus(pipeline) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        guard let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { gst_message_unref(message) }
        return problem(from: message)
    }

    private func problem(from message: UnsafeMutablePointer<GstMessage>) -> CameraProblem {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &debug)
        defer {
            if let error { g_error_free(error) }
            g_free(debug)
        }
        let text = error.map { String(cString: $0.pointee.message) } ?? localized("unknown error")
        let resourceCode = error?.pointee.domain == gst_resource_error_quark() ? error.map { $0.pointee.code } : nil
        return CameraProblem(gstreamerError: text, debug: debug.map { String(cString: $0) } ?? "",
                             resourceError: resourceCode.map { GstResourceError(rawValue: UInt32($0)) },
                             device: device, wasStreaming: state == .playing && frameCount > 0)
    }

    private func fail(_ problem: CameraProblem) {
        stop()
        onProblem?(problem)
    }

    // MARK: - Frozen preview

    private func startWatchdog() {
        stopWatchdog()
        framesAtLastCheck = frameCount
        let box = Unmanaged.passRetained(WeakCamera(self)).toOpaque()
        watchdog = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, Self.frameTimeout, { data in
            guard let data else { return 0 }
            let camera = Unmanaged<WeakCamera>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { camera.camera?.checkFramesArrive() ?? false } ? 1 : 0
        }, box) { data in
            if let data { Unmanaged<WeakCamera>.fromOpaque(data).release() }
        }
    }

    private func stopWatchdog() {
        if watchdog != 0 { g_source_remove(watchdog) }
        watchdog = 0
    }

    /// Called every ``frameTimeout`` seconds while playing; false ends the timer.
    private func checkFramesArrive() -> Bool {
        guard state == .playing else { watchdog = 0; return false }
        if frameCount == framesAtLastCheck {
            watchdog = 0
            let seconds = Int(Self.frameTimeout)
            // Translators: %1$s is the name of a camera, %2$d a number of seconds.
            let detail = localizedPlural("%1$s has sent no picture for %2$d second.", "%1$s has sent no picture for %2$d seconds.",
                                         count: seconds, device.name, seconds)
            fail(CameraProblem(kind: .stopped, title: localized("The Camera Stopped"), detail: detail))
            return false
        }
        framesAtLastCheck = frameCount
        return true
    }

    private func object(_ element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GObject> {
        UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self)
    }
    private func appSink(_ element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstAppSink> {
        UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstAppSink.self)
    }
    private func bin(_ element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstBin> {
        UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstBin.self)
    }
}

/// A weak reference to a camera, for C callbacks that may outlive it.
private final class WeakCamera {
    weak var camera: Camera?
    init(_ camera: Camera) { self.camera = camera }
}
