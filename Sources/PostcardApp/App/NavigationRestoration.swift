import CGtk
import Gtk
import Navigation
import NavigationGtk
import PostcardModel
import PostcardStore

/// The main window's back stack kept across launches: on quit, the main stack's path
/// (``AppController/router``, a list of ``Route``s, each as its `postcard://` link) is written to
/// `navigation.gvariant` in the data folder as a GVariant string array in GLib's text format
/// (`['postcard://profile/ada', 'postcard://post/12']`, `g_variant_print`, read back with
/// `g_variant_parse`); at the next launch the path is set again through the same router and
/// ``AppController/page(for:)`` every other way of opening a screen uses, up to the first route whose
/// subject is gone (a deleted post). Only the folder's primary Postcard (the first of those that have it
/// open, ``PostStore/isPrimary``) keeps and restores them: a second launch on the same folder neither
/// shows the first one's pages nor overwrites them.
extension AppController {
    /// Where the back stack is kept.
    var navigationFile: FilePath { store.directory.appending("navigation.gvariant") }

    /// Writes the main stack's path (called on quit), up to the first web page: a page from the web is
    /// not loaded again at the next launch (it may be slow, gone, or not wanted), the guide is. A failure
    /// is logged; nothing else depends on it.
    public func saveNavigation() {
        guard store.isPrimary else { return appLog.debug("Another Postcard on this folder keeps the open pages") }
        let path = router.path.prefix { if case .webPage = $0 { false } else { true } }
        do {
            try Files.writeText(Self.gvariantText(path.map(\.link)), to: navigationFile)
            Files.remove(store.directory.appending("navigation.json"))  // an earlier Postcard's form
        } catch {
            appLog.problem("Couldn't keep the open pages: \(error)")
        }
    }

    /// Shows again the pages that were open at the last quit, above My Profile, stopping before the
    /// first route whose subject is gone or whose link cannot be read. A file that cannot be read
    /// (missing, or not a list of links) restores nothing.
    public func restoreNavigation() {
        guard store.isPrimary else { return appLog.debug("Another Postcard on this folder has the open pages") }
        guard let text = Files.readText(navigationFile) else { return }
        guard let links = Self.links(fromGVariantText: text) else {
            appLog.debug("The open pages kept at the last quit could not be read; starting on My Profile")
            return
        }
        var path: [Route] = []
        for link in links {
            guard let route = try? Route(link: link), subjectExists(route) else { break }
            path.append(route)
        }
        guard !path.isEmpty else { return }
        let shown = router.setPath(path, animated: false)
        appLog.debug("Restored the open pages: \(shown.map(\.link).joined(separator: ", "))")
    }

    /// `links` as a GVariant string array (`as`) in GLib's text format.
    static func gvariantText(_ links: [String]) -> String {
        withNullTerminatedCStrings(links) { strings in
            let variant = g_variant_ref_sink(g_variant_new_strv(strings, gssize(links.count)))
            defer { g_variant_unref(variant) }
            let text = g_variant_print(variant, 0)!
            defer { g_free(text) }
            return String(cString: text)
        }
    }

    /// The strings of a GVariant string array in GLib's text format, or nil when `text` is not one.
    static func links(fromGVariantText text: String) -> [String]? {
        let type = g_variant_type_new("as")
        defer { g_variant_type_free(type) }
        guard let variant = g_variant_parse(type, text, nil, nil, nil) else { return nil }  // not floating: ours
        defer { g_variant_unref(variant) }
        var count: gsize = 0
        guard let strings = g_variant_get_strv(variant, &count) else { return [] }
        defer { g_free(strings) }  // the strings themselves belong to the variant
        return (0..<Int(count)).compactMap { strings[$0].map { String(cString: $0) } }
    }
}
