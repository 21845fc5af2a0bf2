import CGtk

/// A `GtkHeaderBar`: the title bar of a window with client-side decorations, holding the bar's own
/// items (packed at the start and end: Back, a dialog's Cancel; the window controls at the edges) and,
/// in the middle, one ``BarLayer`` per page — its start items, title and end items — of which it shows
/// the current one, or two cross-fading while the pages change (``crossFade(from:to:progress:)``).
///
/// A layer's items are laid out exactly where `GtkHeaderBar` would put them packed after the bar's
/// start items and before its end items: the bar's centre box is a `GtkCenterLayout` and so is this
/// placement (`CenterLayout`), over the whole centre box, the bar's own items taken as the outer part
/// of its start and end. The title stays centred in the bar until the items push it aside, as a header
/// bar's title does, and the items keep the bar's 6-pixel spacing (Adwaita's `box.start`/`box.end`).
/// Nothing is re-parented when the layer changes; a layer's items stay in it for its page's life.
@MainActor
public final class HeaderBar: Widget {
    /// The gap between items in pixels, as Adwaita's header bar boxes (`border-spacing: 6px`) and its
    /// centre box have it.
    public static let itemSpacing = 6
    /// ``itemSpacing`` for GTK's measurements.
    private static let spacing = Int32(itemSpacing)

    /// Creates a header bar with no items and no layer.
    public init() {
        super.init(gtk_header_bar_new(), transfer: .full)
        layerArea = LayerArea()
        gtk_header_bar_set_title_widget(bar, layerArea.widget)
    }

    var bar: OpaquePointer { opaque }
    private var layerArea: LayerArea!  // set in init, after super.init

    /// The layers added and not removed, in the order added.
    public private(set) var layers: [BarLayer] = []
    /// The layer shown (nil: none, an empty middle).
    public private(set) var currentLayer: BarLayer?
    /// The cross-fade in progress: from one layer to another, and how far (0 … 1).
    private var fade: (from: BarLayer?, to: BarLayer?, progress: Double)?

    /// Whether two layers are cross-fading now.
    public var isCrossFading: Bool { fade != nil }

    /// Start items the bar's layers hid while short of room (given back by the next layer that does not).
    package var hiddenStartItems: [Widget] = []

    // MARK: - The bar's own items

    /// Adds `child` at the start (left in left-to-right locales), after earlier start children and
    /// before every layer's start items. It stays whatever layer is shown.
    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(bar, child.widget) }

    /// Adds `child` at the end (right in left-to-right locales), before earlier end children and outside
    /// every layer's end items. It stays whatever layer is shown.
    public func packEnd(_ child: Widget) { gtk_header_bar_pack_end(bar, child.widget) }

    /// Whether `child` was packed with ``packStart(_:)`` or ``packEnd(_:)`` and not removed.
    public func holds(_ child: Widget) -> Bool {
        child.parentWidget != nil && gtk_widget_is_ancestor(child.widget, widget) != 0
            && !layers.contains { $0.holds(child) }
    }

    /// Removes a child added with ``packStart(_:)`` or ``packEnd(_:)``.
    public func remove(_ child: Widget) {
        if child === movableStartItem { setMovableStartItem(nil, when: { false }) }
        if let index = hiddenStartItems.firstIndex(where: { $0 === child }) {
            hiddenStartItems.remove(at: index)
            child.isVisible = true
        }
        gtk_header_bar_remove(bar, child.widget)
    }

    /// Whether the window controls (close, minimize, maximize) are shown; false for modal dialogs that
    /// have their own Cancel.
    public var showsTitleButtons: Bool {
        get { gtk_header_bar_get_show_title_buttons(bar) != 0 }
        set { gtk_header_bar_set_show_title_buttons(bar, newValue ? 1 : 0) }
    }

    /// A start child of the bar's own that may go into the current layer's overflow menu last, after
    /// every end item that may, while `startItemMayMove` says so (a dialog's Cancel while its Back is
    /// shown); hidden in place meanwhile.
    public private(set) var movableStartItem: Widget?
    package private(set) var startItemMayMove: @MainActor () -> Bool = { false }

    /// Lets `item` (packed at the start) go into the overflow menu when even with every movable end item
    /// there the title is cut, while `when` is true; it comes back first when there is room or `when`
    /// turns false. A dialog's Cancel, while its Back is shown, so Back, the title and the affirmative
    /// action fit. Takes the place of a layer's own movable start item.
    public func setMovableStartItem(_ item: Widget?, when: @escaping @MainActor () -> Bool) {
        movableStartItem = item
        startItemMayMove = when
        currentLayer?.arrange()
    }

    // MARK: - Layers

    /// Adds `layer` (hidden until it is made current), taking it from the bar that held it if any. Does
    /// nothing when it is in this bar already.
    public func addLayer(_ layer: BarLayer) {
        guard layer.bar !== self else { return }
        layer.bar?.removeLayer(layer)
        layers.append(layer)
        layer.bar = self
        for part in layer.widgets {
            part.isVisible = false
            gtk_widget_set_parent(part.widget, layerArea.widget)
        }
    }

    /// Takes `layer` out of the bar (its page left), with its items.
    public func removeLayer(_ layer: BarLayer) {
        guard let index = layers.firstIndex(where: { $0 === layer }) else { return }
        layers.remove(at: index)
        if currentLayer === layer { currentLayer = nil }
        if fade?.from === layer || fade?.to === layer { endCrossFade() }
        for part in layer.widgets { gtk_widget_unparent(part.widget) }
        layer.bar = nil
        // A start item it hid goes with it as it was before (shown, should the page be shown again elsewhere).
        for hidden in hiddenStartItems where layer.holds(hidden) { hidden.isVisible = true }
        hiddenStartItems.removeAll { layer.holds($0) }
    }

    /// Shows `layer` (added with ``addLayer(_:)``; nil for none) and no other, unless a cross-fade is in
    /// progress, which then ends on it. A layer shown for the first time starts with as many items in its
    /// overflow menu as the layer before had (so a narrow bar does not first show every button).
    public func showLayer(_ layer: BarLayer?) {
        guard layer == nil || layer?.bar === self else { return }
        let previous = currentLayer
        currentLayer = layer
        if fade == nil { showOnly(layer) }
        if previous !== layer { layer?.continueArrangement(from: previous) }
    }

    /// Shows `from` fading out and `to` fading in at `progress` (0: only `from` … 1: only `to`), both
    /// laid out in the same place; input goes to neither until the cross-fade ends (``endCrossFade()``).
    /// Either may be nil (a page without a layer in this bar): the other fades alone.
    public func crossFade(from: BarLayer?, to: BarLayer?, progress: Double) {
        let from = from?.bar === self ? from : nil, to = to?.bar === self ? to : nil
        fade = (from, to, progress)
        let amount = min(1, max(0, progress))
        for layer in layers {
            let opacity: Double? = layer === to ? amount : layer === from ? 1 - amount : nil
            for part in layer.widgets {
                if let opacity {
                    part.isVisible = true
                    gtk_widget_set_opacity(part.widget, opacity)
                    part.canTarget = false
                } else {
                    part.isVisible = false
                }
            }
        }
        gtk_widget_queue_allocate(layerArea.widget)
    }

    /// Ends the cross-fade: the current layer alone, as before it.
    public func endCrossFade() {
        guard fade != nil else { return }
        fade = nil
        showOnly(currentLayer)
        currentLayer?.arrange()
    }

    private func showOnly(_ layer: BarLayer?) {
        for other in layers {
            let shown = other === layer
            for part in other.widgets {
                part.isVisible = shown
                gtk_widget_set_opacity(part.widget, 1)
                part.canTarget = true
            }
        }
    }

    // MARK: - The current layer's overflow (as the bar's)

    /// The current layer's end items (first outermost); empty with none.
    public var endItems: [Widget] { currentLayer?.endItems ?? [] }
    /// How many items are in the current layer's overflow menu now (0 with no layer).
    public var overflowCount: Int { currentLayer?.overflowCount ?? 0 }
    /// The current layer's overflow menu (More), or a menu button that is never shown when there is no layer.
    public var moreButton: MenuButton { currentLayer?.moreButton ?? placeholderMore }
    private lazy var placeholderMore = MenuButton(iconName: "view-more-symbolic", accessibleLabel: toolkitLocalized("More"),
                                                  isPrimary: false)

    // MARK: - Layout

    /// Lays out the shown layers in the bar's centre box coordinates (see the type's docs).
    fileprivate func allocateLayers(in area: UnsafeMutablePointer<GtkWidget>, height: Int32) {
        guard let centre = gtk_widget_get_parent(area) else { return }
        let size = gtk_widget_get_width(centre)
        var origin = graphene_point_t()
        var zero = graphene_point_t()
        _ = gtk_widget_compute_point(area, centre, &zero, &origin)
        let own = ownItemWidths(in: centre, besides: area)
        let rightToLeft = gtk_widget_get_direction(centre) == GTK_TEXT_DIR_RTL
        for layer in layers where layer.title.isVisible {
            let placement = place(layer, size: size, own: own, rightToLeft: rightToLeft)
            for (part, span) in [(layer.startBox, placement.startBox), (layer.title, placement.title), (layer.endBox, placement.endBox)]
            where gtk_widget_should_layout(part.widget) != 0 {
                var area = GtkAllocation(x: span.position - Int32(origin.x.rounded()), y: 0, width: max(0, span.size), height: height)
                gtk_widget_size_allocate(part.widget, &area, -1)
            }
            if layer === currentLayer, fade == nil { layer.titleAllocated() }
        }
    }

    /// The widths of the bar's own start and end boxes (minimum and natural), measured as the bar's
    /// centre box measures them.
    private func ownItemWidths(in centre: UnsafeMutablePointer<GtkWidget>, besides area: UnsafeMutablePointer<GtkWidget>)
        -> (start: CenterLayout.Size, end: CenterLayout.Size) {
        func measured(_ box: UnsafeMutablePointer<GtkWidget>?) -> CenterLayout.Size {
            guard let box, box != area else { return .zero }
            return Self.measure(box)
        }
        return (measured(gtk_widget_get_first_child(centre)), measured(gtk_widget_get_last_child(centre)))
    }

    /// Where `layer`'s parts go, in a centre box `size` pixels wide whose own start and end boxes are
    /// `own`: the layer's start items as the inner part of the start side, its end items as the inner part
    /// of the end side, both sides and the title placed as the centre box's `GtkCenterLayout` places them.
    private func place(_ layer: BarLayer, size: Int32, own: (start: CenterLayout.Size, end: CenterLayout.Size), rightToLeft: Bool)
        -> (startBox: CenterLayout.Span, title: CenterLayout.Span, endBox: CenterLayout.Span) {
        let (pageStart, measuredTitle, pageEnd, start, end) = sides(of: layer, own: own)
        // Less room than every part's minimum (the bar counts the staying buttons as in the overflow menu,
        // where they go next): the title gives way, clipped, never the items beside it.
        var title = measuredTitle
        let room = size - 2 * Self.spacing - start.minimum - end.minimum
        if room < title.minimum {
            title = CenterLayout.Size(minimum: max(0, room), natural: max(0, room, title.natural))
        }
        let spans = CenterLayout.place(size: size, spacing: Self.spacing, start: start, center: title, centerExpands: true,
                                       end: end, rightToLeft: rightToLeft)
        let pageStartWidth = pageStart.isEmpty ? 0 : max(0, spans.start.size - own.start.natural - (own.start.isEmpty ? 0 : Self.spacing))
        let pageEndWidth = pageEnd.isEmpty ? 0 : max(0, spans.end.size - own.end.natural - (own.end.isEmpty ? 0 : Self.spacing))
        // The inner part: toward the title (right of the bar's own start items in left-to-right locales).
        let startBox = rightToLeft ? CenterLayout.Span(spans.start.position, pageStartWidth)
            : CenterLayout.Span(spans.start.position + spans.start.size - pageStartWidth, pageStartWidth)
        let endBox = rightToLeft ? CenterLayout.Span(spans.end.position + spans.end.size - pageEndWidth, pageEndWidth)
            : CenterLayout.Span(spans.end.position, pageEndWidth)
        return (startBox, spans.center, endBox)
    }

    /// `layer`'s parts' widths, and the bar's two sides with them: its own start items then the layer's,
    /// the layer's end items then its own.
    private func sides(of layer: BarLayer, own: (start: CenterLayout.Size, end: CenterLayout.Size))
        -> (pageStart: CenterLayout.Size, title: CenterLayout.Size, pageEnd: CenterLayout.Size,
            start: CenterLayout.Size, end: CenterLayout.Size) {
        let pageStart = Self.measure(layer.startBox.widget), pageEnd = Self.measure(layer.endBox.widget)
        return (pageStart, Self.measure(layer.title.widget), pageEnd,
                own.start.joined(with: pageStart, spacing: Self.spacing), pageEnd.joined(with: own.end, spacing: Self.spacing))
    }

    /// A widget's minimum and natural width (zero when it is not laid out).
    fileprivate static func measure(_ widget: UnsafeMutablePointer<GtkWidget>) -> CenterLayout.Size {
        guard gtk_widget_should_layout(widget) != 0 else { return .zero }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return CenterLayout.Size(minimum: minimum, natural: natural)
    }

    /// The middle's size: what the shown layers need beyond the bar's own items, so that the bar as a
    /// whole asks for what a `GtkHeaderBar` with all these items packed into it would.
    fileprivate func measureLayers(in area: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation, forSize: Int32)
        -> (minimum: Int32, natural: Int32) {
        var minimum: Int32 = 0, natural: Int32 = 0
        if orientation == GTK_ORIENTATION_VERTICAL {
            for layer in layers where layer.title.isVisible {
                for part in layer.widgets where gtk_widget_should_layout(part.widget) != 0 {
                    var partMinimum: Int32 = 0, partNatural: Int32 = 0
                    gtk_widget_measure(part.widget, orientation, -1, &partMinimum, &partNatural, nil, nil)
                    minimum = max(minimum, partMinimum)
                    natural = max(natural, partNatural)
                }
            }
            return (minimum, natural)
        }
        let own = gtk_widget_get_parent(area).map { ownItemWidths(in: $0, besides: area) } ?? (.zero, .zero)
        for layer in layers where layer.title.isVisible {
            let (_, title, _, start, end) = sides(of: layer, own: own)
            // The end items at their narrowest: every button that may go into the overflow menu there.
            let pageEnd = layer.minimumEndWidth
            let endMinimum = pageEnd + (pageEnd > 0 && !own.end.isEmpty ? Self.spacing : 0)
            minimum = max(minimum, start.minimum - own.start.minimum + title.minimum + endMinimum)
            natural = max(natural, title.natural + 2 * max(start.natural, end.natural) - 2 * max(own.start.natural, own.end.natural))
        }
        return (minimum, max(minimum, natural))
    }
}

/// The widget in a header bar's middle that holds its layers' parts (see ``HeaderBar``).
@MainActor
private final class LayerArea {
    let widget: UnsafeMutablePointer<GtkWidget>

    init() {
        widget = UnsafeMutableRawPointer(Box.makeBox(.horizontal)).assumingMemoryBound(to: GtkWidget.self)
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(
            nil,
            { widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
                var size = (minimum: Int32(0), natural: Int32(0))
                // The header bar whose middle this is (its title widget), through its one wrapper.
                if let widget, let header = gtk_widget_get_ancestor(widget, gtk_header_bar_get_type()) {
                    let key = UnsafeMutableRawPointer(header)
                    size = MainActor.assumeIsolated {
                        (Object.wrapper(of: key) as? HeaderBar)?.measureLayers(in: widget, orientation, forSize: forSize) ?? (0, 0)
                    }
                }
                minimum?.pointee = size.minimum
                natural?.pointee = size.natural
                minimumBaseline?.pointee = -1
                naturalBaseline?.pointee = -1
            },
            { widget, width, height, baseline in
                guard let widget else { return }
                MainActor.assumeIsolated {
                    if let header = gtk_widget_get_ancestor(widget, gtk_header_bar_get_type()),
                       let bar = Object.wrapper(of: UnsafeMutableRawPointer(header)) as? HeaderBar {
                        bar.allocateLayers(in: widget, height: height)
                    } else {
                        allocateEveryChild(of: widget, width: width, height: height, baseline: baseline)  // the bar's wrapper gone
                    }
                }
            }))
    }

}
