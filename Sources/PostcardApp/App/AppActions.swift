import Adwaita
import CGtk
import Glibc
import Gtk
import NavigationGtk
import PhotoPosting
import PostcardModel

/// The app's actions and their keyboard shortcuts, as GNOME apps have them: application actions
/// (`GAction`, exported on D-Bus by GApplication, so `gapplication action io.github.postcard.Postcard
/// new-post` works), the **Keyboard Shortcuts** window and **About Postcard**.
extension AppController {
    /// Every shortcut, grouped as the Keyboard Shortcuts window lists them: (group, [(keys, what)]).
    /// Keys use GTK's accelerator syntax.
    /// Titles are in the user's language (made each time the window is shown).
    static var shortcuts: [(group: String, items: [(keys: String, title: String)])] {
        [
            // Translators: a group of shortcuts in the Keyboard Shortcuts window.
            (localized("General"), [
                ("<Control>n", localized("New post")),
                ("F1", localized("Open the guide")),
                ("F10", localized("Open the main menu")),
                ("<Control>question", localized("Keyboard shortcuts")),
                ("<Control>w", localized("Close the window or dialog")),
                ("<Control>q", localized("Quit")),
                // Translators: in the Keyboard Shortcuts window: Ctrl+Z brings back what was just deleted.
                ("<Control>z", localized("Undo a deletion (while it is offered)")),
                // Translators: in the Keyboard Shortcuts window: F6 moves to the button of the notification
                // at the bottom of the window (Undo, View), and back.
                ("F6", localized("Go to the notification's button (Undo, View) and back")),
            ]),
            // Translators: a group of shortcuts in the Keyboard Shortcuts window (going back, leaving dialogs).
            (localized("Moving Around"), [
                // Back's arrow points the way the layout reads: right in a right-to-left language.
                (Localization.isRightToLeft ? "<Alt>Right" : "<Alt>Left", localized("Go back")),
                (Localization.isRightToLeft ? "<Alt>Left" : "<Alt>Right", localized("Go forward again (to the page just left)")),
                ("Escape", localized("Go back, or leave a dialog")),
                // Translators: in the Keyboard Shortcuts window: Shift+F10 on the Back button lists the pages behind it.
                ("<Shift>F10", localized("List the pages behind Back (on Back)")),
            ]),
            // Translators: a group of shortcuts in the Keyboard Shortcuts window: those used while posting a
            // photo with a comment.
            (localized("Posting"), [
                ("<Control>Return", localized("Post the comment")),
                ("<Control>v", localized("Choose the copied image")),
                ("space", localized("Take a photo (on the camera)")),
            ]),
        ]
    }

    /// The application actions: `app.new-post` (Ctrl+N), `app.help` (the guide; F1 is the windows'), `app.shortcuts` (Ctrl+?),
    /// `app.about`, `app.close-window` (Ctrl+W: the focused window or dialog, as its close button) and
    /// `app.quit` (Ctrl+Q: every window closes, so every running flow ends as canceled; what was posted
    /// is stored already).
    func installActions(on application: Application) {
        application.addAction("new-post", accelerators: ["<Control>n"]) { [weak self] in self?.presentWhenPossible(.flow(.newPost)) }
        // F1 is bound by each window, not as an accelerator of this action: GTK handles an application's
        // accelerators in every one of its windows before any widget, so F1 in a flow's window pushed the
        // guide on the main window behind the flow instead of the flow's own help. The main window's key
        // handler (AppController) and a flow's (CommentedPhotoFlow) bind it once each, for what they show.
        application.addAction("help") { [weak self] in self?.showGuide() }
        application.addAction("shortcuts", accelerators: ["<Control>question"]) { [weak self] in self?.presentWhenPossible(.keyboardShortcuts) }
        application.addAction("about") { [weak self] in self?.presentWhenPossible(.about) }
        application.addAction("close-window", accelerators: ["<Control>w"]) {
            if let window = gtk_application_get_active_window(application.pointer(as: GtkApplication.self)) {
                gtk_window_close(window)
            }
        }
        application.addAction("quit", accelerators: ["<Control>q"]) { application.quit() }
    }

    /// New Post on My Profile (Ctrl+N), as the button does: back to My Profile first when another page
    /// shows; nothing while a flow runs.
    public func startNewPost() {
        guard returnToMyProfileForNewPost() else { return }
        posting.startPost(on: myProfile)  // what the button runs, not a press of it
    }

    /// Whether New Post may start now (no flow or dialog open); pops back to My Profile when it may.
    private func returnToMyProfileForNewPost() -> Bool {
        guard presented == nil else { return false }
        if mainWindow.stack.visiblePage !== myProfile { router.setPath([]) }
        return true
    }

    /// New Post on My Profile with the photo at `uri` already chosen, on Add a Comment: a photo opened
    /// from the command line (`postcard photo.jpg`) or a file manager. Nothing while a flow runs.
    public func startNewPost(with uri: String) {
        appLog.debug("New Post with the photo \(uri)")
        guard returnToMyProfileForNewPost() else { return }
        posting.startPost(on: myProfile, start: .addComment(Photo(uri: uri)))
    }

    /// The Keyboard Shortcuts window (`GtkShortcutsWindow`), transient for the main window.
    @discardableResult
    public func showShortcuts() -> Gtk.Window? {
        let groups = Self.shortcuts.map { group in
            let items = group.items.map { item in
                """
                <child><object class="GtkShortcutsShortcut">\
                <property name="accelerator">\(markupEscaped(item.keys))</property>\
                <property name="title">\(markupEscaped(item.title))</property></object></child>
                """
            }.joined()
            return """
                <child><object class="GtkShortcutsGroup"><property name="title">\(markupEscaped(group.group))</property>\
                \(items)</object></child>
                """
        }.joined()
        let xml = """
            <interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>\
            <child><object class="GtkShortcutsSection"><property name="section-name">shortcuts</property>\
            <property name="max-height">12</property>\(groups)</object></child></object></interface>
            """
        let builder = gtk_builder_new_from_string(xml, -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        let window = Gtk.Window(wrapping: UnsafeMutableRawPointer(object))
        gtk_window_set_transient_for(window.pointer(), mainWindow.window.pointer())
        window.title = localized("Keyboard Shortcuts")
        window.present()
        window.repairScreenReaderNames()  // GTK 4.8 names its search button and icons by type
        shortcutsWindow = window
        track(window, as: .keyboardShortcuts)  // a link waiting for it opens when it goes
        return window
    }

    /// **About Postcard** (libadwaita's `AdwAboutWindow`): version, licence note, and credits for the
    /// sample photos.
    @discardableResult
    public func showAbout() -> Gtk.Window {
        // Translators: the credits of the sample photos: "what it shows (file name): who made it, licence".
        // Keep the names of people and organisations, the file names and "CC0" as they are.
        let credits: [String] = [
            localized("Eileen Collins (astronaut.png): NASA, public domain"),
            localized("Chelsea the cat (chelsea.png): Stefan van der Walt, CC0"),
            localized("Coffee (coffee.png): Rachel Michetti, CC0"),
            localized("Falcon 9 (rocket.jpg): SpaceX, public domain"),
            localized("Hubble deep field (hubble_deep_field.jpg): NASA, public domain"),
            localized("Retina (retina.jpg): Mikael Häggström, CC0"),
            localized("Grass and brick (grass.png, brick.png): CC0Textures, CC0"),
        ]
        let window = AboutWindow.make(
            name: "Postcard", iconName: "camera-photo-symbolic", version: Self.version,
            // Translators: who makes Postcard, on its About window.
            developer: localized("The Postcard developers"),
            comments: localized("Post your photos with a comment, to your profile, to a friend's, as a reply or as a message."),
            // No licence has been chosen for Postcard itself yet: say so rather than claim one.
            license: localized("Postcard's own licence has not been chosen yet. The sample photos are public domain or CC0 (see Resources/photos/SOURCES.md)."),
            // Translators: the heading of the About window's credits for the sample photos.
            credits: [AboutWindow.CreditSection(heading: localized("Sample photos"), lines: credits)],
            over: mainWindow.window)
        window.present()
        window.repairScreenReaderNames()  // GTK 4.8 names some of its parts by type
        window.sayFocusOnceActive()  // libadwaita focuses nothing in it: Orca 43 said nothing of it
        aboutWindow = window
        track(window, as: .about)
        return window
    }

    /// The version About shows.
    public static let version = "0.5"

}
