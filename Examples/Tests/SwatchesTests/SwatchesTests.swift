import Foundation
import NavigationGtk
import Swatches
import XCTest

/// Swatches driven headlessly as its user would (under Xvfb: `dbus-run-session -- xvfb-run -a swift test`):
/// GTK is initialized once; each test runs on the main actor and spins GTK's loop while it waits.
/// (`@unchecked Sendable`: XCTest runs the tests one at a time on the main thread.)
final class SwatchesTests: XCTestCase, @unchecked Sendable {
    struct NoDisplay: Error {}

    override func setUpWithError() throws {
        // No display is a failure, not a skip.
        guard MainActor.assumeIsolated({ initializeGtk() }) else { throw NoDisplay() }
    }

    @MainActor
    private func spin(until condition: () -> Bool, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(MainLoopBridge.run(until: condition, timeout: .seconds(10)), "timed out waiting for \(what)", file: file, line: line)
    }

    /// The app with its window shown, as at launch.
    @MainActor
    private func launch() -> SwatchesApp {
        let app = SwatchesApp()
        app.window.present()
        spin(until: { app.window.window.isMapped }, "the window")
        return app
    }

    @MainActor
    private func settled(_ stack: NavigationStack) -> Bool { stack.transition == .idle }

    func testPushedPageShowsItsTitleAndBackInTheStacksBar() {
        MainActor.assumeIsolated {
            let app = launch()
            XCTAssertFalse(app.window.stack.isShowingBackButton, "no Back on the root page")
            _ = app.home.detailsButton.activate()
            spin(until: { app.window.stack.visiblePage is ColorDetailPage && settled(app.window.stack) }, "Details")
            XCTAssertEqual(app.window.stack.title, "No color yet")
            XCTAssertTrue(app.window.stack.isShowingBackButton, "Back in the stack's bar")
            app.window.stack.goBack()
            spin(until: { app.window.stack.visiblePage === app.home && settled(app.window.stack) }, "back home")
            app.window.window.destroy()
        }
    }

    func testTheStackFollowsAPathOfRoutesAndBackChangesIt() throws {
        try MainActor.assumeIsolated {
            let app = launch()
            var heard: [[SwatchRoute]] = []
            let observation = app.router.observePath { heard.append($0) }
            defer { observation.cancel() }
            app.router.setPath([.details("Red"), .details("Blue")])
            spin(until: { settled(app.window.stack) }, "the path")
            XCTAssertEqual(app.window.stack.pages.map(\.title), ["Swatches", "Red", "Blue"])
            XCTAssertEqual(app.window.stack.backButtonTooltip, "Red", "Back names the page below")
            app.window.stack.goBack()
            spin(until: { settled(app.window.stack) }, "back")
            XCTAssertEqual(app.router.path, [.details("Red")], "the user's Back changes the path")
            XCTAssertEqual(heard, [[.details("Red"), .details("Blue")], [.details("Red")]])
            // The path is Codable: saved by one run, set again by the next.
            let saved = try JSONEncoder().encode(app.router.path)
            app.router.setPath([])
            spin(until: { settled(app.window.stack) }, "home")
            app.router.setPath(try JSONDecoder().decode([SwatchRoute].self, from: saved))
            spin(until: { settled(app.window.stack) }, "restored")
            XCTAssertEqual(app.window.stack.pages.map(\.title), ["Swatches", "Red"])
            app.window.window.destroy()
        }
    }

    /// Browse Colors: the colours and the one chosen side by side in a wide window, one stack (the colour
    /// over the list, with the stack's Back) below 500 sp, and the same path at both widths.
    func testTheColorsAndTheChosenOneSitSideBySideWhenWideAndStackWhenNarrow() {
        MainActor.assumeIsolated {
            let app = launch()
            let stack = app.window.stack
            _ = app.home.paletteButton.activate()
            spin(until: { stack.visiblePage is PaletteSplitView && settled(stack) }, "Colors")
            let split = stack.visiblePage as! PaletteSplitView
            @MainActor func resize(_ width: Int, collapsed: Bool) {
                app.window.window.setDefaultSize(width: width, height: 680)
                spin(until: { abs(app.window.window.width - width) <= 12 }, "\(width) px")
                spin(until: { split.isCollapsed == collapsed && settled(stack) }, collapsed ? "collapsed" : "expanded")
            }
            XCTAssertFalse(split.isCollapsed, "720 px: side by side")
            _ = split.palette.rows[4].activate()  // Blue
            spin(until: { (split.contentPage as? SwatchPage)?.color == "Blue" && split.contentPage!.view.isMapped }, "Blue beside the list")
            XCTAssertTrue(split.palette.view.isMapped, "the list stays beside it")
            XCTAssertEqual(stack.pages.count, 2, "nothing pushed: Blue is in the split view's pane")
            XCTAssertEqual(app.router.path, [.palette, .swatch("Blue")])
            XCTAssertEqual(split.palette.highlighted, "Blue", "the chosen colour is highlighted beside it")

            resize(360, collapsed: true)
            XCTAssertEqual(stack.pages.map(\.title), ["Swatches", "Colors", "Blue"], "Blue pushed over the list")
            XCTAssertTrue(stack.isShowingBackButton)
            XCTAssertEqual(app.router.path, [.palette, .swatch("Blue")], "the same path at 360 px")
            XCTAssertNil(split.palette.highlighted, "no highlight on a list that is its own screen")
            stack.goBack()
            spin(until: { stack.visiblePage === split && settled(stack) }, "back to the list")
            XCTAssertEqual(app.router.path, [.palette], "Back shows the list, and never pops below it")
            _ = split.palette.rows[3].activate()  // Green
            spin(until: { stack.visiblePage is SwatchPage && settled(stack) }, "Green over the list")

            resize(900, collapsed: false)
            XCTAssertEqual(stack.pages.count, 2, "Green moved back into the pane")
            XCTAssertEqual((split.contentPage as? SwatchPage)?.color, "Green")
            XCTAssertEqual(split.palette.highlighted, "Green")
            XCTAssertEqual(app.router.path, [.palette, .swatch("Green")])
            app.window.window.destroy()
        }
    }

    func testTheFlowReturnsItsResultOnceModallyAndPushed() {
        MainActor.assumeIsolated {
            let app = launch()
            for (button, presentation) in [(app.home.pickButton, Presentation.modal), (app.home.pickHereButton, .pushed)] {
                _ = button.activate()
                spin(until: { app.flow?.host?.stack.visiblePage is PickColorPage && app.flow.map { settled($0.host!.stack) } == true },
                     "Pick a Color (\(presentation))")
                XCTAssertEqual(app.flow?.host?.dialog == nil, presentation == .pushed, "a dialog only when modal")
                _ = (app.flow!.host!.stack.visiblePage as! PickColorPage).buttons[2].activate()  // Blue
                spin(until: { app.flow == nil && settled(app.window.stack) }, "the flow ended")
                XCTAssertTrue(app.window.stack.visiblePage === app.home, "back where it started (\(presentation))")
            }
            XCTAssertEqual(app.picked, [.picked("Blue"), .picked("Blue")], "each result exactly once")
            XCTAssertEqual(app.home.colorLabel.text, "Blue")

            // Escape in the modal flow cancels it: one place handles every way out.
            _ = app.home.pickButton.activate()
            spin(until: { app.flow?.host?.dialog?.window.isMapped == true }, "the dialog")
            app.flow!.host!.dialog!.window.close()
            spin(until: { app.flow == nil }, "canceled")
            XCTAssertEqual(app.picked.last, .canceled)
            XCTAssertEqual(app.picked.count, 3)
            app.window.window.destroy()
        }
    }

    func testAPageShownAloneHasItsOwnBarWithClose() {
        MainActor.assumeIsolated {
            let app = launch()
            _ = app.home.aboutButton.activate()
            spin(until: { app.about?.window.isMapped == true }, "About Colors")
            let about = app.about!
            XCTAssertTrue(about.root.isShowingStandaloneBar, "its own bar")
            XCTAssertEqual(about.window.title, "About Colors")
            _ = about.closeButton.activate()
            spin(until: { about.isDismissed }, "closed")
            XCTAssertFalse(about.root.isShowingStandaloneBar, "the bar goes with the dialog")
            app.window.window.destroy()
        }
    }

    /// A plain GTK app (no libadwaita) turns dark when the desktop prefers it, through the toolkit's
    /// `DesktopStyle`, and follows the change while it runs. The desktop's setting is changed by another
    /// program (`gsettings`), on GSettings' keyfile backend in a folder of the test's own
    /// (`Tests/example-test.sh` sets `GSETTINGS_BACKEND=keyfile` and `XDG_CONFIG_HOME`).
    func testThePlainGtkAppFollowsTheDesktopsDarkPreference() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["GSETTINGS_BACKEND"] == "keyfile", environment["XDG_CONFIG_HOME"] != nil else {
            throw XCTSkip("changes the desktop's settings: run with GSETTINGS_BACKEND=keyfile and a test XDG_CONFIG_HOME (Tests/example-test.sh)")
        }
        func setColorScheme(_ value: String) throws {
            let gsettings = Process()
            gsettings.executableURL = URL(fileURLWithPath: "/usr/bin/gsettings")
            gsettings.arguments = ["set", "org.gnome.desktop.interface", "color-scheme", value]
            try gsettings.run()
            gsettings.waitUntilExit()
            XCTAssertEqual(gsettings.terminationStatus, 0, "gsettings set color-scheme \(value)")
        }
        try MainActor.assumeIsolated {
            let app = launch()
            guard let style = DesktopStyle() else { return XCTFail("org.gnome.desktop.interface is not installed") }
            XCTAssertFalse(style.prefersDark)
            XCTAssertFalse(StyleSheet.isDarkVariantApplied, "light: the toolkit's dark sheet is off")
            try setColorScheme("prefer-dark")
            spin(until: { style.prefersDark && StyleSheet.isDarkVariantApplied }, "dark, as the desktop now prefers")
            try setColorScheme("default")
            spin(until: { !style.prefersDark && !StyleSheet.isDarkVariantApplied }, "light again")
            app.window.window.destroy()
        }
    }
}
