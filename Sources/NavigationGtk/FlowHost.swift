import Gtk
import Navigation

/// Where a flow shows its pages — in a ``ModalDialog`` of its own, or pushed onto the navigation stack
/// of the page it starts from — so the flow's code is the same either way (one `Presentation`
/// argument decides).
///
/// - **Modal**: a dialog over the anchor page's window; Cancel (start of the bar, on every page),
///   Escape on the first page and closing the window request a cancel.
/// - **Pushed**: the pages are pushed onto the anchor's stack. On a window's stack the flow gets its
///   own **Cancel** at the start of its pages' bar (after Back); on a stack that already has one (a
///   dialog's), it uses none, and the dialog's owner cancels the flow. Going Back past the flow's first
///   page (Back button, Alt+Left, Escape, mouse back) requests a cancel. When the flow ends, the stack
///   pops back to exactly the anchor page.
///
/// Cancel requests arrive in ``onCancelRequest`` with whether the user asked (and may be asked "Discard?")
/// or the host went away (window destroyed, app quit: the flow must end now).
///
/// Main actor only.
@MainActor
public final class FlowHost {
    /// Why a cancel is requested.
    public enum CancelReason: Equatable, Sendable {
        /// The user asked to leave (Cancel, Escape, window close, Back past the first page).
        case user
        /// The dialog or window is gone (destroyed, app quit); the flow must end without asking.
        case hostGone
        /// Code (not the user) popped all of the flow's pages, e.g. `popToRoot()`; there is nothing left
        /// to keep editing, so the flow must end without asking.
        case pagesRemoved
    }

    /// How the flow is shown.
    public let presentation: Presentation
    /// The stack holding the flow's pages.
    public let stack: NavigationStack
    /// The modal dialog, when presented modally.
    public let dialog: ModalDialog?
    /// The flow's own Cancel button on its page shown now (or its last page) when pushed onto a stack
    /// that has none; nil otherwise. Each of the flow's pages has a Cancel of its own at the start of its
    /// part of the bar, kept there for the page's life (see `BarLayer`): all of them cancel the flow.
    public var ownCancelButton: Button? {
        let page = pages.last { $0 === stack.visiblePage } ?? pages.last
        return page.flatMap { ownCancelButtons[ObjectIdentifier($0)] }
    }
    private let makesOwnCancel: Bool
    private var ownCancelButtons: [ObjectIdentifier: Button] = [:]
    /// The page the flow started from.
    public private(set) weak var anchor: Page?

    private var observations: [ObservationToken] = []

    /// Called for each cancel request; the flow decides (ask, then ``end()``).
    public var onCancelRequest: (@MainActor (CancelReason) -> Void)?

    /// The flow's pages on the stack, first page first.
    public private(set) var pages: [Page] = []
    /// Whether ``end()`` ran.
    public private(set) var isEnded = false

    /// Starts showing a flow whose first page is `first`, from `anchor`, as `presentation` says.
    /// A pushed flow whose anchor is on no stack is presented modally instead (logged). Modally,
    /// `presentsFirstAlone` shows the first page with its own bar and **Close** (see
    /// ``ModalDialog/init(over:root:width:height:presentsRootAlone:)``); pushed, it has no effect.
    /// Pushed onto a window's stack, the flow gets its own **Cancel** unless `addsCancelButton` is false
    /// (a one-page flow, which Back leaves as it leaves any pushed page).
    public init(from anchor: Page, presentation: Presentation, first: Page, presentsFirstAlone: Bool = false,
                addsCancelButton: Bool = true) {
        self.anchor = anchor
        if presentation == .pushed, let anchorStack = anchor.navigationStack {
            self.presentation = .pushed
            stack = anchorStack
            dialog = nil
            makesOwnCancel = !anchorStack.providesCancel && addsCancelButton
            anchorStack.observePops { [weak self] removed, cause in self?.pagesPopped(removed, cause: cause) }.store(in: &observations)
            anchorStack.observeDestruction { [weak self] in self?.hostGone() }.store(in: &observations)
            push(first)
        } else {
            if presentation == .pushed {
                logMisuse("FlowHost: \(anchor.title) is on no navigation stack; presenting modally")
            }
            self.presentation = .modal
            let dialog = ModalDialog(over: anchor, root: first, presentsRootAlone: presentsFirstAlone)
            self.dialog = dialog
            stack = dialog.stack
            makesOwnCancel = false
            pages = [first]
            dialog.onCancelRequest = { [weak self, weak dialog] in
                self?.onCancelRequest?(dialog?.isDismissed ?? true ? .hostGone : .user)
            }
            dialog.stack.observePops { [weak self] removed, cause in self?.pagesPopped(removed, cause: cause) }.store(in: &observations)
            if let parent = anchor.view.rootWindow, (Object.wrapper(of: UnsafeMutableRawPointer(parent)) as? Window)?.isDestroyed ?? !Window.isListed(parent) {
                // Started from a page whose window is already gone (a click landing as the app quits):
                // there is nothing to show it over, so it ends at once.
                Task { [weak self] in self?.onCancelRequest?(.hostGone) }
                return
            }
            dialog.present()
        }
    }

    /// Pushes the flow's next page (with the flow's Cancel in its bar, when it has its own).
    public func push(_ page: Page) {
        guard !isEnded else { return }
        if makesOwnCancel {
            let cancel = Button(label: toolkitLocalized("Cancel"))
            cancel.addCSSClass("flow-cancel")
            cancel.onClicked { [weak self] in self?.onCancelRequest?(.user) }
            ownCancelButtons[ObjectIdentifier(page)] = cancel
            page.addStartBarItem(cancel)
        }
        pages.append(page)
        stack.push(page)
    }

    /// Ends the flow's presentation: dismisses the dialog, or pops the stack back to the anchor page.
    /// Idempotent.
    public func end() {
        guard !isEnded else { return }
        isEnded = true
        observations.forEach { $0.cancel() }
        observations = []
        if let dialog {
            dialog.dismiss()
        } else if let anchor, stack.pages.contains(where: { $0 === anchor }), !pages.isEmpty {
            stack.pop(to: anchor, cause: .flowEnded)
        }
        for page in pages {
            if let cancel = ownCancelButtons[ObjectIdentifier(page)] { page.removeBarItem(cancel) }
        }
        ownCancelButtons = [:]
        pages = []
    }

    /// Called with the flow's own pages when they leave the stack by a pop (Back within the flow, or
    /// past its first page), and what popped them (``NavigationStack/Cause/userBack`` for the user's
    /// Back), before a cancel is requested for the latter.
    public var onPagesPopped: (@MainActor ([Page], NavigationStack.Cause) -> Void)?

    private func pagesPopped(_ removed: [Page], cause: NavigationStack.Cause) {
        guard !isEnded else { return }
        let ours = removed.filter { page in pages.contains { $0 === page } }
        guard !ours.isEmpty else { return }
        stack.clearForward()  // a flow's page that left is not brought back by Forward: the flow owns its pages
        pages.removeAll { page in ours.contains { $0 === page } }
        // Their Cancel goes with their part of the bar once their slide has ended (not at once, mid-slide).
        for page in ours { ownCancelButtons[ObjectIdentifier(page)] = nil }
        onPagesPopped?(ours, cause)
        guard pages.isEmpty else { return }
        // Back past the first page is the user leaving (the first page's shouldLeave has let it go);
        // anything else that removed every page (pop-to-root, replace) leaves nothing to return to.
        onCancelRequest?(cause == .userBack ? .user : .pagesRemoved)
    }

    private func hostGone() {
        guard !isEnded else { return }
        onCancelRequest?(.hostGone)
    }
}


