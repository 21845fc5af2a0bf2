import CGtk
import Gtk
import NavigationGtk

/// A notice at the bottom of a window, over its pages (as GTK's `app-notification` and libadwaita's
/// toasts): one line of text, read by screen readers as a label of the window.
@MainActor
public final class Notice {
    /// The notice's text.
    public let label = Label()
    /// The box drawn over the window's pages.
    public let view = Box(.horizontal, spacing: 12)
    private weak var window: NavigationWindow?
    private var hideTimer: UInt32 = 0

    init(in window: NavigationWindow) {
        self.window = window
        label.wraps = true
        label.xAlign = 0
        view.append(label)
        view.addCSSClass("app-notification")
        view.addCSSClass("notice")
        view.horizontalAlignment = .center
        view.verticalAlignment = .end
        view.setMargins(top: 0, bottom: 18, start: 12, end: 12)
        view.isVisible = false
        window.overlay.addOverlay(view)
    }

    /// Whether the notice is showing.
    public var isShown: Bool { view.isVisible }

    /// Shows `text`, hidden again after `seconds` (nil: until ``hide()``).
    func show(_ text: String, hidesAfter seconds: Double?) {
        label.text = text
        view.isVisible = true
        if hideTimer != 0 { g_source_remove(hideTimer); hideTimer = 0 }
        if let seconds {
            hideTimer = MainLoopBridge.repeating(milliseconds: UInt32(seconds * 1000)) { [weak self] in
                self?.hideTimer = 0
                self?.view.isVisible = false
                return false
            }
        }
    }

    /// Hides the notice.
    func hide() {
        if hideTimer != 0 { g_source_remove(hideTimer); hideTimer = 0 }
        view.isVisible = false
    }
}
