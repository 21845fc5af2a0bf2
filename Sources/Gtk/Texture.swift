import CGtk

/// A `GdkTexture`: decoded image data ready to draw (immutable, shareable between pictures).
@MainActor
public final class Texture: Object {
    /// The image width in pixels.
    public var width: Int32 { gdk_texture_get_width(opaque) }
    /// The image height in pixels.
    public var height: Int32 { gdk_texture_get_height(opaque) }

    init(pixbuf: OpaquePointer) {
        super.init(gdk_texture_new_for_pixbuf(pixbuf), transfer: .full)
    }

    /// Writes the texture to a PNG file at `path`; returns whether it worked.
    @discardableResult
    public func save(toPNG path: String) -> Bool { gdk_texture_save_to_png(opaque, path) != 0 }

    /// Whether every pixel has the same colour (a blank or single-colour image). Reads the pixels.
    public var isSingleColor: Bool {
        let stride = Int(width) * 4
        var pixels = [UInt8](repeating: 0, count: stride * Int(height))
        gdk_texture_download(opaque, &pixels, gsize(stride))
        let first = pixels.prefix(4)
        return stride == 0 || (0..<Int(width) * Int(height)).allSatisfy { pixels[$0 * 4 ..< $0 * 4 + 4].elementsEqual(first) }
    }

    /// Loads the image at `uri` (a `file://` URI) scaled for `fit` (never enlarged) and upright by its
    /// EXIF orientation. Header check, decoding, scaling and turning all run on
    /// ``ImageDecoder/queue``'s background threads; only the texture is made here.
    /// - Throws: ``ImageLoadError`` saying why (missing, empty, damaged, too large);
    ///   `CancellationError` when the task is cancelled before decoding starts.
    public static func load(uri: String, fit: ImageDecoder.Fit) async throws -> Texture {
        Texture(try await ImageDecoder.decode(uri: uri, fit: fit))
    }

    /// Loads the image at `path` to fit in `maxSize` × `maxSize` pixels; see ``load(uri:fit:)``.
    public static func load(path: String, maxSize: Int32) async throws -> Texture {
        try await load(uri: Files.uri(forPath: path), fit: .contain(width: maxSize, height: maxSize))
    }
}
