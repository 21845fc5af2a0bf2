import CGLib
import GLib
import Navigation
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

    /// The version of the journal's format this Postcard writes and reads (a newer one is refused).
    public static let version = 1

    /// The journal's first line: its format and version.
    public static let header = "# Postcard journey \(version)"

    /// The largest journal read, in bytes (8 MiB: about 150,000 steps); a larger file is refused unread.
    public static let maximumBytes = 8 << 20

    /// The latest time a step may have, in seconds from the start: a week (a replay waits that long at
    /// most before a step).
    public static let maximumTime: Double = 7 * 24 * 3600

    /// The steps, in the order they happened.
    public var entries: [Entry]

    /// A journey of `entries`.
    public init(entries: [Entry] = []) { self.entries = entries }

    /// Reads a whole journal.
    /// - Throws: ``JourneyError`` for the first line that is not a step (unknown step, bad value, a
    ///   time that is not a number, goes back or is later than ``maximumTime``), a last line without its
    ///   newline (cut off), or a header naming a newer version of the format than ``version``.
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
            if index == 0, let version = Self.version(inHeader: trimmed), version > Self.version {
                throw JourneyError(line: number, step: "", reason: .newerVersion(version))
            }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let words = try JourneyWords(trimmed, line: number)
            guard let timeWord = words.plain(at: 0), let time = Double(timeWord), time.isFinite, time >= 0, time <= Self.maximumTime else {
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

    /// The version a header line names (`# Postcard journey N`), or nil when the line is not one.
    private static func version(inHeader line: String) -> Int? {
        let prefix = "# Postcard journey "
        guard line.hasPrefix(prefix) else { return nil }
        return Int(line.dropFirst(prefix.count).prefix { $0.isNumber }) ?? 0
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

