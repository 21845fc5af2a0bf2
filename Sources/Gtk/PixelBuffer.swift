import CGtk
import Glibc

/// Pixels in memory, 8-bit RGB (3 bytes a pixel, rows `stride` bytes apart): a video frame handed from
/// the thread that produced it to the main actor, which shows it as a ``Texture``. Immutable; safe to
/// pass between threads (it owns a `GBytes`).
public final class PixelBuffer: @unchecked Sendable {
    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// Bytes from the start of one row to the next (≥ 3 × width).
    public let stride: Int
    let bytes: OpaquePointer  // GBytes, one reference owned

    /// Copies `height` rows of `stride` bytes from `pixels` (any thread).
    /// Returns nil when the sizes are not positive or `stride` is less than 3 × `width`.
    package init?(copying pixels: UnsafeRawPointer, width: Int32, height: Int32, stride: Int) {
        guard width > 0, height > 0, stride >= Int(width) * 3 else { return nil }
        self.width = Int(width)
        self.height = Int(height)
        self.stride = stride
        bytes = g_bytes_new(pixels, gsize(stride * Int(height)))
    }

    deinit { g_bytes_unref(bytes) }

    /// Writes the pixels as a JPEG file at `path` (GdkPixbuf's JPEG saver; `quality` 1…100). Blocking:
    /// call it off the main thread.
    /// - Throws: `GLibError` whose message is GdkPixbuf's reason (e.g. no space left, no permission).
    public func writeJPEG(to path: FilePath, quality: Int = 90) throws {
        guard let pixbuf = gdk_pixbuf_new_from_bytes(bytes, GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height), Int32(stride)) else {
            // Translators: a width and a height in pixels.
            throw GLibError.toolkit(toolkitLocalized("Could not make an image of %d × %d pixels", width, height))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let value = String(min(100, max(1, quality)))
        var error: UnsafeMutablePointer<GError>?
        if path.withCString({ navgtk_pixbuf_save_jpeg(pixbuf, $0, value, &error) }) == 0 {
            let reason = error.map { String(cString: $0.pointee.message) } ?? toolkitLocalized("unknown error")
            if let error { g_error_free(error) }
            throw GLibError.toolkit(reason)
        }
    }
}

extension Texture {
    /// A texture showing `pixels` (a `GdkMemoryTexture`; the pixels are shared, not copied).
    public convenience init(_ pixels: PixelBuffer) {
        self.init(taking: gdk_memory_texture_new(Int32(pixels.width), Int32(pixels.height), GDK_MEMORY_R8G8B8, pixels.bytes, gsize(pixels.stride)))
    }
}
