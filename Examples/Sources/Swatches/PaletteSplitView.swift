import NavigationGtk

/// The sidebar: the colours, a button each. It reports the one chosen; it never navigates.
@MainActor public final class PalettePage: Page {
    /// GNOME's palette, by name.
    public static let colors = ["Red", "Orange", "Yellow", "Green", "Blue", "Purple"]
    public var onChosen: ((String) -> Void)?
    public private(set) var rows: [Button] = []

    /// The colour shown beside the list, highlighted; nil when none is, or when the list is a screen
    /// of its own (collapsed), as GNOME Settings does.
    public var highlighted: String? {
        didSet {
            for (color, row) in zip(Self.colors, rows) {
                if color == highlighted { row.addCSSClass("shown") } else { row.removeCSSClass("shown") }
            }
        }
    }

    public init() {
        super.init(title: "Colors")
        let column = Box(.vertical, spacing: 6)
        column.setMargins(12)
        for color in Self.colors {
            let row = Button(label: color)
            row.addCSSClass("flat")
            row.onClicked { [weak self] in self?.onChosen?(color) }
            rows.append(row)
            column.append(row)
        }
        content.append(column)
    }
}

/// The content: one colour, filling the page.
@MainActor public final class SwatchPage: Page {
    public let color: String

    public init(color: String) {
        self.color = color
        super.init(title: color)
        let swatch = Box(.vertical)
        swatch.addCSSClass("swatch")
        swatch.addCSSClass(color.lowercased())
        swatch.setMargins(24)
        swatch.expandsVertically = true
        content.append(swatch)
    }
}

/// The colours and the one chosen, side by side when the window is wide; one stack (the colour pushed
/// over the list, with Back) below 500 sp.
@MainActor public final class PaletteSplitView: NavigationSplitView {
    public let palette = PalettePage()
    private var token: ObservationToken?

    public init() {
        super.init(title: "Colors")
        sidebar = palette
        collapseCondition = try? BreakpointCondition(parsing: "max-width: 500sp")
        token = observeSplitProperties { [weak self] property in
            guard let self, property == .collapsed || property == .contentPage else { return }
            palette.highlighted = isCollapsed ? nil : (contentPage as? SwatchPage)?.color
        }
    }
}

/// The swatches' colours and the sidebar's highlight.
let swatchStyle = """
    .swatch { border-radius: 12px; min-width: 120px; min-height: 120px; }
    .swatch.red { background-color: #e01b24; }
    .swatch.orange { background-color: #ff7800; }
    .swatch.yellow { background-color: #f6d32d; }
    .swatch.green { background-color: #33d17a; }
    .swatch.blue { background-color: #3584e4; }
    .swatch.purple { background-color: #9141ac; }
    button.flat.shown { background-color: alpha(currentColor, 0.1); }
    """
