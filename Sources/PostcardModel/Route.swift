import CGLib
import GLib

/// Every screen Postcard's main window can show, as a value: what its navigation path is made of
/// (``AppController/router``), what is saved at quit and rebuilt at the next launch, and what a
/// `postcard://` link names (``link``, ``init(link:)``).
///
/// | route | link | shown |
/// | --- | --- | --- |
/// | ``myProfile`` | `postcard://profile/me` | the root page |
/// | ``profile(_:)`` | `postcard://profile/ada` | a friend's profile, pushed (a ``FriendCode``'s link, with `?name=…&v=1`, names it too) |
/// | ``post(_:)`` | `postcard://post/12` | a post, above its profile when that is a friend's |
/// | ``comments(_:)`` | `postcard://post/12/comments` | a post's comments, above the post |
/// | ``messages`` | `postcard://messages` | Messages, pushed |
/// | ``message(_:)`` | `postcard://messages/5` | a message, beside Messages' list in a wide window, pushed over it in a narrow one |
/// | ``guide(section:)`` | `postcard://guide`, `postcard://guide/posting` | the guide, pushed |
/// | ``webPage(_:)`` | `postcard://web?uri=https%3A%2F%2Fexample.org` | a web page (`http`, `https`), pushed |
///
/// Encoded (`Codable`) as its link, so a saved path reads as a list of links.
public enum Route: Hashable, Codable, Sendable, CustomStringConvertible {
    /// My Profile, the root page.
    case myProfile
    /// A friend's profile, by the person's id (``Person/id``).
    case profile(String)
    /// A post, by its id in the store.
    case post(Int64)
    /// The comment thread of a post, by the post's id.
    case comments(Int64)
    /// The Messages page.
    case messages
    /// One private message, by its id: beside Messages' list when the window is wide, pushed over it when
    /// narrow (``MessagesSplitView``).
    case message(Int64)
    /// The Postcard Guide, at a section (an anchor such as "posting"), or at its top.
    case guide(section: String?)
    /// A web page: an `http` or `https` address.
    case webPage(String)

    /// The longest link, in bytes, that is read (as browsers cap URLs at about 2,000 characters, and
    /// nothing Postcard names needs more): longer ones are refused unread.
    public static let maximumLinkLength = 2000

    /// The link's scheme.
    public static let scheme = "postcard"

    /// The `postcard://` link that opens this route (ids and sections percent-escaped as RFC 3986 asks).
    public var link: String {
        switch self {
        case .myProfile: "postcard://profile/me"
        case .profile(let id): "postcard://profile/\(Self.escaped(id))"
        case .post(let id): "postcard://post/\(id)"
        case .comments(let id): "postcard://post/\(id)/comments"
        case .messages: "postcard://messages"
        case .message(let id): "postcard://messages/\(id)"
        case .guide(let section?): "postcard://guide/\(Self.escaped(section))"
        case .guide(nil): "postcard://guide"
        case .webPage(let uri): "postcard://web?uri=\(Self.escaped(uri))"
        }
    }

    /// The link, for logs.
    public var description: String { link }

    /// Reads a `postcard://` link (see the type's table). The scheme and the screen's name are
    /// case-insensitive; a trailing `/` is allowed.
    /// - Throws: ``RouteLinkError`` saying what is wrong (too long, not a valid address, percent escapes
    ///   that are not UTF-8, control characters written or escaped in it, another scheme, a screen
    ///   Postcard does not have).
    public init(link: String) throws {
        guard link.utf8.count <= Self.maximumLinkLength else { throw RouteLinkError.tooLong(bytes: link.utf8.count) }
        guard !link.containsControlCharacters else { throw RouteLinkError.controlCharacters }
        var error: UnsafeMutablePointer<GError>?
        // The path and query are kept encoded: each path segment is decoded on its own (an id may hold an
        // escaped `/`), and a web address in the query keeps its own `&` and `=`.
        let flags = GUriFlags(rawValue: G_URI_FLAGS_ENCODED_QUERY.rawValue | G_URI_FLAGS_ENCODED_PATH.rawValue)
        guard let uri = g_uri_parse(link, flags, &error) else {
            let encodedOK = g_uri_is_valid(link, GUriFlags(rawValue: G_URI_FLAGS_ENCODED.rawValue), nil) != 0
            g_clear_error(&error)
            throw encodedOK ? RouteLinkError.notUTF8 : RouteLinkError.malformed
        }
        defer { g_uri_unref(uri) }
        let scheme = String(cString: g_uri_get_scheme(uri)).lowercased()
        guard scheme == Self.scheme else { throw RouteLinkError.unknownScheme(scheme) }
        let host = g_uri_get_host(uri).map { String(cString: $0).lowercased() } ?? ""
        var path = String(cString: g_uri_get_path(uri))
        if path.hasSuffix("/") { path.removeLast() }
        let parts = try path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { segment in
            guard let bytes = g_uri_unescape_segment(String(segment), nil, nil) else { throw RouteLinkError.malformed }
            defer { g_free(bytes) }
            guard let text = String(validatingCString: bytes) else { throw RouteLinkError.notUTF8 }
            guard !text.containsControlCharacters else { throw RouteLinkError.controlCharacters }  // %1B, %07, %C2%9B…
            return text
        }
        let query = g_uri_get_query(uri).map { String(cString: $0) }
        // A query only where a screen reads one: a web page's address, a Postcard code's name and version.
        let isFriendCode = host == "profile" && (try? FriendCode(reading: link)) != nil
        guard g_uri_get_fragment(uri) == nil, query == nil || host == "web" || isFriendCode else { throw RouteLinkError.unknownScreen(link) }
        switch (host, parts) {
        case ("profile", ["me"]): self = .myProfile
        case ("profile", let parts) where parts.count == 1 && !parts[0].isEmpty: self = .profile(parts[0])
        case ("post", let parts) where parts.count == 1:
            guard let id = Self.id(parts[0]) else { throw RouteLinkError.unknownScreen(link) }
            self = .post(id)
        case ("post", let parts) where parts.count == 2 && parts[1].lowercased() == "comments":
            guard let id = Self.id(parts[0]) else { throw RouteLinkError.unknownScreen(link) }
            self = .comments(id)
        case ("messages", []): self = .messages
        case ("messages", let parts) where parts.count == 1:
            guard let id = Self.id(parts[0]) else { throw RouteLinkError.unknownScreen(link) }
            self = .message(id)
        case ("guide", []): self = .guide(section: nil)
        case ("guide", let parts) where parts.count == 1 && !parts[0].isEmpty: self = .guide(section: parts[0])
        case ("web", []):
            guard let address = Self.parameter("uri", in: query) else {
                // No `uri=`, or its escapes are not text.
                let decoded = query.flatMap { g_uri_unescape_string($0, nil) }
                defer { g_free(decoded) }
                if let query, query.contains("%"), decoded.map({ String(validatingCString: $0) == nil }) ?? true {
                    throw RouteLinkError.notUTF8
                }
                throw RouteLinkError.unknownScreen(link)
            }
            guard !address.containsControlCharacters else { throw RouteLinkError.controlCharacters }
            guard Self.isWebAddress(address) else { throw RouteLinkError.unknownScreen(link) }
            self = .webPage(address)
        default:
            throw RouteLinkError.unknownScreen(link)
        }
    }

    /// Whether `text` starts with the `postcard:` scheme (any case): a link to read with
    /// ``init(link:)`` rather than a file name.
    public static func isLink(_ text: String) -> Bool {
        text.utf8.count > scheme.utf8.count && text.prefix(scheme.count + 1).lowercased() == scheme + ":"
    }

    /// Whether `address` is an `http` or `https` address, the only web pages a link opens.
    public static func isWebAddress(_ address: String) -> Bool {
        guard let scheme = g_uri_peek_scheme(address).map({ String(cString: $0) }) else { return false }
        return (scheme == "http" || scheme == "https") && g_uri_is_valid(address, G_URI_FLAGS_NONE, nil) != 0
    }

    /// A positive decimal id without sign or leading zeros, as the store makes them.
    private static func id(_ text: String) -> Int64? {
        guard let first = text.first, first != "0", text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }

    private static func parameter(_ name: String, in query: String?) -> String? {
        guard let query, let table = g_uri_parse_params(query, -1, "&", G_URI_PARAMS_NONE, nil) else { return nil }
        defer { g_hash_table_unref(table) }
        return g_hash_table_lookup(table, name).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
    }

    /// `text` percent-escaped as a path segment or query value (RFC 3986, `g_uri_escape_string`).
    package static func escaped(_ text: String) -> String {
        let escaped = g_uri_escape_string(text, nil, 0)!
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    // MARK: Codable, as the link

    /// Decodes a route from its link.
    /// - Throws: `DecodingError.dataCorrupted` with the ``RouteLinkError`` when the link is not one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let link = try container.decode(String.self)
        do {
            try self.init(link: link)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }

    /// Encodes the route as its link.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(link)
    }
}

/// Why a `postcard://` link cannot be opened; the description is a sentence for the user.
public enum RouteLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Longer than ``Route/maximumLinkLength`` bytes.
    case tooLong(bytes: Int)
    /// Not a valid address at all.
    case malformed
    /// Its percent escapes (`%FF`) do not decode to UTF-8 text.
    case notUTF8
    /// Another scheme than `postcard:`.
    case unknownScheme(String)
    /// A `postcard:` link to no screen Postcard has (the link as given).
    case unknownScreen(String)
    /// It holds control characters (ESC, BEL, other C0 and C1 codes, line separators, direction
    /// overrides), written or percent-escaped: no Postcard link has them.
    case controlCharacters

    /// What is wrong, for the user.
    public var description: String {
        switch self {
        // Translators: a link given to the app is too long; %d is its length in bytes, %d the limit.
        case .tooLong(let bytes): localized("the link is %1$d bytes long; Postcard reads links of up to %2$d", bytes, Route.maximumLinkLength)
        case .malformed: localized("this is not a valid link")
        // Translators: a link's %-escapes (such as %FF) don't make readable text.
        case .notUTF8: localized("the link has percent escapes that are not text (UTF-8)")
        // Translators: %s is a link's scheme, such as "ftp".
        case .unknownScheme(let scheme): localized("Postcard opens postcard:// links, not %s: links", scheme.escapingControlCharacters)
        // Translators: %s is a link, such as postcard://pots/12.
        case .unknownScreen(let link): localized("Postcard has no screen at %s", link.escapingControlCharacters)
        case .controlCharacters: localized("the link holds control characters, which no Postcard link has")
        }
    }
}
