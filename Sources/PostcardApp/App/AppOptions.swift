import Glibc
import PostcardResources
import Gtk
import PhotoPosting
import PostcardModel

/// The command line: `postcard [OPTION…] [PHOTO…|LINK]`, parsed by GLib's GOption through GApplication
/// (``commandLineOptions``), so `--opt=value`, `--opt value` and GOption's `--help` work as in every GNOME
/// app. A second launch hands its options and photos to the running Postcard (``needsOwnInstance``).
public struct AppOptions: Equatable, Sendable {
    /// Where the photo library comes from.
    public enum LibrarySource: Equatable, Sendable {
        /// The sample photos bundled in `Resources/photos`.
        case bundled
        /// A folder given with `--library DIR`.
        case folder(FilePath)
        /// The user's XDG Pictures folder (`--pictures`).
        case pictures
    }

    /// The photo library to offer in Choose a Photo.
    public var library: LibrarySource = .bundled
    /// Whether `--library` or `--pictures` was given (a running Postcard then switches its library).
    public var libraryWasGiven = false
    /// The data directory for posts (`--data-dir DIR`); nil: `$XDG_DATA_HOME/postcard`.
    public var dataDirectory: FilePath?
    /// Whether the posts are opened read-only (the window saying why Postcard can't start offers it for a
    /// data folder that can't be written; see ``PostStore/init(directory:clock:readOnly:)``).
    public var opensReadOnly = false
    /// Where Take Photo, Quick Snap and Scan a Code take pictures from (`--camera test|image:FILE|DEVICE`, else
    /// `POSTCARD_CAMERA`, else the cameras GStreamer finds).
    public var camera: CameraSource = CameraSource.fromEnvironment[0]
    /// Whether `--camera` was given (a running Postcard then switches its camera).
    public var cameraWasGiven = false
    /// Whether the app runs as its own instance instead of handing over to a running one: a different
    /// data folder is a different set of posts. Everything else (`--library`, `--pictures`, `--camera`,
    /// photos) is forwarded.
    public var needsOwnInstance: Bool { dataDirectory != nil || recordPath != nil || replayPath != nil }

    /// Where `--record FILE` writes the journey of this run (see ``Journey``); nil: none is recorded.
    public var recordPath: FilePath?
    /// The journey `--replay FILE` replays into a new data folder (an empty `--data-dir`, else a new
    /// temporary folder); nil: none.
    public var replayPath: FilePath?
    /// `--fast`: the replay goes as fast as the screens allow, not at the recorded pace.
    public var replaysFast = false

    /// Photos to post, given as arguments (`postcard photo.jpg`), as `file://` URIs: New Post opens on
    /// Add a Comment with the first. A running instance receives them.
    public var files: [String] = []

    /// The screen a `postcard://` link given as an argument opens (`postcard postcard://post/12`): the
    /// last one given. A running instance receives it and opens it (see ``AppController/open(link:)``).
    public var link: Route?
    /// The Postcard code ``link`` is, when it is one (`postcard://profile/ID?name=NAME&v=1`): a
    /// stranger's opens Add Friend on New Friend, as docs/manual.md says ("Friends and codes"), rather than Not Found.
    public var friendCode: FriendCode?

    /// `--version`: print the version and quit.
    public var showsVersion = false

    /// The options GOption parses (and `--help` lists); GApplication adds `--help` and
    /// `--gapplication-service` (D-Bus activation, the launcher's `DBusActivatable`).
    public static var commandLineOptions: [CommandLineOption] {
        [
            CommandLineOption("library", value: .filename, description: localized("Offer the photos in FOLDER (default: the bundled sample photos)"),
                              argumentDescription: localized("FOLDER")),
            CommandLineOption("pictures", description: localized("Offer the photos in your Pictures folder")),
            CommandLineOption("data-dir", value: .filename,
                              description: localized("Keep posts in FOLDER (default: $XDG_DATA_HOME/postcard); runs a separate Postcard"),
                              argumentDescription: localized("FOLDER")),
            CommandLineOption("camera", value: .string,
                              description: localized("Take photos and read codes from SOURCE: a device such as /dev/video0, “test” for GStreamer’s test picture, or image:FILE for a picture shown as a still camera"),
                              argumentDescription: localized("SOURCE")),
            CommandLineOption("record", value: .filename,
                              description: localized("Write what you do to FILE as a journey, to replay with --replay"),
                              argumentDescription: localized("FILE")),
            CommandLineOption("replay", value: .filename,
                              description: localized("Replay the journey in FILE into a new data folder (an empty --data-dir, else a temporary one)"),
                              argumentDescription: localized("FILE")),
            CommandLineOption("fast", description: localized("With --replay: as fast as the screens allow, not at the recorded pace")),
            CommandLineOption("version", description: localized("Show the version and quit")),
            .remainingFilenames(description: localized("Start New Post with this photo chosen, or open the screen a postcard:// link names"),
                                argumentDescription: localized("[PHOTO…] [LINK]")),
        ]
    }

    /// The text `--help` shows above the options and below them.
    public static var commandLineHelp: (summary: String, description: String) {
        (localized("Post photos with a comment to your profile, a friend’s profile, a comment thread or a message."),
         localized("A second launch hands its photos and --library, --pictures and --camera to the running Postcard. With --data-dir it runs separately.\n\nEnvironment: POSTCARD_RESOURCES=FOLDER overrides where the app’s resources are found; POSTCARD_CAMERA=SOURCE is the default for --camera."))
    }

    /// The options GOption parsed; folder names are resolved by `resolve` (to an absolute path, against
    /// the launching process's current folder) and photos by `uri`, from their bytes (byte for byte).
    /// - Throws: ``AppOptionsError`` naming the bad value (an empty folder name, an unknown camera).
    @MainActor
    public init(options: CommandLineOptions, resolve: (FilePath) -> FilePath, uri: (UnsafePointer<CChar>) -> String) throws {
        func folder(_ name: String) throws -> FilePath? {
            guard let value = options.filename(name) else { return nil }
            guard !value.bytes.isEmpty else { throw AppOptionsError(message: localized("--%s needs a folder", name)) }
            return resolve(value)
        }
        if let library = try folder("library") {
            self.library = .folder(library)
            libraryWasGiven = true
        } else if options.contains("pictures") {
            library = .pictures
            libraryWasGiven = true
        }
        dataDirectory = try folder("data-dir")
        func file(_ name: String) throws -> FilePath? {
            guard let value = options.filename(name) else { return nil }
            guard !value.bytes.isEmpty else { throw AppOptionsError(message: localized("--%s needs a file", name)) }
            return resolve(value)
        }
        recordPath = try file("record")
        replayPath = try file("replay")
        replaysFast = options.contains("fast")
        if recordPath != nil && replayPath != nil {
            throw AppOptionsError(message: localized("--record and --replay can't be given together"))
        }
        if let value = options.string("camera") {
            guard let source = CameraSource(option: value) else {
                throw AppOptionsError(message: localized("--camera needs “test”, image:FILE or a device such as /dev/video0"))
            }
            camera = source
            cameraWasGiven = true
        }
        showsVersion = options.contains("version")
        enum Argument { case file(String), link(Route, String), badLink(String, RouteLinkError) }
        let arguments = options.mapRemainingArguments { bytes -> Argument in
            let scheme = Route.scheme + ":"
            guard strncasecmp(bytes, scheme, scheme.utf8.count) == 0 else { return .file(uri(bytes)) }
            guard let text = String(validatingCString: bytes) else { return .badLink(String(cString: bytes), .notUTF8) }
            do { return .link(try Route(link: text), text) } catch let error as RouteLinkError {
                return .badLink(text, error)
            } catch { return .badLink(text, .malformed) }
        }
        for argument in arguments {
            switch argument {
            case .file(let file): files.append(file)
            case .link(let route, let text):
                link = route
                friendCode = try? FriendCode(reading: text)
            case .badLink(let text, let error):
                // Translators: a link given on the command line can't be opened; %1$s is the link, %2$s why.
                throw AppOptionsError(message: localized("can't open %1$s: %2$s", String(text.prefix(80)).escapingControlCharacters, error.description))
            }
        }
    }

    /// Creates the defaults.
    public init() {}

    /// The photo folder to use, given the bundled resources folder.
    /// - Throws: ``AppOptionsError`` when `--pictures` is given but no Pictures folder is configured.
    public func libraryDirectory(resources: FilePath) throws -> FilePath {
        switch library {
        case .bundled: return resources.appending("photos")
        case .folder(let dir): return dir
        case .pictures:
            guard let pictures = Files.picturesDirectory else {
                throw AppOptionsError(message: localized("no Pictures folder is configured (see xdg-user-dirs)"))
            }
            return pictures
        }
    }

    /// The data directory to use: `--data-dir`, else `$XDG_DATA_HOME/postcard`.
    public var resolvedDataDirectory: FilePath {
        dataDirectory ?? Files.userDataDirectory.appending("postcard")
    }
}

/// A bad command line; the message names the problem.
public struct AppOptionsError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// Finds the app's resources folder (sample photos, the guide; the style sheet is compiled in).
///
/// Looked up in order: `$POSTCARD_RESOURCES`; the installed `share/postcard` beside the executable's
/// prefix (`<prefix>/bin/postcard` → `<prefix>/share/postcard`, as `make install` lays it out); the
/// source tree's `Resources/` (when run from a checkout with `swift run` or `make run`).
public enum ResourceLocator {
    /// The first candidate folder that holds the sample photos and the guide (`photos/`, `guide/`).
    /// - Throws: ``AppOptionsError`` listing every folder tried.
    public static func resourcesDirectory() throws -> FilePath {
        let candidates = self.candidates()
        if let found = candidates.first(where: { Files.isDirectory($0.appending("photos")) && Files.isDirectory($0.appending("guide")) }) {
            return found
        }
        // Translators: %s is a list of folders, separated by commas.
        throw AppOptionsError(message: localized("can't find the app's resources (photos/, guide/); looked in: %s. Set POSTCARD_RESOURCES to the Resources folder.",
                                                 candidates.map(\.displayName).joined(separator: ", ")))
    }

    /// Where the compiled translations are (`<lang>/LC_MESSAGES/postcard.mo`): the installed
    /// `<prefix>/share/locale` when the app runs installed (its `share/postcard` exists), else the folder
    /// this build compiled `po/` into (the CompileResources plugin, during `swift build`).
    public static var localeDirectory: FilePath {
        if let exe = Files.executablePath {
            let prefix = exe.removingLastComponent.removingLastComponent
            if Files.isDirectory(prefix.appending("share", "postcard")) { return prefix.appending("share", "locale") }
        }
        return FilePath(CompiledPostcardResources.buildLocaleDirectory)
    }

    /// The checkout (Sources/PostcardApp/App/AppOptions.swift → its root).
    private static var sourceRoot: FilePath {
        FilePath(#filePath).removingLastComponent.removingLastComponent.removingLastComponent.removingLastComponent
    }

    static func candidates() -> [FilePath] {
        var result: [FilePath] = []
        if let override = Files.environmentPath("POSTCARD_RESOURCES") { result.append(override) }
        if let exe = Files.executablePath {
            let prefix = exe.removingLastComponent.removingLastComponent
            result.append(prefix.appending("share", "postcard"))
        }
        result.append(sourceRoot.appending("Resources"))
        return result
    }
}
