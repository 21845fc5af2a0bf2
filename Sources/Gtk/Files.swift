import CGtk
import Glibc

/// File operations through GIO (`GFile`): listing, copying, renaming, removing.
/// All are synchronous; call them on the main actor for small files or from a background task.
public enum Files {
    /// Whether a regular file or directory exists at `path`.
    public static func exists(_ path: String) -> Bool { g_file_test(path, G_FILE_TEST_EXISTS) != 0 }

    /// Whether `path` is a directory.
    public static func isDirectory(_ path: String) -> Bool { g_file_test(path, G_FILE_TEST_IS_DIR) != 0 }

    /// The last component of `path` (`g_path_get_basename`).
    public static func baseName(_ path: String) -> String {
        let name = g_path_get_basename(path)!
        defer { g_free(name) }
        return String(cString: name)
    }

    /// Joins path components with exactly one "/" between them.
    public static func join(_ first: String, _ rest: String...) -> String {
        rest.reduce(first) { partial, next in
            partial.hasSuffix("/") ? partial + next : partial + "/" + next
        }
    }

    /// Creates `path` and missing parents (mode 0700, private to the user).
    /// - Throws: ``GLibError`` with the system's reason when it cannot.
    public static func makeDirectory(_ path: String) throws {
        if g_mkdir_with_parents(path, 0o700) != 0 {
            throw GLibError(message: "Could not create folder \(path): \(String(cString: g_strerror(errno)))")
        }
    }

    /// Lists the image files directly in `directory` (content type `image/*`, as GIO guesses it from
    /// the name and first bytes), sorted by file name. Hidden files are skipped.
    /// - Throws: ``GLibError`` when the folder cannot be read (missing, not a folder, no permission).
    public static func imageFiles(in directory: String) throws -> [String] {
        let folder = g_file_new_for_path(directory)!
        defer { g_object_unref(UnsafeMutableRawPointer(folder)) }
        let enumerator = try GLibError.check {
            g_file_enumerate_children(folder, "standard::name,standard::content-type,standard::is-hidden,standard::type",
                                      G_FILE_QUERY_INFO_NONE, nil, $0)
        }
        guard let enumerator else { throw GLibError(message: "Could not read folder \(directory)") }
        defer { g_object_unref(UnsafeMutableRawPointer(enumerator)) }
        var paths: [String] = []
        while true {
            let info = try GLibError.check { g_file_enumerator_next_file(enumerator, nil, $0) }
            guard let info else { break }
            defer { g_object_unref(UnsafeMutableRawPointer(info)) }
            guard g_file_info_get_is_hidden(info) == 0,
                  g_file_info_get_file_type(info) == G_FILE_TYPE_REGULAR,
                  let type = g_file_info_get_content_type(info) else { continue }
            guard let mime = g_content_type_get_mime_type(type) else { continue }
            defer { g_free(mime) }
            if String(cString: mime).hasPrefix("image/") {
                paths.append(join(directory, String(cString: g_file_info_get_name(info))))
            }
        }
        return paths.sorted { baseName($0) < baseName($1) }
    }

    /// Copies `source` to `destination`, replacing it if present (`g_file_copy`).
    /// - Throws: ``GLibError`` (e.g. source missing, disk full, no permission).
    public static func copy(_ source: String, to destination: String) throws {
        try withFiles(source, destination) { from, to, error in
            g_file_copy(from, to, G_FILE_COPY_OVERWRITE, nil, nil, nil, error)
        }
    }

    /// Renames `source` to `destination` (atomic within one file system), replacing it if present.
    /// - Throws: ``GLibError``.
    public static func move(_ source: String, to destination: String) throws {
        try withFiles(source, destination) { from, to, error in
            g_file_move(from, to, G_FILE_COPY_OVERWRITE, nil, nil, nil, error)
        }
    }

    /// Deletes the file at `path`; does nothing if it does not exist.
    public static func remove(_ path: String) {
        _ = unlink(path)
    }

    private static func withFiles(
        _ a: String, _ b: String,
        _ body: (OpaquePointer, OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> gboolean
    ) throws {
        let from = g_file_new_for_path(a)!, to = g_file_new_for_path(b)!
        defer {
            g_object_unref(UnsafeMutableRawPointer(from))
            g_object_unref(UnsafeMutableRawPointer(to))
        }
        _ = try GLibError.check { body(from, to, $0) }
    }

    /// The user's data folder (`$XDG_DATA_HOME`, default `~/.local/share`).
    public static var userDataDirectory: String { String(cString: g_get_user_data_dir()) }

    /// The user's Pictures folder (XDG user dir `PICTURES`), or nil when none is configured.
    public static var picturesDirectory: String? {
        g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { String(cString: $0) }
    }

    /// The absolute path of the running executable (from `/proc/self/exe`), or nil.
    public static var executablePath: String? {
        guard let target = g_file_read_link("/proc/self/exe", nil) else { return nil }
        defer { g_free(target) }
        return String(cString: target)
    }

    /// `path` made absolute against the current folder and cleaned of `.`/`..` (`g_canonicalize_filename`).
    public static func absolute(_ path: String) -> String {
        let result = g_canonicalize_filename(path, nil)!
        defer { g_free(result) }
        return String(cString: result)
    }

    /// The parent folder of `path` (`g_path_get_dirname`).
    public static func directoryName(_ path: String) -> String {
        let name = g_path_get_dirname(path)!
        defer { g_free(name) }
        return String(cString: name)
    }

    /// Reads an environment variable, or nil when unset or empty.
    public static func environment(_ name: String) -> String? {
        guard let value = g_getenv(name) else { return nil }
        let string = String(cString: value)
        return string.isEmpty ? nil : string
    }
}

/// Local date and time text through GLib's `GDateTime` (time zone and locale of the user).
public enum DateText {
    /// The current time in microseconds since 1970-01-01 UTC (`g_get_real_time`).
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

/// An application style sheet (`GtkCssProvider`) applied to the whole display.
@MainActor
public enum StyleSheet {
    /// Loads the CSS file at `path` for every window at application priority.
    /// Parse errors are logged by GTK as warnings; a missing file loads nothing.
    public static func load(path: String) {
        guard let provider = gtk_css_provider_new(), let display = gdk_display_get_default() else { return }
        gtk_css_provider_load_from_path(provider, path)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
