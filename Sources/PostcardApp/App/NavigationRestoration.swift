import Foundation
import Gtk
import Navigation
import NavigationGtk

/// The main window's back stack kept across launches: on quit, the main stack's path
/// (``AppController/router``, a list of ``Route``s, each encoded as its `postcard://` link) is written as
/// JSON to `navigation.json` in the data folder; at the next launch the path is set again through the
/// same router and ``AppController/page(for:)`` every other way of opening a screen uses, up to the first
/// route whose subject is gone (a deleted post).
extension AppController {
    /// Where the back stack is kept.
    var navigationFile: FilePath { store.directory.appending("navigation.json") }

    /// The saved form: `{"path": ["postcard://profile/ada", "postcard://post/12"]}`, read link by link
    /// (a link that cannot be read ends the path there, as a route whose subject is gone does).
    struct SavedNavigation: Codable {
        var path: [String]
    }

    /// Writes the main stack's path (called on quit), up to the first web page: a page from the web is
    /// not loaded again at the next launch (it may be slow, gone, or not wanted), the guide is. A failure
    /// is logged; nothing else depends on it.
    public func saveNavigation() {
        let path = router.path.prefix { if case .webPage = $0 { false } else { true } }
        do {
            let data = try JSONEncoder().encode(SavedNavigation(path: path.map(\.link)))
            try Files.writeText(String(decoding: data, as: UTF8.self), to: navigationFile)
        } catch {
            appLog.problem("Couldn't keep the open pages: \(error)")
        }
    }

    /// Shows again the pages that were open at the last quit, above My Profile, stopping before the
    /// first route whose subject is gone. A file that cannot be read (missing, or written by an older
    /// Postcard) restores nothing.
    public func restoreNavigation() {
        guard let text = Files.readText(navigationFile) else { return }
        guard let saved = try? JSONDecoder().decode(SavedNavigation.self, from: Data(text.utf8)) else {
            appLog.debug("The open pages kept at the last quit could not be read; starting on My Profile")
            return
        }
        var path: [Route] = []
        for link in saved.path {
            guard let route = try? Route(link: link), subjectExists(route) else { break }
            path.append(route)
        }
        guard !path.isEmpty else { return }
        let shown = router.setPath(path, animated: false)
        appLog.debug("Restored the open pages: \(shown.map(\.link).joined(separator: ", "))")
    }
}
