import GLib

/// A photo file chosen for posting.
///
/// It is identified by its `file://` URI, which names any file byte-exact, including file names that
/// are not valid UTF-8; ``path`` is the path as shown to a user.
public struct Photo: Equatable, Hashable, Sendable {
    /// The file's `file://` URI (what every read of the file uses).
    public let uri: String
    /// The file's absolute path, for showing (bytes that are not UTF-8 show as "�").
    public let path: String
    /// The file's name (last path component), e.g. `"coffee.png"`; also its accessible name in grids.
    public let fileName: String

    /// Creates a photo for the file at `path` (made absolute against the current folder), byte for byte.
    public init(path: FilePath) {
        self.init(uri: path.uri)
    }

    /// Creates a photo for the local file at `uri`.
    public init(uri: String) {
        self.uri = uri
        path = Files.displayPath(forURI: uri) ?? uri
        fileName = FilePath(uri: uri).map { $0.lastComponent.displayName } ?? uri
    }
}
