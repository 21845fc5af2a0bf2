import CGtk

extension Widget {
    /// Gives screen readers sensible names for the parts of GTK 4.8's own composite windows
    /// (`GtkShortcutsWindow`, libadwaita's `AdwAboutWindow`) that it exposes over AT-SPI by their type name
    /// ("GtkImage", "GtkTextView", "GtkMenuButton"). Walks everything in this widget once, after it is
    /// shown:
    /// - an icon without a name is decoration, hidden from screen readers;
    /// - a button without a name is named by its tooltip, else by its standard icon ("Search" for
    ///   `edit-find-symbolic`), else hidden when it is not on screen (a switcher GTK keeps but does not
    ///   show);
    /// - a button without a name showing a label child is named by that label's text (GTK 4.8 names a
    ///   button by its `label` only);
    /// - a text view without a name is named by the title of the stack page it is on ("License"), else
    ///   by the title in its page's header bar ("Troubleshooting");
    /// - a stack's pages are named as the application, which Orca 43 then says nothing of (it said
    ///   "GtkStackPage panel" before the control focused in one).
    ///
    /// Main actor only. Widgets added later are not seen.
    public func repairScreenReaderNames() {
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            let type = navgtk_type_of(widget)
            let named = navgtk_accessible_has_label(widget) != 0
            switch type {
            case gtk_image_get_type() where !named:
                navgtk_accessible_set_hidden(widget, 1)
            case gtk_button_get_type() where named && gtk_button_get_use_underline(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)) != 0:
                // A mnemonic button, which GTK 4.8 names twice ("_Copy Text Copy Text"): once, without the mark.
                Button.button(wrapping: widget).nameMnemonicLabelOnce()
            case gtk_button_get_type(), gtk_toggle_button_get_type(), gtk_menu_button_get_type():
                guard !named else { break }
                let button = UnsafeMutableRawPointer(widget)
                let hasText = type == gtk_menu_button_get_type()
                    ? gtk_menu_button_get_label(OpaquePointer(button)) != nil
                    : gtk_button_get_label(button.assumingMemoryBound(to: GtkButton.self)) != nil
                if hasText { break }
                if let child = gtk_widget_get_first_child(widget), isInstance(child, ofExactly: gtk_label_get_type()) {
                    // GTK 4.8 names a button by its `label` only, not by a label set as its child
                    // (libadwaita 1.2's version button on About).
                    let text = String(cString: gtk_label_get_text(OpaquePointer(child)))
                    if !text.isEmpty { navgtk_accessible_set_label(widget, text) }
                    break
                }
                if let tooltip = gtk_widget_get_tooltip_text(widget) {
                    navgtk_accessible_set_label(widget, tooltip)
                } else if let name = iconName(in: widget).flatMap({ Self.iconNames[$0] }) {
                    navgtk_accessible_set_label(widget, name)
                } else if gtk_widget_get_mapped(widget) == 0 {
                    navgtk_accessible_set_hidden(widget, 1)
                    return
                }
            case gtk_stack_get_type():
                navgtk_stack_pages_quiet_for_screen_readers(widget)  // "GtkStackPage panel", said by Orca
            case gtk_text_view_get_type() where !named:
                if let title = stackPageTitle(of: widget) ?? headerBarTitle(above: widget) { navgtk_accessible_set_label(widget, title) }
            default:
                break
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        visit(widget)
    }

    /// Names for icon-only buttons without a tooltip, by their standard icon (the GNOME HIG's words).
    private static var iconNames: [String: String] {
        ["edit-find-symbolic": toolkitLocalized("Search"), "open-menu-symbolic": toolkitLocalized("Main Menu"),
         "window-close-symbolic": toolkitLocalized("Close"), "go-previous-symbolic": toolkitLocalized("Back")]
    }

    /// The icon name of the first `GtkImage` in `widget`, or nil.
    private func iconName(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        if isInstance(widget, ofExactly: gtk_image_get_type()) {
            return gtk_image_get_icon_name(OpaquePointer(widget)).map { String(cString: $0) }
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let name = iconName(in: current) { return name }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The header bars a page's title is read from: GTK's, and libadwaita's when the app has it (its type
    /// is registered once libadwaita is initialized; this module does not link libadwaita).
    private static var headerBarTypes: [GType] { [gtk_header_bar_get_type(), g_type_from_name("AdwHeaderBar")].filter { $0 != 0 } }

    /// The title shown in the header bar of the page `widget` is on (the first sibling of one of its
    /// ancestors that is a header bar, GTK's or libadwaita's), or nil.
    private func headerBarTitle(above widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        var child = widget
        while let parent = gtk_widget_get_parent(child) {
            var sibling = gtk_widget_get_first_child(parent)
            while let current = sibling {
                if current != child, Self.headerBarTypes.contains(where: { isInstance(current, of: $0) }) {
                    return titleLabelText(in: current)
                }
                sibling = gtk_widget_get_next_sibling(current)
            }
            child = parent
        }
        return nil
    }

    /// The text of the first non-empty label with CSS class `title` in `widget` (a header bar's title:
    /// GTK's and libadwaita's window titles both use it), or nil.
    private func titleLabelText(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        if isInstance(widget, ofExactly: gtk_label_get_type()), gtk_widget_has_css_class(widget, "title") != 0 {
            let text = String(cString: gtk_label_get_text(OpaquePointer(widget)))
            if !text.isEmpty { return text }
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let text = titleLabelText(in: current) { return text }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The title of the `GtkStack` page `widget` is on, or nil.
    private func stackPageTitle(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        var child = widget
        while let parent = gtk_widget_get_parent(child) {
            if isInstance(parent, ofExactly: gtk_stack_get_type()),
               let page = gtk_stack_get_page(OpaquePointer(parent), child), let title = gtk_stack_page_get_title(page) {
                return String(cString: title)
            }
            child = parent
        }
        return nil
    }
}
