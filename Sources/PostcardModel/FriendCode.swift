import CGLib
import GLib

/// A Postcard code: the link that adds its maker as a friend on another Postcard, shown as a QR code on
/// My Code and read by Scan a Code or typed in Add Friend:
///
/// `postcard://profile/ID?name=NAME&v=1`
///
/// — the maker's profile link (``Route/profile(_:)``) with their name and the code's version. The id is
/// 1 to 64 letters, digits, `-`, `_` or `.` (a UUID); the name is percent-escaped UTF-8 text of 1 to
/// ``Identity/maximumNameLength`` characters, shown as text and never interpreted.
public struct FriendCode: Equatable, Sendable {
    /// The version this Postcard writes and reads.
    public static let version = 1
    /// The longest code read, in bytes (that of the longest link, ``Route/maximumLinkLength``): longer
    /// ones are refused unread.
    public static let maximumLength = Route.maximumLinkLength

    /// The maker's id (their ``Identity/id``).
    public let id: String
    /// The maker's name.
    public let name: String

    /// The code of `id` and `name` (as My Code shows it).
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The code for `identity`.
    public init(_ identity: Identity) { self.init(id: identity.id, name: identity.name) }

    /// The link the QR code holds.
    public var link: String { Route.profile(id).link + "?name=" + Route.escaped(name) + "&v=\(Self.version)" }

    /// Reads a code from `text` (scanned or typed; spaces around it are ignored).
    /// - Throws: ``FriendCodeError`` saying what is wrong: too long, control characters, not a Postcard
    ///   code, a version this Postcard does not know, or no valid id or name.
    public init(reading text: String) throws(FriendCodeError) {
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(bytes: text.utf8.count) }
        let text = text.trimmingWhitespace()
        guard !text.containsControlCharacters else { throw .controlCharacters }
        guard Route.isLink(text) else { throw .notAPostcardCode }
        var error: UnsafeMutablePointer<GError>?
        let flags = GUriFlags(rawValue: G_URI_FLAGS_ENCODED_QUERY.rawValue | G_URI_FLAGS_ENCODED_PATH.rawValue)
        guard let uri = g_uri_parse(text, flags, &error) else {
            g_clear_error(&error)
            throw .notAPostcardCode
        }
        defer { g_uri_unref(uri) }
        let host = g_uri_get_host(uri).map { String(cString: $0).lowercased() } ?? ""
        let path = String(cString: g_uri_get_path(uri))
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard host == "profile", segments.count == 1, g_uri_get_fragment(uri) == nil,
              let id = Self.unescaped(String(segments.first!)) else { throw .notAPostcardCode }
        guard let query = g_uri_get_query(uri).map({ String(cString: $0) }) else { throw .notAPostcardCode }
        guard let parameters = Self.parameters(query) else { throw .notAPostcardCode }
        guard let version = parameters["v"] else { throw .notAPostcardCode }
        guard version == String(Self.version) else { throw .unknownVersion(version) }
        guard Self.isValidID(id), id != Identity.localID else { throw .invalidID }
        guard let name = parameters["name"]?.trimmingWhitespace(), !name.isEmpty else { throw .noName }
        guard !name.containsControlCharacters else { throw .controlCharacters }
        guard name.count <= Identity.maximumNameLength else { throw .nameTooLong }
        self.init(id: id, name: name)
    }

    /// Whether `id` is 1 to 64 ASCII letters, digits, `-`, `_` or `.`.
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
    }

    private static func unescaped(_ text: String) -> String? {
        guard let bytes = g_uri_unescape_string(text, nil) else { return nil }
        defer { g_free(bytes) }
        return String(validatingCString: bytes)
    }

    /// The query's parameters, each value decoded; nil when an escape is broken or not UTF-8 text, or a
    /// parameter is given twice.
    private static func parameters(_ query: String) -> [String: String]? {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = unescaped(String(parts[0])), let value = unescaped(parts.count > 1 ? String(parts[1]) : ""),
                  result[key] == nil else { return nil }
            result[key] = value
        }
        return result
    }
}

/// Why text is not a Postcard code that adds a friend; the description is a sentence for the user.
public enum FriendCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Longer than ``FriendCode/maximumLength`` bytes.
    case tooLong(bytes: Int)
    /// It holds control characters (a newline, an escape…), in the link or in the name.
    case controlCharacters
    /// Not a `postcard://profile/…?name=…&v=…` link.
    case notAPostcardCode
    /// A code of a version this Postcard does not read (made by a newer one).
    case unknownVersion(String)
    /// Its id is not one a Postcard makes.
    case invalidID
    /// Its name is missing or empty.
    case noName
    /// Its name is longer than ``Identity/maximumNameLength`` characters.
    case nameTooLong

    /// The headline over ``description`` where a code was scanned: "This Is Not a Postcard Code" when it
    /// is none, else "This Code Can't Be Read" (a Postcard code, damaged or of another version).
    public var title: String {
        self == .notAPostcardCode ? localized("This Is Not a Postcard Code")
            // Translators: the headline when a scanned Postcard code is refused (too long, another version…).
            : localized("This Code Can't Be Read")
    }

    /// What is wrong, for the user.
    public var description: String {
        switch self {
        // Translators: %1$d is the code's length in bytes, %2$d the longest Postcard reads.
        case .tooLong(let bytes): localized("The code is %1$d bytes long; Postcard codes are at most %2$d.", bytes, FriendCode.maximumLength)
        case .controlCharacters: localized("The code holds control characters, which no Postcard code has.")
        case .notAPostcardCode: localized("This is not a Postcard code. Ask your friend to open My Code in their Postcard.")
        // Translators: %s is a version number, such as "2".
        case .unknownVersion(let version): localized("This code was made by a newer Postcard (version %s). Update Postcard to read it.", version)
        case .invalidID: localized("The code's id is not one a Postcard makes.")
        case .noName: localized("The code has no name in it.")
        // Translators: %d is the longest name, in characters.
        case .nameTooLong: localized("The name in the code is longer than %d characters.", Identity.maximumNameLength)
        }
    }
}
