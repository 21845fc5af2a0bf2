import CGStreamer
import Glibc
import Gtk
import Synchronization

/// Why the camera cannot show a picture, in words for the Camera page.
public struct CameraProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of problem the page tells apart.
    public enum Kind: Equatable, Sendable {
        /// No camera at all, or none at the given device path.
        case noCamera
        /// Another program is using the camera.
        case busy
        /// The user may not open the device (`/dev/video*` permissions).
        case notPermitted
        /// The camera went away or stopped sending pictures mid-preview.
        case stopped
        /// GStreamer failed otherwise (a missing plugin, a format it cannot convert).
        case failed
    }

    /// Which problem.
    public let kind: Kind
    /// The headline, e.g. "No Camera Found".
    public let title: String
    /// What is wrong and what the user can do, in a sentence or two.
    public let detail: String

    /// The headline and the detail.
    public var description: String { "\(title): \(detail)" }

    static func noCamera(_ detail: String? = nil) -> CameraProblem {
        CameraProblem(kind: .noCamera, title: localized("No Camera Found"),
                      detail: detail ?? localized("Postcard found no camera on this computer. Connect one and try again."))
    }
}

/// A code read from the camera's picture by GStreamer's `zbar` element (the ZBar library).
public struct ScannedCode: Equatable, Sendable {
    /// The code's text, as ZBar decoded it (bytes that are not UTF-8 are shown as U+FFFD).
    public let text: String
    /// The kind of code, as ZBar names it: "QR-Code", "EAN-13", "CODE-128", …
    public let type: String

    /// A code as read (the camera makes these; tests may too).
    public init(text: String, type: String) {
        self.text = text
        self.type = type
    }
}

extension CameraProblem {
    /// The problem a GStreamer error from `device`'s pipeline means, told apart by its resource error
    /// code (`GST_RESOURCE_ERROR_BUSY`, `…_NOT_AUTHORIZED`, `…_NOT_FOUND`) and the words of its debug
    /// text (V4L2 says "busy", "permission" and "no such file" there): the device busy, not permitted,
    /// missing; stopped when it had been `wasStreaming` (unplugged); else failed. `message` is
    /// GStreamer's own sentence, kept in the detail.
    package init(gstreamerError message: String, debug: String, resourceError: GstResourceError?, device: CameraDevice,
                wasStreaming: Bool) {
        let text = message
        let details = debug.lowercased()
        let isResource = resourceError != nil
        let code = Int(resourceError?.rawValue ?? 0)
        let name = device.name
        if device.imagePath != nil {
            // Translators: %1$s is a picture file given as the camera (--camera image:FILE), %2$s GStreamer's error.
            let detail = localized("Postcard can't show the picture %1$s as a camera: %2$s", name, text)
            self = CameraProblem(kind: .noCamera, title: localized("The Picture Can't Be Shown"), detail: detail)
            return
        }
        if isResource && code == Int(GST_RESOURCE_ERROR_BUSY.rawValue) || details.contains("busy") {
            // Translators: %s is the name of a camera.
            let detail = localized("Another app is using %s. Close it and try again.", name)
            self = CameraProblem(kind: .busy, title: localized("The Camera Is Busy"), detail: detail)
            return
        }
        if details.contains("permission") || text.lowercased().contains("permission")
            || isResource && code == Int(GST_RESOURCE_ERROR_NOT_AUTHORIZED.rawValue) {
            // Translators: %s is the name of a camera.
            let detail = localized("You don't have permission to use %s. Ask your administrator to allow it.", name)
            self = CameraProblem(kind: .notPermitted, title: localized("Postcard May Not Use the Camera"), detail: detail)
            return
        }
        if isResource && code == Int(GST_RESOURCE_ERROR_NOT_FOUND.rawValue) || details.contains("no such file") {
            // Translators: %s is a camera's device file, e.g. /dev/video0.
            self = .noCamera(localized("There is no camera at %s. Connect one and try again.", name))
            return
        }
        if wasStreaming {
            // Translators: %1$s is the name of a camera, %2$s the error GStreamer reported.
            let detail = localized("%1$s was disconnected or stopped working (%2$s).", name, text)
            self = CameraProblem(kind: .stopped, title: localized("The Camera Stopped"), detail: detail)
            return
        }
        // Translators: why a camera didn't start: %1$s is the name of the camera, %2$s the error GStreamer
        // reported.
        let detail = localized("%1$s: %2$s", name, text)
        self = CameraProblem(kind: .failed, title: localized("The Camera Didn't Start"), detail: detail)
    }
}
