import Adwaita
import CGtk
import Gtk
import NavigationGtk
import NavigationWeb
import PhotoPosting
import PostcardApp
import PostcardModel

/// The review tour's waiting and saving: steps that wait for a screen to be ready, and the picture of
/// each screen in every style (see ``Tour``).
extension Tour {
    /// Waits until the Camera page on `stack` (or `page`) shows frames or a problem.
    @discardableResult
    func waitForCamera(in stack: NavigationStack?, page: CameraPage? = nil) async throws -> CameraPage {
        try await waitUntil("the camera") {
            guard let camera = page ?? stack?.visiblePage as? CameraPage else { return false }
            return camera.problem != nil || ((camera.camera?.frameCount ?? 0) >= 3 && stack?.transition ?? .idle == .idle)
        }
        return page ?? stack!.visiblePage as! CameraPage
    }

    /// Activates the button reading `label` among `page`'s actions (under the photo).
    func activateButton(_ label: String, in page: PhotoDetailPage) async throws {
        guard let button = page.actionButton(labeled: label) else { throw ReviewError(message: "no \(label) button") }
        button.activate()
    }

    func waitForStack(depth: Int) async throws {
        try await waitUntil("\(depth) pages") { stack.pages.count == depth && stack.transition == .idle }
    }

    /// Saves `window` (with `overlays`, open popovers) in every variant's style as the screen `name` of
    /// ``ReviewGallery/screens``, then runs ``onScreen``. Under Orca (``SpokenWords``) it saves what Orca
    /// said as the screen came instead.
    /// `settle`: how long the first variant waits; a scrolled list or page waits for GTK's and WebKit's
    /// scroll indicators to fade (about 3 s), so that the picture is the same on every run.
    ///
    /// `keepingToasts`: the screen shows the toast that is up (a toast screen); it must last through every
    /// variant's picture (a toast goes after 5 s), else this throws rather than save pictures that differ.
    /// The caller then deals with it (presses its button), as the next screen dismisses it.
    func save(_ window: Window, _ name: String, overlays: [Widget] = [], settle: Duration = .milliseconds(400),
              keepingToasts: Bool = false) async throws {
        guard screenNames.contains(name) else {
            throw ReviewError(message: "\(name) is not one of the gallery's screens")
        }
        let folder = directory.appending(name)
        try Files.makeDirectory(folder)
        // A toast goes by itself after 5 seconds: whether one still shows would depend on how fast the tour
        // ran. Each screen is saved without the toasts of earlier steps (they slide away while it settles).
        let shownToasts = keepingToasts ? app.toasts.toasts : []
        if !keepingToasts {
            for toast in app.toasts.toasts { toast.dismiss() }
            // Gone from the screen too (a toast that goes just after it came is hidden a moment later).
            try await waitUntil("the toasts gone from the screen") { !app.toasts.drawsToasts }
        }
        if let spoken = SpokenWords.ofThisProcess {
            // Under Orca: what it said as this screen came, instead of pictures (the gallery's parts take them).
            let words = await spoken.take()
            try Files.writeText(words.map { $0 + "\n" }.joined(), to: folder.appending(ReviewGallery.spokenFileName))
            await onScreen?(name)
            return
        }
        // The first variant waits `settle`: what the step began may still be moving (a button's CSS
        // transition, a toast sliding away, a scroll indicator fading), and neither GTK nor WebKit says when
        // a CSS transition or an indicator's fade has ended. The later variants' style switches start no
        // transition (animations are off while they are made, as with GNOME's Reduce Animation: turned off
        // after the first picture, since WebKit then drops a fading indicator), so each is restyled, laid
        // out and drawn in the next frame, the one its picture is taken in.
        let animations = DesktopStyle.animationsEnabled
        defer { DesktopStyle.animationsEnabled = animations }
        for (index, variant) in variants.enumerated() {
            if index == 1 { DesktopStyle.animationsEnabled = false }
            StyleManager.default.colorScheme = variant.dark ? .forceDark : .forceLight  // the text direction is the part's, set before the app was built
            try await Self.useHighContrast(variant.highContrast)
            if index == 0 { await MainLoopBridge.sleep(for: .seconds(settle.seconds)) }
            // Laid out in the new style; a bar the style left short of room (or with room again) has moved
            // its items before the picture.
            await nextLayout(of: window)
            try await barsSettled()
            if let web = pageShown as? WebPage, web.loadError == nil {
                // The web process learns the style later than GTK does: the page's CSS
                // (prefers-color-scheme) must have it before its picture is taken, then draw it.
                let dark = variant.dark ? "true" : "false"
                var matched = false
                for _ in 0..<100 where !matched {
                    matched = (try? await web.evaluateJavaScript("matchMedia('(prefers-color-scheme: dark)').matches")) == dark
                    if !matched { await MainLoopBridge.sleep(for: .seconds(0.05)) }
                }
                guard matched else { throw ReviewError(message: "\(name): the web page did not take the \(variant.styleName) style") }
                // Redrawn in it; WebKit scales an image it has just drawn again at low quality first and
                // at full quality a moment later (its image quality controller).
                await MainLoopBridge.sleep(for: .seconds(1.2))
            }
            // In the frame GTK paints next: outside a frame the window may have dropped its drawing (a web
            // page or a scroll indicator asked to be drawn again), and there would be nothing to save.
            let file = folder.appending(ReviewGallery.fileName(part: part, variant: variant))
            try await window.saveSnapshotOfNextFrame(toPNG: file, overlays: overlays)
        }
        if keepingToasts {
            guard !shownToasts.isEmpty, !shownToasts.contains(where: \.isDismissed) else {
                throw ReviewError(message: "\(name): the toast went before all its pictures were saved")
            }
        } else {
            for toast in app.toasts.toasts { toast.dismiss() }  // one that came while the pictures were taken
        }
        await onScreen?(name)  // in the last variant; the walk goes on in it (the next screen sets its own)
    }

    /// Turns the desktop's high-contrast setting on or off as the desktop would (GSettings, which
    /// libadwaita follows; the gallery runs on GSettings' memory backend, so no real setting changes), and
    /// waits until libadwaita has restyled.
    static func useHighContrast(_ on: Bool) async throws {
        guard StyleManager.default.isHighContrast != on else { return }
        guard g_getenv("GSETTINGS_BACKEND").map({ String(cString: $0) }) == "memory" else {
            throw ReviewError(message: "the high-contrast pictures change the desktop's settings: run with GSETTINGS_BACKEND=memory (make review does)")
        }
        let settings = g_settings_new("org.gnome.desktop.a11y.interface")!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        g_settings_set_boolean(settings, "high-contrast", on ? 1 : 0)
        for _ in 0..<100 where StyleManager.default.isHighContrast != on { await MainLoopBridge.sleep(for: .seconds(0.02)) }
    }

    /// Waits until no header bar shown (the main window's, a running flow's) is still moving items into
    /// or out of its More menu (``HeaderBar`` does it one item at a time, each after a second look).
    func barsSettled() async throws {
        let bars = [app.flowDialog?.stack.headerBar, stack.headerBar].compactMap { $0 }
        try await waitUntil("the bar's items to settle") { bars.allSatisfy { $0.currentLayer?.isArranging != true } }
    }

    /// Returns after the next layout phase of `widget`'s frame clock (at once when it has none).
    func nextLayout(of widget: Widget) async {
        guard widget.frameTime != nil else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            widget.afterNextLayouts(1) {
                continuation.resume()
                return false
            }
        }
    }

    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<200 {
            if condition() { return }
            await MainLoopBridge.sleep(for: .seconds(0.05))
        }
        throw ReviewError(message: "timed out waiting for \(what)")
    }
}

/// Why the tour or the gallery could not go on (said on standard error).
struct ReviewError: Error, CustomStringConvertible {
    /// What went wrong.
    let message: String
    var description: String { message }}
