import CGtk
import Glibc

/// Why an image could not be shown; its ``description`` is the reason a user reads (tooltips, errors).
public struct ImageLoadError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure a placeholder distinguishes.
    public enum Kind: Sendable, Equatable {
        /// The image is readable but has more pixels than ``ImageDecoder/pixelBudget(forFormat:)`` allows
        /// ("Too large to show").
        case tooLarge
        /// The file is missing, empty, damaged or not an image this computer can open.
        case unreadable
    }

    /// Which kind of failure.
    public let kind: Kind
    /// The reason in words, e.g. "The file is empty" or "16000 × 16000 pixels is too large to show".
    public let reason: String

    /// Creates an error of `kind` with `reason`.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}

/// A decoded image in GdkPixbuf form, passed from a background thread to the main actor (which turns it
/// into a ``Texture``). Owns one reference.
public final class DecodedImage: @unchecked Sendable {
    let pixbuf: OpaquePointer

    init(taking pixbuf: OpaquePointer) { self.pixbuf = pixbuf }
    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }

    /// Wraps a pixbuf the caller owns one reference of (`transfer full`), e.g. from a thumbnail factory.
    package static func taking(_ pixbuf: OpaquePointer) -> DecodedImage { DecodedImage(taking: pixbuf) }

    /// The pixbuf pointer, borrowed for C calls (valid while this object lives).
    package var pixbufPointer: OpaquePointer { pixbuf }

    /// The image scaled down (bilinear) for `fit`, or itself when it is not larger. Blocking: call it off
    /// the main thread. Nil when memory for the copy cannot be had.
    public func scaled(for fit: ImageDecoder.Fit) -> DecodedImage? {
        let width = gdk_pixbuf_get_width(pixbuf), height = gdk_pixbuf_get_height(pixbuf)
        let target = ImageDecoder.scaledPixbufSize(width: width, height: height, fit: fit)
        if target == (width, height) { return self }
        return gdk_pixbuf_scale_simple(pixbuf, target.0, target.1, GDK_INTERP_BILINEAR).map(DecodedImage.init(taking:))
    }
}

/// Decodes image files with GdkPixbuf (every format its loaders know: JPEG, PNG, GIF's first frame,
/// TIFF, BMP, SVG, and HEIC, WebP and AVIF with Debian's loader packages) safely at real scale:
///
/// - the header is read first, and images over a pixel budget are refused before any pixel is decoded;
/// - images are decoded at the size they are shown (JPEG's decoder scales while decoding), never
///   enlarged, and turned upright by their EXIF orientation;
/// - all of it runs on ``queue``'s background threads, two at a time; the main thread only receives the
///   result.
public enum ImageDecoder {
    /// How a decoded image should fill a box of `width` × `height` pixels (device pixels: multiply
    /// logical sizes by the widget's scale factor).
    public enum Fit: Sendable, Equatable {
        /// Fits inside the box, aspect ratio kept (a feed photo).
        case contain(width: Int, height: Int)
        /// Covers the box, aspect ratio kept; the excess is cropped when drawn with `GtkPicture`'s cover
        /// fit (a square tile).
        case cover(width: Int, height: Int)
    }

    /// The decoding queue: two jobs at once (two threads at low priority; the machines Postcard is
    /// measured on have two cores), newest request first.
    public static let queue = ThreadPoolExecutor(label: "image-decoding", width: 2)

    /// The most pixels an image of `format` may have to be shown. JPEG decodes scaled (libjpeg's DCT
    /// scaling: memory follows the shown size), so it may be large; other formats decode at full size
    /// before scaling (4 bytes a pixel), so they are held to 64 megapixels (256 MB while decoding).
    public static func pixelBudget(forFormat format: String) -> Int64 {
        format == "jpeg" ? 256_000_000 : 64_000_000
    }

    /// Decodes the file at `uri` (a `file://` URI; byte-exact for any file name) to fit `fit`, on a
    /// background thread.
    /// - Throws: ``ImageLoadError`` with the reason; `CancellationError` if the task was cancelled
    ///   before decoding started.
    nonisolated(nonsending)
    public static func decode(uri: String, fit: Fit) async throws -> DecodedImage {
        try await queue.run { try decodeNow(uri: uri, fit: fit) }
    }

    /// Reads only the header of the file at `uri`: its GdkPixbuf format name (e.g. "jpeg", "png",
    /// "heif/avif") and
    /// size in pixels as stored (before EXIF orientation). Blocking: call off the main thread.
    /// - Throws: ``ImageLoadError`` (`.unreadable`) saying why.
    public static func header(uri: String) throws -> (format: String, width: Int, height: Int) {
        let filename = try fileName(uri: uri)
        defer { g_free(filename) }
        let (format, width, height) = try header(filename: filename)
        return (format, Int(width), Int(height))
    }

    /// Decodes now, on the calling thread (blocking: never call it on the main thread).
    /// - Throws: ``ImageLoadError``.
    public static func decodeNow(uri: String, fit: Fit) throws -> DecodedImage {
        let filename = try fileName(uri: uri)
        defer { g_free(filename) }
        let (format, width, height) = try header(filename: filename)
        if Int64(width) * Int64(height) > pixelBudget(forFormat: format) {
            // Translators: an image's width and height in pixels, e.g. "16000 × 16000 pixels is more …".
            throw ImageLoadError(.tooLarge, toolkitLocalized("%d × %d pixels is too large to show", width, height))
        }
        let target = scaledPixbufSize(width: width, height: height, fit: fit)
        var error: UnsafeMutablePointer<GError>?
        // A JPEG is streamed without the metadata GdkPixbuf would hold (memory bounded by the pixels); one
        // the stream can't follow (bytes between segments, which libjpeg tolerates) is left to GdkPixbuf.
        let bounded = format == "jpeg" ? try? BoundedJPEG.decode(filename, width: target.0, height: target.1) : nil
        let decoded: OpaquePointer? = bounded
            ?? (target == (width, height)
                ? gdk_pixbuf_new_from_file(filename, &error)
                : gdk_pixbuf_new_from_file_at_scale(filename, target.0, target.1, 1, &error))
        guard let decoded else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? toolkitLocalized("it could not be decoded")
            if let error { g_error_free(error) }
            // Translators: %s is why the image could not be decoded (GdkPixbuf's message, or "it could not be decoded").
            throw ImageLoadError(.unreadable, toolkitLocalized("The image is damaged: %s", reason))
        }
        if let error { g_error_free(error) }
        defer { g_object_unref(UnsafeMutableRawPointer(decoded)) }
        guard let upright = gdk_pixbuf_apply_embedded_orientation(decoded) else {
            throw ImageLoadError(.unreadable, toolkitLocalized("Not enough memory to turn the image upright"))
        }
        // A quarter turn swaps the sides: fit the box again (on this thread, never the main one).
        let uprightWidth = gdk_pixbuf_get_width(upright), uprightHeight = gdk_pixbuf_get_height(upright)
        let final = scaledPixbufSize(width: uprightWidth, height: uprightHeight, fit: fit)
        if final == (uprightWidth, uprightHeight) { return DecodedImage(taking: upright) }
        defer { g_object_unref(UnsafeMutableRawPointer(upright)) }
        guard let scaled = gdk_pixbuf_scale_simple(upright, final.0, final.1, GDK_INTERP_BILINEAR) else {
            throw ImageLoadError(.unreadable, toolkitLocalized("Not enough memory to scale the image"))
        }
        return DecodedImage(taking: scaled)
    }

    /// The size of a `width` × `height` image scaled for `fit`: never larger than the image itself,
    /// at least 1 × 1.
    public static func scaledSize(width: Int, height: Int, fit: Fit) -> (Int, Int) {
        let (scaledWidth, scaledHeight) = scaledPixbufSize(width: Int32(clamping: width), height: Int32(clamping: height), fit: fit)
        return (Int(scaledWidth), Int(scaledHeight))
    }

    /// ``scaledSize(width:height:fit:)`` in GdkPixbuf's sizes.
    static func scaledPixbufSize(width: Int32, height: Int32, fit: Fit) -> (Int32, Int32) {
        let w = Double(width), h = Double(height)
        let scale: Double
        switch fit {
        case .contain(let boxWidth, let boxHeight): scale = min(Double(boxWidth) / w, Double(boxHeight) / h)
        case .cover(let boxWidth, let boxHeight): scale = max(Double(boxWidth) / w, Double(boxHeight) / h)
        }
        guard scale < 1 else { return (width, height) }  // never enlarged
        return (max(1, Int32((w * scale).rounded())), max(1, Int32((h * scale).rounded())))
    }

    /// The local file name of `uri`, in the file system's encoding, once it is known to be a regular
    /// file: a named pipe, a device or a socket would block whoever opens it (forever, for a pipe nobody
    /// writes to), so it is refused before anything opens it (`stat` does not open the file).
    private static func fileName(uri: String) throws -> UnsafeMutablePointer<CChar> {
        guard let name = g_filename_from_uri(uri, nil, nil) else {
            throw ImageLoadError(.unreadable, toolkitLocalized("Not a local file: %s", uri))
        }
        var info = stat()
        if stat(name, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            g_free(name)
            throw ImageLoadError(.unreadable, (info.st_mode & S_IFMT) == S_IFDIR
                ? toolkitLocalized("It is a folder, not a photo")
                : toolkitLocalized("It is not a regular file (a pipe or a device), so it is not opened"))
        }
        return name
    }

    private static func header(filename: UnsafePointer<CChar>) throws -> (String, Int32, Int32) {
        var width: Int32 = 0, height: Int32 = 0
        // GdkPixbuf's own JPEG header read keeps every APP1 and APP2 segment in memory (see BoundedJPEG).
        if let (jpegWidth, jpegHeight) = try? BoundedJPEG.size(filename) {  // nil for any other format
            return ("jpeg", jpegWidth, jpegHeight)
        }
        if let format = gdk_pixbuf_get_file_info(filename, &width, &height), width > 0, height > 0 {
            return (gdk_pixbuf_format_get_name(format).map { name in
                defer { g_free(name) }
                return String(cString: name)
            } ?? "", width, height)
        }
        var info = stat()
        if stat(filename, &info) != 0 {
            let reason = errno == ENOENT ? toolkitLocalized("The file no longer exists") : String(cString: g_strerror(errno))
            throw ImageLoadError(.unreadable, reason)
        }
        if access(filename, R_OK) != 0 { throw ImageLoadError(.unreadable, toolkitLocalized("You don't have permission to read it")) }
        if info.st_size == 0 { throw ImageLoadError(.unreadable, toolkitLocalized("The file is empty")) }
        throw ImageLoadError(.unreadable, toolkitLocalized("The file is damaged, or is not an image of a kind this computer can open"))
    }
}

extension Texture {
    /// Turns a decoded image into a texture (no copy of the pixels).
    public convenience init(_ image: DecodedImage) {
        self.init(pixbuf: image.pixbuf)
    }

    /// A texture of one colour, `width` × `height` pixels: a placeholder that has the aspect ratio of the
    /// photo it stands for. `rgba` is 0xRRGGBBAA.
    public static func solid(width: Int, height: Int, rgba: UInt32) -> Texture {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, Int32(clamping: max(1, width)), Int32(clamping: max(1, height)))!
        gdk_pixbuf_fill(pixbuf, rgba)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        return Texture(pixbuf: pixbuf)
    }
}
