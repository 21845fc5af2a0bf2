import CGtk
import Gtk
import Navigation

/// An application window whose header bar is the bar of one ``NavigationStack`` — the main window of
/// an app built on pages. Back shortcuts (Alt+Left, Back key, Escape, mouse button 8) are installed.
///
/// Main actor only.
@MainActor
public final class NavigationWindow {
    /// The window.
    public let window: Window
    /// The navigation stack shown in the window.
    public let stack: NavigationStack

    /// Creates the window with `root` as the first page. `width`/`height` are the default size in pixels.
    public init(application: Application? = nil, root: Page, width: Int32 = 720, height: Int32 = 800) {
        window = Window(application: application)
        stack = NavigationStack(root: root)
        window.title = root.title
        window.setDefaultSize(width: width, height: height)
        window.setTitlebar(stack.headerBar)
        window.setChild(stack.view)
        stack.installBackShortcuts(on: window)
    }

    /// Shows the window.
    public func present() { window.present() }
}

/// A modal dialog window with its own header bar and navigation stack: how a flow presents itself
/// modally (what libadwaita's `AdwDialog` with an `AdwNavigationView` inside gives GNOME apps).
///
/// The window is transient for and modal to its parent (the parent's shortcuts don't fire while it is
/// open), and has no window-control buttons: **Cancel** sits at the start of the bar (GNOME HIG: dialogs
/// put Cancel first and the affirmative action last), with Back beside it on pushed pages.
///
/// Every way the user can leave — Cancel, Escape on the first page, the window manager's close
/// button — calls the one ``onCancelRequest`` handler; the dialog never closes itself. Its owner ends it
/// with ``dismiss()``, which destroys the window and returns keyboard focus to the widget that had it
/// in the parent before the dialog opened.
///
/// Main actor only.
@MainActor
public final class ModalDialog {
    /// The dialog window.
    public let window = Window()
    /// The dialog's navigation stack.
    public let stack: NavigationStack
    /// The one Cancel button (start of the bar, on every page).
    public let cancelButton = Button(label: "Cancel")

    /// Called when the user asks to leave by any path (Cancel, Escape at the first page, window close).
    public var onCancelRequest: (@MainActor () -> Void)?

    private let parentFocus: Widget?
    /// Whether ``dismiss()`` ran or the window was destroyed; the dialog is finished either way.
    public private(set) var isDismissed = false

    /// Creates (does not show) a dialog over the window that shows `anchor` (none when `anchor` is not
    /// in a window), with `root` as its first page. `width`/`height` are the default size in pixels.
    public init(over anchor: Page?, root: Page, width: Int32 = 560, height: Int32 = 640) {
        stack = NavigationStack()
        let parent = anchor?.content.rootWindow
        parentFocus = parent.flatMap { gtk_window_get_focus($0) }.map { Widget(UnsafeMutableRawPointer($0), transfer: .none) }
        window.title = root.title
        window.isModal = true
        window.setTransient(for: parent)
        window.setDestroyWithParent(true)
        window.setDefaultSize(width: width, height: height)
        window.addCSSClass("postcard-dialog")
        stack.headerBar.showsTitleButtons = false
        // Cancel first, at the start; the stack's Back button follows it.
        stack.headerBar.remove(stack.backButton)
        stack.headerBar.packStart(cancelButton)
        stack.headerBar.packStart(stack.backButton)
        window.setTitlebar(stack.headerBar)
        window.setChild(stack.view)
        stack.installBackShortcuts(on: window)
        stack.replace(with: [root], animated: false)

        cancelButton.onClicked { [weak self] in self?.requestCancel() }
        stack.onEscapeAtRoot = { [weak self] in self?.requestCancel() }
        window.onCloseRequest { [weak self] in
            self?.requestCancel()
            return true  // the owner decides; dismiss() destroys the window
        }
        window.onDestroy { [weak self] in
            // Destroyed from outside (parent destroyed, app quit): treat as a cancel request once.
            guard let self, !self.isDismissed else { return }
            self.isDismissed = true
            self.onCancelRequest?()
        }
    }

    /// Shows the dialog and focuses its first page.
    public func present() {
        window.present()
        if let page = stack.visiblePage {
            if let initial = page.initialFocus { initial.grabFocus() } else { page.content.grabFocus() }
        }
    }

    /// Closes the dialog window now and returns focus to where it was in the parent. Idempotent.
    public func dismiss() {
        guard !isDismissed else { return }
        isDismissed = true
        stack.replace(with: [], animated: false)
        window.destroy()
        if let parentFocus, parentFocus.rootWindow != nil {
            parentFocus.grabFocus()
        }
    }

    private func requestCancel() {
        guard !isDismissed else { return }
        onCancelRequest?()
    }
}
