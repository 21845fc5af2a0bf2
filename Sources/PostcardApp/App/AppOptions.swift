import Gtk
import PhotoPosting

/// The command line: `postcard [--library DIR | --pictures] [--data-dir DIR]`.
public struct AppOptions: Equatable, Sendable {
    /// Where the photo library comes from.
    public enum LibrarySource: Equatable, Sendable {
        /// The sample photos bundled in `Resources/photos`.
        case bundled
        /// A folder given with `--library DIR`.
        case folder(String)
        /// The user's XDG Pictures folder (`--pictures`).
        case pictures
    }

    /// The photo library to offer in Choose a Photo.
    public var library: LibrarySource = .bundled
    /// The data directory for posts (`--data-dir DIR`); nil: `$XDG_DATA_HOME/postcard`.
    public var dataDirectory: String?
    /// Where Take Photo and Quick Snap take pictures from (`--camera test|DEVICE`, else
    /// `POSTCARD_CAMERA`, else the cameras GStreamer finds).
    public var camera: CameraSource = CameraSource.fromEnvironment[0]
    /// Whether `--camera` was given (the app then runs as its own instance, see ``needsOwnInstance``).
    public var cameraWasGiven = false
    /// Whether the app should run as its own instance instead of handing over to a running one (any
    /// option that changes what it shows or stores would otherwise be silently ignored).
    public var needsOwnInstance: Bool {
        library != .bundled || dataDirectory != nil || reviewTourDirectory != nil || measuresStartup || cameraWasGiven
    }

    /// Photos to post, given as arguments (`postcard photo.jpg`): New Post opens on Add a Comment with the
    /// first. Absolute paths or URIs; a running instance receives them.
    public var files: [String] = []

    /// `--gapplication-service`: started by D-Bus activation (the launcher's `DBusActivatable`); GLib
    /// runs the app as a service that shows a window when activated.
    public var runsAsService = false

    /// Whether `--help` was given.
    public var showHelp = false
    /// `--review-tour DIR`: walk through every screen, save screenshots in DIR, and quit.
    public var reviewTourDirectory: String?
    /// `--measure-startup`: show My Profile, print how long the first frame took and the resident memory
    /// once its photos show, then quit (for `make bench`).
    public var measuresStartup = false

    /// The usage text printed by `--help` and after a bad argument.
    public static let usage = """
        Usage: postcard [OPTION…] [PHOTO…]

          PHOTO              start New Post with this photo chosen (a running Postcard opens it)

          --library DIR      offer the photos in DIR (default: the bundled sample photos)
          --pictures         offer the photos in your Pictures folder
          --data-dir DIR     keep posts in DIR (default: $XDG_DATA_HOME/postcard)
          --camera SOURCE    take photos from SOURCE: a device such as /dev/video0, or "test"
                             for GStreamer's test picture (default: the first camera found)
          --review-tour DIR  walk through every screen, save a screenshot of each in DIR, quit;
                             posts go to a fresh folder in DIR unless --data-dir is given
          --measure-startup  print the time to the first frame and the memory once My Profile
                             shows its photos, then quit (used by make bench)
          --help             show this help

        With --library, --pictures, --data-dir or --camera the app runs as a separate instance; otherwise a
        second launch brings the running window to the front.

        Environment: POSTCARD_RESOURCES=DIR overrides where the app's resources are found;
        POSTCARD_CAMERA=SOURCE is the default for --camera.
        """

    /// Parses `arguments` (without the program name).
    /// - Throws: ``AppOptionsError`` naming the bad or incomplete argument.
    public init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--library":
                guard let dir = remaining.popFirst(), !dir.isEmpty else { throw AppOptionsError(message: "--library needs a folder") }
                library = .folder(Files.absolute(dir))
            case "--camera":
                guard let value = remaining.popFirst(), let source = CameraSource(option: value) else {
                    throw AppOptionsError(message: "--camera needs \"test\" or a device such as /dev/video0")
                }
                camera = source
                cameraWasGiven = true
            case "--pictures":
                library = .pictures
            case "--data-dir":
                guard let dir = remaining.popFirst(), !dir.isEmpty else { throw AppOptionsError(message: "--data-dir needs a folder") }
                dataDirectory = Files.absolute(dir)
            case "--review-tour":
                guard let dir = remaining.popFirst(), !dir.isEmpty else { throw AppOptionsError(message: "--review-tour needs a folder") }
                reviewTourDirectory = Files.absolute(dir)
            case "--measure-startup":
                measuresStartup = true
            case "--gapplication-service":
                runsAsService = true
            case "--help", "-h":
                showHelp = true
            default:
                guard !argument.hasPrefix("-") else { throw AppOptionsError(message: "unknown argument “\(argument)”") }
                files.append(argument.contains("://") ? argument : Files.absolute(argument))
            }
        }
    }

    /// Creates the defaults.
    public init() {}

    /// The photo folder to use, given the bundled resources folder.
    /// - Throws: ``AppOptionsError`` when `--pictures` is given but no Pictures folder is configured.
    public func libraryDirectory(resources: String) throws -> String {
        switch library {
        case .bundled: return Files.join(resources, "photos")
        case .folder(let dir): return dir
        case .pictures:
            guard let pictures = Files.picturesDirectory else {
                throw AppOptionsError(message: "no Pictures folder is configured (see xdg-user-dirs)")
            }
            return pictures
        }
    }

    /// The data directory to use: `--data-dir`, else a fresh `data` folder inside the review-tour
    /// folder, else `$XDG_DATA_HOME/postcard`.
    public var resolvedDataDirectory: String {
        if let dataDirectory { return dataDirectory }
        if let reviewTourDirectory { return Files.join(reviewTourDirectory, "data-\(DateText.nowMicroseconds)") }
        return Files.join(Files.userDataDirectory, "postcard")
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
    public static func resourcesDirectory() throws -> String {
        let candidates = self.candidates()
        if let found = candidates.first(where: { Files.isDirectory(Files.join($0, "photos")) && Files.isDirectory(Files.join($0, "guide")) }) {
            return found
        }
        throw AppOptionsError(message: "can't find the app's resources (photos/, guide/); looked in: "
            + candidates.joined(separator: ", ") + ". Set POSTCARD_RESOURCES to the Resources folder.")
    }

    static func candidates() -> [String] {
        var result: [String] = []
        if let override = Files.environment("POSTCARD_RESOURCES") { result.append(override) }
        if let exe = Files.executablePath {
            let prefix = Files.directoryName(Files.directoryName(exe))
            result.append(Files.join(prefix, "share", "postcard"))
        }
        // Sources/PostcardApp/App/AppOptions.swift → the checkout's Resources/.
        let sourceRoot = Files.directoryName(Files.directoryName(Files.directoryName(Files.directoryName(#filePath))))
        result.append(Files.join(sourceRoot, "Resources"))
        return result
    }
}
