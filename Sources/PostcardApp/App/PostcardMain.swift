import Adwaita
import Glibc
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel
import CGLib
import PostcardResources
import PostcardStore

/// Starts the app from the command line.
public enum PostcardMain {
    /// The application id (reverse DNS).
    public static let applicationID = "io.github.postcard.Postcard"

    /// Runs the app with `arguments` (including the program name), parsed by GOption through
    /// GApplication (see ``AppOptions``), and returns the exit status: 0 normally, 1 on a start-up error
    /// (printed to standard error, also when a running instance reports it), 2 on a bad value.
    ///
    /// The first launch becomes the running instance; later launches hand their options and photos to
    /// it over D-Bus and exit (unless ``AppOptions/needsOwnInstance``).
    /// `arguments` nil: the process's own command line, byte for byte (file names that are not UTF-8
    /// stay as they are). Main thread.
    @MainActor
    public static func run(arguments: [String]? = nil) -> Int32 {
        run(arguments: arguments, tool: nil)
    }

    /// Runs the app as ``run(arguments:)`` does, or, with `tool`, the way that tool runs it (as its own
    /// instance, with its options, data folder and clock; see ``AppTool``).
    @MainActor
    package static func run(arguments: [String]? = nil, tool: AppTool?) -> Int32 {
        // WebKitGTK's memory-pressure handling stays on, whatever the environment says: with
        // WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR set, WebKit also turns off each web process's own handler,
        // the one that ends a page's process past `WebPage.webProcessMemoryLimit` (a page allocating in a
        // loop grew to 20 GB in a minute). Its cost, from the first web page on: a thread of this process
        // reading /proc/meminfo every 5 s (1 s when memory is short), and each web process measuring itself
        // every 2 s while it runs (bench/navigation.md, "Idle with a web page"). Removed here, before any
        // thread and before WebKit reads it (when its first web context is made).
        g_unsetenv("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR")
        Localization.bind(domain: "postcard", directory: ResourceLocator.localeDirectory)
        // libadwaita's application: its style sheet and style manager (light, dark, high contrast, as the
        // desktop prefers), and the app's own sheets from its GResource folder, registered here first.
        _ = CompiledPostcardResources.isRegistered
        let app = Application.adwaita(id: applicationID)
        Application.setDisplayName(localized("Postcard"))
        app.addMainOptions(AppOptions.commandLineOptions + (tool?.options ?? []))
        let help = AppOptions.commandLineHelp
        app.setCommandLineHelp(summary: tool?.summary ?? help.summary, description: help.description)
        var running: RunningApp?
        var startupError: StartupErrorWindow?
        var failedToStart = false
        /// Makes the running instance, or shows why it can't be made (in a window: started from the
        /// launcher nobody reads standard error) and returns nil. When the cause may pass (another program
        /// holds the database, the folder is read-only), the window's Try Again makes it again and, once it
        /// can be made, starts it with `start` and closes the window.
        func makeRunningApp(_ options: AppOptions, tool: (AppTool, CommandLineOptions)? = nil,
                            start: @escaping @MainActor (RunningApp) -> Void = { $0.start(AppOptions()) }) -> RunningApp? {
            do {
                return try RunningApp(application: app, options: options, tool: tool)
            } catch {
                appLog.problem("Can't start: \(error)")
                failedToStart = true
                if let shown = startupError {
                    shown.status.set(title: shown.status.title, description: "\(error)")
                } else {
                    let storeError = error as? PostStoreError
                    var readOnly = options
                    readOnly.opensReadOnly = true
                    var tryAgain: (@MainActor () -> Void)?
                    var openReadOnly: (@MainActor () -> Void)?
                    if storeError?.canTryAgain == true {
                        tryAgain = { retryStarting(options, tool: tool, start: start) }
                    }
                    if storeError?.canOpenReadOnly == true {
                        openReadOnly = { retryStarting(readOnly, tool: tool, start: start) }
                    }
                    startupError = StartupErrorWindow(application: app, message: "\(error)", tryAgain: tryAgain, openReadOnly: openReadOnly)
                }
                startupError?.window.present()
                return nil
            }
        }
        /// Makes the app with `options` again (the window's Try Again or Open Read-Only), starts it and
        /// closes the window once it can be made.
        func retryStarting(_ options: AppOptions, tool: (AppTool, CommandLineOptions)?, start: @escaping @MainActor (RunningApp) -> Void) {
            guard running == nil, let made = makeRunningApp(options, tool: tool, start: start) else { return }  // else says why again
            running = made
            start(made)
            startupError?.window.destroy()  // after the main window is shown: the app is held throughout
            startupError = nil
        }
        app.onHandleLocalOptions { parsed in  // in the launching process
            let options: AppOptions
            do {
                options = try AppOptions(options: parsed, resolve: \.absolute, uri: CommandLineOptions.localURI(forArgument:))
            } catch {
                printError("postcard: \(error)")
                return 2
            }
            if options.showsVersion { print("Postcard \(AppController.version)"); return 0 }
            if let replay = options.replayPath {
                // Read and checked whole before anything is made: a damaged journal changes nothing.
                do {
                    _ = try Journey.load(replay, options: options)
                } catch {
                    printError("postcard: \(replay.displayName): \(error)")
                    return 2
                }
            }
            if let status = tool?.beforeDisplay(parsed, options) { return status }
            guard initializeGtk() else {
                printError(localized("postcard: can't open a display. Run it in a desktop session (DISPLAY or WAYLAND_DISPLAY set)."))
                return 1
            }
            app.setUnique(tool == nil && !options.needsOwnInstance)
            tool?.prepare(parsed)
            return nil
        }
        app.onCommandLine { invocation in  // in the running instance, for this launch or a forwarded one
            let options: AppOptions
            do {
                options = try AppOptions(options: invocation.options, resolve: invocation.absolutePath(forArgument:),
                                         uri: invocation.uri(forArgument:))
            } catch {
                invocation.printError("postcard: \(error)")
                return 2
            }
            if let running {
                return running.apply(options, from: invocation)
            }
            guard let made = makeRunningApp(options, tool: tool.map { ($0, invocation.options) }, start: { $0.start(options) }) else {
                invocation.printError("postcard: \(startupError?.status.text ?? "can't start")")
                return 1  // after the window saying why is closed
            }
            running = made
            running?.start(options)
            return 0
        }
        app.onActivate {  // D-Bus activation (the launcher), or `gapplication launch`
            if running == nil { running = makeRunningApp(AppOptions()) }
            running?.start(AppOptions())
        }
        app.onOpen { uris in  // Open With from a file manager, the launcher with files or links (%U), `gio open postcard://…`
            let links = uris.filter(Route.isLink)
            let startsNow = running == nil
            if running == nil { running = makeRunningApp(AppOptions()) }
            guard let running else { return }
            if startsNow, !running.controller.offerDraft(), links.isEmpty { running.controller.restoreNavigation() }
            running.start(AppOptions(), restoring: false)
            if let first = uris.first(where: { !Route.isLink($0) }) { running.controller.startNewPost(with: first) }
            if let last = links.last { running.controller.receive(link: last) }  // coalesced: the newest wins
        }
        app.onShutdown { running?.controller.shutdown() }
        app.quitsWhenAskedToEnd()  // a logout's SIGTERM quits through the shutdown above
        let status = arguments.map { app.run(arguments: $0) } ?? app.runWithProcessArguments()
        MainLoopBridge.drain()  // let flows resumed during shutdown finish
        return failedToStart && running == nil ? 1 : running?.toolStatus ?? status
    }

    /// Prints `message` and a newline on standard error.
    package static func printError(_ message: String) {
        var stderr = StandardError()
        print(message, to: &stderr)
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        _ = string.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
