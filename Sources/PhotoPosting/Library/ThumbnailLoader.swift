import CGnomeDesktop
import CGtk
import Glibc
import Gtk
import PostcardModel

/// Thumbnails of library photos from the shared freedesktop thumbnail cache (`~/.cache/thumbnails`, the
/// one Files and Image Viewer use), through libgnome-desktop's `GnomeDesktopThumbnailFactory`:
///
/// 1. a valid cached thumbnail (same URI and modification time) is read;
/// 2. else a thumbnailer makes one (GdkPixbuf's, WebP's, AVIF's, SVG's) and it is stored back; formats
///    with no thumbnailer (HEIC) are decoded here with ``ImageDecoder`` and stored back the same way;
/// 3. a photo that fails is recorded as a failed thumbnail, as GNOME apps do, and reports its reason.
///
/// All of it runs on ``ImageDecoder/queue`` (two at a time, newest request first, dropped when the tile
/// scrolls away before it starts). Textures are scaled to what a tile shows (``textureEdge``) and kept in
/// a bounded in-memory cache (most recently used first), so scrolling through ten thousand photos holds
/// at most ``cacheCapacity`` textures.
/// Main actor only.
@MainActor
public final class ThumbnailLoader {
    /// The loader the app shares (one cache for every grid).
    public static let shared = ThumbnailLoader()

    /// The most textures kept in memory (about 110 KB each at 192 × 144).
    public let cacheCapacity: Int
    /// The edge of the square each texture must cover, in pixels (a tile's size × the screen's scale).
    /// Textures are scaled down to it from the cache's 256-pixel thumbnails, off the main thread, so
    /// memory and drawing follow what the grid shows; set it before loading (tiles do). Default 144.
    public var textureEdge = 144
    /// Largest thumbnail edge in pixels: the freedesktop "large" size (256), so 144-pixel tiles stay sharp
    /// at up to 1.75× scale.
    nonisolated public static let size = 256

    private var textures: [String: Texture] = [:]
    private var recentUse: [String] = []
    private var failures: [String: ImageLoadError] = [:]
    private let factory = Factory()

    /// Creates a loader that keeps up to `cacheCapacity` textures.
    public init(cacheCapacity: Int = 160) { self.cacheCapacity = cacheCapacity }

    /// The cached texture of `photo`, if it is in memory now.
    public func cachedTexture(for photo: LibraryPhoto) -> Texture? {
        guard let texture = textures[photo.photo.uri] else { return nil }
        touch(photo.photo.uri)
        return texture
    }

    /// Why `photo` could not be shown, once a load of it has failed.
    public func failure(for photo: LibraryPhoto) -> ImageLoadError? { failures[photo.photo.uri] }

    /// Number of textures in memory.
    public var cachedCount: Int { textures.count }

    /// The thumbnail of `photo`: from memory, the disk cache, or made now.
    /// - Throws: ``ImageLoadError`` saying why it cannot be shown; `CancellationError` if the task is
    ///   cancelled before the work starts.
    public func thumbnail(for photo: LibraryPhoto) async throws -> Texture {
        if let texture = cachedTexture(for: photo) { return texture }
        if let failure = failures[photo.photo.uri] { throw failure }
        let factory = self.factory, fit = ImageDecoder.Fit.cover(width: textureEdge, height: textureEdge)
        do {
            let image = try await ImageDecoder.queue.run { try factory.thumbnail(of: photo).scaled(for: fit) }
            guard let image else { throw ImageLoadError(.unreadable, localized("Not enough memory to show it")) }
            let texture = Texture(image)
            store(texture, for: photo.photo.uri)
            return texture
        } catch let error as ImageLoadError {
            failures[photo.photo.uri] = error
            throw error
        }
    }

    /// The thumbnail of `photo` if it is in memory or already in the disk cache; nil when it would have
    /// to be made (nothing is generated). Cheap: a lookup and a small PNG read, off the main thread.
    public func cachedThumbnail(for photo: LibraryPhoto) async -> Texture? {
        if let texture = cachedTexture(for: photo) { return texture }
        let factory = self.factory, fit = ImageDecoder.Fit.cover(width: textureEdge, height: textureEdge)
        guard let image = try? await ImageDecoder.queue.run({ factory.cachedThumbnail(of: photo)?.scaled(for: fit) }) else {
            return nil
        }
        let texture = Texture(image)
        store(texture, for: photo.photo.uri)
        return texture
    }

    /// Records that `photo` cannot be shown (e.g. it was deleted): its texture is dropped and tiles
    /// bound to it from now on show `failure`.
    public func recordFailure(_ failure: ImageLoadError, for photo: LibraryPhoto) {
        textures[photo.photo.uri] = nil
        recentUse.removeAll { $0 == photo.photo.uri }
        failures[photo.photo.uri] = failure
    }

    private func store(_ texture: Texture, for uri: String) {
        textures[uri] = texture
        touch(uri)
        while recentUse.count > cacheCapacity {
            textures[recentUse.removeFirst()] = nil
        }
    }

    private func touch(_ uri: String) {
        if let index = recentUse.lastIndex(of: uri) { recentUse.remove(at: index) }
        recentUse.append(uri)
    }

    /// The factory, used from the decoding threads (it locks its own state).
    final class Factory: @unchecked Sendable {
        let pointer = gnome_desktop_thumbnail_factory_new(GNOME_DESKTOP_THUMBNAIL_SIZE_LARGE)!

        deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

        /// Blocking: the thumbnail of `photo` from the disk cache, or nil.
        func cachedThumbnail(of photo: LibraryPhoto) -> DecodedImage? {
            guard let path = gnome_desktop_thumbnail_factory_lookup(pointer, photo.photo.uri, time_t(photo.modified)) else {
                return nil
            }
            defer { g_free(path) }
            return gdk_pixbuf_new_from_file(path, nil).map(DecodedImage.taking)
        }

        /// Blocking: looks up, or makes and stores, the thumbnail of `photo`.
        func thumbnail(of photo: LibraryPhoto) throws -> DecodedImage {
            let uri = photo.photo.uri, mtime = time_t(photo.modified)
            if let cached = cachedThumbnail(of: photo) { return cached }
            // Refuse what is too large (or not an image) before any thumbnailer decodes it.
            let header: (format: String, width: Int, height: Int)
            do {
                header = try ImageDecoder.header(uri: uri)
            } catch {
                // A readable, non-empty file that is no image: recorded, as for a photo that fails to
                // decode, so no thumbnailer tries it again until it changes.
                if let name = g_filename_from_uri(uri, nil, nil) {  // byte-exact, whatever the name
                    defer { g_free(name) }
                    var info = stat()
                    if stat(name, &info) == 0, info.st_size > 0, access(name, R_OK) == 0 {
                        _ = gnome_desktop_thumbnail_factory_create_failed_thumbnail(pointer, uri, mtime, nil, nil)
                    }
                }
                throw error
            }
            if Int64(header.width) * Int64(header.height) > ImageDecoder.pixelBudget(forFormat: header.format) {
                // Translators: an image's width and height in pixels, e.g. "16000 × 16000 pixels is more …".
                throw ImageLoadError(.tooLarge, localized("%d × %d pixels is too large to show", header.width, header.height))
            }
            if gnome_desktop_thumbnail_factory_has_valid_failed_thumbnail(pointer, uri, mtime) != 0 {
                throw ImageLoadError(.unreadable, localized("The image is damaged: no thumbnail could be made of it"))
            }
            // JPEG, what cameras and phones write most, is decoded here: libjpeg's DCT scaling reads a
            // 12-megapixel photo at 1/8 size, which takes less time than starting a sandboxed
            // thumbnailer process. (Postcard decodes the same files here to show them anyway.)
            if header.format == "jpeg" { return try decodeAndStore(uri: uri, mtime: mtime) }
            var error: UnsafeMutablePointer<GError>?
            if gnome_desktop_thumbnail_factory_can_thumbnail(pointer, uri, photo.mimeType, mtime) != 0,
               let pixbuf = gnome_desktop_thumbnail_factory_generate_thumbnail(pointer, uri, photo.mimeType, nil, &error) {
                let image = DecodedImage.taking(pixbuf)
                _ = gnome_desktop_thumbnail_factory_save_thumbnail(pointer, pixbuf, uri, mtime, nil, nil)
                return image
            }
            if let error { g_error_free(error) }
            // No thumbnailer for this type (HEIC), or it failed: decode it here, then store it back.
            return try decodeAndStore(uri: uri, mtime: mtime)
        }

        /// Blocking: decodes the photo at `uri` to the thumbnail size here and stores it in the cache; a
        /// photo that cannot be decoded is recorded as a failed thumbnail.
        private func decodeAndStore(uri: String, mtime: time_t) throws -> DecodedImage {
            do {
                let image = try ImageDecoder.decodeNow(uri: uri, fit: .contain(width: ThumbnailLoader.size,
                                                                            height: ThumbnailLoader.size))
                _ = gnome_desktop_thumbnail_factory_save_thumbnail(pointer, image.pixbufPointer, uri, mtime, nil, nil)
                return image
            } catch let failure as ImageLoadError {
                if failure.kind == .unreadable {
                    _ = gnome_desktop_thumbnail_factory_create_failed_thumbnail(pointer, uri, mtime, nil, nil)
                }
                throw failure
            }
        }
    }
}
