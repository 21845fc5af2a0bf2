import Adwaita
import Gtk
import NavigationGtk

/// **Scan a Code**: the camera's live picture, read for QR codes (and the bar codes ZBar knows) by
/// GStreamer's `zbar` element on a branch of the camera's pipeline (see ``Camera``); the page owns no
/// GStreamer, its ``CameraPreview`` does.
///
/// The page reports "code read" through ``onCodeRead`` **once**: however many frames show the code, and
/// never after the page has been left (a callback that kept firing after Back pushed pages twice, in
/// BarcodeScanner's issue 181). What the code does is decided by whoever showed the page. Until then it
/// shows the code as read, with **Copy** and **Scan Again**; the owner may say what the code is
/// (``showResult(title:text:)``) or why it is refused (``refuse(title:detail:)``). **Scan Again** looks
/// for the next code.
///
/// States, each saying what to do: looking (hold the code in the frame), the camera's problems (none,
/// busy, not permitted, unplugged: see ``CameraProblem``), a code read, a code refused.
///
/// The same page is presented alone (its own bar, title and Close) or pushed as a step of a flow (under
/// that flow's bar, with Back); it does not know which. Main actor only.
@MainActor
public final class ScanCodePage: Page {
    /// What the page shows.
    public enum State: Equatable, Sendable {
        /// Finding the cameras, or waiting for the first frame.
        case starting
        /// The live picture, looking for a code.
        case looking
        /// The camera stopped or never started (the problem's kind).
        case problem(CameraProblem.Kind)
        /// A code was read and reported.
        case read(ScannedCode)
        /// A code was read and refused by the page's owner.
        case refused(ScannedCode)
    }

    /// Called once with the code read (see the type's docs).
    public var onCodeRead: (@MainActor (ScannedCode) -> Void)?
    /// Called when the user presses **Copy** with the code's text (after it is on the clipboard).
    public var onCopied: (@MainActor (String) -> Void)?

    /// The camera's picture and its problems.
    public private(set) var cameraPreview: CameraPreview!
    /// What the page shows now.
    public private(set) var state: State = .starting
    /// The hint under the picture while looking.
    public let hintLabel = Label()
    /// The result's headline ("Code Read", or why it was refused).
    public let resultTitle = Label()
    /// The result's text: the code's text, or the owner's words (selectable, never markup).
    public let resultText = Label()
    /// **Copy** (the code's text to the clipboard), while a code read is shown.
    public let copyButton = Button(label: localized("Copy"))
    /// **Scan Again**, while a code read or refused is shown.
    public let scanAgainButton = Button(label: localized("Scan Again"))
    /// The owner's action on what was read (**Open** for a web address), while a result offering one
    /// shows (``showResult(title:text:actionLabel:action:)``); hidden otherwise.
    public let actionButton = Button(label: "")
    private var action: (@MainActor () -> Void)?

    private let result = Box(.vertical, spacing: 6)
    private var code: ScannedCode?

    /// Creates the page for the cameras `settings` names (nothing starts until it is shown). `title`
    /// defaults to "Scan a Code".
    public init(settings: CameraSettings, title: String? = nil) {
        // Translators: the title of the page that reads QR codes with the camera.
        super.init(title: title ?? localized("Scan a Code"))
        // Translators: the hint under the camera's picture on Scan a Code.
        hintLabel.text = localized("Hold a QR code inside the picture.")
        hintLabel.wraps = true
        hintLabel.addCSSClass("dim-label")
        resultTitle.addCSSClass("heading")
        resultTitle.wraps = true
        resultText.wraps = true
        resultText.isSelectable = true  // plain text (``Label/text``): never markup or links
        resultText.centersLines = true
        hintLabel.centersLines = true
        resultTitle.centersLines = true
        let buttons = Box(.horizontal, spacing: 12)
        buttons.horizontalAlignment = .center
        buttons.append(actionButton)
        buttons.append(copyButton)
        buttons.append(scanAgainButton)
        scanAgainButton.addCSSClass("suggested-action")
        actionButton.isVisible = false
        actionButton.onClicked { [weak self] in self?.action?() }
        copyButton.onClicked { [weak self] in self?.copy() }
        scanAgainButton.onClicked { [weak self] in self?.scanAgain() }
        result.append(resultTitle)
        result.append(resultText)
        result.append(buttons)
        result.isVisible = false
        let controls = Box(.vertical, spacing: 6)
        controls.setMargins(12)
        controls.append(hintLabel)
        controls.append(result)
        cameraPreview = CameraPreview(for: self, settings: settings, controls: controls, readsCodes: true)
        cameraPreview.onLive = { [weak self] in
            guard let self, self.state == .starting else { return }
            self.state = .looking
        }
        cameraPreview.onProblem = { [weak self] problem in self?.state = .problem(problem.kind) }
        cameraPreview.onCodeRead = { [weak self] code in self?.read(code) }
        content.append(cameraPreview.view)
    }

    /// **Scan Again** when a result shows; else the page itself.
    public override var initialFocus: Widget? { result.isVisible ? scanAgainButton : nil }

    /// Shows what the code read is, in the owner's words (e.g. "Web Address" and the address), with
    /// **Copy** and **Scan Again**, and, when `actionLabel` is given, a button running `action` (a web
    /// address read opens only when the user asks: **Open**). Focus stays on **Scan Again**. Does nothing
    /// unless a code was read.
    public func showResult(title: String, text: String, actionLabel: String? = nil, action: (@MainActor () -> Void)? = nil) {
        guard case .read = state else { return }
        resultTitle.text = title
        resultText.text = text
        self.action = action
        actionButton.label = actionLabel ?? ""
        actionButton.isVisible = actionLabel != nil && action != nil
    }

    /// Refuses the code read, saying why (e.g. "This Is Not a Postcard Code"), with **Scan Again**.
    /// Does nothing unless a code was read.
    public func refuse(title: String, detail: String) {
        guard case .read(let code) = state else { return }
        state = .refused(code)
        resultTitle.text = title
        resultText.text = detail
        copyButton.isVisible = false
        actionButton.isVisible = false
        result.addCSSClass("error")
    }

    /// Looks for the next code (what **Scan Again** does).
    public func scanAgain() {
        guard code != nil else { return }
        code = nil
        action = nil
        actionButton.isVisible = false
        result.isVisible = false
        result.removeCSSClass("error")
        hintLabel.isVisible = true
        state = cameraPreview.isLive ? .looking : .starting
    }

    private func read(_ code: ScannedCode) {
        // Once per scan; never while the page is covered, left or gone (its camera is paused or released
        // then, and a message already on the bus is dropped here).
        guard self.code == nil, state == .looking || state == .starting, view.isMapped,
              lifecycle != .hiding, lifecycle != .hidden, !(navigationStack.map { $0.visiblePage !== self } ?? false) else { return }
        self.code = code
        state = .read(code)  // the picture goes on: the next code waits for Scan Again
        hintLabel.isVisible = false
        // Translators: the headline over the text of a code just read.
        resultTitle.text = localized("Code Read")
        resultText.text = code.text
        copyButton.isVisible = true
        result.isVisible = true
        _ = scanAgainButton.grabFocus()
        onCodeRead?(code)
    }

    private func copy() {
        guard let code else { return }
        Clipboard.setText(code.text)
        onCopied?(code.text)
    }
}
