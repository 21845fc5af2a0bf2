import CGLib

/// A text file written one line at a time, each line handed to the system whole as it is written
/// (GIO's `g_file_append_to`: an unbuffered stream, one `write` per line), so a crash or a kill keeps
/// every line written before it and at most cuts off the last. Not thread-safe: use it from one thread
/// or actor.
public final class AppendingTextFile {
    /// Where the lines go.
    public let path: FilePath
    private var stream: UnsafeMutablePointer<GOutputStream>?

    /// Creates the file at `path`, or empties it when it exists, and opens it for appending.
    /// - Throws: ``GLibError`` with GIO's reason (no such folder, no permission, disk full).
    public init(creating path: FilePath) throws {
        self.path = path
        try Files.writeText("", to: path)
        let file = Files.file(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let opened: UnsafeMutablePointer<GFileOutputStream>? = try GLibError.check { error in
            g_file_append_to(file, G_FILE_CREATE_NONE, nil, error)
        }
        stream = opened.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GOutputStream.self) }
    }

    deinit {
        if let stream { g_object_unref(UnsafeMutableRawPointer(stream)) }  // closes it
    }

    /// Appends `line` and a newline, in one write.
    /// - Throws: ``GLibError`` with GIO's reason (disk full); after an error the file keeps what was written.
    public func write(line: String) throws {
        guard let stream else { throw GLibError.toolkit("\(path.displayName) is closed") }
        let text = line + "\n"
        _ = try text.withCString { bytes in
            try GLibError.check { error in
                g_output_stream_write_all(stream, bytes, gsize(text.utf8.count), nil, nil, error)
            }
        }
    }

    /// Closes the file; later writes throw. Idempotent.
    public func close() {
        guard let stream else { return }
        self.stream = nil
        g_output_stream_close(stream, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(stream))
    }
}
