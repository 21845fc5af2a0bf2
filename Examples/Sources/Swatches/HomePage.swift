import NavigationGtk

/// The root page: the colour picked last, and one button for each way the toolkit shows a page. It
/// reports what the user asks for; ``SwatchesApp`` navigates.
@MainActor public final class HomePage: Page {
    public let colorLabel = Label("No color yet")
    public let detailsButton = Button(label: "Details")
    public let paletteButton = Button(label: "Browse Colors")
    public let pickButton = Button(label: "Pick a Color…")
    public let pickHereButton = Button(label: "Pick Here")
    public let aboutButton = Button(label: "About Colors")

    public init() {
        super.init(title: "Swatches")
        let column = makeColumn()
        column.append(colorLabel)
        for button in [detailsButton, paletteButton, pickButton, pickHereButton, aboutButton] { column.append(button) }
        content.append(column)
    }
}

/// A pushed page: the stack's bar shows its title and Back.
@MainActor public final class ColorDetailPage: Page {
    public init(color: String) {
        super.init(title: color, subtitle: "Details")
        let column = makeColumn()
        column.append(Label("\(color) is a fine color."))
        content.append(column)
    }
}

/// A page shown on its own (``ModalDialog``), with its own bar and Close.
@MainActor public final class AboutColorsPage: Page {
    public init() {
        super.init(title: "About Colors")
        let column = makeColumn()
        column.append(Label("Red, green and blue make every color on a screen."))
        content.append(column)
    }
}

/// A centred column with GNOME's usual spacing (12 px between items, 24 px around them).
@MainActor func makeColumn() -> Box {
    let column = Box(.vertical, spacing: 12)
    column.setMargins(24)
    column.horizontalAlignment = .center
    column.setSizeRequest(width: 280)
    return column
}
