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

    /// Whether GdkPixbuf recognizes the file at `path` as an image it can decode (reads its header only).
    public static func canRead(path: String) -> Bool {
        var width: Int32 = 0, height: Int32 = 0
        return gdk_pixbuf_get_file_info(path, &width, &height) != nil && width > 0 && height > 0
    }

    /// Loads the image at `path` with GdkPixbuf, scaled to fit in `maxSize` × `maxSize` pixels
    /// (aspect ratio kept, never enlarged) and turned upright by its EXIF orientation tag.
    ///
    /// Decoding runs incrementally on the main loop (`gdk_pixbuf_new_from_stream_at_scale_async`), so
    /// the UI keeps responding while large photos load.
    /// - Throws: ``GLibError`` when the file cannot be opened or is not an image GdkPixbuf can read
    ///   (its message says why, e.g. "Couldn't recognize the image file format").
    public static func load(path: String, maxSize: Int32) async throws -> Texture {
        Texture(pixbuf: try await loadPixbuf(path: path, maxSize: maxSize).pointer)
    }

    /// At most this many images decode at once; the rest wait their turn (keeps memory and the main
    /// loop in check when a folder or feed holds thousands of photos).
    public static let maximumConcurrentDecodes = 4
    private static var decodesInFlight = 0
    private static var waitingDecodes: [CheckedContinuation<Void, Never>] = []

    private static func acquireDecodeSlot() async {
        if decodesInFlight < maximumConcurrentDecodes {
            decodesInFlight += 1
            return
        }
        await withCheckedContinuation { waitingDecodes.append($0) }
    }

    private static func releaseDecodeSlot() {
        if waitingDecodes.isEmpty {
            decodesInFlight -= 1
        } else {
            waitingDecodes.removeFirst().resume()  // the slot passes to the next waiter
        }
    }

    /// Loads the image at `path` as a square thumbnail of `size` × `size` pixels: scaled to fill the
    /// square (aspect ratio kept) and centre-cropped, like a photo grid tile.
    /// - Throws: ``GLibError`` as ``load(path:maxSize:)`` does.
    public static func loadThumbnail(path: String, size: Int32) async throws -> Texture {
        // Decode at up to 4× the tile so the short side still covers it for panoramas up to 4:1.
        let pixbuf = try await loadPixbuf(path: path, maxSize: size * 4).pointer
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let width = Double(gdk_pixbuf_get_width(pixbuf)), height = Double(gdk_pixbuf_get_height(pixbuf))
        let scale = Double(size) / min(width, height)
        let scaledWidth = max(size, Int32((width * scale).rounded()))
        let scaledHeight = max(size, Int32((height * scale).rounded()))
        guard let scaled = gdk_pixbuf_scale_simple(pixbuf, scaledWidth, scaledHeight, GDK_INTERP_BILINEAR) else {
            throw GLibError(message: "Not enough memory to scale \(path)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
        let cropped = gdk_pixbuf_new_subpixbuf(scaled, (scaledWidth - size) / 2, (scaledHeight - size) / 2, size, size)!
        defer { g_object_unref(UnsafeMutableRawPointer(cropped)) }
        return Texture(pixbuf: cropped)
    }

    /// Decodes `path` scaled to fit in `maxSize` × `maxSize`, upright. Returns a new pixbuf reference.
    private static func loadPixbuf(path: String, maxSize: Int32) async throws -> PixbufHandle {
        await acquireDecodeSlot()
        defer { releaseDecodeSlot() }
        try Task.checkCancellation()
        let file = g_file_new_for_path(path)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let stream = try GLibError.check { g_file_read(file, nil, $0) }
        guard let stream else { throw GLibError(message: "Could not open \(path)") }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        let pixbuf: OpaquePointer = try await withCheckedThrowingContinuation { continuation in
            let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
            gdk_pixbuf_new_from_stream_at_scale_async(
                UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self),
                maxSize, maxSize, 1, nil,
                { _, result, data in
                    let box = Unmanaged<ContinuationBox>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    if let pixbuf = gdk_pixbuf_new_from_stream_finish(result, &error) {
                        box.continuation.resume(returning: PixbufHandle(pointer: pixbuf))
                    } else if let error {
                        box.continuation.resume(throwing: GLibError(taking: error))
                    } else {
                        box.continuation.resume(throwing: GLibError(message: "Unknown image error"))
                    }
                }, box)
        }.pointer
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        // Scaled decoding may leave the photo sideways; apply the EXIF orientation (returns a new ref).
        guard let upright = gdk_pixbuf_apply_embedded_orientation(pixbuf) else {
            throw GLibError(message: "Could not orient \(path)")
        }
        return PixbufHandle(pointer: upright)
    }

    private struct PixbufHandle: @unchecked Sendable { let pointer: OpaquePointer }

    private final class ContinuationBox: @unchecked Sendable {
        let continuation: CheckedContinuation<PixbufHandle, Error>
        init(_ continuation: CheckedContinuation<PixbufHandle, Error>) { self.continuation = continuation }
    }
}
