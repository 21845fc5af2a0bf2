import Glibc
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardResources

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
    @MainActor
    /// `arguments` nil: the process's own command line, byte for byte (file names that are not UTF-8
    /// stay as they are).
    public static func run(arguments: [String]? = nil) -> Int32 {
        Localization.bind(domain: "postcard", directory: ResourceLocator.localeDirectory)
        let app = Application(id: applicationID)
        Application.setDisplayName(localized("Postcard"))
        app.addMainOptions(AppOptions.commandLineOptions)
        let help = AppOptions.commandLineHelp
        app.setCommandLineHelp(summary: help.summary, description: help.description)
        var running: RunningApp?
        var desktopStyle: DesktopStyle?
        app.onHandleLocalOptions { parsed in  // in the launching process
            let options: AppOptions
            do {
                options = try AppOptions(options: parsed, resolve: \.absolute, uri: CommandLineOptions.localURI(forArgument:))
            } catch {
                printError("postcard: \(error)")
                return 2
            }
            if options.showsVersion { print("Postcard \(AppController.version)"); return 0 }
            if let gallery = options.reviewTourDirectory, ReviewGallery.partOfThisProcess == nil {
                // The gallery: this program again once per part (each opens the display), then the index.
                return ReviewGallery.make(in: gallery, compare: options.reviewCompareDirectory, arguments: CommandLine.unsafeArgv)
            }
            guard initializeGtk() else {
                printError(localized("postcard: can't open a display. Run it in a desktop session (DISPLAY or WAYLAND_DISPLAY set)."))
                return 1
            }
            app.setUnique(!options.needsOwnInstance)
            if options.reviewTourDirectory != nil, let part = ReviewGallery.partOfThisProcess { ReviewGallery.prepare(for: part) }
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
            do {
                running = try RunningApp(application: app, options: options)
            } catch {
                invocation.printError("postcard: \(error)")
                return 1
            }
            desktopStyle = DesktopStyle()  // dark when the desktop prefers it, watched while the app runs
            running?.start(options)
            return 0
        }
        app.onActivate {  // D-Bus activation (the launcher), or `gapplication launch`
            if running == nil { running = try? RunningApp(application: app, options: AppOptions()) }
            running?.start(AppOptions())
        }
        app.onOpen { uris in  // Open With from a file manager, the launcher with files or links (%U), `gio open postcard://…`
            let links = uris.filter(Route.isLink)
            let startsNow = running == nil
            if running == nil { running = try? RunningApp(application: app, options: AppOptions()) }
            guard let running else { return }
            if startsNow, !running.controller.offerDraft(), links.isEmpty { running.controller.restoreNavigation() }
            running.start(AppOptions(), restoring: false)
            if let first = uris.first(where: { !Route.isLink($0) }) { running.controller.startNewPost(with: first) }
            if let last = links.last { running.controller.open(link: last) }
        }
        app.onShutdown { running?.controller.shutdown() }
        let status = arguments.map { app.run(arguments: $0) } ?? app.runWithProcessArguments()
        MainLoopBridge.drain()  // let flows resumed during shutdown finish
        withExtendedLifetime(desktopStyle) {}
        return running?.tourFailed == true ? 1 : status
    }

    static func printError(_ message: String) {
        var stderr = StandardError()
        print(message, to: &stderr)
    }
}

/// The running instance: its controller, and what a launch asks of it.
@MainActor
final class RunningApp {
    let application: Application
    let controller: AppController
    let resources: FilePath
    var tourFailed = false
    private var started = false

    /// Opens the store and library the options name and builds the main window (not shown).
    /// - Throws: ``AppOptionsError`` or ``PostStoreError`` with a message for the user.
    init(application: Application, options: AppOptions) throws {
        self.application = application
        resources = try ResourceLocator.resourcesDirectory()
        let library = PhotoLibrary(directory: try options.libraryDirectory(resources: resources))
        let store = try PostStore(directory: options.resolvedDataDirectory)
        _ = postcard_get_resource()  // compiled in (and registered as the program loaded)
        StyleSheet.load(resource: "/io/github/postcard/Postcard/style.css", darkVariant: "/io/github/postcard/Postcard/style-dark.css")
        controller = AppController(application: application, store: store, library: library,
                                   cameraSources: [options.camera])
    }

    /// Shows the main window (again) and runs what the first launch's options ask: the review tour,
    /// the start-up or navigation measurement, New Post with a given photo.
    func start(_ options: AppOptions, restoring: Bool = true) {
        if !started { appLog.info("Started: posts in \(controller.store.directory), photos from \(controller.library.directory)") }
        controller.present()
        defer { started = true }
        if !started, options.measuresStartup {
            StartupMeasurement.run(controller) { [application] in application.quit() }
        } else if !started, options.measuresNavigation {
            NavigationMeasurement.run(controller) { [application] in application.quit() }
        } else if !started, let tour = options.reviewTourDirectory {
            ReviewTour.run(app: controller, into: tour, part: ReviewGallery.partOfThisProcess,
                           variants: ReviewGallery.partOfThisProcess.map(ReviewVariant.all(in:)) ?? [ReviewVariant(dark: false, rightToLeft: false)]) { [weak self] succeeded in
                self?.tourFailed = !succeeded
                self?.application.quit()
            }
        } else {
            // What an earlier run left: an unfinished post is offered on My Profile; otherwise the pages
            // open at quit come back.
            // A link given at start-up opens instead of the pages kept at quit.
            if restoring, !started, !controller.offerDraft(), options.link == nil { controller.restoreNavigation() }
            if let first = options.files.first { controller.startNewPost(with: first) }
            if let link = options.link { controller.openWhenPossible(link) }
        }
    }

    /// A later launch, forwarded by GApplication: switches the library or camera it names, opens its
    /// photo in New Post, and brings the window to the front.
    /// - Returns: the launching process's exit status (1 with a message on its standard error when the
    ///   Pictures folder is asked for but not configured).
    func apply(_ options: AppOptions, from invocation: CommandLineInvocation) -> Int32 {
        if options.libraryWasGiven {
            do {
                controller.switchLibrary(to: PhotoLibrary(directory: try options.libraryDirectory(resources: resources)))
            } catch {
                invocation.printError("postcard: \(error)")
                return 1
            }
        }
        if options.cameraWasGiven { controller.switchCamera(to: options.camera) }
        start(options)
        return 0
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        _ = string.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
