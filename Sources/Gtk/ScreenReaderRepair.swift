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
    /// - a text view without a name is named by the title of the stack page it is on ("License").
    ///
    /// Main actor only. Widgets added later are not seen.
    public func repairScreenReaderNames() {
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            let type = String(cString: navgtk_type_name_of(widget))
            let named = navgtk_accessible_has_label(widget) != 0
            switch type {
            case "GtkImage" where !named:
                navgtk_accessible_set_hidden(widget, 1)
            case "GtkButton" where named && gtk_button_get_use_underline(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)) != 0:
                // A mnemonic button, which GTK 4.8 names twice ("_Copy Text Copy Text"): once, without the mark.
                let button = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self)
                if let label = gtk_button_get_label(button) {
                    navgtk_accessible_reset_labelled_by(widget)
                    navgtk_accessible_set_label(widget, String(cString: label).filter { $0 != "_" })
                }
            case "GtkButton", "GtkToggleButton", "GtkMenuButton":
                guard !named else { break }
                let button = UnsafeMutableRawPointer(widget)
                let hasText = type == "GtkMenuButton"
                    ? gtk_menu_button_get_label(OpaquePointer(button)) != nil
                    : gtk_button_get_label(button.assumingMemoryBound(to: GtkButton.self)) != nil
                if hasText || gtk_widget_get_first_child(widget).map({ String(cString: navgtk_type_name_of($0)) == "GtkLabel" }) == true {
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
            case "GtkTextView" where !named:
                if let title = stackPageTitle(of: widget) { navgtk_accessible_set_label(widget, title) }
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
        if String(cString: navgtk_type_name_of(widget)) == "GtkImage" {
            return gtk_image_get_icon_name(OpaquePointer(widget)).map { String(cString: $0) }
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let name = iconName(in: current) { return name }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The title of the `GtkStack` page `widget` is on, or nil.
    private func stackPageTitle(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        var child = widget
        while let parent = gtk_widget_get_parent(child) {
            if String(cString: navgtk_type_name_of(parent)) == "GtkStack",
               let page = gtk_stack_get_page(OpaquePointer(parent), child), let title = gtk_stack_page_get_title(page) {
                return String(cString: title)
            }
            child = parent
        }
        return nil
    }
}
