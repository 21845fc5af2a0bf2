import Adwaita
import Gtk
import NavigationGtk

/// What the user sees when Postcard cannot start — its data folder can't be used (a store written by a
/// newer Postcard, a damaged or unreadable database), or its resources are missing — however it was
/// started: a window saying what is wrong, where, and what to do, with **Close**. Started from the
/// launcher there is no terminal to read standard error in. Nothing is touched: the store stays as it is.
/// When trying again may work once the user has dealt with the cause (another program let go of the
/// database, the folder was made writable), **Try Again** beside Close starts over. Main actor only.
@MainActor
final class StartupErrorWindow {
    /// The window (an application window: the app runs until it is closed).
    let window: Window
    /// The message.
    let status = StatusPage(iconName: "dialog-error-symbolic")

    /// Try Again, when offered.
    private(set) var tryAgainButton: Button?

    /// A window for `application` saying `message`; with `tryAgain`, a **Try Again** button (the suggested
    /// action, first and focused) that calls it; with `openReadOnly`, an **Open Read-Only** button after it.
    init(application: Application, message: String, tryAgain: (@MainActor () -> Void)? = nil,
         openReadOnly: (@MainActor () -> Void)? = nil) {
        window = Window(application: application)
        // Translators: the title of the window shown when Postcard can't start.
        window.title = localized("Postcard Can't Start")
        window.setDefaultSize(width: 520, height: 420 + (tryAgain == nil ? 0 : 60) + (openReadOnly == nil ? 0 : 60))
        // Translators: the headline of the window shown when Postcard can't open its posts.
        status.set(title: localized("Can't Open Your Posts"), description: message)
        if let tryAgain {
            // Translators: a button of the window shown when Postcard can't start: tries to open the posts again.
            let button = Button(label: localized("Try Again"))
            button.addCSSClass("suggested-action")
            button.onClicked { tryAgain() }
            status.addAction(button)
            tryAgainButton = button
        }
        if let openReadOnly {
            // Translators: a button of the window shown when Postcard can't write its data folder: shows the posts without changing anything.
            let button = Button(label: localized("Open Read-Only"))
            button.onClicked { openReadOnly() }
            status.addAction(button)
        }
        let close = Button(label: localized("Close"))
        close.onClicked { [window] in window.destroy() }
        status.addAction(close)
        window.setChild(status)
        window.present()
        _ = (tryAgainButton ?? close).grabFocus()
    }
}
