import CGLib

/// A path in the file system, kept as the bytes the system uses for it (GLib's "file name encoding"),
/// so a folder or file whose name is not valid UTF-8 — `\xff\xfe.jpg`, a folder from an old Latin-1
/// disk — is still that folder or file. A Swift `String` cannot hold such bytes: converting one to text
/// replaces them with "�" and names a file that does not exist.
///
/// Paths come in from the system as bytes (``init(cString:)``: `argv`, the environment, GLib's XDG
/// folders, `GFile`) or from a `file://` URI (``init(uri:)``), go back to the system as bytes
/// (``withCString(_:)``), and become text only to be shown (``displayName``, `g_filename_display_name`),
/// as GLib's own file-name rules ask. The name follows swift-system's `FilePath`, which the toolchain
/// here does not ship. A value type; usable on any thread.
public struct FilePath: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// A path from raw bytes (a NUL byte ends it, as it would for the system).
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// A path written as text (its UTF-8 bytes), e.g. a path typed in source code.
    public init(_ text: String) { self.init(bytes: text.utf8) }

    /// A path written as a literal: `"/usr/share"`.
    public init(stringLiteral value: String) { self.init(value) }

    /// A path handed over by C (`argv`, `g_getenv`, `g_file_get_path`), byte for byte.
    public init(cString: UnsafePointer<CChar>) {
        self.init(bytes: UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    /// The local path of a `file://` URI (`g_filename_from_uri`, so escaped bytes come back exactly),
    /// or nil when `uri` is not a local file's URI.
    public init?(uri: String) {
        guard let name = g_filename_from_uri(uri, nil, nil) else { return nil }
        defer { g_free(name) }
        self.init(cString: name)
    }

    /// Calls `body` with the path as a NUL-terminated C string (valid only during the call).
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The path with `components` appended, exactly one "/" between each (components are text: names
    /// the app chooses, such as `"photos"`).
    public func appending(_ components: String...) -> FilePath {
        components.reduce(self) { $0.appending(FilePath($1)) }
    }

    /// The path with `component` (bytes, e.g. a file name read from a folder) appended after one "/".
    public func appending(_ component: FilePath) -> FilePath {
        if bytes.isEmpty { return component }
        let separator: [UInt8] = bytes.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]
        return FilePath(bytes: bytes + separator + component.bytes.drop { $0 == UInt8(ascii: "/") })
    }

    /// Whether the path starts at the root ("/").
    public var isAbsolute: Bool { bytes.first == UInt8(ascii: "/") }

    /// The last component (`g_path_get_basename`): `"/a/b.jpg"` → `"b.jpg"`.
    public var lastComponent: FilePath { transformed(g_path_get_basename) }

    /// The folder that holds this path (`g_path_get_dirname`): `"/a/b.jpg"` → `"/a"`.
    public var removingLastComponent: FilePath { transformed(g_path_get_dirname) }

    /// The path made absolute against the current folder, with `.` and `..` resolved
    /// (`g_canonicalize_filename`; symbolic links are not followed).
    public var absolute: FilePath { transformed { g_canonicalize_filename($0, nil) } }

    /// The `file://` URI of the path made absolute (`g_filename_to_uri`: bytes outside ASCII are
    /// %-escaped, so the URI names exactly this file).
    public var uri: String {
        let absolutePath = isAbsolute ? self : absolute
        return absolutePath.withCString { path in
            guard let uri = g_filename_to_uri(path, nil, nil) else { return "file://" + absolutePath.displayName }
            defer { g_free(uri) }
            return String(cString: uri)
        }
    }

    /// The path as text for showing to a person (`g_filename_display_name`: bytes that are not valid in
    /// the file-name encoding show as "�"). Never use it to open the file.
    public var displayName: String {
        withCString { path in
            let display = g_filename_display_name(path)!
            defer { g_free(display) }
            return String(cString: display)
        }
    }

    /// The path as text when its bytes are valid UTF-8, else nil (for APIs that only take text).
    public var string: String? { String(validating: bytes, as: UTF8.self) }

    /// The path for showing (``displayName``).
    public var description: String { displayName }

    /// Whether the path starts with `prefix`'s bytes.
    public func hasPrefix(_ prefix: FilePath) -> Bool { bytes.starts(with: prefix.bytes) }

    private func transformed(_ function: (UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?) -> FilePath {
        withCString { path in
            let result = function(path)!
            defer { g_free(result) }
            return FilePath(cString: result)
        }
    }
}
