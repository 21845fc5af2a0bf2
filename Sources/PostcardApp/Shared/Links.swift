import CGtk
import Gtk

/// Finds web and mail addresses in text people typed, so comments, captions, replies and messages show
/// them as links: `http://` and `https://` URLs, `www.` addresses (opened as `https://`), `mailto:`
/// addresses and plain e-mail addresses (opened as `mailto:` with the address alone: a `?attach=`,
/// `body=` or `cc=` written after it is not handed to the mail program), and Postcard's own
/// `postcard://` links (which open a screen of the app, see ``Route``). A scheme written in any case
/// (`Http://`) is opened in lower case, so every link shown works. Other schemes (`javascript:`, `file:`,
/// `data:` …) are never made links, so they cannot be activated from a post.
enum Links {
    /// The pattern, compiled once by GLib's `GRegex` (PCRE2, UTF-8; case-insensitive for the schemes).
    /// A word character is spelled out as ICU's `\w` is (letters, combining marks, decimal digits,
    /// connector punctuation), since PCRE2's leaves out marks: a link or address starts where no word
    /// character precedes it, as at ICU's `\b`.
    private static let pattern = CompiledPattern(#"(?i)(?<![\p{L}\p{M}\p{Nd}\p{Pc}])(?:https?://|postcard://|mailto:|www\.)[^\s<>"]+|(?<![\p{L}\p{M}\p{Nd}\p{Pc}])[\p{L}\p{M}\p{Nd}\p{Pc}.+-]+@[\p{L}\p{M}\p{Nd}\p{Pc}-]+(?:\.[\p{L}\p{M}\p{Nd}\p{Pc}-]+)+"#)

    /// The links in `text`: each range of `text` and the URI it opens.
    static func find(in text: String) -> [(range: Range<String.Index>, uri: String)] {
        // Most texts have no link: a byte scan for what every link has (":" or "@" or "www.") settles that.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: ".") }) else { return [] }
        return pattern.matches(in: text).compactMap { match in
            var range = match
            // Punctuation that ends a sentence is not part of the address; a closing parenthesis is,
            // when the address opened one (Foo_(bar)).
            while range.lowerBound < range.upperBound, let last = text[range].last, ".,;:!?)]}'".contains(last) {
                let candidate = text[range]
                if last == ")", candidate.filter({ $0 == "(" }).count >= candidate.filter({ $0 == ")" }).count { break }
                range = range.lowerBound..<text.index(before: range.upperBound)
            }
            let address = String(text[range])
            guard address.count > 4 else { return nil }
            let lowered = address.lowercased()
            let uri: String
            if lowered.hasPrefix("www.") {
                uri = "https://" + address
            } else if lowered.hasPrefix("mailto:") {
                // The address alone: what follows `?` (attach=, body=, cc=) is not the writer's to ask for.
                let recipient = address.dropFirst("mailto:".count).prefix { $0 != "?" && $0 != "#" }
                guard recipient.contains("@"), !recipient.contains("/") else { return nil }
                uri = "mailto:" + recipient
            } else if !lowered.hasPrefix("http") && !lowered.hasPrefix("postcard:") {
                uri = "mailto:" + address  // a plain e-mail address
            } else {
                // The scheme in lower case (Http:// opens as http://); the rest as written.
                let colon = address.firstIndex(of: ":")!
                uri = address[..<colon].lowercased() + address[colon...]
            }
            return (range, uri)
        }
    }

    /// A `GRegex`, compiled once and then only matched against, which GLib allows from any thread.
    private final class CompiledPattern: @unchecked Sendable {  // immutable after init; GRegex matching is thread-safe
        private let regex: OpaquePointer

        init(_ pattern: String) {
            regex = g_regex_new(pattern, G_REGEX_OPTIMIZE, GRegexMatchFlags(rawValue: 0), nil)!  // a literal: it compiles
        }

        /// The ranges of `text` the pattern matches, left to right, not overlapping.
        func matches(in text: String) -> [Range<String.Index>] {
            text.withCString { bytes in
                var info: OpaquePointer?
                defer { g_match_info_free(info) }
                var ranges: [Range<String.Index>] = []
                guard g_regex_match(regex, bytes, GRegexMatchFlags(rawValue: 0), &info) != 0 else { return [] }
                let utf8 = text.utf8
                repeat {
                    var start: Int32 = 0, end: Int32 = 0
                    // Byte offsets into UTF-8, at code point boundaries (GRegex matches UTF-8 by code point).
                    if g_match_info_fetch_pos(info, 0, &start, &end) != 0, start < end {
                        ranges.append(utf8.index(utf8.startIndex, offsetBy: Int(start))..<utf8.index(utf8.startIndex, offsetBy: Int(end)))
                    }
                } while g_match_info_next(info, nil) != 0
                return ranges
            }
        }
    }
}

extension Label {
    /// Shows `text` with its web and mail addresses as links (see ``Links``).
    func showText(withLinks text: String) { setText(text, links: Links.find(in: text)) }
}

/// Passes links activated in labels of recycled rows (made before their page exists) to the page's
/// handler.
@MainActor
final class LinkRelay {
    /// Called with each activated link's URI.
    var onOpenLink: (@MainActor (String) -> Void)?

    /// Sends links activated in `label` to ``onOpenLink`` (GTK does not open them itself).
    func relay(_ label: Label) {
        label.onActivateLink { [weak self] uri in
            self?.onOpenLink?(uri)
            return true
        }
    }
}
