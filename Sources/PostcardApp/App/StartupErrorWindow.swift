import Adwaita
import Gtk
import NavigationGtk

/// What the user sees when Postcard cannot start — its data folder can't be used (a store written by a
/// newer Postcard, a damaged or unreadable database), or its resources are missing — however it was
/// started: a window saying what is wrong, where, and what to do, with **Close**. Started from the
/// launcher there is no terminal to read standard error in. Nothing is touched: the store stays as it is.
/// Main actor only.
@MainActor
final class StartupErrorWindow {
    /// The window (an application window: the app runs until it is closed).
    let window: Window
    /// The message.
    let status = StatusPage(iconName: "dialog-error-symbolic")

    /// A window for `application` saying `message`.
    init(application: Application, message: String) {
        window = Window(application: application)
        // Translators: the title of the window shown when Postcard can't start.
        window.title = localized("Postcard Can't Start")
        window.setDefaultSize(width: 520, height: 420)
        // Translators: the headline of the window shown when Postcard can't open its posts.
        status.set(title: localized("Can't Open Your Posts"), description: message)
        let close = Button(label: localized("Close"))
        close.onClicked { [window] in window.destroy() }
        status.addAction(close)
        window.setChild(status)
        window.present()
        _ = close.grabFocus()
    }
}
