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

    /// Opens the store and library the options name and builds the main window (not shown).
    /// - Throws: ``AppOptionsError`` or ``PostStoreError`` with a message for the user.
    init(application: Application, options: AppOptions, tool: (AppTool, CommandLineOptions)? = nil) throws {
        self.application = application
        self.tool = tool
        resources = try ResourceLocator.resourcesDirectory()
        let library = PhotoLibrary(directory: try options.libraryDirectory(resources: resources))
        let directory = options.dataDirectory ?? tool.flatMap { $0.0.dataDirectory($0.1) } ?? options.resolvedDataDirectory
        let store: PostStore
        if let clock = tool?.0.clock { store = try PostStore(directory: directory, clock: clock) } else { store = try PostStore(directory: directory) }
        if let identity = tool?.0.identity { try store.setIdentityNow(identity) }
        controller = AppController(application: application, store: store, library: library,
                                   cameraSources: [options.camera])
    }

    /// Shows the main window (again) and runs what the first launch's options ask (New Post with a
    /// given photo, a link), or the tool's run.
    func start(_ options: AppOptions, restoring: Bool = true) {
        if !started { appLog.info("Started: posts in \(controller.store.directory), photos from \(controller.library.directory)") }
        controller.present()
        defer { started = true }
        if !started, let (tool, toolOptions) = tool {
            tool.run(controller, toolOptions) { [weak self] status in
                self?.toolStatus = status
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
