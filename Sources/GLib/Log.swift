import CGLib

/// Structured logging through GLib (`g_log_structured_array`) in one log domain, so messages go where
/// every GNOME app's go: the journal when run from a desktop session, standard error otherwise, with
/// the source file, line and function attached. An app makes one for its own domain
/// (`Logger(domain: "Postcard")`); the toolkit logs in its own, `NavigationGtk` (`toolkit`).
///
/// - ``problem(_:file:line:function:)``: something went wrong that the user is also shown (a photo
///   that can't be read, a post that failed) — GLib's message level, always printed.
/// - ``info(_:file:line:function:)`` and ``debug(_:file:line:function:)``: what happens (flows started
///   and ended, store writes), hidden unless `G_MESSAGES_DEBUG=<domain>` (or `all`) is set, as GLib does.
///
/// Warnings and criticals stay reserved for programming errors: tests run with `G_DEBUG=fatal-warnings`,
/// so a user's bad input must never log at those levels. Any thread.
public struct Logger: Sendable {
    /// The GLib log domain, e.g. `"Postcard"` (what `G_MESSAGES_DEBUG` selects).
    public let domain: String

    /// A logger for `domain`.
    public init(domain: String) { self.domain = domain }

    /// The toolkit's own logger (domain `NavigationGtk`).
    package static let toolkit = Logger(domain: "NavigationGtk")

    /// Logs a problem the user is also shown (`G_LOG_LEVEL_MESSAGE`).
    public func problem(_ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function) {
        write(G_LOG_LEVEL_MESSAGE, message(), file: file, line: line, function: function)
    }

    /// Logs a programming error (`g_critical` through GLib's classic `g_log`, so a test can expect it
    /// with `g_test_expect_message`): misuse of a public API, never a user's input. Fatal in the tests
    /// (`G_DEBUG=fatal-criticals`) unless expected. The caller then ignores the call, as GTK and
    /// libadwaita do after their `g_return_if_fail` criticals.
    public func critical(_ message: String) {
        navgtk_log_critical(domain, message)
    }

    /// Logs something worth knowing when following what the app does (`G_LOG_LEVEL_INFO`).
    public func info(_ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function) {
        write(G_LOG_LEVEL_INFO, message(), file: file, line: line, function: function)
    }

    /// Logs a detail for debugging (`G_LOG_LEVEL_DEBUG`); `message` is only built when debug output for
    /// the domain is on.
    public func debug(_ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function) {
        guard g_log_writer_default_would_drop(G_LOG_LEVEL_DEBUG, domain) == 0 else { return }
        write(G_LOG_LEVEL_DEBUG, message(), file: file, line: line, function: function)
    }

    private func write(_ level: GLogLevelFlags, _ message: String, file: String, line: Int, function: String) {
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
