import Foundation
import Gtk

/// Finds web and mail addresses in text people typed, so comments, captions, replies and messages show
/// them as links: `http://` and `https://` URLs, `www.` addresses (opened as `https://`), `mailto:`
/// addresses and plain e-mail addresses (opened as `mailto:`), and Postcard's own `postcard://` links (which
/// open a screen of the app, see ``Route``). Other schemes (`javascript:`, `file:`, `data:` …) are never made links, so they cannot be
/// activated from a post.
enum Links {
    private static let pattern = try! NSRegularExpression(
        pattern: #"(?i)\b(?:https?://|postcard://|mailto:|www\.)[^\s<>"]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+"#)

    /// The links in `text`: each range of `text` and the URI it opens.
    static func find(in text: String) -> [(range: Range<String.Index>, uri: String)] {
        let whole = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: whole).compactMap { match in
            guard var range = Range(match.range, in: text) else { return nil }
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
            } else if !lowered.hasPrefix("http") && !lowered.hasPrefix("mailto:") && !lowered.hasPrefix("postcard:") {
                uri = "mailto:" + address  // a plain e-mail address
            } else {
                uri = address
            }
            return (range, uri)
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
