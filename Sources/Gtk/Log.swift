import CGtk

/// Structured logging through GLib (`g_log_structured_array`) in the log domain ``domain``
/// (`Postcard`), so messages go where every GNOME app's go: the journal when run from a desktop
/// session, standard error otherwise, with the source file, line and function attached.
///
/// - ``problem(_:file:line:function:)``: something went wrong that the user is also shown (a photo
///   that can't be read, a post that failed) — GLib's message level, always printed.
/// - ``info(_:file:line:function:)`` and ``debug(_:file:line:function:)``: what happens (flows started
///   and ended, store writes), hidden unless `G_MESSAGES_DEBUG=Postcard` (or `all`) is set, as GLib does.
///
/// Warnings and criticals (`g_warning`, `g_critical`) stay reserved for programming errors: tests run
/// with `G_DEBUG=fatal-warnings`, so a user's bad input must never log at those levels.
public enum Log {
    /// The GLib log domain of every message of the app and its toolkit.
    public static let domain = "Postcard"

    /// Logs a problem the user is also shown (`G_LOG_LEVEL_MESSAGE`).
    public static func problem(_ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function) {
        write(G_LOG_LEVEL_MESSAGE, message(), file: file, line: line, function: function)
    }

    /// Logs a programming error or a broken platform assumption (`G_LOG_LEVEL_CRITICAL`): never for a
    /// user's input. Fatal in the tests (`G_DEBUG=fatal-criticals`).
    static func critical(_ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function) {
        write(G_LOG_LEVEL_CRITICAL, message(), file: file, line: line, function: function)
    }

    /// Logs something worth knowing when following what the app does (`G_LOG_LEVEL_INFO`).
    public static func info(_ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function) {
        write(G_LOG_LEVEL_INFO, message(), file: file, line: line, function: function)
    }

    /// Logs a detail for debugging (`G_LOG_LEVEL_DEBUG`); `message` is only built when debug output for
    /// the domain is on.
    public static func debug(_ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function) {
        guard g_log_writer_default_would_drop(G_LOG_LEVEL_DEBUG, domain) == 0 else { return }
        write(G_LOG_LEVEL_DEBUG, message(), file: file, line: line, function: function)
    }

    private static func write(_ level: GLogLevelFlags, _ message: String, file: String, line: Int, function: String) {
        let values = [domain, message, file, String(line), function]
        let keys = ["GLIB_DOMAIN", "MESSAGE", "CODE_FILE", "CODE_LINE", "CODE_FUNC"]
        withNullTerminatedCStrings(keys) { keyPointers in
            withNullTerminatedCStrings(values) { valuePointers in
                var fields = (0..<keys.count).map { index in
                    GLogField(key: keyPointers[index], value: UnsafeRawPointer(valuePointers[index]), length: -1)
                }
                g_log_structured_array(level, &fields, gsize(fields.count))
            }
        }
    }
}
