import CGtk
import Gtk
import Navigation
import NavigationGtk
import PostcardModel
import PostcardStore

/// The main window's navigation state kept across launches (``NavigationState``): on quit, the main
/// stack's path (``AppController/router``, a list of ``Route``s, each as its `postcard://` link) and what is
/// presented over it when a launch brings that back (My Code, ``Destination/isRestored``) are written to
/// `navigation.gvariant` in the data folder as a GVariant dictionary in GLib's text format
/// (`{'path': <['postcard://profile/ada', 'postcard://post/12']>, 'presented': <'my-code'>}`,
/// `g_variant_print`, read back with `g_variant_parse`; an earlier Postcard's plain string array of links
/// is read too). At the next launch the state is set again through the same router,
/// ``AppController/page(for:)`` and ``AppController/present(_:)`` every other way of opening a screen
/// uses, up to the first route whose subject is gone (a deleted post). A flow is never brought back this
/// way: its draft is (Resume on My Profile). A web page in the state (Postcard writes none, see
/// ``saveNavigation()``) is brought back waiting for the user: it shows its site and **Load**, and fetches
/// nothing until Load is pressed. Only the folder's primary Postcard (the first of those that
/// have it open, ``PostStore/isPrimary``) keeps and restores them: a second launch on the same folder
/// neither shows the first one's pages nor overwrites them.
extension AppController {
    /// Where the navigation state is kept.
    var navigationFile: FilePath { store.directory.appending("navigation.gvariant") }

    /// Writes the navigation state (called on quit): the path up to the first web page (a page from the
    /// web is not loaded again at the next launch: it may be slow, gone, or not wanted; the guide is), and
    /// My Code when it is presented. A failure is logged; nothing else depends on it.
    public func saveNavigation() {
        guard store.isPrimary else { return appLog.debug("Another Postcard on this folder keeps the open pages") }
        let path = router.path.prefix { if case .webPage = $0 { false } else { true } }
        let state = NavigationState(path: Array(path), presented: presented.flatMap { $0.isRestored ? $0 : nil })
        do {
            try Files.writeText(Self.gvariantText(state), to: navigationFile)
            Files.remove(store.directory.appending("navigation.json"))  // an earlier Postcard's form
        } catch {
            appLog.problem("Couldn't keep the open pages: \(error)")
        }
    }

    /// Shows again the pages that were open at the last quit, above My Profile, stopping before the
    /// first route whose subject is gone or whose link cannot be read (and after ``maximumPathDepth``
    /// pages), and presents My Code again if it
    /// was open (once the main window shows). A file that cannot be read (missing, or not a navigation
    /// state) restores nothing.
    public func restoreNavigation() {
        guard store.isPrimary else { return appLog.debug("Another Postcard on this folder has the open pages") }
        // A file larger than any state Postcard writes (64 links of at most 2,000 bytes) is not read.
        guard let text = try? Files.readRegularText(navigationFile, maximumBytes: Self.maximumStateBytes) else { return }
        guard let (links, presentedName) = Self.navigationState(fromGVariantText: text) else {
            appLog.debug("The open pages kept at the last quit could not be read; starting on My Profile")
            return
        }
        var path: [Route] = []
        for link in links.prefix(maximumPathDepth) {  // deeper than a person goes: never built
            guard let route = try? Route(link: link), subjectExists(route) else { break }
            path.append(route)
        }
        if !path.isEmpty {
            // A web page in the path (a file written by hand, or by another program: Postcard keeps none)
            // is made but not loaded: it waits for Load, as nobody asked to see it at this start.
            isRestoringNavigation = true
            let shown = router.setPath(path, animated: false)
            isRestoringNavigation = false
            appLog.debug("Restored the open pages: \(shown.map(\.link).joined(separator: ", "))")
        }
        guard let presentation = presentedName.flatMap(Destination.init(name:)), presentation.isRestored else { return }
        // A dialog is presented over a window that shows: at once, or as soon as the main window maps.
        if mainWindow.window.isMapped { present(presentation); return }
        let handler = RestoreHandler()
        handler.id = mainWindow.window.connect("map") { [weak self] _ in
            guard let self, handler.id != 0 else { return }
            self.mainWindow.window.disconnect(handler.id)
            handler.id = 0
            MainLoopBridge.afterLayout { [weak self] in self?.present(presentation) }
        }
    }

    /// The largest navigation state read, in bytes (256 KiB: the deepest path of the longest links).
    static let maximumStateBytes = 256 << 10

    /// `state` as a GVariant dictionary (`a{sv}`) in GLib's text format: `path`, an array of links, and
    /// `presented`, a presentation's name, when there is one.
    static func gvariantText(_ state: NavigationState) -> String {
        let links = state.path.isEmpty ? "@as []" : gvariantText(state.path.map(\.link))  // an empty array names its type
        var text = "{'path': <\(links)>"
        if let presented = state.presented {
            let variant = g_variant_ref_sink(g_variant_new_string(presented.description))
            defer { g_variant_unref(variant) }
            let printed = g_variant_print(variant, 0)!
            defer { g_free(printed) }
            text += ", 'presented': <\(String(cString: printed))>"
        }
        return text + "}"
    }

    /// The links and presented name of a navigation state in GLib's text format (``gvariantText(_:)``),
    /// or of an earlier Postcard's plain array of links; nil when `text` is neither.
    static func navigationState(fromGVariantText text: String) -> (links: [String], presented: String?)? {
        if let links = links(fromGVariantText: text) { return (links, nil) }
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        guard let dictionary = g_variant_parse(type, text, nil, nil, nil) else { return nil }
        defer { g_variant_unref(dictionary) }
        // Types made and freed here: g_variant_type_checked_ would return the pointer of a temporary C string.
        let arrayType = g_variant_type_new("as"), stringType = g_variant_type_new("s")
        defer { g_variant_type_free(arrayType); g_variant_type_free(stringType) }
        guard let pathValue = g_variant_lookup_value(dictionary, "path", arrayType) else { return nil }
        defer { g_variant_unref(pathValue) }
        var count: gsize = 0
        var links: [String] = []
        if let strings = g_variant_get_strv(pathValue, &count) {
            defer { g_free(strings) }
            links = (0..<Int(count)).compactMap { strings[$0].map { String(cString: $0) } }
        }
        var presented: String?
        if let value = g_variant_lookup_value(dictionary, "presented", stringType) {
            defer { g_variant_unref(value) }
            presented = String(cString: g_variant_get_string(value, nil))
        }
        return (links, presented)
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

/// A signal handler's id, for a handler that disconnects itself.
@MainActor
private final class RestoreHandler {
    var id: UInt = 0
}
