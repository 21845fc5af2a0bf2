import CGLib

/// An error reported by GLib through a `GError`.
public struct GLibError: Error, CustomStringConvertible, Sendable {
    /// The human-readable message from GLib (already translated where GLib translates).
    public let message: String
    /// The GError domain's name, e.g. `"g-io-error-quark"`.
    public let domain: String
    /// The GError code within its domain.
    public let code: Int32

    /// Creates an error with a message of its own, in `domain` (by GLib's convention a quark name such
    /// as `"postcard-error-quark"`; the toolkit's own errors use ``toolkitDomain``).
    public init(message: String, domain: String, code: Int32 = 0) {
        self.message = message
        self.domain = domain
        self.code = code
    }

    /// The error domain of the toolkit's own errors: `"navigation-gtk-error-quark"`.
    public static let toolkitDomain = "navigation-gtk-error-quark"

    /// An error of the toolkit's own (``toolkitDomain``).
    package static func toolkit(_ message: String) -> GLibError {
        GLibError(message: message, domain: toolkitDomain)
    }

    /// Takes and frees a `GError`.
    package init(taking error: UnsafeMutablePointer<GError>) {
        message = String(cString: error.pointee.message)
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = error.pointee.code
        g_error_free(error)
    }

    /// The error of a failed system call on `path` (`errno`): its name and the system's reason
    /// (`g_strerror`, translated), in GLib's file error domain.
    package init(errno number: Int32, path: FilePath) {
        message = "\(path.displayName): \(String(cString: g_strerror(number)))"
        domain = "g-file-error-quark"
        code = Int32(g_file_error_from_errno(number).rawValue)
    }

    /// The message.
    public var description: String { message }

    /// Runs `body` with a GError out-parameter and throws what it reports.
    package static func check<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws -> T {
        var error: UnsafeMutablePointer<GError>?
        let result = body(&error)
        if let error { throw GLibError(taking: error) }
        return result
    }
}
