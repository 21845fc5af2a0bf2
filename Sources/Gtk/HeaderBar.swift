import CGtk

/// A `GtkHeaderBar`: the title bar of a window with client-side decorations (title in the middle,
/// widgets packed at the start and end, window controls at the edges).
@MainActor
public final class HeaderBar: Widget {
    /// Creates an empty header bar.
    public init() { super.init(gtk_header_bar_new(), transfer: .full) }

    var bar: OpaquePointer { opaque }

    /// The end children, in the order packed (the first is outermost).
    public private(set) var endItems: [Widget] = []
    /// How many of the end children that may move are in the overflow menu now (the innermost ones).
    public private(set) var overflowCount = 0
    /// The overflow menu at the end of the bar ("More", `view-more-symbolic`), shown while end children
    /// do not fit: each child moved there is an item named by the button's label, or its accessible name
    /// for an icon button, and chooses it as a click would. Reached by Tab and opened with Return or
    /// Space, its items by the arrow keys, as GTK's menus are.
    public private(set) lazy var moreButton = MenuButton(iconName: "view-more-symbolic",
                                                        accessibleLabel: toolkitLocalized("More"), isPrimary: false)
    private var packedEnd: [Widget] = []
    private var titleFrame: AllocationBox?
    private var widthsOfMoved: [ObjectIdentifier: Int32] = [:]
    private var widthsSavedByCompacting: [ObjectIdentifier: Int32] = [:]
    private var isArranging = false
    private var menuNames: [String] = []
    private var isRecheckPending = false
    private var isShortOfRoom = false
    /// A start child that may go into the overflow menu last, after every end child that may, while
    /// ``startItemMayMove`` says so (a dialog's Cancel while its Back is shown); hidden in place meanwhile.
    public private(set) var movableStartItem: Widget?
    private var startItemMayMove: @MainActor () -> Bool = { false }
    private var hidStartItem = false

    /// Lets `item` (packed at the start) go into the overflow menu when even with every movable end child
    /// there the title is cut, while `when` is true; it comes back first when there is room or `when` turns
    /// false. A dialog's Cancel, while its Back is shown, so Back, the title and the affirmative action fit.
    public func setMovableStartItem(_ item: Widget?, when: @escaping @MainActor () -> Bool) {
        if let old = movableStartItem, old !== item, hidStartItem {
            old.isVisible = true  // the one it replaces comes back where it was
            hidStartItem = false
            overflowCount = min(overflowCount, movableItems.count)
        }
        movableStartItem = item
        startItemMayMove = when
        arrangeUnlessBatching()
    }

    /// How many items may be in the overflow menu now: the movable end children, and the start one while
    /// it may move.
    private var overflowLimit: Int {
        movableItems.count + (movableStartItem != nil && startItemMayMove() ? 1 : 0)
    }

    /// Adds `child` at the start (left in left-to-right locales), after earlier start children.
    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(bar, child.widget) }

    /// Adds `child` at the end (right in left-to-right locales), before earlier end children.
    ///
    /// When the bar is too narrow to show its title whole, end children move into the overflow menu
    /// (``moreButton``), innermost first, and come back when there is room again. Buttons move; the
    /// affirmative action (a button styled `suggested-action`) stays, at the very end (the GNOME HIG's
    /// order), and so do other widgets (a spinner, a menu button). When the title is still cut with
    /// everything moved, a staying button with a ``Button/compactLabel`` shows it, until there is room.
    public func packEnd(_ child: Widget) {
        endItems.append(child)
        arrangeUnlessBatching()
    }

    /// Whether `child` was added with `packStart` or `packEnd` and not removed (in the bar, or in its
    /// overflow menu).
    public func holds(_ child: Widget) -> Bool {
        endItems.contains { $0 === child } || contains(child.widget)
    }

    /// Removes a child added with `packStart` or `packEnd`.
    public func remove(_ child: Widget) {
        if let index = endItems.firstIndex(where: { $0 === child }) {
            endItems.remove(at: index)
            (child as? Button)?.showsCompactLabel = false  // its whole label in the next bar
            arrangeUnlessBatching()
        } else {
            gtk_header_bar_remove(bar, child.widget)
        }
    }

    /// The widget shown in the middle instead of the window title. The bar watches the width it is given
    /// to move end children into the overflow menu and back.
    public func setTitleWidget(_ widget: Widget?) {
        guard let widget else {
            titleFrame = nil
            gtk_header_bar_set_title_widget(bar, nil)
            return
        }
        let frame = AllocationBox(around: widget)
        // It takes all the room between the bar's start and end items (GtkCenterLayout gives an expanding
        // centre child the width left, still centred), so that it is allocated again whenever the bar's
        // width changes and says how much room a moved button would have to come back.
        gtk_widget_set_hexpand(frame.view.widget, 1)
        frame.onAllocated = { [weak self] width in self?.titleAllocated(width: width, title: widget) }
        titleFrame = frame
        gtk_header_bar_set_title_widget(bar, frame.view.widget)
    }

    /// Whether the window controls (close, minimize, maximize) are shown; false for modal dialogs that
    /// have their own Cancel.
    public var showsTitleButtons: Bool {
        get { gtk_header_bar_get_show_title_buttons(bar) != 0 }
        set { gtk_header_bar_set_show_title_buttons(bar, newValue ? 1 : 0) }
    }

    /// The end children that may move into the overflow menu, outermost first.
    private var movableItems: [Widget] { endItems.filter(Self.mayMove) }

    private static func mayMove(_ item: Widget) -> Bool {
        item is Button && !item.hasCSSClass("suggested-action")
    }

    /// Runs `changes` (``packStart(_:)``, ``packEnd(_:)``, ``remove(_:)``, ``setMovableStartItem(_:when:)``)
    /// and arranges the end children and the overflow menu once, after all of them, instead of after
    /// each: a navigation stack moving one page's items out and the next page's in. Nests; main thread.
    public func performUpdates(_ changes: () -> Void) {
        batchDepth += 1
        changes()
        batchDepth -= 1
        if batchDepth == 0, needsArrange {
            needsArrange = false
            arrange()
        }
    }

    private var batchDepth = 0
    private var needsArrange = false

    private func arrangeUnlessBatching() {
        guard batchDepth > 0 else { return arrange() }
        // As arrange would at once: fewer items to move keeps fewer in the menu, for the items that come next.
        overflowCount = min(overflowCount, overflowLimit)
        needsArrange = true
    }

    /// Packs the end children again: the affirmative action outermost, then what stays, then the overflow
    /// menu (when anything is in it), then the buttons that still fit; the last ``overflowCount`` movable
    /// buttons go into the menu.
    private func arrange() {
        isArranging = true
        defer { isArranging = false }
        overflowCount = min(overflowCount, overflowLimit)
        let movable = movableItems
        let moved = Array(movable.suffix(min(overflowCount, movable.count)))
        let startMoved = overflowCount > movable.count
        if let start = movableStartItem, startMoved != hidStartItem {
            start.isVisible = !startMoved
            hidStartItem = startMoved
        }
        let staying = endItems.filter { !Self.mayMove($0) }
        // Outermost first. More is always packed, hidden while nothing is in it.
        let order = staying.filter { $0.hasCSSClass("suggested-action") } + staying.filter { !$0.hasCSSClass("suggested-action") }
            + [moreButton] + movable.dropLast(moved.count)
        moreButton.isVisible = overflowCount > 0
        // What stays in the bar is only reordered, never taken out and put back: taking a widget out
        // unrealizes it and its popovers, and GTK 4.8 then still refers to a popover's freed surface (its
        // tooltip timer after More's menu was used: a critical, as the pointer-focus crash was).
        for item in packedEnd where gtk_widget_is_ancestor(item.widget, widget) != 0 && !order.contains(where: { $0 === item }) {
            gtk_header_bar_remove(bar, item.widget)
        }
        for item in order.reversed() where gtk_widget_is_ancestor(item.widget, widget) == 0 {
            if item.parentWidget != nil { gtk_widget_unparent(item.widget) }  // in another bar's box
            gtk_header_bar_pack_end(bar, item.widget)
        }
        if let endBox = gtk_widget_get_parent(moreButton.widget) {
            var previous: UnsafeMutablePointer<GtkWidget>?
            for item in order.reversed() {  // the end box's children, start to end
                gtk_box_reorder_child_after(UnsafeMutableRawPointer(endBox).assumingMemoryBound(to: GtkBox.self), item.widget, previous)
                previous = item.widget
            }
        }
        packedEnd = order
        recheckAfterLayout()
        let menuItems = moved + (startMoved ? movableStartItem.map { [$0] } ?? [] : [])
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

    /// The title was given a new width: look again once the layout has settled (a width seen in the
    /// middle of a page's transition moves nothing).
    private func titleAllocated(width: Int32, title: Widget) {
        guard !isArranging else { return }
        recheckAfterLayout()
    }

    /// Too little room for the whole title moves the innermost button into the menu (then, last, the
    /// movable start item); room for the last one moved (and the menu, if it is the only one) brings it
    /// back. One step per layout, from the width the title has now.
    private func reconsider() {
        guard let frame = titleFrame else { return }
        guard frame.isMapped else {
            // Not on screen (a page being swapped in): look again in a moment, or when it is laid out.
            if overflowCount > 0 || isShortOfRoom { recheck(inMilliseconds: 100) }
            return
        }
        let width = frame.width, natural = frame.child.naturalWidth
        let movable = movableItems
        /// The item the next move takes (innermost end child first, then the start one), or the last moved.
        func item(at index: Int) -> Widget? {
            index < movable.count ? movable[movable.count - 1 - index] : movableStartItem
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
        } else if width >= natural, let last = compactable.last(where: \.showsCompactLabel) {
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
