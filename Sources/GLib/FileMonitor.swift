import CGLib

/// Watches one file for changes with GIO's `GFileMonitor` (inotify on Linux): `onChange` runs on the
/// main thread each time the file is created, written, moved or deleted, at most once per `rateLimit`
/// milliseconds for a run of writes (`g_file_monitor_set_rate_limit`). The file need not exist yet (GIO
/// then watches its folder for it).
///
/// Create it on the main thread (its events come in the thread-default main context it was created in);
/// it watches until ``cancel()`` or until it is released. Main actor only.
@MainActor
public final class FileMonitor {
    /// The monitor; nil once cancelled. (`nonisolated(unsafe)`: read by the deinit, which is isolated to the
    /// main actor like every other use, so no two threads ever touch them.)
    nonisolated(unsafe) private var monitor: UnsafeMutablePointer<GFileMonitor>?
    nonisolated(unsafe) private var handler: gulong = 0

    /// Watches `path`; `onChange` is told each event's kind (`GFileMonitorEvent`'s value).
    /// - Parameters:
    ///   - path: the file (or folder) to watch; it need not exist yet.
    ///   - rateLimit: the least time between two reports of writes to the file (GIO's default is 800 ms;
    ///     GIO counts whole milliseconds).
    ///   - onChange: called on the main actor with each event's kind.
    /// - Throws: ``GLibError`` when GIO cannot watch it (no inotify watch left, a path it refuses).
    public init(watching path: FilePath, rateLimit: Duration = .milliseconds(100), onChange: @escaping @MainActor (Int) -> Void) throws(GLibError) {
        let file = path.withCString { g_file_new_for_path($0) }!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let made = g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            throw error.map { GLibError(taking: $0) } ?? GLibError(message: "Can't watch \(path.displayName)", domain: "g-io-error-quark")
        }
        monitor = made
        g_file_monitor_set_rate_limit(made, Int32(clamping: rateLimit.clampedMilliseconds))
        let box = Unmanaged.passRetained(FileMonitorHandler(onChange)).toOpaque()
        handler = g_signal_connect_data(UnsafeMutableRawPointer(made), "changed",
                                        unsafeBitCast(fileMonitorChanged, to: GCallback.self), box,
                                        fileMonitorRelease, GConnectFlags(rawValue: 0))
    }

    /// Stops watching: `onChange` is not called again. Idempotent.
    public func cancel() { Self.end(monitor, handler); monitor = nil }

    // On the main actor wherever the last reference goes (a store released by a task that ended on another
    // thread): the signal's handler is disconnected in the thread that emits it, never while it runs.
    isolated deinit { Self.end(monitor, handler) }

    nonisolated private static func end(_ monitor: UnsafeMutablePointer<GFileMonitor>?, _ handler: gulong) {
        guard let monitor else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), handler)  // releases the handler's box
        g_file_monitor_cancel(monitor)
        g_object_unref(UnsafeMutableRawPointer(monitor))
    }
}

/// The Swift handler a monitor's `changed` signal calls, kept by the signal connection.
private final class FileMonitorHandler: @unchecked Sendable {  // its closure is only ever called on the main actor
    let onChange: @MainActor (Int) -> Void
    init(_ onChange: @escaping @MainActor (Int) -> Void) { self.onChange = onChange }
}

/// `GFileMonitor::changed` (monitor, file, other file, event, data), on the main thread.
private let fileMonitorChanged: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                                 UInt32, UnsafeMutableRawPointer?) -> Void = { _, _, _, event, data in
    guard let data else { return }
    let handler = Unmanaged<FileMonitorHandler>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { handler.onChange(Int(event)) }
}

/// Releases the handler when the signal is disconnected.
private let fileMonitorRelease: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<FileMonitorHandler>.fromOpaque(data).release()
}
