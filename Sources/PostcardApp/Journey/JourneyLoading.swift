import GLib
import PostcardJourney
import PostcardModel

/// Reading a journal for `postcard --replay`, and how the app's flow outcomes are written in one.
extension Journey {
    /// Reads the journal at `path` for `--replay` and checks it against `options`: every step can be read
    /// and tried (``JourneyReplayer/check(_:library:)``), and the data folder given is empty or absent.
    /// - Throws: ``JourneyError`` naming the first bad line and step, or ``AppOptionsError`` for a file
    ///   that cannot be read or a data folder that holds something.
    public static func load(_ path: FilePath, options: AppOptions) throws -> Journey {
        guard let text = Files.readText(path) else {
            throw AppOptionsError(message: localized("can't read the journey %s", path.displayName))
        }
        let journey = try Journey(text: text)
        let library = try options.libraryDirectory(resources: try ResourceLocator.resourcesDirectory())
        try JourneyReplayer.check(journey, library: library)
        if let data = options.dataDirectory, Files.exists(data), !(Files.names(inDirectory: data) ?? [FilePath("?")]).isEmpty {
            throw AppOptionsError(message: localized("--replay replays into a new data folder: %s is not empty", data.displayName))
        }
        return journey
    }

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
