import Gtk
import Navigation
import NavigationGtk
import XCTest

// The README's "Using the navigation toolkit" example, compiled and run as a reuser would.

@MainActor final class PickColorPage: Page {
    var onPicked: ((String) -> Void)?
    private(set) var buttons: [Button] = []
    init() {
        super.init(title: "Pick a Color")
        for color in ["Red", "Green"] {
            let button = Button(label: color)
            button.onClicked { [weak self] in self?.onPicked?(color) }
            buttons.append(button)
            content.append(button)
        }
    }
}

@MainActor final class PickColorFlow {
    enum Result: Equatable, Sendable { case picked(String), canceled }
    private let completion = FlowCompletion<Result>()
    private(set) var host: FlowHost?

    func run(from page: Page, presentation: Presentation = .modal) async -> Result {
        let first = PickColorPage()
        first.onPicked = { [weak self] in self?.finish(.picked($0)) }
        let host = FlowHost(from: page, presentation: presentation, first: first)
        host.onCancelRequest = { [weak self] _ in self?.finish(.canceled) }
        self.host = host
        return await completion.value(onCancel: { [weak self] in self?.finish(.canceled) })
    }

    private func finish(_ result: Result) {
        guard completion.resolve(result) else { return }
        host?.end()
        host = nil
    }
}

final class ToolkitExampleTests: GtkTestCase, @unchecked Sendable {
    func testTheReadmeFlowWorksModallyAndPushedWithTheSameCallerCode() {
        onMain {
            let root = Page(title: "Home")
            let window = NavigationWindow(root: root)
            show(window.window)
            for presentation in [Presentation.modal, .pushed] {
                let flow = PickColorFlow()
                var results: [PickColorFlow.Result] = []
                Task { results.append(await flow.run(from: root, presentation: presentation)) }
                spin(until: { flow.host?.stack.visiblePage is PickColorPage && flow.host?.stack.transition == .idle }, "shown")
                XCTAssertEqual(flow.host?.dialog == nil, presentation == .pushed)
                (flow.host!.stack.visiblePage as! PickColorPage).buttons[1].activate()
                spin(until: { !results.isEmpty }, "result")
                XCTAssertEqual(results, [.picked("Green")])
                spin(until: { window.stack.transition == .idle && Gtk.Window.all().count == 1 }, "ended")
                XCTAssertTrue(window.stack.visiblePage === root, "back where it started (\(presentation))")
            }
        }
    }
}
