import NavigationGtk

/// The app's screens as values: the window's stack follows a path of them.
public enum SwatchRoute: Hashable, Codable, Sendable {
    case details(String)
    case palette
    case swatch(String)
}

/// The app: one window with a navigation stack, and the code that navigates (pages never do).
@MainActor public final class SwatchesApp {
    public let window: NavigationWindow
    public let home = HomePage()
    public private(set) var router: NavigationRouter<SwatchRoute>!
    public private(set) var picked: [PickColorFlow.Result] = []
    public private(set) var flow: PickColorFlow?
    public private(set) var about: ModalDialog?

    public init(application: Application? = nil) {
        window = NavigationWindow(application: application, root: home)
        StyleSheet.load(css: swatchStyle)
        router = NavigationRouter(stack: window.stack) { [weak self] route in   // the one place pages are made
            switch route {
            case .details(let color): ColorDetailPage(color: color)
            case .palette: self?.makePalette()
            case .swatch(let color): SwatchPage(color: color)
            }
        }
        home.detailsButton.onClicked { [weak self] in
            guard let self else { return }
            self.router.push(.details(self.home.colorLabel.text))  // or router.setPath([...])
        }
        home.paletteButton.onClicked { [weak self] in self?.router.push(.palette) }
        home.pickButton.onClicked { [weak self] in self?.pickColor(presentation: .modal) }
        home.pickHereButton.onClicked { [weak self] in self?.pickColor(presentation: .pushed) }
        home.aboutButton.onClicked { [weak self] in
            guard let self else { return }
            let dialog = ModalDialog(over: self.home, presenting: AboutColorsPage())
            self.about = dialog
            dialog.present()
        }
    }

    /// The colours beside the one chosen, or a stack of them when narrow: choosing sets the path.
    func makePalette() -> PaletteSplitView {
        let split = PaletteSplitView()
        split.palette.onChosen = { [weak self] color in self?.router.setPath([.palette, .swatch(color)]) }
        return split
    }

    /// The same caller code whether the flow is modal or pushed.
    func pickColor(presentation: Presentation) {
        guard flow == nil else { return }
        let flow = PickColorFlow()
        self.flow = flow
        Task {
            let result = await flow.run(from: home, presentation: presentation)
            picked.append(result)
            if case .picked(let color) = result { home.colorLabel.text = color }
            self.flow = nil
        }
    }

    /// Runs the app: `Application(id:)` installs Swift's executors on GLib, so `Task` and `await` run inside
    /// GTK's loop. Call from a synchronous `main`.
    public static func main() -> Int32 {
        let application = Application(id: "io.github.postcard.Swatches")
        var app: SwatchesApp?
        application.onActivate {
            if app == nil { app = SwatchesApp(application: application) }
            app?.window.present()
        }
        return application.run()
    }
}
