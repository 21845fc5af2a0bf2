import CGtk

/// A `GdkTexture`: decoded image data ready to draw (immutable, shareable between pictures).
@MainActor
public final class Texture: Object {
    /// The image width in pixels.
    public var width: Int { Int(gdk_texture_get_width(opaque)) }
    /// The image height in pixels.
    public var height: Int { Int(gdk_texture_get_height(opaque)) }

    init(pixbuf: OpaquePointer) {
        super.init(gdk_texture_new_for_pixbuf(pixbuf), transfer: .full)
    }

    /// Wraps a `GdkTexture` the caller owns a reference of.
    init(taking texture: OpaquePointer) {
        super.init(texture, transfer: .full)
    }

    /// Writes the texture to a PNG file at `path`; returns whether it worked.
    @discardableResult
    public func save(toPNG path: FilePath) -> Bool { path.withCString { gdk_texture_save_to_png(opaque, $0) } != 0 }

    /// Writes the texture to a PNG file at `path` on a background thread (GdkTexture is immutable and
    /// may be read from any thread); returns whether it worked.
    public func writePNG(to path: FilePath) async -> Bool {
        let handle = SendableTexture(opaque)
        return (try? await ImageDecoder.queue.run { handle.savePNG(path) }) ?? false
    }

    private final class SendableTexture: @unchecked Sendable {
        let texture: OpaquePointer
        init(_ texture: OpaquePointer) {
            self.texture = texture
            g_object_ref(UnsafeMutableRawPointer(texture))
        }
        deinit { g_object_unref(UnsafeMutableRawPointer(texture)) }
        func savePNG(_ path: FilePath) -> Bool { path.withCString { gdk_texture_save_to_png(texture, $0) } != 0 }
    }

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
    public static func load(path: FilePath, maxSize: Int) async throws -> Texture {
        try await load(uri: path.uri, fit: .contain(width: maxSize, height: maxSize))
    }
}

/// A small most-recently-used cache of textures keyed by image URI and fit, so a row scrolled back into
/// view shows its image at once without keeping every image of a long list in memory. Main actor only.
@MainActor
public final class RecentTextures {
    /// An image URI and the fit it was decoded for: compared field by field (a string made of them with
    /// interpolation went through Swift's reflection for the fit, a noticeable part of a pop's time).
    private struct Key: Equatable {
        let uri: String
        let fit: ImageDecoder.Fit
    }
    private var entries: [(key: Key, texture: Texture)] = []
    /// The most textures kept.
    public let capacity: Int

    /// Creates a cache of at most `capacity` textures.
    public init(capacity: Int) { self.capacity = capacity }

    /// The texture stored for `uri` decoded for `fit`, if still kept (it becomes the most recent).
    public func texture(for uri: String, fit: ImageDecoder.Fit) -> Texture? {
        let key = Key(uri: uri, fit: fit)
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.texture
    }

    /// Keeps `texture` for `uri` and `fit`, dropping the least recently used beyond ``capacity``.
    public func store(_ texture: Texture, for uri: String, fit: ImageDecoder.Fit) {
        let key = Key(uri: uri, fit: fit)
        entries.removeAll { $0.key == key }
        entries.append((key, texture))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
}
