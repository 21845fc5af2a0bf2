import CGLib
import GLib
import Navigation
import PostcardModel

/// A step of a ``Journey``: what the user did, in the app's terms.
public enum JourneyStep: Equatable, Sendable {
    /// The main window became `width` pixels wide.
    case window(width: Int)
    /// The main stack's path of routes (above My Profile) is now this.
    case path([Route])
    /// A flow started, as the user started it.
    case start(FlowKind)
    /// A photo was chosen in Choose a Photo: its file name relative to the library folder (an absolute
    /// path for a photo from elsewhere, such as Open File…).
    case choose(String)
    /// Take Photo: the camera opened in the flow.
    case takePhoto
    /// The camera's shutter: a photo was taken (replayed with the camera there is).
    case shutter
    /// Choose Instead: back from the camera to the photos.
    case chooseInstead
    /// Choose Recipient: a message goes to the friend with this id.
    case recipient(String)
    /// The comment (caption, message) now reads this.
    case comment(String)
    /// Post, Send, or Save.
    case post
    /// Back within a flow (to the page before in it).
    case back
    /// Cancel, Escape, or Back past a flow's first page.
    case cancel
    /// Discard, in Discard This Post?
    case discard
    /// Keep Editing, in Discard This Post?
    case keepEditing
    /// How the flow ended.
    case end(JourneyEnd)
    /// Delete (Remove Friend) was pressed on what the user made: it is gone, and a toast offers Undo.
    case delete(JourneyDeletion)
    /// Undo on that toast: what was deleted is back.
    case undo(JourneyDeletion)
    /// A dialog of the main window opened (``JourneyDialog``).
    case present(JourneyDialog)
    /// That dialog closed.
    case dismiss(JourneyDialog)
    /// A step of the review gallery's (`review NAME VALUE…`): a picture (`review snapshot SCREEN`) or
    /// what the gallery sets up that no input makes (a disk that refuses posts, a camera showing a
    /// picture). Only `postcard-review --journey` replays these; `postcard --replay` refuses them.
    case review(String, [String])

    /// The step's name, as the journal writes it.
    public var name: String { words[0] }

    /// The step's words: its name, then its values (text quoted).
    public var words: [String] {
        switch self {
        case .window(let width): ["window", "\(width)"]
        case .path(let routes): ["path"] + routes.map(\.link)
        case .start(let kind): ["start", kind.rawValue]
        case .choose(let name): ["choose", Journey.quoted(name)]
        case .takePhoto: ["take-photo"]
        case .shutter: ["shutter"]
        case .chooseInstead: ["choose-instead"]
        case .recipient(let id): ["recipient", Journey.quoted(id)]
        case .comment(let text): ["comment", Journey.quoted(text)]
        case .post: ["post"]
        case .back: ["back"]
        case .cancel: ["cancel"]
        case .discard: ["discard"]
        case .keepEditing: ["keep-editing"]
        case .end(let end): ["end"] + end.words
        case .delete(let item): ["delete"] + item.words
        case .undo(let item): ["undo"] + item.words
        case .present(let dialog): ["present"] + dialog.words
        case .dismiss(let dialog): ["dismiss"] + dialog.words
        case .review(let name, let values): ["review", name] + values.map(Journey.word)
        }
    }

    /// Reads step `name` with `values` (line `line`, for errors).
    /// - Throws: ``JourneyError`` for an unknown step or a value it does not take.
    init(name: String, values: [JourneyWords.Item], line: Int) throws {
        func bad() -> JourneyError { JourneyError(line: line, step: name, reason: .badValue) }
        func none(_ step: JourneyStep) throws -> JourneyStep {
            guard values.isEmpty else { throw bad() }
            return step
        }
        func one() throws -> JourneyWords.Item {
            guard values.count == 1 else { throw bad() }
            return values[0]
        }
        func text() throws -> String {
            guard case .quoted(let text) = try one() else { throw bad() }
            return text
        }
        func plain() throws -> String {
            guard case .plain(let word) = try one() else { throw bad() }
            return word
        }
        switch name {
        case "window":
            guard let width = Int(try plain()), width > 0, width < 100_000 else { throw bad() }
            self = .window(width: width)
        case "path":
            guard values.count <= maximumPathDepth else { throw bad() }  // deeper than a person goes: never built
            self = .path(try values.map { item in
                guard case .plain(let link) = item, let route = try? Route(link: link) else { throw bad() }
                return route
            })
        case "start":
            guard let kind = FlowKind(rawValue: try plain()) else { throw bad() }
            self = .start(kind)
        case "choose":
            let name = try text()
            guard !name.isEmpty else { throw bad() }
            self = .choose(name)
        case "take-photo": self = try none(.takePhoto)
        case "shutter": self = try none(.shutter)
        case "choose-instead": self = try none(.chooseInstead)
        case "recipient":
            let id = try text()
            guard !id.isEmpty else { throw bad() }
            self = .recipient(id)
        case "comment": self = .comment(try text())
        case "post": self = try none(.post)
        case "back": self = try none(.back)
        case "cancel": self = try none(.cancel)
        case "discard": self = try none(.discard)
        case "keep-editing": self = try none(.keepEditing)
        case "end":
            guard let end = JourneyEnd(values) else { throw bad() }
            self = .end(end)
        case "delete", "undo":
            guard let item = JourneyDeletion(values) else { throw bad() }
            self = name == "delete" ? .delete(item) : .undo(item)
        case "present", "dismiss":
            guard let dialog = JourneyDialog(values) else { throw bad() }
            self = name == "present" ? .present(dialog) : .dismiss(dialog)
        case "review":
            guard case .plain(let action)? = values.first, !action.isEmpty else { throw bad() }
            self = .review(action, values.dropFirst().map { item in
                switch item {
                case .plain(let word): word
                case .quoted(let text): text
                }
            })
        default:
            throw JourneyError(line: line, step: String(name.prefix(40)), reason: .unknownStep)
        }
    }
}

/// How a flow of a journey ended: what it stored (with the id the recording app gave it), or nothing.
public enum JourneyEnd: Equatable, Sendable {
    /// A post was stored on a profile.
    case post(Int64)
    /// A reply was stored in a comment thread.
    case reply(Int64)
    /// A message was sent.
    case message(Int64)
    /// A post's caption was saved.
    case caption(Int64)
    /// A friend was added (their id).
    case friend(String)
    /// The flow was canceled.
    case canceled

    /// Its words as the journal writes them (text quoted).
    public var words: [String] {
        switch self {
        case .post(let id): ["post", "\(id)"]
        case .reply(let id): ["reply", "\(id)"]
        case .message(let id): ["message", "\(id)"]
        case .caption(let id): ["caption", "\(id)"]
        case .friend(let id): ["friend", Journey.quoted(id)]
        case .canceled: ["canceled"]
        }
    }

    init?(_ values: [JourneyWords.Item]) {
        switch values.first {
        case .plain("canceled") where values.count == 1: self = .canceled
        case .plain("friend") where values.count == 2:
            guard case .quoted(let id) = values[1], !id.isEmpty else { return nil }
            self = .friend(id)
        case .plain(let kind) where values.count == 2:
            guard case .plain(let number) = values[1], let id = Int64(number), id > 0 else { return nil }
            switch kind {
            case "post": self = .post(id)
            case "reply": self = .reply(id)
            case "message": self = .message(id)
            case "caption": self = .caption(id)
            default: return nil
            }
        default: return nil
        }
    }
}

/// What a journey deletes (and may bring back with Undo), with the id the recording app gave it.
public enum JourneyDeletion: Equatable, Sendable {
    /// A post, from its page's Delete (`post N`).
    case post(Int64)
    /// A reply, from its row's Delete in Comments (`reply N`).
    case reply(Int64)
    /// A message, from its row's Delete in Messages or its page's (`message N`).
    case message(Int64)
    /// A friend, from Remove Friend on their profile, by their id (`friend "ID"`).
    case friend(String)

    /// How the journal writes it.
    public var words: [String] {
        switch self {
        case .post(let id): ["post", "\(id)"]
        case .reply(let id): ["reply", "\(id)"]
        case .message(let id): ["message", "\(id)"]
        case .friend(let id): ["friend", Journey.quoted(id)]
        }
    }

    /// Reads what is deleted from a step's values; nil when they name nothing.
    init?(_ values: [JourneyWords.Item]) {
        guard values.count == 2, case .plain(let kind)? = values.first else { return nil }
        if kind == "friend" {
            guard case .quoted(let id) = values[1], !id.isEmpty else { return nil }
            self = .friend(id)
            return
        }
        guard case .plain(let number) = values[1], let id = Int64(number), id > 0 else { return nil }
        switch kind {
        case "post": self = .post(id)
        case "reply": self = .reply(id)
        case "message": self = .message(id)
        default: return nil
        }
    }
}

/// A dialog a journey opens and closes over the main window.
public enum JourneyDialog: Equatable, Sendable {
    /// My Code, from the primary menu (`my-code`).
    case myCode
    /// Scan a Code, from the primary menu (`scan-a-code`).
    case scanner
    /// Keyboard Shortcuts, from the primary menu or Ctrl+? (`keyboard-shortcuts`).
    case keyboardShortcuts
    /// About Postcard, from the primary menu (`about`).
    case about
    /// A message opened from Messages, presented alone over it, with the id the recording app gave it
    /// (`message N`).
    case message(Int64)

    /// How the journal writes it: its name, then the message's id.
    public var words: [String] {
        switch self {
        case .myCode: ["my-code"]
        case .scanner: ["scan-a-code"]
        case .keyboardShortcuts: ["keyboard-shortcuts"]
        case .about: ["about"]
        case .message(let id): ["message", "\(id)"]
        }
    }

    /// Reads a dialog from a step's values; nil when they name none.
    init?(_ values: [JourneyWords.Item]) {
        switch values.first {
        case .plain("my-code") where values.count == 1: self = .myCode
        case .plain("scan-a-code") where values.count == 1: self = .scanner
        case .plain("keyboard-shortcuts") where values.count == 1: self = .keyboardShortcuts
        case .plain("about") where values.count == 1: self = .about
        case .plain("message") where values.count == 2:
            guard case .plain(let number) = values[1], let id = Int64(number), id > 0 else { return nil }
            self = .message(id)
        default: return nil
        }
    }
}

/// Why a journal cannot be read or replayed, naming its line and step (a message for the user).
public struct JourneyError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong with the step.
    public enum Reason: Equatable, Sendable {
        /// Not a step Postcard knows.
        case unknownStep
        /// The step's values are not what it takes.
        case badValue
        /// The time is not a number of seconds, goes back, or is later than ``Journey/maximumTime``.
        case badTime
        /// The last line has no newline: the recording was cut off.
        case cutOff
        /// A chosen photo is not in the library.
        case missingPhoto(String)
        /// The step could not be done in the app (what was not there), as it replayed.
        case notReplayable(String)
        /// The app did something else than the journal says (what it did).
        case differs(String)
        /// The journal is of a newer version of the format (this one) than this Postcard reads.
        case newerVersion(Int)
    }

    /// The line in the journal (1 for the first).
    public let line: Int
    /// The step's name as written ("" when none).
    public let step: String
    /// What is wrong.
    public let reason: Reason

    /// An error about `step` on `line`.
    public init(line: Int, step: String, reason: Reason) {
        self.line = line
        self.step = step
        self.reason = reason
    }

    /// "line 7, step “choose”: no photo “coffee.png” in the library".
    public var description: String {
        let why: String
        switch reason {
        case .unknownStep: why = localized("not a step Postcard knows")
        case .badValue: why = localized("its values are not what this step takes")
        // Translators: a journal line's time is bad; %d is the most seconds a journey may last (a week).
        case .badTime: why = localized("the time is not a number of seconds from the start, goes back, or is later than %d seconds", Int(Journey.maximumTime))
        case .cutOff: why = localized("the line was cut off (the recording ended in the middle of it)")
        case .missingPhoto(let name): why = localized("no photo “%s” in the library", name)
        case .notReplayable(let what): why = what
        case .differs(let what): why = localized("the replay differs: %s", what)
        case .newerVersion(let version):
            // Translators: a journal (a recorded journey) of a newer format; %1$d its version, %2$d the one this Postcard reads.
            return localized("this journal is of version %1$d, from a newer Postcard; this one reads version %2$d", version, Journey.version)
        }
        // Translators: where a journal (a recorded journey) stops: %1$d is its line, %2$s the step
        // ("choose", "post"), %3$s why.
        return localized("line %1$d, step “%2$s”: %3$s", line, step, why)
    }
}

/// The words of one journal line: plain words, and quoted text read with C's escapes
/// (`g_strcompress`).
struct JourneyWords {
    enum Item: Equatable, Sendable {
        case plain(String)
        case quoted(String)
    }

    let items: [Item]

    /// Splits `line` at spaces outside quotes.
    /// - Throws: ``JourneyError`` (a bad value) for a quote that does not end.
    init(_ line: String, line number: Int) throws {
        var items: [Item] = []
        var bytes = Array(line.utf8)[...]
        while let first = bytes.first {
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst(); continue }
            if first == UInt8(ascii: "\"") {
                bytes.removeFirst()
                var body: [UInt8] = []
                var closed = false
                while let byte = bytes.popFirst() {
                    if byte == UInt8(ascii: "\\"), let next = bytes.popFirst() {
                        body += [byte, next]
                    } else if byte == UInt8(ascii: "\"") {
                        closed = true
                        break
                    } else {
                        body.append(byte)
                    }
                }
                guard closed else {
                    let name = items.count > 1 ? { if case .plain(let n) = items[1] { n } else { "" } }() : ""
                    throw JourneyError(line: number, step: name, reason: .badValue)
                }
                body.append(0)
                let unescaped = body.withUnsafeBufferPointer { g_strcompress(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
                defer { g_free(unescaped) }
                items.append(.quoted(String(decoding: UnsafeRawBufferPointer(start: unescaped, count: strlen(unescaped!)), as: UTF8.self)))
            } else {
                var word: [UInt8] = []
                while let byte = bytes.first, byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t") {
                    word.append(byte)
                    bytes.removeFirst()
                }
                items.append(.plain(String(decoding: word, as: UTF8.self)))
            }
        }
        self.items = items
    }

    /// The plain word at `index`, or nil.
    func plain(at index: Int) -> String? {
        guard index < items.count, case .plain(let word) = items[index] else { return nil }
        return word
    }
}
