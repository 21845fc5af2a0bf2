import Foundation
import Gtk
import Navigation
import NavigationGtk

/// The main window's back stack kept across launches: on quit, the navigation model's value
/// (``NavigationStackState``, with each page's ``Page/route``) is written as JSON to `navigation.json` in
/// the data folder; at the next launch the pages are rebuilt from their routes, skipping any whose
/// subject is gone (a deleted post) and everything above it.
extension AppController {
    /// Where the back stack is kept.
    var navigationFile: FilePath { store.directory.appending("navigation.json") }

    /// Writes the main stack's state (called on quit). A failure is logged; nothing else depends on it.
    public func saveNavigation() {
        do {
            let data = try JSONEncoder().encode(mainWindow.stack.state)
            try Files.writeText(String(decoding: data, as: UTF8.self), to: navigationFile)
        } catch {
            Log.problem("Couldn't keep the open pages: \(error)")
        }
    }

    /// Pushes again the pages that were open at the last quit, above My Profile. Routes: `profile/ID`,
    /// `post/ID`, `thread/ID` (above its post), `messages`; others are skipped.
    public func restoreNavigation() {
        guard let text = Files.readText(navigationFile),
              let state = try? JSONDecoder().decode(NavigationStackState.self, from: Data(text.utf8)) else { return }
        var restored: [String] = []
        for route in state.routes.dropFirst() {  // the root is My Profile, always there
            guard let route, restore(route) else { break }  // a page that can't come back: stop there
            restored.append(route)
        }
        if !restored.isEmpty { Log.debug("Restored the open pages: \(restored.joined(separator: ", "))") }
    }

    private func restore(_ route: String) -> Bool {
        let parts = route.split(separator: "/", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count > 1 ? parts[1] : nil) {
        case ("profile", let id?):
            guard let person = Person.named(id), person != .me else { return false }
            showProfile(of: person)
        case ("post", let id?):
            guard let id = Int64(id), let post = try? store.post(id: id) else { return false }
            showPost(post)
        case ("thread", let id?):
            guard let detail = mainWindow.stack.visiblePage as? PhotoDetailPage, detail.route == "post/\(id)",
                  let id = Int64(id), let post = try? store.post(id: id) else { return false }
            showThread(of: post, from: detail)
        case ("messages", nil):
            showMessages()
        default:
            return false
        }
        return true
    }
}
