import CGtk
import Glibc
import Gtk
import PostcardModel

/// A journey: what a user did in Postcard, in the app's own terms (routes, flows, what each page
/// reported), as `postcard --record FILE` writes it and `postcard --replay FILE` replays it.
///
/// The journal is a text file a person can read and edit, one step per line:
///
///     # Postcard journey 1
///     0.000 window 1280
///     1.250 path postcard://profile/ada
///     2.010 path
///     2.900 start new-post
///     4.120 choose "coffee.png"
///     6.480 comment "Morning \"coffee\"\n"
///     7.020 post
///     7.300 end post 12
///
/// Each line is the time in seconds since the recording began (three decimals), the step's name and its
/// values; text is in double quotes with C's escapes (`\"`, `\\`, `\n`, `\t`, `\ooo`; GLib's
/// `g_strescape`, UTF-8 kept as it is). Lines starting with `#` and empty lines are comments. The steps:
///
/// | step | what the user did |
/// | --- | --- |
/// | `window W` | the main window became W pixels wide (its default width, as `gtk_window_get_default_size` gives it) |
/// | `path LINK…` | the main stack's path of routes changed to these `postcard://` links (none: My Profile) |
/// | `start KIND` | started a flow (``FlowKind``'s raw value: `new-post`, `reply-with-photo`, …) |
/// | `choose "NAME"` | chose a photo, by its file name relative to the library |
/// | `take-photo` / `shutter` / `choose-instead` | opened the camera, took the picture, went back to the photos |
/// | `recipient ID` | chose whom a message goes to |
/// | `comment "TEXT"` | the comment now reads TEXT |
/// | `post` | Post (Send, Save) |
/// | `back` / `cancel` | Back within a flow, Cancel (or Escape) |
/// | `discard` / `keep-editing` | the answer to Discard This Post? |
/// | `end post N` / `reply N` / `message N` / `caption N` / `friend ID` / `canceled` | how the flow ended |
/// | `delete WHAT` / `undo WHAT` | deleted a post, reply or message or removed a friend (`post N`, `reply N`, `message N`, `friend "ID"`), and pressed Undo on the toast that followed |
/// | `present NAME` / `dismiss NAME` | a dialog opened and closed: My Code (`my-code`), Scan a Code (`scan-a-code`), Keyboard Shortcuts (`keyboard-shortcuts`), About (`about`), a message opened from Messages (`message N`) |
/// | `review NAME VALUE…` | the review gallery's own steps (a picture, a set-up); see ``JourneyStep/review(_:_:)`` |
///
/// Each line is written whole with its newline as it happens, so a crash keeps every step before it; a
/// last line without a newline was cut off and is refused (``JourneyError``).
public struct Journey: Equatable, Sendable {
    /// One line of the journal: when, and what.
    public struct Entry: Equatable, Sendable {
        /// Seconds since the recording began (≥ 0).
        public var time: Double
        /// What happened.
        public var step: JourneyStep
        /// The line's number in the file (1 for the first), or 0 for an entry not read from a file.
        public var line: Int

        /// An entry at `time` seconds.
        public init(time: Double, step: JourneyStep, line: Int = 0) {
            self.time = time
            self.step = step
            self.line = line
        }
    }

    /// The journal's first line: its format and version.
    public static let header = "# Postcard journey 1"

    /// The steps, in the order they happened.
    public var entries: [Entry]

    /// A journey of `entries`.
    public init(entries: [Entry] = []) { self.entries = entries }

    /// Reads a whole journal.
    /// - Throws: ``JourneyError`` for the first line that is not a step (unknown step, bad value, a
    ///   time that is not a number or goes back) or a last line without its newline (cut off).
    public init(text: String) throws {
        entries = []
        // Split by bytes: "\r\n" is one Character, which a split at "\n" would not see.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { bytes in
            String(decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes, as: UTF8.self)
        }
        let endsWithNewline = text.isEmpty || text.utf8.last == UInt8(ascii: "\n")
        if endsWithNewline { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let trimmed = line.trimmingWhitespace()
            if !endsWithNewline && index == lines.count - 1 {
                throw JourneyError(line: number, step: Self.stepName(of: trimmed), reason: .cutOff)
            }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let words = try JourneyWords(trimmed, line: number)
            guard let timeWord = words.plain(at: 0), let time = Double(timeWord), time.isFinite, time >= 0 else {
                throw JourneyError(line: number, step: Self.stepName(of: trimmed), reason: .badTime)
            }
            if let last = entries.last, time < last.time {
                throw JourneyError(line: number, step: Self.stepName(of: trimmed), reason: .badTime)
            }
            guard let name = words.plain(at: 1) else {
                throw JourneyError(line: number, step: "", reason: .unknownStep)
            }
            let step = try JourneyStep(name: name, values: Array(words.items.dropFirst(2)), line: number)
            entries.append(Entry(time: time, step: step, line: number))
        }
    }

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

    /// The journal's text: the header, then one line per entry, each ending with a newline.
    public var text: String {
        ([Self.header] + entries.map { Self.line(for: $0) }).map { $0 + "\n" }.joined()
    }

    /// One entry's line, without its newline.
    public static func line(for entry: Entry) -> String {
        let milliseconds = Int64((max(0, entry.time) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        let time = "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        return ([time] + entry.step.words).joined(separator: " ")
    }

    /// The step's name at the start of a line after its time, for messages about a line that could not
    /// be read ("" when there is none).
    private static func stepName(of line: String) -> String {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        return words.count > 1 ? String(words[1].prefix(40)) : ""
    }

    /// `text` as one word of a line: as it is when it is a plain word (letters, digits, `-_./:=%?&+,@`),
    /// else quoted.
    static func word(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "-_./:=%?&+,@".unicodeScalars.contains(scalar))
        }
        return plain ? text : quoted(text)
    }

    /// `text` in double quotes with C's escapes (GLib's `g_strescape`; bytes from 0x80 up, UTF-8, kept).
    static func quoted(_ text: String) -> String {
        let bytes = (0x80...0xFF).map { CChar(bitPattern: UInt8($0)) } + [0]
        let escaped = bytes.withUnsafeBufferPointer { exceptions in text.withCString { g_strescape($0, exceptions.baseAddress) } }
        defer { g_free(escaped) }
        return "\"" + String(cString: escaped!) + "\""
    }
}

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
    var words: [String] {
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

    var words: [String] {
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
    var words: [String] {
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
    var words: [String] {
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
        /// The time is not a number of seconds, or goes back.
        case badTime
        /// The last line has no newline: the recording was cut off.
        case cutOff
        /// A chosen photo is not in the library.
        case missingPhoto(String)
        /// The step could not be done in the app (what was not there), as it replayed.
        case notReplayable(String)
        /// The app did something else than the journal says (what it did).
        case differs(String)
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
        case .badTime: why = localized("the time is not a number of seconds from the start, or goes back")
        case .cutOff: why = localized("the line was cut off (the recording ended in the middle of it)")
        case .missingPhoto(let name): why = localized("no photo “%s” in the library", name)
        case .notReplayable(let what): why = what
        case .differs(let what): why = localized("the replay differs: %s", what)
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
