import GLib
import PostcardJourney
import PostcardModel

/// Reading a journal for `postcard --replay`, and how the app's flow outcomes are written in one.
extension Journey {
    /// Reads the journal at `path` for `--replay` and checks it against `options`: it is read as a
    /// regular file of at most ``maximumBytes`` (a FIFO, a device such as `/dev/zero` or a larger file is
    /// refused unread), every step can be read and tried (``JourneyReplayer/check(_:library:)``), and the
    /// data folder given is empty or absent. The launch that checks it and the instance that replays it
    /// (the same process) read the file once.
    /// - Throws: ``JourneyError`` naming the first bad line and step, or ``AppOptionsError`` for a file
    ///   that cannot be read (saying why) or a data folder that holds something.
    @MainActor
    public static func load(_ path: FilePath, options: AppOptions) throws -> Journey {
        let journey: Journey
        if let (read, text) = lastRead, read == path {
            journey = text
        } else {
            let text: String
            do {
                text = try Files.readRegularText(path, maximumBytes: maximumBytes)
            } catch {
                // Translators: %1$s is a journal's file name, %2$s why it can't be read.
                throw AppOptionsError(message: localized("can't read the journey %1$s: %2$s", path.displayName, error.message))
            }
            journey = try Journey(text: text)
            lastRead = (path, journey)
        }
        let library = try options.libraryDirectory(resources: try ResourceLocator.resourcesDirectory())
        try JourneyReplayer.check(journey, library: library)
        if let data = options.dataDirectory, Files.exists(data), !(Files.names(inDirectory: data) ?? [FilePath("?")]).isEmpty {
            throw AppOptionsError(message: localized("--replay replays into a new data folder: %s is not empty", data.displayName))
        }
        return journey
    }

    /// The journal read last, by its path.
    @MainActor private static var lastRead: (FilePath, Journey)?
}

extension JourneyEnd {
    /// How an app's ``FlowOutcome`` is written down.
    init(_ outcome: FlowOutcome) {
        switch outcome {
        case .post(.posted(let post)): self = .post(post.id)
        case .reply(.posted(let reply)): self = .reply(reply.id)
        case .message(.sent(let message)): self = .message(message.id)
        case .caption(.saved(let post)): self = .caption(post.id)
        case .friend(.added(let person)): self = .friend(person.id)
        default: self = .canceled
        }
    }
}
