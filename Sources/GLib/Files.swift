import CGLib
import Glibc

/// File operations through GIO (`GFile`): listing, copying, renaming, removing.
/// All are synchronous; call them on the main actor for small files or from a background task.
public enum Files {
    /// Whether a regular file or directory exists at `path`.
    public static func exists(_ path: FilePath) -> Bool { path.withCString { g_file_test($0, G_FILE_TEST_EXISTS) != 0 } }

    /// Whether `path` is a directory.
    public static func isDirectory(_ path: FilePath) -> Bool { path.withCString { g_file_test($0, G_FILE_TEST_IS_DIR) != 0 } }

    /// Creates `path` and missing parents (mode 0700, private to the user).
    /// - Throws: ``GLibError`` with the system's reason when it cannot.
    public static func makeDirectory(_ path: FilePath) throws {
        if path.withCString({ g_mkdir_with_parents($0, 0o700) }) != 0 {
            let reason = String(cString: g_strerror(errno))  // before anything else can change errno
            // Translators: %1$s is a folder, %2$s the system's reason, e.g. "Permission denied".
            throw GLibError.toolkit(toolkitLocalized("Could not create folder %1$s: %2$s", path.displayName, reason))
        }
    }

    /// Creates a new folder, private to the user, in the system's temporary folder (`g_dir_make_tmp`):
    /// `template` ends in `XXXXXX`, which GLib replaces to make a name no other folder has.
    /// - Throws: ``GLibError`` with GLib's reason.
    public static func makeTemporaryDirectory(named template: String) throws -> FilePath {
        let made = try GLibError.check { error in g_dir_make_tmp(template, error) }
        guard let made else { throw GLibError.toolkit("can't make a temporary folder") }
        defer { g_free(made) }
        return FilePath(cString: made)
    }

    /// Copies `source` to `destination`, replacing it if present (`g_file_copy`).
    /// - Throws: ``GLibError`` (e.g. source missing, disk full, no permission).
    public static func copy(_ source: FilePath, to destination: FilePath) throws {
        try copy(uri: source.uri, to: destination)
    }

    /// Copies the regular file at `sourceURI` (any `file://` URI, so file names that are not UTF-8 copy
    /// byte-exact) to the path `destination`, replacing it if present. A pipe, device or socket is
    /// refused before it is opened (opening one can block forever).
    /// - Throws: ``GLibError`` (e.g. source missing, not a regular file, disk full, no permission).
    public static func copy(uri sourceURI: String, to destination: FilePath) throws {
        let from = g_file_new_for_uri(sourceURI)!, to = file(destination)
        defer {
            g_object_unref(UnsafeMutableRawPointer(from))
            g_object_unref(UnsafeMutableRawPointer(to))
        }
        let type = g_file_query_file_type(from, G_FILE_QUERY_INFO_NONE, nil)
        guard type == G_FILE_TYPE_REGULAR || type == G_FILE_TYPE_UNKNOWN else {  // unknown: missing; copy says so
            throw GLibError.toolkit(toolkitLocalized("It is not a regular file (a pipe or a device), so it is not opened"))
        }
        _ = try GLibError.check { g_file_copy(from, to, G_FILE_COPY_OVERWRITE, nil, nil, nil, $0) }
    }

    /// The local path of a `file://` URI for showing to a user (`g_filename_display_name`: bytes that
    /// are not UTF-8 show as "�"), or nil for a URI that is not a local file.
    public static func displayPath(forURI uri: String) -> String? {
        FilePath(uri: uri)?.displayName
    }

    /// Whether the file at `uri` still exists (`g_file_query_exists`; blocking, but only a `stat`).
    public static func exists(uri: String) -> Bool {
        let file = g_file_new_for_uri(uri)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        return g_file_query_exists(file, nil) != 0
    }

    /// Renames `source` to `destination` (atomic within one file system), replacing it if present.
    /// - Throws: ``GLibError``.
    public static func move(_ source: FilePath, to destination: FilePath) throws {
        let from = file(source), to = file(destination)
        defer {
            g_object_unref(UnsafeMutableRawPointer(from))
            g_object_unref(UnsafeMutableRawPointer(to))
        }
        _ = try GLibError.check { g_file_move(from, to, G_FILE_COPY_OVERWRITE, nil, nil, nil, $0) }
    }

    /// Moves the file at `source` to `destination` on the same file system, failing (and leaving both
    /// as they are) when `destination` already exists: a hard link then unlinking the source, so no
    /// moment exists where another file at `destination` could be replaced.
    /// - Throws: ``GLibError`` naming the file and the system's reason (`EEXIST` when taken).
    public static func moveWithoutReplacing(_ source: FilePath, to destination: FilePath) throws {
        let linked = source.withCString { from in destination.withCString { link(from, $0) } }
        guard linked == 0 else {
            let reason = String(cString: strerror(errno))
            throw GLibError.toolkit(toolkitLocalized("Can't move %1$s to %2$s: %3$s", source.displayName, destination.displayName, reason))
        }
        remove(source)
    }

    /// Flushes the file or folder at `path` to the disk (`fsync`): after it returns, a power cut does
    /// not lose what was written to it (for a folder: the names created or renamed in it).
    /// - Throws: ``GLibError`` with the system's reason.
    public static func sync(_ path: FilePath) throws {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw GLibError.toolkit(toolkitLocalized("Can't open %1$s: %2$s", path.displayName, String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw GLibError.toolkit(toolkitLocalized("Can't write %1$s to the disk: %2$s", path.displayName, String(cString: strerror(errno))))
        }
    }

    /// Deletes the file at `path`; does nothing if it does not exist.
    public static func remove(_ path: FilePath) {
        _ = path.withCString { unlink($0) }
    }

    /// Deletes `path` and, when it is a folder, everything in it; does nothing if it does not exist.
    /// Symbolic links are deleted, not followed. What cannot be deleted is left. Blocking: for the app's
    /// own folders.
    public static func removeTree(_ path: FilePath) {
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in names(inDirectory: path) ?? [] { removeTree(path.appending(name)) }
        }
        _ = path.withCString { Glibc.remove($0) }
    }

    /// The names in the folder at `path` (bytes, without "." and ".."), or nil when it cannot be read.
    /// Blocking: for the app's own folders, not for a photo library (see `DirectoryReader`).
    public static func names(inDirectory path: FilePath) -> [FilePath]? {
        guard let folder = path.withCString({ opendir($0) }) else { return nil }
        defer { closedir(folder) }
        var names: [FilePath] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FilePath(bytes: $0) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A new `GFile` for `path` (the caller unrefs it).
    static func file(_ path: FilePath) -> OpaquePointer { path.withCString { g_file_new_for_path($0)! } }

    /// The whole text of a small file (`g_file_get_contents`), or nil when it cannot be read. Blocking.
    public static func readText(_ path: FilePath) -> String? {
        var contents: UnsafeMutablePointer<CChar>?
        guard path.withCString({ g_file_get_contents($0, &contents, nil, nil) }) != 0, let contents else { return nil }
        defer { g_free(contents) }
        return String(cString: contents)
    }

    /// The whole text of the regular file at `path`, read only when it is one and holds at most
    /// `maximumBytes` bytes: a FIFO, a device (`/dev/zero`), a folder or a socket is refused before a
    /// byte is read (it is opened non-blocking, so a FIFO with no writer does not hang), and so is a
    /// larger file, by its size. Bytes that are not UTF-8 are replaced (U+FFFD). Blocking, for small files.
    /// - Throws: ``GLibError`` saying why (cannot be opened, not a regular file, too large, a read error).
    public static func readRegularText(_ path: FilePath, maximumBytes: Int) throws(GLibError) -> String {
        let descriptor = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard descriptor >= 0 else { throw GLibError(errno: errno, path: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw GLibError(errno: errno, path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw GLibError(message: path.displayName + ": " + toolkitLocalized("It is not a regular file (a pipe or a device), so it is not opened"),
                            domain: "g-file-error-quark")
        }
        guard info.st_size <= maximumBytes else {
            // Translators: %1$s is a file's name, %2$d the most bytes that are read of it.
            throw GLibError(message: toolkitLocalized("%1$s is larger than %2$d bytes", path.displayName, maximumBytes), domain: "g-file-error-quark")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var total = 0
        while total < bytes.count {  // a file that grows while it is read is cut at its size then, plus one byte
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw GLibError(errno: errno, path: path)
            }
            if count == 0 { break }
            total += count
        }
        guard total <= maximumBytes else {
            throw GLibError(message: toolkitLocalized("%1$s is larger than %2$d bytes", path.displayName, maximumBytes), domain: "g-file-error-quark")
        }
        return String(decoding: bytes[..<total], as: UTF8.self)
    }

    /// Replaces the file at `path` with `text` atomically (`g_file_set_contents`: a temporary file,
    /// flushed, renamed over it), so a crash leaves the old text or the new, never half of it. Blocking.
    /// - Throws: ``GLibError`` with GLib's reason.
    public static func writeText(_ text: String, to path: FilePath) throws {
        _ = try GLibError.check { error in path.withCString { g_file_set_contents($0, text, -1, error) } }
    }

    /// The user's cache folder (`$XDG_CACHE_HOME`, default `~/.cache`), byte for byte.
    public static var userCacheDirectory: FilePath { FilePath(cString: g_get_user_cache_dir()) }

    /// The user's data folder (`$XDG_DATA_HOME`, default `~/.local/share`), byte for byte.
    public static var userDataDirectory: FilePath { FilePath(cString: g_get_user_data_dir()) }

    /// The user's Pictures folder (XDG user dir `PICTURES`), byte for byte, or nil when none is configured.
    public static var picturesDirectory: FilePath? {
        g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { FilePath(cString: $0) }
    }

    /// The absolute path of the running executable (from `/proc/self/exe`), byte for byte, or nil.
    public static var executablePath: FilePath? {
        guard let target = g_file_read_link("/proc/self/exe", nil) else { return nil }
        defer { g_free(target) }
        return FilePath(cString: target)
    }

    /// Reads an environment variable as text, or nil when unset or empty.
    public static func environment(_ name: String) -> String? {
        guard let value = g_getenv(name) else { return nil }
        let string = String(cString: value)
        return string.isEmpty ? nil : string
    }

    /// Reads an environment variable that names a file or folder, byte for byte, or nil when unset or
    /// empty.
    public static func environmentPath(_ name: String) -> FilePath? {
        guard let value = g_getenv(name), value.pointee != 0 else { return nil }
        return FilePath(cString: value)
    }
}

/// Local date and time text through GLib's `GDateTime` (time zone and locale of the user).
public enum DateText {
    /// A monotonic clock in microseconds (`g_get_monotonic_time`, `CLOCK_MONOTONIC`: comparable between
    /// processes on one machine, never set back).
    public static var monotonicMicroseconds: Int64 { Int64(g_get_monotonic_time()) }

    /// The current time in microseconds since 1970-01-01 UTC (`g_get_real_time`). Any thread.
    public static var nowMicroseconds: Int64 { Int64(g_get_real_time()) }

    /// Formats `unixSeconds` in the local time zone with a `g_date_time_format` pattern
    /// (e.g. `"%-d %b %Y, %H:%M"`). Returns "" for out-of-range times.
    public static func format(unixSeconds: Int64, _ pattern: String) -> String {
        guard let date = g_date_time_new_from_unix_local(gint64(unixSeconds)) else { return "" }
        defer { g_date_time_unref(date) }
        guard let text = g_date_time_format(date, pattern) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}

extension Duration {
    /// The duration in whole microseconds, GLib's unit for times (`g_get_monotonic_time`), rounded toward
    /// zero; saturates instead of overflowing.
    package var microseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000).overflow ? (seconds < 0 ? .min : .max)
            : scaled + attoseconds / 1_000_000_000_000
    }

    /// The duration in whole milliseconds (GLib's timeouts), clamped to `0...UInt32.max`.
    package var clampedMilliseconds: UInt32 { UInt32(clamping: max(0, microseconds / 1000)) }
}
