import Glibc
import Gtk
import Navigation
import NavigationGtk
import PhotoPosting

/// The app: the main window on My Profile, friends' profiles pushed onto it, and what each caller of
/// the photo flow does with its result.
///
/// Main actor only.
@MainActor
public final class AppController {
    /// Where posts are kept.
    public let store: PostStore
    /// The photos offered by the flow.
    public let library: PhotoLibrary
    /// The main window and its navigation stack.
    public let mainWindow: NavigationWindow
    /// The root page.
    public let myProfile: ProfilePage
    /// The running post flow's task, if any. One flow at a time: New Post does nothing meanwhile.
    public private(set) var postTask: Task<CommentedPhotoFlow.Result, Never>?
    /// Called with each post flow's result after the app has handled it (feed reloaded).
    public var onPostFlowEnded: (@MainActor (CommentedPhotoFlow.Result) -> Void)?

    /// Builds the main window (not shown; see ``present()``).
    public init(application: Application?, store: PostStore, library: PhotoLibrary) {
        self.store = store
        self.library = library
        myProfile = ProfilePage(person: .me)
        mainWindow = NavigationWindow(application: application, root: myProfile)
        mainWindow.window.title = "Postcard"
        wire(myProfile)
        myProfile.onFriendSelected = { [weak self] friend in self?.showProfile(of: friend) }
    }

    /// Shows the main window.
    public func present() { mainWindow.present() }

    /// Pushes `person`'s profile onto the main stack.
    @discardableResult
    public func showProfile(of person: Person) -> ProfilePage {
        let page = ProfilePage(person: person)
        wire(page)
        mainWindow.stack.push(page)
        return page
    }

    private func wire(_ page: ProfilePage) {
        reload(page)
        page.onNewPost = { [weak self, weak page] in
            guard let self, let page, self.postTask == nil else { return }
            self.postTask = Task { await self.post(to: page) }
        }
    }

    /// Both profile callers use the same flow; each stores the post on its own profile.
    private func post(to page: ProfilePage) async -> CommentedPhotoFlow.Result {
        defer { postTask = nil }
        let profile = page.person.id
        let result = await CommentedPhotoFlow.run(from: page, library: library) { [store] photo, comment in
            try store.add(photo: photo, comment: comment, author: Person.me.id, profile: profile)
        }
        if case .posted = result { reload(page) }
        onPostFlowEnded?(result)
        return result
    }

    private func reload(_ page: ProfilePage) {
        do {
            page.showPosts(try store.posts(onProfile: page.person.id))
        } catch {
            page.showFeedError("Can't load posts: \(error)")
        }
    }
}

/// Starts the app from the command line.
public enum PostcardMain {
    /// The application id (reverse DNS).
    public static let applicationID = "io.github.postcard.Postcard"

    /// Parses `arguments` (including the program name), runs the app, and returns the exit status:
    /// 0 normally, 1 on a start-up error (printed to standard error), 2 on a bad command line.
    @MainActor
    public static func run(arguments: [String]) -> Int32 {
        let options: AppOptions
        do {
            options = try AppOptions(arguments: Array(arguments.dropFirst()))
        } catch {
            printError("postcard: \(error)\n\n\(AppOptions.usage)")
            return 2
        }
        if options.showHelp { print(AppOptions.usage); return 0 }
        let store: PostStore, library: PhotoLibrary, resources: String
        do {
            resources = try ResourceLocator.resourcesDirectory()
            library = PhotoLibrary(directory: try options.libraryDirectory(resources: resources))
            store = try PostStore(directory: options.resolvedDataDirectory)
        } catch {
            printError("postcard: \(error)")
            return 1
        }
        // A review tour is its own instance, so it never hands over to a running Postcard.
        let app = Application(id: applicationID, unique: options.reviewTourDirectory == nil)
        var controller: AppController?
        app.onActivate {
            if controller == nil {
                StyleSheet.load(path: Files.join(resources, "style.css"))
                controller = AppController(application: app, store: store, library: library)
                controller?.present()
                if let tour = options.reviewTourDirectory, let controller {
                    ReviewTour.run(app: controller, into: tour) { app.quit() }
                }
            } else {
                controller?.present()
            }
        }
        return app.run()
    }

    private static func printError(_ message: String) {
        var stderr = StandardError()
        print(message, to: &stderr)
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        _ = string.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
