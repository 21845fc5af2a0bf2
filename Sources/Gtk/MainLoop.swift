import CGtk

/// GLib's main loop for Swift code: waiting on it in tests and tools, and running closures on it from C
/// callbacks.
///
/// Swift concurrency itself needs no bridge: `GLibExecutors` (installed by ``install()``,
/// ``Application/init(id:unique:)`` and ``initializeGtk()``) makes the main actor's executor GLib's
/// default main context, so `Task { }`, `await` and `MainActor.run` run inside `g_application_run`.
public enum MainLoopBridge {
    /// Makes Swift concurrency run on GLib (`GLibExecutors/install()`). Idempotent; any thread, before
    /// the first task (``Application/init(id:unique:)`` and the test helpers do it for you).
    public static func install() {
        GLibExecutors.install()
    }

    /// Whether main-actor work runs while only GLib's default main context is iterated: a main-actor task
    /// started now runs within `timeout` (installs the executors first). False means the runtime
    /// ignored the executor factory (a toolchain whose `_Concurrency` changed how `_createExecutors`
    /// works): every `await` on the main actor would hang. ``Application/run(arguments:)`` checks it and
    /// logs a critical. Main thread.
    @MainActor
    public static func executorsWork(timeout: Duration = .seconds(2)) -> Bool {
        install()
        guard GLibExecutors.isInstalled else { return false }
        var ran = false
        Task { ran = true }
        let deadline = g_get_monotonic_time() + gint64(timeout.microseconds)
        while !ran, g_get_monotonic_time() < deadline {
            g_main_context_iteration(nil, 0)
            if !ran { g_usleep(1000) }
        }
        return ran
    }

    /// Logs a GLib critical when ``executorsWork(timeout:)`` fails, naming the cause, so a runtime that
    /// ignores the executors is loud instead of a silent hang at the first `await`.
    @MainActor
    static func installChecked() {
        if !executorsWork(timeout: .seconds(2)) {
            Logger.toolkit.critical("Swift's main actor does not run inside GLib's loop: the concurrency runtime did not take GLibExecutors (_createExecutors(factory:), Sources/GLib/Executors.swift)")
        }
    }

    /// Iterates the main context until `condition` holds or `timeout` passes; then returns false, failing
    /// nothing itself (a test wraps it in `XCTAssertTrue`). Meant for tests and start-up code; the
    /// application itself runs `g_application_run`. Main thread.
    @MainActor
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Duration = .seconds(5)) -> Bool {
        install()
        let deadline = g_get_monotonic_time() + gint64(timeout.microseconds)
        // A short timer wakes blocking iterations so the deadline is honoured even when idle.
        let tick = g_timeout_add(20, { _ in 1 }, nil)
        defer { g_source_remove(tick) }
        while !condition() {
            if g_get_monotonic_time() > deadline { return false }
            g_main_context_iteration(nil, 1)
        }
        return true
    }

    /// Runs `body` once from an idle callback (after pending layout and drawing), on the main actor.
    /// `body` is released when it has run, or when the source is removed before it could
    /// (`g_source_remove` with the returned id; GLib's destroy notify).
    /// - Returns: the GLib source id.
    @MainActor
    @discardableResult
    public static func afterLayout(_ body: @escaping @MainActor () -> Void) -> UInt32 {
        let box = Unmanaged.passRetained(Signals.FinalizeBox(body)).toOpaque()
        return g_idle_add_full(G_PRIORITY_LOW, { data in
            let box = Unmanaged<Signals.FinalizeBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.action() }
            return 0  // G_SOURCE_REMOVE
        }, box, { data in Unmanaged<Signals.FinalizeBox>.fromOpaque(data!).release() })
    }

    /// Runs `body` on the main thread, from any thread, at the main loop's next iteration (an idle
    /// source on the default main context; `g_main_context_invoke` is not used because it runs the
    /// function on the calling thread whenever that thread can acquire the context). For C callbacks
    /// that GLib, GIO or GStreamer call on their own threads.
    public static func onMainThread(_ body: @escaping @MainActor () -> Void) {
        final class Box: @unchecked Sendable {  // created here, then used only on the main thread
            let body: @MainActor () -> Void
            init(_ body: @escaping @MainActor () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.body() }
            return 0  // G_SOURCE_REMOVE
        }, box, { data in Unmanaged<Box>.fromOpaque(data!).release() })
    }

    /// Runs `body` every `milliseconds` on the main actor (a GLib timeout) until it returns false.
    /// - Returns: the GLib source id (remove it with `g_source_remove` to stop early).
    @MainActor
    @discardableResult
    package static func repeating(milliseconds: UInt32, _ body: @escaping @MainActor () -> Bool) -> UInt32 {
        final class Box { let body: @MainActor () -> Bool; init(_ body: @escaping @MainActor () -> Bool) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.body() } ? 1 : 0
        }, box, { data in Unmanaged<AnyObject>.fromOpaque(data!).release() })
    }

    /// Runs `body` once on the main actor `delay` from now (a negative delay is none; GLib counts whole
    /// milliseconds): a GLib timeout on the default main
    /// context, so waiting costs no thread and no wake-up before it is due (Swift's `Task.sleep` would
    /// start libdispatch's thread pool, which then wakes the process every second for good).
    /// `body` is released when it has run or its source is removed.
    /// - Returns: the GLib source id; ``cancel(_:)`` drops `body` before it runs.
    @MainActor
    @discardableResult
    public static func after(_ delay: Duration, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        let box = Unmanaged.passRetained(Signals.FinalizeBox(body)).toOpaque()
        return g_timeout_add_full(G_PRIORITY_DEFAULT, delay.clampedMilliseconds, { data in
            let box = Unmanaged<Signals.FinalizeBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.action() }
            return 0  // G_SOURCE_REMOVE
        }, box, { data in Unmanaged<Signals.FinalizeBox>.fromOpaque(data!).release() })
    }

    /// Removes a source made by ``after(_:_:)`` (or ``afterLayout(_:)``) that has not run yet;
    /// nothing for 0 or a source that has run. Main actor.
    @MainActor
    public static func cancel(_ source: UInt32) {
        guard source != 0, g_main_context_find_source_by_id(nil, source) != nil else { return }
        g_source_remove(source)
    }

    /// Waits `delay` on the main actor without blocking it (``after(_:_:)``); GLib's loop runs
    /// meanwhile. Does not end early when the task is cancelled. For tools and tests that pace
    /// themselves; nothing on the main actor waits for it.
    @MainActor
    public static func sleep(for delay: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            after(delay) { continuation.resume() }
        }
    }

    /// Iterates the main context until no source is ready (pending idle work and redraws done).
    @MainActor
    public static func drain() {
        install()
        var rounds = 0
        while g_main_context_pending(nil) != 0 && rounds < 10_000 {
            g_main_context_iteration(nil, 0)
            rounds += 1
        }
    }
}

/// A `GtkApplication`: one instance per process, identified by a reverse-DNS application id.
@MainActor
public final class Application: Object {
    /// Creates the application. `id` is a reverse-DNS name (e.g. `"org.example.Postcard"`); with
    /// `unique: false` every launch is its own instance (`G_APPLICATION_NON_UNIQUE`). A launch activates
    /// it, unless it handles its command line (``onCommandLine(_:)``); files opened by a file manager reach
    /// ``onOpen(_:)``.
    public init(id: String, unique: Bool = true) {
        GLibExecutors.install()
        super.init(gtk_application_new(id, Self.flags(unique: unique)), transfer: .full)
    }

    /// Wraps a new application made by a subclass's constructor (libadwaita's `adw_application_new`),
    /// taking over the reference it returned; made with ``flags(unique:)``.
    package init(wrapping application: UnsafeMutableRawPointer) {
        GLibExecutors.install()
        super.init(application, transfer: .full)
    }

    /// The flags an application is made with: unique or not (`G_APPLICATION_NON_UNIQUE`), and
    /// `G_APPLICATION_HANDLES_OPEN`.
    package static func flags(unique: Bool) -> GApplicationFlags {
        GApplicationFlags(rawValue: (unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE).rawValue
                          | G_APPLICATION_HANDLES_OPEN.rawValue)
    }

    /// Runs `handler` with the `file://` URIs of files the application is asked to open
    /// (`G_APPLICATION_HANDLES_OPEN`) by a file manager's "Open With" or the launcher (`%F` in a
    /// D-Bus activatable `.desktop` file); files on the command line go to ``onCommandLine(_:)``.
    public func onOpen(_ handler: @escaping @MainActor ([String]) -> Void) {
        connect("open") { args in
            guard let files = args.rawPointer(at: 1)?.assumingMemoryBound(to: OpaquePointer?.self) else { return }
            let count = Int(args.int(at: 2))
            handler((0..<count).compactMap { index in
                files[index].flatMap { g_file_get_uri($0) }.map { uri in
                    defer { g_free(uri) }
                    return String(cString: uri)
                }
            })
        }
    }

    /// Sets the application's human-readable name (`g_set_application_name`), e.g. "Postcard": what
    /// GTK records as the app that opened a file in the user's recently used files, and what desktop
    /// components may show. Call once, before any window opens, with the translated name.
    public static func setDisplayName(_ name: String) {
        g_set_application_name(name)
    }

    /// Runs `handler` when the application is activated (launched, or launched again while running).
    public func onActivate(_ handler: @escaping @MainActor () -> Void) {
        connect("activate") { _ in handler() }
    }

    /// Runs `handler` when the application shuts down (after the last window closes, or on quit).
    public func onShutdown(_ handler: @escaping @MainActor () -> Void) {
        connect("shutdown") { _ in handler() }
    }

    /// Runs the main loop until the application quits; checks first that Swift concurrency runs on it
    /// (``MainLoopBridge/executorsWork(timeout:)``). `arguments` (with the program name first) are parsed by GOption (see
    /// ``addMainOptions(_:)``; GApplication adds `--help` and `--gapplication-service`), then go to
    /// ``onCommandLine(_:)`` here or in the running instance.
    /// - Returns: the process exit status.
    public func run(arguments: [String] = CommandLine.arguments) -> Int32 {
        MainLoopBridge.installChecked()
        return withNullTerminatedCStrings(arguments) { argv in
            argv.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: arguments.count + 1) {
                g_application_run(pointer(as: GApplication.self), Int32(arguments.count), $0)
            }
        }
    }

    /// Runs the application with the process's own command line, byte for byte (a file name that is not
    /// UTF-8 reaches GOption unchanged; `CommandLine.arguments` would have replaced its bytes).
    /// - Returns: the process exit status.
    public func runWithProcessArguments() -> Int32 {
        MainLoopBridge.installChecked()
        return g_application_run(pointer(as: GApplication.self), CommandLine.argc, CommandLine.unsafeArgv)
    }

    /// Quits the main loop; open windows are destroyed.
    public func quit() {
        g_application_quit(pointer(as: GApplication.self))
    }

    /// Quits as ``quit()`` does when the process is asked to end — SIGTERM (the session logging out,
    /// `systemctl`, `kill`), SIGHUP (its terminal closing) or SIGINT (Ctrl+C) — so the app's shutdown
    /// handler runs (what it keeps is kept), instead of the process dying at once. GLib's
    /// `g_unix_signal_add`: the handler runs in the main loop, not in the signal. Call once, on the main
    /// thread, before ``run(arguments:)``.
    public func quitsWhenAskedToEnd() {
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            let box = Unmanaged.passRetained(self).toOpaque()  // lives as long as the process
            _ = g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, { data in
                MainActor.assumeIsolated { Unmanaged<Application>.fromOpaque(data!).takeUnretainedValue().quit() }
                return 1  // G_SOURCE_CONTINUE: a second SIGTERM while shutting down changes nothing
            }, box, nil)
        }
    }

    /// Adds the application action `app.<name>` (a `GSimpleAction`, exported on D-Bus as GApplication
    /// does, so `gapplication action <id> <name>` runs it) that runs `handler`, with keyboard
    /// `accelerators` in GTK's syntax (e.g. `"<Control>q"`) active in the application's windows.
    public func addAction(_ name: String, accelerators: [String] = [], handler: @escaping @MainActor () -> Void) {
        addSimpleAction(named: name, to: OpaquePointer(gobject), handler: handler)
        withNullTerminatedCStrings(accelerators) {
            gtk_application_set_accels_for_action(pointer(as: GtkApplication.self), "app." + name, $0)
        }
    }

    /// Runs the application action `app.<name>`, as its accelerator or `gapplication action` would.
    public func activateAction(_ name: String) {
        g_action_group_activate_action(OpaquePointer(gobject), name, nil)
    }

    /// The accelerators set for `app.<name>`.
    public func accelerators(for name: String) -> [String] {
        guard let list = gtk_application_get_accels_for_action(pointer(as: GtkApplication.self), "app." + name) else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = [], index = 0
        while let item = list[index] { result.append(String(cString: item)); index += 1 }
        return result
    }

    /// Registers the application on the session bus (what `run()` does first); tests call it to use
    /// actions and accelerators without running the application's own loop.
    /// - Throws: `GLibError` when registration fails (e.g. no session bus).
    public func register() throws {
        _ = try GLibError.check { g_application_register(pointer(as: GApplication.self), nil, $0) }
    }
}

/// Initializes GTK for code that builds widgets without `Application.run()` (tests, tools).
/// - Returns: false when no display can be opened (e.g. `DISPLAY` unset and no Xvfb).
@MainActor
public func initializeGtk() -> Bool {
    MainLoopBridge.install()
    return gtk_init_check() != 0
}
