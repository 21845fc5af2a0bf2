import CGtk
import Gtk
import Navigation

// MARK: - Back and Forward from keys, mouse buttons and the history menu

extension NavigationStack {
    /// Installs the back shortcuts on `window`: Alt+Left, the Back key (`XF86Back`), Escape (see
    /// ``popsOnEscape``), and mouse button 8; Forward on Alt+Right, the Forward key and mouse button 9.
    /// In a right-to-left layout (the stack's text direction) the arrows swap, as libadwaita's
    /// `AdwNavigationView` and GNOME Web do: Alt+Right goes back and Alt+Left forward, the way Back points
    /// there. Escape at the root calls ``onEscapeAtRoot``. Ignored while a modal dialog of the window is open.
    public func installBackShortcuts(on window: Window) {
        installBackShortcuts(on: window) { [weak window] in window?.hasModalChild ?? true }
    }

    /// Installs the back shortcuts on `target` (a window, or a dialog drawn inside one), ignored while
    /// `isBlocked()` (a modal dialog over it).
    package func installBackShortcuts(on target: Widget, isBlocked: @escaping @MainActor () -> Bool) {
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, modifiers in
            guard let self, !isBlocked() else { return false }
            let alt = modifiers.contains(.alt)
            // The arrow that points back: left in a left-to-right layout, right in a right-to-left one
            // (read when the key comes: the direction may change while the window is open).
            let rtl = self.view.isRightToLeft
            let backArrows = rtl ? [KeyValue.right, KeyValue.keypadRight] : [KeyValue.left, KeyValue.keypadLeft]
            let forwardArrows = rtl ? [KeyValue.left, KeyValue.keypadLeft] : [KeyValue.right, KeyValue.keypadRight]
            switch keyval {
            case _ where alt && backArrows.contains(keyval), KeyValue.back:
                self.goBack()
                return true
            case _ where alt && forwardArrows.contains(keyval), KeyValue.forward:
                self.goForward()
                return true
            case KeyValue.escape:
                if self.state.canGoBack {
                    guard self.popsOnEscape else { return false }
                    self.goBack()
                } else if let atRoot = self.onEscapeAtRoot {
                    atRoot()
                } else {
                    return false
                }
                return true
            default:
                return false
            }
        }
        target.addController(keys)
        // As AdwNavigationView: any button, in the capture phase (before the widget under the pointer),
        // acting on button 8 ("back").
        let mouseBack = ClickGesture(button: 0)
        mouseBack.propagationPhase = .capture
        mouseBack.onPressed { [weak self] button in
            guard !isBlocked() else { return }
            if button == Self.mouseBackButton { self?.goBack() }
            if button == Self.mouseForwardButton { self?.goForward() }
        }
        target.addController(mouseBack)
    }

    /// Opens the Back button's history menu: every page below the visible one, nearest first, by title;
    /// choosing one goes back to it (``goBack(to:)``). Does nothing when the user cannot go back.
    public func showHistoryMenu() {
        guard state.canUserGoBack, backButton.isMapped else { return }
        historyMenu.setItems(pages.dropLast().reversed().map { page in
            (label: page.title, handler: { @MainActor [weak self, weak page] in
                guard let self, let page else { return }
                self.goBack(to: page)
            })
        })
        historyMenu.popup()
    }

    func installHistoryMenu() {
        let rightClick = ClickGesture(button: 3)
        rightClick.onPressed { [weak self] _ in self?.showHistoryMenu() }
        backButton.addController(rightClick)
        let longPress = LongPressGesture()
        longPress.onPressed { [weak self] in self?.showHistoryMenu() }
        backButton.addController(longPress)
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, modifiers in
            guard keyval == KeyValue.menu || (keyval == KeyValue.f10 && modifiers.contains(.shift)) else { return false }
            self?.showHistoryMenu()
            return true
        }
        backButton.addController(keys)
        backButton.setAccessibleHasPopup(true)
    }
}
