import CGtk
import Glibc

/// A `GtkMenuButton` showing a menu of actions (a GNOME primary menu: icon `open-menu-symbolic` at the
/// end of the bar). Each item runs a handler through a `GSimpleAction` in the button's own action group
/// (`menu.<name>`), and may show its keyboard shortcut, as GNOME menus do.
@MainActor
public final class MenuButton: Widget {
    nonisolated(unsafe) private let menu = g_menu_new()!
    nonisolated(unsafe) private let actions = g_simple_action_group_new()!
    /// The items' labels, in order.
    public private(set) var itemLabels: [String] = []
    /// The button's name for screen readers, and its menu's.
    private var accessibleName = ""
    /// Whether the menu is open.
    public var isMenuOpen: Bool {
        gtk_menu_button_get_popover(opaque).map { gtk_widget_get_visible(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) != 0 } ?? false
    }

    /// The menu's popover (GTK makes it from the items), e.g. to draw it in a screenshot while open;
    /// nil before GTK has made it.
    public var menuPopover: Widget? {
        gtk_menu_button_get_popover(opaque).map { Widget.widget(wrapping: UnsafeMutableRawPointer($0)) }
    }

    /// Opens the menu, as clicking the button does.
    public func openMenu() { gtk_menu_button_popup(opaque) }

    /// Closes the menu.
    public func closeMenu() { gtk_menu_button_popdown(opaque) }

    /// Creates a menu button showing `iconName`; `accessibleLabel` is its name for screen readers and
    /// its tooltip (e.g. "Main Menu"). A primary menu (`isPrimary`, the default) also opens with F10
    /// (`gtk_menu_button_set_primary`, as the GNOME HIG's primary menu does).
    public init(iconName: String, accessibleLabel: String, isPrimary: Bool = true) {
        super.init(navgtk_menu_button_new_read_once(), transfer: .full)  // read once, as its button
        gtk_menu_button_set_primary(opaque, isPrimary ? 1 : 0)
        gtk_menu_button_set_icon_name(opaque, iconName)
        gtk_widget_insert_action_group(widget, "menu", OpaquePointer(actions))
        setAccessibleLabel(accessibleLabel)
        accessibleName = accessibleLabel
        tooltip = accessibleLabel
        // The popover is made when the menu is about to show (GtkMenuButton's create-popup function),
        // not before: making a GtkPopoverMenu from the model is most of what the button costs, and most
        // menu buttons in pages' bars are never opened.
        let model = MenuModelBox(menu)
        gtk_menu_button_set_create_popup_func(opaque, { button, data in
            guard let button, let data else { return }
            let model = Unmanaged<MenuModelBox>.fromOpaque(data).takeUnretainedValue()
            gtk_menu_button_set_menu_model(button, model.pointer)
            MainActor.assumeIsolated { model.owner?.watchClosing() }
        }, Unmanaged.passRetained(model).toOpaque(), { data in
            if let data { Unmanaged<MenuModelBox>.fromOpaque(data).release() }
        })
        model.owner = self
    }

    /// The menu model, for the create-popup function (which may outlive this wrapper with the widget).
    private final class MenuModelBox {
        let pointer: UnsafeMutablePointer<GMenuModel>
        /// The wrapper, while it lives (to watch the new popover close).
        weak var owner: MenuButton?
        init(_ menu: OpaquePointer) {
            pointer = UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
            g_object_ref(UnsafeMutableRawPointer(menu))
        }
        deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
    }

    /// Drops the popover unless it is open; the next opening makes a new one (the create-popup function).
    ///
    /// After each time the menu has closed: GTK 4.8's menu items set their accessible role again when
    /// their button is put in a widget tree again, which GTK refuses with a critical once a screen reader
    /// has read them; a popover never shown since has nothing read. A navigation stack's bar no longer
    /// moves its items on every Back (each page's items stay in its ``BarLayer``), but a page's layer still
    /// moves when the page changes host (presented alone, then pushed), so this stays. A workaround for GTK 4.8 (Debian 12), the only GTK it was seen on; no newer GTK was
    /// at hand to find the release that needs it no more: try one popover on GTK 4.10 or later (the
    /// accessibility code was reworked after 4.8) with a screen reader reading the menu, and drop this if
    /// no critical comes.
    private func dropPopover() {
        guard gtk_menu_button_get_popover(opaque) != nil, !isMenuOpen else { return }
        gtk_menu_button_set_menu_model(opaque, nil)
    }

    /// Drops the popover made by the create-popup function once it has closed (see ``dropPopover()``).
    fileprivate func watchClosing() {
        guard let popover = gtk_menu_button_get_popover(opaque) else { return }
        navgtk_popover_menu_name_for_screen_readers(UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkWidget.self),
                                                    accessibleName)
        Object.wrapping(UnsafeMutableRawPointer(popover)).connect("closed") { [weak self] _ in
            MainLoopBridge.afterLayout { [weak self] in self?.dropPopover() }
        }
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(menu))
        g_object_unref(UnsafeMutableRawPointer(actions))
    }

    /// Adds an item reading `label` that runs `handler`; `accelerator` (e.g. "F1", "<Control>q") is shown
    /// beside it — install the shortcut itself on the window.
    ///
    /// Chosen from the open menu, `handler` runs once the menu has closed and its window has the focus
    /// back: a dialog the handler presents before that loses it to the menu's button, unheard by a screen
    /// reader (Orca 43 said nothing of My Code opening from the menu).
    public func addItem(_ label: String, accelerator: String? = nil, handler: @escaping @MainActor () -> Void) {
        let name = "item\(itemLabels.count)"
        itemLabels.append(label)
        addSimpleAction(named: name, to: OpaquePointer(actions)) { [weak self] in
            guard let self, self.isMenuOpen else { return handler() }
            self.closeMenu()
            self.whenWindowActiveAgain(handler)
        }
        let item = g_menu_item_new(label, "menu.\(name)")!
        if let accelerator { g_menu_item_set_attribute_value(item, "accel", g_variant_new_string(accelerator)) }
        g_menu_append_item(menu, item)
        g_object_unref(UnsafeMutableRawPointer(item))
    }

    /// Runs `body` once the button's window has the keyboard focus again after the menu closed, on this
    /// button (the window system and GTK give them back a moment later), or after 0.3 s when they do not
    /// come (no window manager). Checked every 20 ms.
    private func whenWindowActiveAgain(_ body: @escaping @MainActor () -> Void) {
        var checks = 0
        func check() {
            checks += 1
            // Active, with the focus back on this button (GTK gives it back a moment after the activation).
            let back = rootWindow.map { window in
                gtk_window_is_active(window) != 0 && gtk_window_get_focus(window).map { self.contains($0) } == true
            } ?? true
            if back || checks >= 15 {
                body()
            } else {
                MainLoopBridge.after(.seconds(0.02)) { check() }
            }
        }
        MainLoopBridge.after(.seconds(0.02)) { check() }
    }

    /// Removes every item.
    public func removeAllItems() {
        g_menu_remove_all(menu)
        for index in itemLabels.indices { g_action_map_remove_action(OpaquePointer(actions), "item\(index)") }
        itemLabels = []
    }

    /// Runs the item reading `label` as choosing it would; false when there is none.
    @discardableResult
    public func activateItem(_ label: String) -> Bool {
        guard let index = itemLabels.firstIndex(of: label) else { return false }
        g_action_group_activate_action(OpaquePointer(actions), "item\(index)", nil)
        return true
    }
}

/// A menu that pops up from a widget (`GtkPopoverMenu` from a `GMenu`): a context menu, or a history
/// menu on a Back button. Its items are menu items to a screen reader, and it is used with the keyboard
/// (arrows, Return, Escape) as GNOME menus are. Each item runs a handler through a `GSimpleAction` in the
/// menu's own action group. The menu is a child of `anchor` and goes with it. Main actor.
@MainActor
public final class PopupMenu: Widget {
    nonisolated(unsafe) private let menu = g_menu_new()!
    nonisolated(unsafe) private var actions = g_simple_action_group_new()!
    /// The items' labels, in order.
    public private(set) var itemLabels: [String] = []

    /// Creates an empty menu that pops up from `anchor`; screen readers find it named `accessibleLabel`
    /// (e.g. "Go Back To", Back's history), said before its first item.
    public init(anchor: Widget, accessibleLabel: String) {
        self.anchor = anchor
        super.init(gtk_popover_menu_new_from_model(UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)),
                   transfer: .full)
        accessibleName = accessibleLabel
        navgtk_popover_menu_name_for_screen_readers(widget, accessibleLabel)
        gtk_widget_insert_action_group(widget, "popup", OpaquePointer(actions))
        // A popover is a child of its anchor but not a layout child: it must be unparented before the
        // anchor is finalized (GTK warns). It is attached at the first popup() and stays attached while
        // closed, as GtkMenuButton keeps its popover, until the anchor's window goes (unrealize). It is
        // not unparented when it closes: that unrealizes its surface while GTK may still hold the chosen
        // item as the pointer's focus (the crossing events come later), and GTK 4.8's next window layout
        // then asks that freed surface for a motion event (a crash in gdk_surface_request_motion, seen
        // with libadwaita's style sheet after choosing a page from Back's history menu).
        anchor.connect("unrealize") { [weak self] _ in  // its window is going
            guard let self else { return }
            if self.isVisible { self.popdown() }  // closed first: an open popover holds the pointer grab
            self.detach()
        }
        // The anchor being destroyed while the popover hangs from it (the menu itself already gone): let
        // go of it there, as GtkMenuButton does in its dispose (GTK warns when a button is finalized with
        // a child it did not lay out). The popover is known by its address only: it may be gone.
        let anchorWidget = anchor.widget
        let popover = UnsafeMutableRawPointer(widget)
        _ = Signals.connect(UnsafeMutableRawPointer(anchorWidget), "destroy", after: false) { _ in
            var child = gtk_widget_get_first_child(anchorWidget)
            while let current = child {
                child = gtk_widget_get_next_sibling(current)
                if UnsafeMutableRawPointer(current) == popover { gtk_widget_unparent(current) }
            }
        }
    }

    private func detach() {
        if gtk_widget_get_parent(widget) != nil { gtk_widget_unparent(widget) }
    }

    private weak var anchor: Widget?
    /// The menu's name for screen readers.
    private var accessibleName = ""

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(menu))
        g_object_unref(UnsafeMutableRawPointer(actions))
    }

    /// Replaces the items: each reads `label` and runs `handler` when chosen.
    public func setItems(_ items: [(label: String, handler: @MainActor () -> Void)]) {
        g_menu_remove_all(menu)
        let fresh = g_simple_action_group_new()!
        for (index, item) in items.enumerated() {
            addSimpleAction(named: "item\(index)", to: OpaquePointer(fresh), handler: item.handler)
            g_menu_append(menu, item.label, "popup.item\(index)")
        }
        gtk_widget_insert_action_group(widget, "popup", OpaquePointer(fresh))
        g_object_unref(UnsafeMutableRawPointer(actions))
        actions = fresh
        itemLabels = items.map(\.label)
    }

    /// Opens the menu next to its anchor (which must be shown in a window).
    public func popup() {
        guard let anchor, anchor.isMapped else { return }
        if gtk_widget_get_parent(widget) == nil { gtk_widget_set_parent(widget, anchor.widget) }
        navgtk_popover_menu_name_for_screen_readers(widget, accessibleName)  // pages made since, too
        gtk_popover_popup(pointer(as: GtkPopover.self))
    }

    /// Closes the menu.
    public func popdown() { gtk_popover_popdown(pointer(as: GtkPopover.self)) }

    /// Whether the menu is open.
    public var isOpen: Bool { isVisible }

    /// Runs the item reading `label` as choosing it would, and closes the menu; false when there is none.
    @discardableResult
    public func activateItem(_ label: String) -> Bool {
        guard let index = itemLabels.firstIndex(of: label) else { return false }
        popdown()
        g_action_group_activate_action(OpaquePointer(actions), "item\(index)", nil)
        return true
    }
}
