import CGtk

/// A list model of keys: each item is a string that identifies a record the app holds (a photo's URI, a
/// post's id), kept as one `GtkStringObject` per key in a `GListStore`. Recycled list views
/// (``ListView``, ``GridView``) show it. Every change emits one `items-changed`, and a key that stays in
/// the list keeps its item object when a change moves it (GTK 4.8 still rebinds the rows on screen
/// that moved; the cost of a change follows its size, so keep changes few and small).
/// Keys must be unique: a key given twice is shown twice, as two rows with one item object.
/// Main actor only.
@MainActor
public final class KeyListModel: Object {
    nonisolated(unsafe) private var items: [String: OpaquePointer] = [:]  // one reference each; freed in deinit

    /// Creates an empty model.
    public init() { super.init(g_list_store_new(gtk_string_object_get_type()), transfer: .full) }

    isolated deinit {
        for item in items.values { g_object_unref(UnsafeMutableRawPointer(item)) }
    }

    var store: OpaquePointer { opaque }

    /// Number of items.
    public var count: Int { Int(g_list_model_get_n_items(OpaquePointer(gobject))) }

    /// The key at `index` (0-based), or nil when out of range.
    public func key(at index: Int) -> String? {
        guard index >= 0, index < count, let item = g_list_model_get_item(OpaquePointer(gobject), guint(index)) else { return nil }
        defer { g_object_unref(item) }
        return gtk_string_object_get_string(OpaquePointer(item)).map { String(cString: $0) }
    }

    /// Replaces `removing` items from `index` with `keys` in one change (one `items-changed`). Keys that
    /// were in the list keep their item objects.
    public func splice(at index: Int, removing: Int, with keys: [String]) {
        var removed: [String] = []
        removed.reserveCapacity(removing)
        for position in index ..< index + removing {
            if let key = key(at: position) { removed.append(key) }
        }
        var additions: [UnsafeMutableRawPointer?] = keys.map { key in
            if let item = items[key] { return UnsafeMutableRawPointer(item) }
            let item = gtk_string_object_new(key)!
            items[key] = item
            return UnsafeMutableRawPointer(item)
        }
        additions.withUnsafeMutableBufferPointer { buffer in
            g_list_store_splice(store, guint(index), guint(removing), buffer.baseAddress, guint(keys.count))
        }
        for key in Set(removed).subtracting(keys) {
            if let item = items.removeValue(forKey: key) { g_object_unref(UnsafeMutableRawPointer(item)) }
        }
    }

    /// Appends `keys` at the end.
    public func append(_ keys: [String]) { splice(at: count, removing: 0, with: keys) }

    /// Inserts `key` at `index`.
    public func insert(_ key: String, at index: Int) { splice(at: index, removing: 0, with: [key]) }
}

/// Where a cell is bound: the item's position and key, and the list's own item widget (the focusable
/// row or tile that screen readers announce).
@MainActor
public struct ListItemBinding {
    /// The item's position in the model (0-based).
    public let position: Int
    /// The item's key (see ``KeyListModel``).
    public let key: String
    let itemWidget: UnsafeMutablePointer<GtkWidget>?

    /// The list's item widget (row or tile) holding the cell.
    public var item: Widget? { itemWidget.map { Widget.widget(wrapping: UnsafeMutableRawPointer($0)) } }

    /// Sets what a screen reader announces for the row or tile (the list item widget's accessible name)
    /// and its tooltip, when `tooltip` is given.
    public func setAccessibleLabel(_ label: String, tooltip: String? = nil) {
        guard let itemWidget else { return }
        navgtk_accessible_set_label(itemWidget, label)
        // Only when it changes: setting a tooltip (even none) asks the X server where the pointer is
        // (`gtk_widget_trigger_tooltip_query`), a round trip per row bound.
        let current = gtk_widget_get_tooltip_text(itemWidget).map { String(cString: $0) }
        if current != tooltip { gtk_widget_set_tooltip_text(itemWidget, tooltip) }
        // GTK 4.8 makes the tooltip the description as well, which Orca 43 speaks after the name: not
        // when it only repeats the name.
        if tooltip == label { navgtk_accessible_reset_description(itemWidget) }
    }
}

/// A cell of a recycled list: a small set of widgets made once and bound to item after item.
@MainActor
public protocol ListCell: AnyObject {
    /// The cell's top widget, put in the list item.
    var root: Widget { get }
}

/// A `GtkSignalListItemFactory` in the recycled-list pattern of Nautilus and elementary Files: *setup*
/// makes a cell (once per list item widget), *bind* points it at an item and starts its loads, *unbind*
/// cancels them and drops what it holds, *teardown* forgets the cell. Never build widgets in `bind`.
@MainActor
public final class ListItemFactory<Cell: ListCell>: Object {
    private let makeCell: @MainActor () -> Cell
    private let bind: @MainActor (Cell, ListItemBinding) -> Void
    private let unbind: @MainActor (Cell) -> Void
    private var cells: [UnsafeMutableRawPointer: Cell] = [:]
    private var bound: [UnsafeMutableRawPointer: Int] = [:]

    /// Creates a factory that makes cells with `makeCell`, binds them with `bind` and unbinds them with
    /// `unbind` (all on the main actor, from the list view's layout).
    public init(makeCell: @escaping @MainActor () -> Cell,
                bind: @escaping @MainActor (Cell, ListItemBinding) -> Void,
                unbind: @escaping @MainActor (Cell) -> Void) {
        self.makeCell = makeCell
        self.bind = bind
        self.unbind = unbind
        super.init(gtk_signal_list_item_factory_new(), transfer: .full)
        connect("setup") { [weak self] args in
            guard let self, let item = args.object(at: 1) else { return }
            let cell = self.makeCell()
            self.cells[item] = cell
            gtk_list_item_set_child(OpaquePointer(item), cell.root.widget)
        }
        connect("bind") { [weak self] args in
            guard let self, let item = args.object(at: 1), let cell = self.cells[item] else { return }
            let listItem = OpaquePointer(item)
            let position = Int(gtk_list_item_get_position(listItem))
            let key = gtk_list_item_get_item(listItem).flatMap {
                gtk_string_object_get_string(OpaquePointer($0)).map { String(cString: $0) }
            } ?? ""
            self.bound[item] = position
            self.bind(cell, ListItemBinding(position: position, key: key,
                                            itemWidget: gtk_widget_get_parent(cell.root.widget)))
        }
        connect("unbind") { [weak self] args in
            guard let self, let item = args.object(at: 1), let cell = self.cells[item] else { return }
            self.bound[item] = nil
            self.unbind(cell)
        }
        connect("teardown") { [weak self] args in
            guard let self, let item = args.object(at: 1) else { return }
            self.bound[item] = nil
            self.cells[item] = nil
        }
    }

    /// The cells bound now, with their positions, top first (what the list shows and keeps near).
    public var boundCells: [(position: Int, cell: Cell)] {
        bound.compactMap { item, position in cells[item].map { (position, $0) } }.sorted { $0.position < $1.position }
    }
}

/// What ``ListView`` and ``GridView`` share (`GtkListBase`): a model shown without selection, items
/// activated by click or Return, and the list's own keyboard actions.
@MainActor
public class ListBase: Widget {
    /// The model shown.
    public let model: KeyListModel

    init(_ pointer: UnsafeMutablePointer<GtkWidget>, model: KeyListModel) {
        self.model = model
        super.init(pointer, transfer: .full)
    }

    static func selection(for model: KeyListModel) -> OpaquePointer {
        g_object_ref(model.gobject)  // the selection model takes the list (transfer full)
        return gtk_no_selection_new(OpaquePointer(model.gobject))
    }

    static func retained(_ factory: Object) -> OpaquePointer {
        g_object_ref(factory.gobject)  // the view takes the factory (transfer full)
        return factory.pointer()
    }

    /// Runs `handler(position)` when an item is activated: a click (single-click lists) or Return on the
    /// focused item.
    public func onActivate(_ handler: @escaping @MainActor (Int) -> Void) {
        connect("activate") { args in handler(Int(args.uint(at: 1))) }
    }

    /// Activates the item at `position` as a click or Return on it would (the `list.activate-item`
    /// action). Does nothing when out of range.
    public func activateItem(at position: Int) {
        guard position >= 0, position < model.count else { return }
        gtk_widget_activate_action_variant(widget, "list.activate-item", g_variant_new_uint32(guint(position)))
    }

    /// Runs `handler(distance)` whenever the list scrolls or its content changes size, with the distance
    /// in pixels from the bottom of what is shown to the end of the list. The list must be in a
    /// scrolled window already; if it is not, this logs a message and does nothing.
    public func onScroll(_ handler: @escaping @MainActor (Double) -> Void) {
        guard let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(gobject)) else {
            Logger.toolkit.critical("ListBase.onScroll: the list is not in a scrolled window yet; nothing connected")
            return
        }
        let report: @MainActor (SignalArguments) -> Void = { args in
            guard let emitter = args.object(at: 0)?.assumingMemoryBound(to: GtkAdjustment.self) else { return }
            handler(gtk_adjustment_get_upper(emitter) - gtk_adjustment_get_value(emitter) - gtk_adjustment_get_page_size(emitter))
        }
        _ = Signals.connect(adjustment, "value-changed", after: false, handler: report)
        _ = Signals.connect(adjustment, "changed", after: false, handler: report)
    }

    /// Moves keyboard focus to the first item and scrolls it into view, as the Home key does (GTK's own
    /// key binding on the list, so the list's arrow keys go on from there). Returns false when the list
    /// is empty or has no such binding.
    @discardableResult
    public func focusFirstItem() -> Bool {
        guard model.count > 0 else { return false }
        // GtkListBase moves its cursor (the item arrow keys start from) only in its own key bindings;
        // focusing an item widget directly leaves the cursor behind. The bindings are the shortcuts of
        // the class's shortcut controller. A GTK 4.8 workaround: GTK 4.12 adds
        // `gtk_list_view_scroll_to`/`gtk_grid_view_scroll_to` with GTK_LIST_SCROLL_FOCUS, which does this.
        let controllers = gtk_widget_observe_controllers(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        for index in 0..<g_list_model_get_n_items(controllers) {
            let controller = g_list_model_get_item(controllers, index)!
            defer { g_object_unref(controller) }
            guard g_type_check_instance_is_a(controller.assumingMemoryBound(to: GTypeInstance.self),
                                             gtk_shortcut_controller_get_type()) != 0 else { continue }
            let shortcuts = OpaquePointer(controller)
            for item in 0..<g_list_model_get_n_items(shortcuts) {
                let shortcut = OpaquePointer(g_list_model_get_item(shortcuts, item)!)
                defer { g_object_unref(UnsafeMutableRawPointer(shortcut)) }
                guard let trigger = gtk_shortcut_get_trigger(shortcut),
                      g_type_check_instance_is_a(UnsafeMutableRawPointer(trigger).assumingMemoryBound(to: GTypeInstance.self),
                                                 gtk_keyval_trigger_get_type()) != 0,
                      gtk_keyval_trigger_get_keyval(trigger) == guint(GDK_KEY_Home),
                      gtk_keyval_trigger_get_modifiers(trigger).rawValue == 0,
                      let action = gtk_shortcut_get_action(shortcut) else { continue }
                return gtk_shortcut_action_activate(action, GTK_SHORTCUT_ACTION_EXCLUSIVE, widget,
                                                    gtk_shortcut_get_arguments(shortcut)) != 0
            }
        }
        return false
    }

    /// Scrolls so the item at `position` is shown, with the least scrolling (`list.scroll-to-item`), and
    /// makes GTK bind the items around it at once. Keyboard focus stays where it is; GTK keeps the
    /// focused item's widget while it is scrolled away. Does nothing for a position outside the model.
    public func scrollToItem(at position: Int) {
        guard position >= 0, position < model.count else { return }
        gtk_widget_activate_action_variant(widget, "list.scroll-to-item", g_variant_new_uint32(guint(position)))
    }
}

/// A `GtkGridView`: a recycled grid of tiles over a ``KeyListModel``; only the tiles on screen and near it
/// exist. Keyboard: arrows move between tiles, Return activates.
@MainActor
public final class GridView: ListBase {
    /// Creates a grid of `model` whose tiles `factory` makes and binds. Single click activates.
    public init<Cell>(model: KeyListModel, factory: ListItemFactory<Cell>) {
        let view = gtk_grid_view_new(Self.selection(for: model), Self.retained(factory))!
        super.init(view, model: model)
        gtk_grid_view_set_single_click_activate(pointer(), 1)
    }

    /// The fewest and most columns. GTK 4.8 creates tiles for about 30 rows × `maximumColumns`, so keep
    /// the maximum near what the width fits (an unbounded maximum makes thousands of tiles).
    public func setColumns(minimum: Int, maximum: Int) {
        gtk_grid_view_set_min_columns(pointer(), guint(max(1, minimum)))
        gtk_grid_view_set_max_columns(pointer(), guint(max(minimum, maximum)))
    }

    /// The most columns now.
    public var maximumColumns: Int { Int(gtk_grid_view_get_max_columns(pointer())) }
}

/// A `GtkListView`: a recycled vertical list of rows over a ``KeyListModel``; only the rows on screen and
/// near it exist.
@MainActor
public final class ListView: ListBase {
    /// Creates a list of `model` whose rows `factory` makes and binds. Single click activates.
    public init<Cell>(model: KeyListModel, factory: ListItemFactory<Cell>) {
        let view = gtk_list_view_new(Self.selection(for: model), Self.retained(factory))!
        super.init(view, model: model)
        gtk_list_view_set_single_click_activate(pointer(), 1)
    }
}
