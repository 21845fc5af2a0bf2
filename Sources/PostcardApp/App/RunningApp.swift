import Glibc
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel
import PostcardResources
import PostcardStore

/// The running instance: its controller, and what a launch asks of it.
@MainActor
final class RunningApp {
    let application: Application
    let controller: AppController
    let resources: FilePath
    /// The tool running the app (and its options), if any.
    private let tool: (AppTool, CommandLineOptions)?
    /// The exit status the tool finished with, once it has.
    private(set) var toolStatus: Int32?
    private var started = false
    /// The journey `--replay` replays, read and checked.
    private var journey: Journey?

    /// Opens the store and library the options name and builds the main window (not shown).
    /// - Throws: ``AppOptionsError`` or ``PostStoreError`` with a message for the user.
    init(application: Application, options: AppOptions, tool: (AppTool, CommandLineOptions)? = nil) throws {
        self.application = application
        self.tool = tool
        resources = try ResourceLocator.resourcesDirectory()
        let library = PhotoLibrary(directory: try options.libraryDirectory(resources: resources))
        var directory = options.dataDirectory ?? tool.flatMap { $0.0.dataDirectory($0.1) } ?? options.resolvedDataDirectory
        if options.replayPath != nil {
            journey = try Journey.load(options.replayPath!, options: options)
            if options.dataDirectory == nil { directory = try Files.makeTemporaryDirectory(named: "postcard-replay-XXXXXX") }
        }
        let store: PostStore
        if let clock = tool?.0.clock {
            store = try PostStore(directory: directory, clock: clock, readOnly: options.opensReadOnly)
        } else {
            store = try PostStore(directory: directory, readOnly: options.opensReadOnly)
        }
        if let identity = tool?.0.identity { try store.setIdentityNow(identity) }
        controller = AppController(application: application, store: store, library: library,
                                   cameraSources: [options.camera])
    }

    /// Shows the main window (again) and runs what the first launch's options ask (New Post with a
    /// given photo, a link), or the tool's run.
    func start(_ options: AppOptions, restoring: Bool = true) {
        if !started { appLog.info("Started: posts in \(controller.store.directory), photos from \(controller.library.directory)") }
        controller.present()
        if !started && controller.store.isReadOnly {  // said where the user looks, not only in the window's title
            // Translators: a toast as the posts open read-only (their folder can't be written).
            controller.showToast(localized("Your posts are open read-only: nothing you post or change is saved"))
        }
        defer { started = true }
        if !started, let (tool, toolOptions) = tool {
            tool.run(controller, toolOptions) { [weak self] status in
                self?.toolStatus = status
                self?.application.quit()
            }
        } else if !started, let journey {
            replay(journey, fast: options.replaysFast)
        } else {
            // A journey starts on My Profile, with no draft offered and no pages restored (a replay starts
            // there too); a link or photo given with it opens, and is recorded.
            let recording = !started && options.recordPath != nil
            if recording, let record = options.recordPath {
                do {
                    controller.journeyRecorder = try JourneyRecorder(app: controller, path: record)
                    appLog.info("Recording the journey in \(record)")
                } catch {
                    PostcardMain.printError("postcard: \(error)")
                    controller.showToast(localized("Can't record the journey: %s", "\(error)"))
                }
            }
            // What an earlier run left: an unfinished post is offered on My Profile; otherwise the pages
            // open at quit come back.
            // A link given at start-up opens instead of the pages kept at quit.
            if restoring, !started, !recording, !controller.offerDraft(), options.link == nil { controller.restoreNavigation() }
            if let first = options.files.first { controller.startNewPost(with: first) }
            if let link = options.link {
                controller.receive(link, friendCode: options.friendCode)  // a stranger's code: Add Friend
            }
        }
    }

    /// Replays `journey` in the main window, then says how it went on standard output (or why it stopped,
    /// on standard error and in a toast); the window stays open for the user.
    private func replay(_ journey: Journey, fast: Bool) {
        appLog.info("Replaying \(journey.entries.count) steps into \(controller.store.directory)")
        let replayer = JourneyReplayer(app: controller, journey: journey, pace: fast ? .fast : .recorded)
        Task { [controller] in
            do {
                try await replayer.run()
                print(localized("Replayed %1$d steps; posts in %2$s", journey.entries.count, controller.store.directory.displayName))
                fflush(nil)  // now, not at exit: the window stays open, and a script may wait for the line
                controller.showToast(localized("Journey replayed"))
            } catch {
                PostcardMain.printError("postcard: \(error)")
                controller.showToast(localized("The replay stopped at %s", "\(error)"))
            }
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
