import Gtk

/// A photo file chosen for posting.
public struct Photo: Equatable, Hashable, Sendable {
    /// Absolute path of the image file.
    public let path: String

    /// Creates a photo for the file at `path`.
    public init(path: String) { self.path = path }

    /// The file's name (last path component), e.g. `"coffee.png"`; also its accessible name in grids.
    public var fileName: String { Files.baseName(path) }
}

/// A folder of photos to choose from: the bundled samples, a folder given with `--library DIR`, or the
/// user's XDG Pictures folder.
public struct PhotoLibrary: Equatable, Sendable {
    /// The folder's path.
    public let directory: String

    /// Creates a library for `directory` (not read until ``photos()``).
    public init(directory: String) { self.directory = directory }

    /// The image files directly in the folder (content type `image/*`), sorted by file name.
    /// - Throws: ``GLibError`` when the folder cannot be read; its message names the folder and reason.
    public func photos() throws -> [Photo] {
        try Files.imageFiles(in: directory).map(Photo.init(path:))
    }
}
