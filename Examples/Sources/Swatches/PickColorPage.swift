import NavigationGtk

/// A page lists colours and reports the one picked; it never navigates.
@MainActor public final class PickColorPage: Page {
    public var onPicked: ((String) -> Void)?
    public private(set) var buttons: [Button] = []

    public init() {
        super.init(title: "Pick a Color")
        let column = makeColumn()                                               // a centred Box, 12 px apart
        for color in ["Red", "Green", "Blue"] {
            let button = Button(label: color)                               // accessible name = label
            button.onClicked { [weak self] in self?.onPicked?(color) }      // capture weakly
            buttons.append(button)
            column.append(button)
        }
        content.append(column)
    }
}
