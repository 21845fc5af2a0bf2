import CGExiv2
import CGtk
import Gtk
import PostcardModel

/// A photo found in a ``PhotoLibrary``, with the date it sorts by.
public struct LibraryPhoto: Equatable, Hashable, Sendable {
    /// The photo.
    public let photo: Photo
    /// When it was taken (EXIF `DateTimeOriginal`) when the photo says, else when the file was last
    /// modified; seconds since 1970-01-01 UTC.
    public let date: Int64
    /// Whether ``date`` is the EXIF date taken (false: the file's modification time).
    public let isDateTaken: Bool
    /// The file's modification time, seconds since 1970-01-01 UTC (the thumbnail cache's key with the URI).
    public let modified: UInt64
    /// The MIME type guessed from the file name, e.g. "image/jpeg".
    public let mimeType: String

    /// Creates the record of a photo found in a library.
    public init(photo: Photo, date: Int64, isDateTaken: Bool, modified: UInt64, mimeType: String) {
        self.photo = photo
        self.date = date
        self.isDateTaken = isDateTaken
        self.modified = modified
        self.mimeType = mimeType
    }

    /// Newest first; equal dates by file name, then URI, so the order is stable.
    public static func newestFirst(_ a: LibraryPhoto, _ b: LibraryPhoto) -> Bool {
        if a.date != b.date { return a.date > b.date }
        if a.photo.fileName != b.photo.fileName { return a.photo.fileName < b.photo.fileName }
        return a.photo.uri < b.photo.uri
    }
}

/// A folder of photos to choose from, with its subfolders: the bundled samples, a folder given with
/// `--library DIR`, or the user's XDG Pictures folder.
public struct PhotoLibrary: Equatable, Sendable {
    /// The folder's path.
    public let directory: FilePath

    /// Creates a library for `directory` (nothing is read until ``scan(batchSize:onFound:)``).
    public init(directory: FilePath) { self.directory = directory }

    /// The last complete listing of each library folder in this process, newest first (see
    /// ``lastListing``).
    @MainActor private static var listings: [FilePath: [LibraryPhoto]] = [:]

    /// The photos this library had when it was last read completely in this process, newest first, or
    /// nil. Choose a Photo shows them at once when it opens again, while it reads the folder anew.
    @MainActor public var lastListing: [LibraryPhoto]? { Self.listings[directory] }

    /// Remembers `photos` (newest first) as this library's latest complete listing.
    @MainActor public func remember(_ photos: [LibraryPhoto]) { Self.listings[directory] = photos }

    /// Forgets every remembered listing (the next Choose a Photo reads its library from scratch).
    @MainActor public static func forgetListings() { listings = [:] }

    /// How deep subfolders are followed, in folders below the library folder: a bound about safety (a
    /// tree made by a program gone wrong), not a cut a person would meet — 256 levels of one-letter
    /// folders is already a path of 512 bytes. Symbolic-link loops are caught by file identity before
    /// this. Folders left out this way are counted (``scan(batchSize:onFound:)`` returns how many), and
    /// Choose a Photo says so.
    public static let maximumDepth = 256

    /// Lists the library's image files — in the folder and all its subfolders, following symbolic links
    /// but never visiting one folder twice (loops end) — and reports them in batches as they are found.
    ///
    /// Folders are read with GIO's asynchronous enumeration and each batch's EXIF dates are read with
    /// gexiv2 on a background thread, so the main thread never waits on the disk. Files are included by
    /// what their name says (an `image/*` type): an empty, damaged or mislabelled file, and a symbolic
    /// link to a photo that is gone, are reported too, so they can show as placeholders with their
    /// reason. Hidden files and folders are skipped. A subfolder that cannot be read is skipped.
    ///
    /// - Parameter onFound: called on the main actor with each batch (in no particular order).
    /// - Returns: how many folders were not read because they are more than ``maximumDepth`` folders
    ///   below the library folder (0 nearly always).
    /// - Throws: ``GLibError`` when the library folder itself cannot be read; `CancellationError` when
    ///   the task is cancelled (the page went away).
    @MainActor @discardableResult
    public func scan(batchSize: Int = 200, onFound: @escaping @MainActor ([LibraryPhoto]) -> Void) async throws -> Int {
        var tooDeep = 0
        let rootURI = directory.uri
        var visited: Set<String> = []
        if let rootID = await DirectoryReader.fileID(uri: rootURI) { visited.insert(rootID) }
        // Up to three folders are read at once, so one folder's EXIF dates are read while the next is listed.
        // The child tasks start on the metadata pool (their executor preference), never on Swift's global
        // executor, and go on on the main actor.
        try await withTaskExecutorPreference(ImageMetadata.queue) { try await withThrowingTaskGroup(of: [Subfolder].self) { group in
            var waiting: [(uri: String, depth: Int)] = [(rootURI, 0)]
            var running = 0
            repeat {
                while running < 3, !waiting.isEmpty {
                    let (folder, depth) = waiting.removeFirst()
                    let isRoot = folder == rootURI && depth == 0
                    running += 1
                    group.addTask {
                        try await Self.scanFolder(folder, depth: depth, isRoot: isRoot, batchSize: batchSize, onFound: onFound)
                    }
                }
                guard let subfolders = try await group.next() else { break }
                running -= 1
                for folder in subfolders where visited.insert(folder.entry.fileID).inserted {
                    if folder.depth <= Self.maximumDepth {
                        waiting.append((folder.entry.uri, folder.depth))
                    } else {
                        tooDeep += 1
                    }
                }
            } while running > 0 || !waiting.isEmpty
        } }
        return tooDeep
    }

    private struct Subfolder: Sendable {
        let entry: DirectoryEntry
        let depth: Int
    }

    /// Lists one folder: reports its image files (with EXIF dates) through `onFound`, batch by batch, and
    /// returns its visible subfolders. A subfolder that cannot be read gives nothing; the root throws.
    @MainActor
    private static func scanFolder(_ folder: String, depth: Int, isRoot: Bool, batchSize: Int,
                                   onFound: @escaping @MainActor ([LibraryPhoto]) -> Void) async throws -> [Subfolder] {
        let reader: DirectoryReader
        do {
            reader = try await DirectoryReader.open(uri: folder)
        } catch {
            if isRoot { throw error }
            return []  // an unreadable subfolder hides nothing else
        }
        var subfolders: [DirectoryEntry] = []
        while true {
            try Task.checkCancellation()
            guard let entries = try? await reader.next(batchSize), !entries.isEmpty else { break }
            var found: [DirectoryEntry] = []
            for entry in entries where !entry.isHidden {
                switch entry.kind {
                case .directory: subfolders.append(entry)
                case .regular where entry.mimeType.hasPrefix("image/"), .brokenLink where entry.mimeType.hasPrefix("image/"):
                    found.append(entry)  // a link to a photo that is gone shows as a placeholder, with why
                default: break
                }
            }
            guard !found.isEmpty else { continue }
            // Two halves at once: EXIF reading is most of a scan's time. The two child tasks run on the
            // metadata pool (their executor preference), never on Swift's global executor.
            let half = (found.count + 1) / 2
            let firstHalf = Array(found.prefix(half)), secondHalf = Array(found.dropFirst(half))
            let photos = try await withTaskExecutorPreference(ImageMetadata.queue) {
                async let first = describe(firstHalf)
                async let second = describe(secondHalf)
                return try await first + second
            }
            try Task.checkCancellation()
            onFound(photos)
        }
        return subfolders.map { Subfolder(entry: $0, depth: depth + 1) }
    }
}

extension PhotoLibrary {
    /// Reads the EXIF dates of `entries` on ``ImageMetadata/queue``.
    nonisolated(nonsending)
    static func describe(_ entries: [DirectoryEntry]) async throws -> [LibraryPhoto] {
        guard !entries.isEmpty else { return [] }
        return try await ImageMetadata.queue.run {
            entries.map { entry in
                let taken = ImageMetadata.dateTaken(uri: entry.uri)
                return LibraryPhoto(photo: Photo(uri: entry.uri), date: taken ?? Int64(entry.modified),
                                    isDateTaken: taken != nil, modified: entry.modified, mimeType: entry.mimeType)
            }
        }
    }
}

/// EXIF metadata of photos through gexiv2 (as Shotwell reads it).
public enum ImageMetadata {
    /// The queue metadata is read on, two jobs at once, at a lower priority than thumbnails (nice 15):
    /// a library read anew in the background never holds up the thumbnails on screen.
    public static let queue = ThreadPoolExecutor(label: "photo-metadata", width: 2, niceness: 15)

    private static let setUp: Void = {
        _ = gexiv2_initialize()
        gexiv2_log_set_level(GEXIV2_LOG_LEVEL_MUTE)  // damaged files are expected; we report them ourselves
    }()

    /// When the photo at `uri` was taken (EXIF `DateTimeOriginal`, else `DateTime`), read as local time,
    /// in seconds since 1970-01-01 UTC; nil when the file has no such date or cannot be read. Blocking:
    /// call it off the main thread.
    public static func dateTaken(uri: String) -> Int64? {
        _ = setUp
        guard let filename = g_filename_from_uri(uri, nil, nil) else { return nil }
        defer { g_free(filename) }
        guard let metadata = gexiv2_metadata_new() else { return nil }
        defer { g_object_unref(metadata) }
        guard gexiv2_metadata_open_path(metadata, filename, nil) != 0 else { return nil }
        for tag in ["Exif.Photo.DateTimeOriginal", "Exif.Image.DateTime"] {
            guard let text = gexiv2_metadata_try_get_tag_string(metadata, tag, nil) else { continue }
            defer { g_free(text) }
            if let seconds = parseExifDate(String(cString: text)) { return seconds }
        }
        return nil
    }

    /// The EXIF orientation of the photo at `uri` (1–8; 1 when it has none or cannot be read). Blocking.
    public static func orientation(uri: String) -> Int32 {
        _ = setUp
        guard let filename = g_filename_from_uri(uri, nil, nil) else { return 1 }
        defer { g_free(filename) }
        guard let metadata = gexiv2_metadata_new() else { return 1 }
        defer { g_object_unref(metadata) }
        guard gexiv2_metadata_open_path(metadata, filename, nil) != 0 else { return 1 }
        let value = Int32(gexiv2_metadata_try_get_orientation(metadata, nil).rawValue)
        return (1...8).contains(value) ? value : 1
    }

    /// The size of the photo at `uri` as it is shown, in pixels: its header's size, with the sides
    /// swapped when its EXIF orientation turns it a quarter (5–8). Blocking: call off the main thread.
    /// - Throws: ``ImageLoadError`` when the header cannot be read.
    public static func uprightSize(uri: String) throws -> (width: Int, height: Int) {
        let header = try ImageDecoder.header(uri: uri)
        return orientation(uri: uri) >= 5 ? (header.height, header.width) : (header.width, header.height)
    }

    /// Parses an EXIF date ("2024:05:01 12:34:56", local time) into seconds since 1970-01-01 UTC, or nil.
    public static func parseExifDate(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int32($0) }
        guard parts.count == 6, parts[0] > 1800, (1...12).contains(parts[1]), (1...31).contains(parts[2]),
              let date = g_date_time_new_local(parts[0], parts[1], parts[2], parts[3], parts[4], Double(parts[5]))
        else { return nil }
        defer { g_date_time_unref(date) }
        return Int64(g_date_time_to_unix(date))
    }

    /// Writes `date` (seconds since 1970-01-01 UTC, as local time) as the EXIF date taken and
    /// `orientation` (1–8, EXIF's values) into the JPEG at `path`. Blocking.
    /// - Throws: ``GLibError`` when the file cannot be read or written.
    public static func write(dateTaken date: Int64? = nil, orientation: Int32? = nil, toFileAt path: FilePath) throws {
        _ = setUp
        guard let metadata = gexiv2_metadata_new() else { throw GLibError(message: localized("Out of memory"), domain: postcardErrorDomain) }
        defer { g_object_unref(metadata) }
        var error: UnsafeMutablePointer<GError>?
        guard path.withCString({ gexiv2_metadata_open_path(metadata, $0, &error) }) != 0 else { throw errorMessage(error, path) }
        if let date {
            let text = DateText.format(unixSeconds: date, "%Y:%m:%d %H:%M:%S")
            _ = gexiv2_metadata_try_set_tag_string(metadata, "Exif.Photo.DateTimeOriginal", text, nil)
        }
        if let orientation {
            gexiv2_metadata_try_set_orientation(metadata, GExiv2Orientation(rawValue: UInt32(orientation)), nil)
        }
        guard path.withCString({ gexiv2_metadata_save_file(metadata, $0, &error) }) != 0 else { throw errorMessage(error, path) }
    }

    private static func errorMessage(_ error: UnsafeMutablePointer<GError>?, _ path: FilePath) -> GLibError {
        // Translators: %s is a photo file (the date it was taken is written into it).
        guard let error else { return GLibError(message: localized("Can't write metadata of %s", path), domain: postcardErrorDomain) }
        defer { g_error_free(error) }
        // Translators: %1$s is a photo file (the date it was taken is written into it), %2$s why that failed.
        return GLibError(message: localized("Can't write metadata of %1$s: %2$s", path, String(cString: error.pointee.message)), domain: postcardErrorDomain)
    }
}

/// The `GError` domain of Postcard's own errors (``GLibError/domain``), by GLib's naming convention.
public let postcardErrorDomain = "postcard-error-quark"
