import CGtk

/// One page's part of a header bar — its start items, its title, its end items and their overflow menu
/// (More) — built once and kept in one ``HeaderBar`` for as long as that bar shows the page: the bar
/// holds a layer per page and switches and cross-fades between them (``HeaderBar/crossFade(from:to:progress:)``),
/// so no item is ever taken out of the bar and put back when the page changes. libadwaita 1.4 gives
/// each navigation page a header bar of its own for the same reason; iOS's navigation bar cross-fades
/// its items likewise.
///
/// The layer's items are laid out exactly where a `GtkHeaderBar` would put them had they been packed
/// into it after the bar's own start items (Back, Cancel) and before its own end items (the window
/// controls): see ``HeaderBar``.
///
/// **Overflow.** When the bar is too narrow to show the title whole, end items move into the overflow
/// menu (``moreButton``), innermost first, and come back when there is room again. Buttons move; the
/// affirmative action (a button styled `suggested-action`) stays, at the very end (the GNOME HIG's
/// order), and so do other widgets (a spinner, a menu button). A moved item is hidden where it is, not
/// taken out. When the title is still cut with everything moved, a staying button with a
/// ``Button/compactLabel`` shows it, until there is room. As a last resort, when even then the bar has
/// less room than the title's fewest characters need (large text in a narrow window), the staying buttons
/// go into the menu too, innermost first, and come back first once the whole title and they fit: the
/// bar's minimum width counts them as in the menu, so that a window can always be as narrow as a phone
/// (GNOME's adaptive apps move what does not fit into a menu likewise). Main actor only.
@MainActor
public final class BarLayer {
    /// The layer's title widget (a page's title and subtitle), centred in the bar.
    public let title: Widget
    /// Holds the start items (start to end).
    package let startBox = Box(.horizontal, spacing: HeaderBar.itemSpacing)
    /// Holds the end items, More among them (start to end).
    package let endBox = Box(.horizontal, spacing: HeaderBar.itemSpacing)

    /// The start items, in the order packed.
    public private(set) var startItems: [Widget] = []
    /// The end items, in the order packed (the first is outermost).
    public private(set) var endItems: [Widget] = []
    /// How many of the end items that may move are in the overflow menu now (the innermost ones), plus
    /// one while the movable start item is there too.
    public private(set) var overflowCount = 0
    /// The overflow menu at the end of the layer ("More", `view-more-symbolic`), shown while items do not
    /// fit: each item moved there is a menu item named by the button's label, or its accessible name for
    /// an icon button, and chooses it as a click would. Reached by Tab and opened with Return or Space,
    /// its items by the arrow keys, as GTK's menus are.
    public let moreButton = MenuButton(iconName: "view-more-symbolic", accessibleLabel: toolkitLocalized("More"),
                                       isPrimary: false)

    /// The bar holding the layer now, if any (set by the bar).
    package weak var bar: HeaderBar?
    private var outermostCount = 0
    private var movedVisibility: [ObjectIdentifier: Bool] = [:]
    private var widthsOfMoved: [ObjectIdentifier: Int] = [:]
    private var widthsSavedByCompacting: [ObjectIdentifier: Int] = [:]
    private var menuNames: [String] = []
    private var isRecheckPending = false
    private var isShortOfRoom = false
    /// How many of the staying buttons (``lastResortItems``) are in the overflow menu now, innermost first.
    private var lastResortCount = 0
    /// The More button's width when last measured shown (an icon button's, as Back's).
    private var moreWidth: Int32 = 34
    private var ownMovableStartItem: Widget?
    private var ownStartItemMayMove: @MainActor () -> Bool = { false }

    /// Creates a layer showing `title`, with no items.
    public init(title: Widget) {
        self.title = title
        title.expandsHorizontally = true  // the room between the items is the title's (as a bar's title widget)
        title.drawsOutsideBounds = false  // given less than its minimum for a moment, it is clipped (see HeaderBar)
        endBox.append(moreButton)
        moreButton.isVisible = false
    }

    /// The three widgets the bar lays out: start items, title, end items.
    package var widgets: [Widget] { [startBox, title, endBox] }

    /// Adds `item` at the start (left in left-to-right locales), after earlier start items.
    public func packStart(_ item: Widget) {
        startItems.append(item)
        startBox.append(item)
    }

    /// Adds `item` at the end (right in left-to-right locales), inside earlier end items — or, with
    /// `outermost`, outside every item packed without it (a host's item on every page, e.g. a dialog's
    /// Help), after earlier outermost ones.
    public func packEnd(_ item: Widget, outermost: Bool = false) {
        if outermost {
            endItems.insert(item, at: outermostCount)
            outermostCount += 1
        } else {
            endItems.append(item)
        }
        endBox.append(item)
        arrange()
    }

    /// Whether `item` was packed and not removed (shown, or in the overflow menu).
    public func holds(_ item: Widget) -> Bool {
        endItems.contains { $0 === item } || startItems.contains { $0 === item }
    }

    /// Takes out an item packed with ``packStart(_:)`` or ``packEnd(_:outermost:)`` (its visibility as
    /// it was before any move into the overflow menu).
    public func remove(_ item: Widget) {
        if let index = endItems.firstIndex(where: { $0 === item }) {
            endItems.remove(at: index)
            if index < outermostCount { outermostCount -= 1 }
            restoreVisibility(of: item)
            (item as? Button)?.showsCompactLabel = false
            endBox.remove(item)
            arrange()
        } else if let index = startItems.firstIndex(where: { $0 === item }) {
            startItems.remove(at: index)
            if item === ownMovableStartItem { setMovableStartItem(nil, when: { false }) }
            startBox.remove(item)
        }
    }

    /// Lets `item` (a start item of this layer, e.g. a flow's Cancel) go into the overflow menu last,
    /// after every end item that may, while `when` is true — unless the bar has a movable start item of
    /// its own (``HeaderBar/setMovableStartItem(_:when:)``), which goes first.
    public func setMovableStartItem(_ item: Widget?, when: @escaping @MainActor () -> Bool) {
        guard item !== ownMovableStartItem else {
            ownStartItemMayMove = when
            return
        }
        ownMovableStartItem = item
        ownStartItemMayMove = when
        arrange()
    }

    /// The start item that may move now (the bar's own, else this layer's) and whether it may.
    private var movableStart: (item: Widget, mayMove: Bool)? {
        if let bar, let item = bar.movableStartItem { return (item, bar.startItemMayMove()) }
        return ownMovableStartItem.map { ($0, ownStartItemMayMove()) }
    }

    /// The end items that may move into the overflow menu, outermost first.
    private var movableItems: [Widget] { endItems.filter(Self.mayMove) }

    private static func mayMove(_ item: Widget) -> Bool {
        item is Button && !item.hasCSSClass("suggested-action")
    }

    /// The buttons that stay in the bar while the title fits (the affirmative action), outermost first:
    /// they go into the overflow menu only as a last resort (see the type's docs).
    private var lastResortItems: [Widget] { endItems.filter { $0 is Button && !Self.mayMove($0) } }

    /// The narrowest the end items can be, in pixels: every button in the overflow menu, the menu and the
    /// other items shown. What the bar counts for its minimum width (see the type's docs).
    package var minimumEndWidth: Int32 {
        var total: Int32 = 0, count: Int32 = 0
        var hasButton = false
        for item in endItems {
            if item is Button {
                // Shown, or in the menu because it was: one the page hid itself needs no room.
                hasButton = hasButton || item.isVisible || movedVisibility[ObjectIdentifier(item)] == true
            } else if item.isVisible {
                var minimum: Int32 = 0, natural: Int32 = 0
                gtk_widget_measure(item.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
                total += minimum
                count += 1
            }
        }
        if hasButton {
            if moreButton.isVisible {
                var natural: Int32 = 0
                gtk_widget_measure(moreButton.widget, GTK_ORIENTATION_HORIZONTAL, -1, &moreWidth, &natural, nil, nil)
            }
            total += moreWidth
            count += 1
        }
        return total + max(0, count - 1) * Int32(HeaderBar.itemSpacing)
    }

    private var overflowLimit: Int {
        movableItems.count + (movableStart?.mayMove == true ? 1 : 0)
    }

    /// Whether this layer arranges the bar's shared start item now (it is the bar's current layer).
    private var isCurrent: Bool { bar?.currentLayer === self }

    /// Takes over the arrangement where `previous` (the layer shown before) left it: as many items in
    /// the overflow menu, so a page shown after one short of room does not first show every button.
    package func continueArrangement(from previous: BarLayer?) {
        if let previous, previous !== self, !isArrangedOnce {
            overflowCount = previous.overflowCount
            lastResortCount = previous.lastResortCount
        }
        isArrangedOnce = true
        arrange()
    }
    private var isArrangedOnce = false

    /// Hides the moved items where they are and shows the rest; orders the end box: the affirmative
    /// action outermost, then what stays, then More (when anything is in it), then the buttons that fit.
    package func arrange() {
        overflowCount = min(overflowCount, overflowLimit)
        let lastResort = lastResortItems
        lastResortCount = min(lastResortCount, lastResort.count)
        let movedLast = Array(lastResort.suffix(lastResortCount))
        let movable = movableItems
        let moved = Array(movable.suffix(min(overflowCount, movable.count)))
        let start = movableStart
        let startMoved = overflowCount > movable.count && start != nil
        if isCurrent, let bar {
            // The bar keeps what its layers hid at the start. The current layer gives back what it does not
            // hide now — the bar's own item, or its own — but not another layer's own item, which stays
            // hidden in that layer (fading out, or until it is shown again and decides).
            let givenBack = bar.hiddenStartItems.filter { hidden in
                (hidden !== start?.item || !startMoved) && !bar.layers.contains { $0 !== self && $0.holds(hidden) }
            }
            for hidden in givenBack { hidden.isVisible = true }
            bar.hiddenStartItems.removeAll { hidden in givenBack.contains { $0 === hidden } }
            if startMoved, let item = start?.item, item.isVisible {
                item.isVisible = false
                bar.hiddenStartItems.append(item)
            }
        }
        for item in movable + lastResort {
            let id = ObjectIdentifier(item)
            if moved.contains(where: { $0 === item }) || movedLast.contains(where: { $0 === item }) {
                if movedVisibility[id] == nil {
                    movedVisibility[id] = item.isVisible
                    item.isVisible = false
                }
            } else {
                restoreVisibility(of: item)
            }
        }
        let staying = endItems.filter { !Self.mayMove($0) }
        // Outermost first: the affirmative action, what else stays, More, the buttons that may move.
        let order = staying.filter { $0.hasCSSClass("suggested-action") } + staying.filter { !$0.hasCSSClass("suggested-action") }
            + [moreButton] + movable
        moreButton.isVisible = overflowCount > 0 || lastResortCount > 0
        // Reordered in place (never taken out and put back, which unrealizes a widget and its popovers).
        var previous: UnsafeMutablePointer<GtkWidget>?
        for item in order.reversed() {  // the end box's children, start to end
            gtk_box_reorder_child_after(UnsafeMutableRawPointer(endBox.widget).assumingMemoryBound(to: GtkBox.self), item.widget, previous)
            previous = item.widget
        }
        if isCurrent { recheckAfterLayout() }
        // The affirmative action first, when it is there: the page's main action.
        let menuItems = movedLast + moved + (startMoved ? start.map { [$0.item] } ?? [] : [])
        let names = menuItems.compactMap { ($0 as? Button).map { String(($0.label ?? $0.tooltip ?? "").filter { $0 != "_" }) } }
        guard names != menuNames else { return }
        menuNames = names
        moreButton.removeAllItems()
        for (item, name) in zip(menuItems, names) {
            moreButton.addItem(name) { [weak item] in
                guard let button = item as? Button, button.isSensitive else { return }
                button.emitClicked()  // an icon button's tooltip is its accessible name
            }
        }
    }

    private func restoreVisibility(of item: Widget) {
        if let wasVisible = movedVisibility.removeValue(forKey: ObjectIdentifier(item)) { item.isVisible = wasVisible }
    }

    /// Whether the layer is still deciding what goes into the overflow menu (a look after the next layout
    /// pending, or short of room and looking again in a moment). The review gallery waits for it.
    package var isArranging: Bool { isRecheckPending || isShortOfRoom }

    /// GTK allocates the title again only when its size changes: look once more after the next layout.
    private func recheckAfterLayout() {
        guard !isRecheckPending else { return }
        isRecheckPending = true
        MainLoopBridge.afterLayout { [weak self] in
            guard let self else { return }
            self.isRecheckPending = false
            self.reconsider()
        }
    }

    /// The bar gave the title a width (the bar's current layer): look again once the layout has settled
    /// (a width seen in the middle of a transition moves nothing).
    package func titleAllocated() { recheckAfterLayout() }

    /// Too little room for the whole title moves the innermost button into the menu (then, last, the
    /// movable start item); room for the last one moved (and the menu, if it is the only one) brings it
    /// back. One step per layout, from the width the title has now; only for the bar's current layer.
    private func reconsider() {
        guard isCurrent else { return }
        guard title.isMapped, bar?.isCrossFading != true else {
            // Not on screen, or cross-fading: look again in a moment, or when it is laid out.
            if overflowCount > 0 || lastResortCount > 0 || isShortOfRoom { recheck(inMilliseconds: 100) }
            return
        }
        let width = title.width
        var minimum: Int32 = 0, measuredNatural: Int32 = 0
        gtk_widget_measure(title.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &measuredNatural, nil, nil)
        let natural = Int(measuredNatural)
        let lastResort = lastResortItems
        let movable = movableItems
        let start = movableStart
        /// The item the next move takes (innermost end item first, then the start one), or the last moved.
        func item(at index: Int) -> Widget? {
            index < movable.count ? movable[movable.count - 1 - index] : start?.item
        }
        let compactable = endItems.compactMap { $0 as? Button }.filter { !Self.mayMove($0) && $0.compactLabel != nil && $0.isVisible }
        if width < natural, overflowCount >= overflowLimit, let next = compactable.first(where: { !$0.showsCompactLabel }) {
            // Everything that can move has: a staying button (the affirmative action) shows its shorter label.
            guard isShortOfRoom else {
                isShortOfRoom = true
                return recheck(inMilliseconds: 100)
            }
            isShortOfRoom = false
            let before = next.width
            next.showsCompactLabel = true
            widthsSavedByCompacting[ObjectIdentifier(next)] = max(0, before - next.naturalWidth)
            recheckAfterLayout()
        } else if width >= natural, lastResortCount == 0, let last = compactable.last(where: \.showsCompactLabel) {
            // Room again: the full label comes back first (before anything moved comes out of the menu).
            isShortOfRoom = false
            guard width - natural >= (widthsSavedByCompacting[ObjectIdentifier(last)] ?? 0) + 6 else { return }
            last.showsCompactLabel = false
            recheckAfterLayout()
        } else if width < natural, overflowCount < overflowLimit, let next = item(at: overflowCount) {
            // Short of room twice, 100 ms apart: a width seen only while the bar changes moves nothing.
            guard isShortOfRoom else {
                isShortOfRoom = true
                return recheck(inMilliseconds: 100)
            }
            isShortOfRoom = false
            widthsOfMoved[ObjectIdentifier(next)] = next.width
            overflowCount += 1
            arrange()
        } else if width < Int(minimum), lastResortCount < lastResort.count {
            // Less room than the title's fewest characters with everything else moved and compacted: the
            // staying buttons go too, innermost first (twice short, 100 ms apart, as above).
            guard isShortOfRoom else {
                isShortOfRoom = true
                return recheck(inMilliseconds: 100)
            }
            isShortOfRoom = false
            let next = lastResort[lastResort.count - 1 - lastResortCount]
            widthsOfMoved[ObjectIdentifier(next)] = next.width
            lastResortCount += 1
            arrange()
        } else if lastResortCount > 0 {
            // They come back first, one at a time, once the whole title and the button fit beside each other.
            isShortOfRoom = false
            let last = lastResort[lastResort.count - lastResortCount]
            let menuGoes = lastResortCount == 1 && overflowCount == 0
            let needed = (widthsOfMoved[ObjectIdentifier(last)] ?? 34) + 6 + (menuGoes ? moreButton.width + 6 : 0)
            guard width - natural >= needed else { return }
            lastResortCount -= 1
            arrange()
        } else {
            isShortOfRoom = false
            guard overflowCount > 0, let last = item(at: overflowCount - 1) else { return }
            let needed = (widthsOfMoved[ObjectIdentifier(last)] ?? 34) + 6 + (overflowCount == 1 ? moreButton.width + 6 : 0)
            guard width - natural >= needed else { return }
            overflowCount -= 1
            arrange()
        }
    }

    private func recheck(inMilliseconds delay: UInt32) {
        MainLoopBridge.repeating(milliseconds: delay) { [weak self] in
            self?.reconsider()
            return false
        }
    }
}
