import CGtk
import Glibc

/// A `GtkButton` with a text label or an icon.
@MainActor
public final class Button: Widget {
    /// Creates a button showing `label`; a screen reader reads the same text, once. A `_` before a letter
    /// marks the mnemonic (Alt+letter), as in GTK.
    ///
    /// GTK 4.8 names a text button by its label (a labelled-by relation) *and* by an explicit accessible
    /// label when one is set, joined ("Post Post"), and a mnemonic label as written ("_Save Save"). So a
    /// plain label sets no accessible label, and a mnemonic one drops the relation and sets the label
    /// without its `_`.
    public init(label: String) {
        if label.contains("_") {
            super.init(gtk_button_new_with_mnemonic(label), transfer: .full)
            setMnemonicAccessibleLabel(label)
        } else {
            super.init(gtk_button_new_with_label(label), transfer: .full)
        }
    }

    private func setMnemonicAccessibleLabel(_ label: String) {
        navgtk_accessible_reset_labelled_by(widget)
        setAccessibleLabel(String(label.filter { $0 != "_" }))
    }

    /// Names a mnemonic button (one GTK or a library made, e.g. libadwaita's dialogs and toasts) once,
    /// by its label without the `_`: GTK 4.8 reads it by its label as written and again by its
    /// labelled-by relation ("_Undo Undo"). A button with no mnemonic label is left as it is.
    package func nameMnemonicLabelOnce() {
        guard let label, gtk_button_get_use_underline(pointer()) != 0 else { return }
        setMnemonicAccessibleLabel(label)
    }

    /// Wraps a button GTK or a library made inside a composite widget (libadwaita's dialogs), with a
    /// reference of its own.
    package init(wrapping button: UnsafeMutablePointer<GtkWidget>) {
        super.init(UnsafeMutableRawPointer(button), transfer: .none)
    }

    /// Creates an icon-only button (e.g. `"go-previous-symbolic"`); `accessibleLabel` is the name a
    /// screen reader says and the tooltip a pointer user sees.
    public init(iconName: String, accessibleLabel: String) {
        super.init(gtk_button_new_from_icon_name(iconName), transfer: .full)
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
    }

    /// The button's text label (nil for icon buttons).
    public var label: String? {
        get { gtk_button_get_label(pointer()).map { String(cString: $0) } }
        set {
            gtk_button_set_label(pointer(), newValue)
            if let newValue, gtk_button_get_use_underline(pointer()) != 0 { setMnemonicAccessibleLabel(newValue) }
        }
    }

    /// A shorter label ("Reply" for "Reply with Photo") a header bar shows instead of ``label`` when even
    /// with everything it can move in its overflow menu the title would be cut (``HeaderBar``); nil: none.
    /// Screen readers read the label shown.
    public var compactLabel: String?

    /// The label given before the compact one was shown, while it is shown.
    private var fullLabel: String?

    /// Whether the button shows its ``compactLabel`` (set by a header bar short of room).
    public var showsCompactLabel: Bool {
        get { fullLabel != nil }
        set {
            guard newValue != showsCompactLabel, let compactLabel else { return }
            if newValue {
                fullLabel = label
                label = compactLabel
            } else {
                let full = fullLabel
                fullLabel = nil
                label = full
            }
        }
    }

    /// The icon name, for icon buttons.
    public var iconName: String? { gtk_button_get_icon_name(pointer()).map { String(cString: $0) } }

    /// Sets a custom child (e.g. an image with a caption).
    public func setChild(_ child: Widget) { gtk_button_set_child(pointer(), child.widget) }

    /// Runs `handler` on click, Space/Return while focused, or ``activate()``.
    public func onClicked(_ handler: @escaping @MainActor () -> Void) {
        connect("clicked") { _ in handler() }
    }

    /// Emits `clicked`, as a click does (also while the button is not in a window: chosen from an
    /// overflow menu).
    public func emitClicked() { navgtk_emit(gobject, "clicked") }

    /// Whether the button has no frame until hovered (`has-frame`).
    public var hasFrame: Bool {
        get { gtk_button_get_has_frame(pointer()) != 0 }
        set { gtk_button_set_has_frame(pointer(), newValue ? 1 : 0) }
    }
}

/// A `GtkLabel`: non-editable text.
@MainActor
public final class Label: Widget {
    /// Creates a label with plain `text`.
    public init(_ text: String = "") { super.init(gtk_label_new(text), transfer: .full) }

    /// Creates an empty label that screen readers treat as an alert (GTK's and AT-SPI's `alert` role):
    /// one that says something the user must know (a save that failed), which Orca
    /// speaks when it is shown. Give it an accessible name with its text (``setAccessibleLabel(_:)``):
    /// GTK 4.8 does not name alerts after their text.
    public init(alert: Void) { super.init(navgtk_alert_label_new(), transfer: .full) }

    /// The plain text shown.
    public var text: String {
        get { String(cString: gtk_label_get_text(pointer())) }
        set {
            gtk_label_set_text(pointer(), newValue)  // plain text: no markup, no links
            linkURIs = []
        }
    }

    /// Whether long text wraps onto more lines (at word boundaries, then characters).
    public var wraps: Bool {
        get { gtk_label_get_wrap(pointer()) != 0 }
        set {
            gtk_label_set_wrap(pointer(), newValue ? 1 : 0)
            gtk_label_set_wrap_mode(pointer(), PANGO_WRAP_WORD_CHAR)
        }
    }

    /// Horizontal alignment of the text within the label, 0 (start) to 1 (end).
    public var xAlign: Float {
        get { gtk_label_get_xalign(pointer()) }
        set { gtk_label_set_xalign(pointer(), newValue) }
    }

    /// The width the label asks for at least, in characters (-1: as narrow as its text allows).
    public var widthInCharacters: Int32 {
        get { gtk_label_get_width_chars(pointer()) }
        set { gtk_label_set_width_chars(pointer(), newValue) }
    }

    /// The width the label asks for at most, in characters (-1: its text's width). With ellipsizing,
    /// longer text is cut with "…".
    public var maximumWidthInCharacters: Int32 {
        get { gtk_label_get_max_width_chars(pointer()) }
        set { gtk_label_set_max_width_chars(pointer(), newValue) }
    }

    /// Whether the text is shortened with "…" at the current size.
    public var isEllipsized: Bool { pango_layout_is_ellipsized(gtk_label_get_layout(pointer())) != 0 }

    /// Whether wrapped lines are centred (`GTK_JUSTIFY_CENTER`) rather than aligned to the start.
    public var centersLines: Bool {
        get { gtk_label_get_justify(pointer()) == GTK_JUSTIFY_CENTER }
        set { gtk_label_set_justify(pointer(), newValue ? GTK_JUSTIFY_CENTER : GTK_JUSTIFY_LEFT) }
    }

    /// Shortens text that does not fit with "…" at the end.
    public func ellipsizeAtEnd() { gtk_label_set_ellipsize(pointer(), PANGO_ELLIPSIZE_END) }

    /// Shows `text` with each of `links` (ranges of `text` and the URI each opens) as a link: underlined,
    /// focusable, activated by click or Return, and exposed to screen readers as a link (GTK's
    /// `<a href>` label markup; the rest is escaped, so nothing in `text` is read as markup). Each link is
    /// a bidirectional isolate (U+2068 … U+2069, Unicode's UAX #9), so text around it — an unterminated
    /// right-to-left override, say — can neither reverse it nor be reordered with it.
    public func setText(_ text: String, links: [(range: Range<String.Index>, uri: String)]) {
        linkURIs = links.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }).map(\.uri)
        guard !links.isEmpty else {
            gtk_label_set_use_markup(pointer(), 0)
            self.text = text
            return
        }
        var markup = ""
        var position = text.startIndex
        for link in links.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where link.range.lowerBound >= position {
            markup += markupEscaped(String(text[position..<link.range.lowerBound]))
            markup += "\u{2068}<a href=\"\(markupEscaped(link.uri))\">\(markupEscaped(String(text[link.range])))</a>\u{2069}"
            position = link.range.upperBound
        }
        markup += markupEscaped(String(text[position...]))
        gtk_label_set_markup(pointer(), markup)
    }

    /// The URIs of the links shown (see ``setText(_:links:)``), in order.
    public private(set) var linkURIs: [String] = []

    /// Runs `handler` with a link's URI when the user activates it; return true when handled (GTK then
    /// does not open it itself).
    public func onActivateLink(_ handler: @escaping @MainActor (String) -> Bool) {
        connect("activate-link") { args in
            guard let uri = args.string(at: 1) else { return args.setReturn(false) }
            args.setReturn(handler(uri))
        }
    }

    /// Activates the link to `uri` as a click would (emits `activate-link`); false when there is none.
    @discardableResult
    public func activateLink(_ uri: String) -> Bool {
        guard linkURIs.contains(uri) else { return false }
        var handled: gboolean = 0
        g_signal_emit_by_name_bool_string(gobject, "activate-link", uri, &handled)
        return handled != 0
    }

}

/// A `GtkSpinner`: work of unknown length is going on (e.g. a post being written), as GNOME apps show
/// it beside the control that started it.
@MainActor
public final class Spinner: Widget {
    /// Creates a stopped spinner.
    public init() { super.init(gtk_spinner_new(), transfer: .full) }

    /// Whether it spins (and shows).
    public var isSpinning: Bool {
        get { gtk_spinner_get_spinning(OpaquePointer(widget)) != 0 }
        set {
            gtk_spinner_set_spinning(OpaquePointer(widget), newValue ? 1 : 0)
            isVisible = newValue
        }
    }
}

/// A `GtkProgressBar`: how far a task has got (e.g. a page loading).
@MainActor
public final class ProgressBar: Widget {
    /// Creates an empty progress bar.
    public init() { super.init(gtk_progress_bar_new(), transfer: .full) }

    /// The part done, 0…1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(opaque) }
        set { gtk_progress_bar_set_fraction(opaque, min(1, max(0, newValue))) }
    }
}

/// Opens URIs with the desktop's default application for them (a web browser for `https`, the mail
/// program for `mailto`), as GNOME apps do: `g_app_info_launch_default_for_uri`.
public enum DefaultApplication {
    /// Opens `uri` in the default application for its scheme. Main thread (it may start a program).
    /// - Throws: ``GLibError`` with GIO's reason, e.g. when no application handles the scheme.
    @MainActor
    public static func open(_ uri: String) throws {
        _ = try GLibError.check { g_app_info_launch_default_for_uri(uri, nil, $0) }
    }
}

/// A `GtkImage` showing a themed icon at icon size.
@MainActor
public final class Image: Widget {
    /// Creates an image of the named icon (e.g. `"image-missing-symbolic"`), `pixelSize` in pixels.
    public init(iconName: String, pixelSize: Int32 = 16) {
        super.init(gtk_image_new_from_icon_name(iconName), transfer: .full)
        gtk_image_set_pixel_size(pointer(), pixelSize)
    }
}

/// A `GtkPicture`: shows an image (a ``Texture``) scaled into the space it is given.
@MainActor
public final class Picture: Widget {
    /// Creates an empty picture.
    public init() {
        super.init(gtk_picture_new(), transfer: .full)
        gtk_picture_set_content_fit(opaque, GTK_CONTENT_FIT_CONTAIN)
    }

    /// The shown image, or nil for none.
    public var texture: Texture? {
        didSet { gtk_picture_set_paintable(opaque, texture.map { $0.opaque }) }
    }

    /// How the image fills the picture's allocation.
    public var contentFit: ContentFit {
        get { gtk_picture_get_content_fit(opaque) == GTK_CONTENT_FIT_COVER ? .cover : .contain }
        set { gtk_picture_set_content_fit(opaque, newValue.gtk) }
    }

    /// Whether the picture may shrink below the image's size (true) or requests the image's size.
    public var canShrink: Bool {
        get { gtk_picture_get_can_shrink(opaque) != 0 }
        set { gtk_picture_set_can_shrink(opaque, newValue ? 1 : 0) }
    }

    /// The text alternative read by screen readers: GTK's `alternative-text`, and the accessible name
    /// (GTK 4.8 does not expose `alternative-text` over AT-SPI, where the picture would read "GtkPicture").
    public var alternativeText: String? {
        get { gtk_picture_get_alternative_text(opaque).map { String(cString: $0) } }
        set {
            gtk_picture_set_alternative_text(opaque, newValue)
            setAccessibleLabel(newValue ?? "")
        }
    }
}

/// A ``Picture`` that takes exactly the size it is given, whatever its texture's size: a `GtkOverlay` over
/// an empty box that sets the size, with the picture drawn on top (not measured). A `GtkPicture` alone
/// asks for its texture's size, so tiles and rows would grow or jump as their images arrive.
@MainActor
public final class SizedPicture: Widget {
    /// The picture drawn in the frame.
    public let picture = Picture()
    private let sizer = Widget(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), transfer: .full)

    /// Creates a frame of `width` × `height` pixels (-1 leaves a side to the parent).
    public init(width: Int32 = -1, height: Int32 = -1) {
        super.init(gtk_overlay_new(), transfer: .full)
        sizer.setSizeRequest(width: width, height: height)
        gtk_overlay_set_child(opaque, sizer.widget)
        gtk_overlay_add_overlay(opaque, picture.widget)
        picture.canShrink = true
    }

    /// Changes the frame's size in pixels (-1 leaves a side to the parent).
    public func setSize(width: Int32 = -1, height: Int32 = -1) { sizer.setSizeRequest(width: width, height: height) }
}

/// A `GtkTextView` with its buffer: multi-line editable text.
@MainActor
public final class TextView: Widget {
    /// Creates an empty, word-wrapping text view.
    public init() {
        super.init(gtk_text_view_new(), transfer: .full)
        gtk_text_view_set_wrap_mode(pointer(), GTK_WRAP_WORD_CHAR)
    }

    var buffer: UnsafeMutablePointer<GtkTextBuffer> { gtk_text_view_get_buffer(pointer()) }

    /// The whole text (UTF-8).
    public var text: String {
        get {
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(chars) }
            return String(cString: chars)
        }
        set { gtk_text_buffer_set_text(buffer, newValue, -1) }
    }

    /// Inserts `text` at the cursor, as typing would.
    public func insertAtCursor(_ text: String) { gtk_text_buffer_insert_at_cursor(buffer, text, -1) }

    /// How many characters the text has (Unicode code points, as GTK counts them; at once, without
    /// reading the text).
    public var characterCount: Int { Int(gtk_text_buffer_get_char_count(buffer)) }

    private var limit: UnsafeMutablePointer<NavgtkTextLimit>?

    /// The most characters the text may have (Unicode code points), or nil for no limit (the default).
    /// Text typed, pasted or set past it is cut to what fits (``takeWasCut()`` then says so); text
    /// already there is left alone. Only a megabyte pasted at once is read only as far as it fits, so
    /// the view stays responsive whatever arrives. Set it once; it can't be removed.
    public var maximumCharacters: Int? {
        get { limit.map { Int($0.pointee.maximum) } }
        set {
            guard let newValue else { return }
            if let limit { limit.pointee.maximum = Int32(newValue) } else { limit = navgtk_text_buffer_limit(buffer, Int32(newValue)) }
        }
    }

    /// Whether text was cut to ``maximumCharacters`` since the last call (and forgets it).
    public func takeWasCut() -> Bool {
        guard let limit, limit.pointee.cut != 0 else { return false }
        limit.pointee.cut = 0
        return true
    }

    /// Whether the user can edit the text.
    public var isEditable: Bool {
        get { gtk_text_view_get_editable(pointer()) != 0 }
        set { gtk_text_view_set_editable(pointer(), newValue ? 1 : 0) }
    }

    /// Runs `handler` after every change of the text.
    public func onChanged(_ handler: @escaping @MainActor () -> Void) {
        _ = Signals.connect(buffer, "changed", after: false) { _ in handler() }
    }
}

/// A `GtkDropDown` of text choices (e.g. which camera to show).
@MainActor
public final class DropDown: Widget {
    /// The choices, in order.
    public let choices: [String]

    /// Creates a drop-down offering `choices` (the first is selected); `accessibleLabel` is what a
    /// screen reader names it.
    public init(choices: [String], accessibleLabel: String) {
        self.choices = choices
        super.init(withNullTerminatedCStrings(choices) { gtk_drop_down_new_from_strings($0) }!, transfer: .full)
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
    }

    /// The index of the selected choice (0-based).
    public var selectedIndex: Int {
        get { Int(gtk_drop_down_get_selected(opaque)) }
        set { gtk_drop_down_set_selected(opaque, guint(newValue)) }
    }

    /// Runs `handler` with the new index whenever the selection changes (by the user or in code).
    public func onSelectionChanged(_ handler: @escaping @MainActor (Int) -> Void) {
        connect("notify::selected") { [weak self] _ in
            guard let self else { return }
            handler(self.selectedIndex)
        }
    }
}

/// A `GtkMenuButton` showing a menu of actions (a GNOME primary menu: icon `open-menu-symbolic` at the
/// end of the bar). Each item runs a handler through a `GSimpleAction` in the button's own action group
/// (`menu.<name>`), and may show its keyboard shortcut, as GNOME menus do.
@MainActor
public final class MenuButton: Widget {
    nonisolated(unsafe) private let menu = g_menu_new()!
    nonisolated(unsafe) private let actions = g_simple_action_group_new()!
    /// The items' labels, in order.
    public private(set) var itemLabels: [String] = []
    /// Whether the menu is open.
    public var isMenuOpen: Bool {
        gtk_menu_button_get_popover(opaque).map { gtk_widget_get_visible(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) != 0 } ?? false
    }

    /// The menu's popover (GTK makes it from the items), e.g. to draw it in a screenshot while open;
    /// nil before GTK has made it.
    public var menuPopover: Widget? {
        gtk_menu_button_get_popover(opaque).map { Widget(UnsafeMutableRawPointer($0), transfer: .none) }
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
        gtk_menu_button_set_menu_model(opaque, UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        gtk_widget_insert_action_group(widget, "menu", OpaquePointer(actions))
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
        renewPopoverWhenClosed()
        // Taken out of a bar and put back (a bar's overflow menu when the next page is shown), the
        // button's popover showed every item insensitive in GTK 4.8: its items did not find their actions
        // again. A new popover each time the button is realized again finds them.
        connect("realize") { [weak self] _ in self?.renewPopover() }
    }

    /// A new popover for the menu, unless it is open.
    private func renewPopover() {
        guard !isMenuOpen else { return }
        let model = UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
        gtk_menu_button_set_menu_model(opaque, nil)
        gtk_menu_button_set_menu_model(opaque, model)
        renewPopoverWhenClosed()
    }

    /// Gives the button a new popover each time its menu has closed. GTK 4.8's menu items set their
    /// accessible role again when their button is put in a bar again (a navigation stack does that on
    /// every Back), which GTK refuses with a critical once a screen reader has read them; a popover
    /// never shown since has nothing read. A workaround for GTK 4.8 (Debian 12), the only GTK it was
    /// seen on; no newer GTK was at hand to find the release that needs it no more: try one popover on
    /// GTK 4.10 or later (the accessibility code was reworked after 4.8) with a screen reader reading
    /// the menu, and drop this if no critical comes.
    private func renewPopoverWhenClosed() {
        guard let popover = gtk_menu_button_get_popover(opaque) else { return }
        Object(UnsafeMutableRawPointer(popover), transfer: .none).connect("closed") { [weak self] _ in
            MainLoopBridge.afterLayout { [weak self] in
                guard let self, !self.isMenuOpen else { return }
                let model = UnsafeMutableRawPointer(self.menu).assumingMemoryBound(to: GMenuModel.self)
                gtk_menu_button_set_menu_model(self.opaque, nil)
                gtk_menu_button_set_menu_model(self.opaque, model)
                self.renewPopoverWhenClosed()
            }
        }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(menu))
        g_object_unref(UnsafeMutableRawPointer(actions))
    }

    /// Adds an item reading `label` that runs `handler`; `accelerator` (e.g. "F1", "<Control>q") is shown
    /// beside it — install the shortcut itself on the window.
    public func addItem(_ label: String, accelerator: String? = nil, handler: @escaping @MainActor () -> Void) {
        let name = "item\(itemLabels.count)"
        itemLabels.append(label)
        addSimpleAction(named: name, to: OpaquePointer(actions), handler: handler)
        let item = g_menu_item_new(label, "menu.\(name)")!
        if let accelerator { g_menu_item_set_attribute_value(item, "accel", g_variant_new_string(accelerator)) }
        g_menu_append_item(menu, item)
        g_object_unref(UnsafeMutableRawPointer(item))
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

    /// Creates an empty menu that pops up from `anchor`.
    public init(anchor: Widget) {
        self.anchor = anchor
        super.init(gtk_popover_menu_new_from_model(UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)),
                   transfer: .full)
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

    deinit {
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

/// `text` with `&`, `<`, `>`, `"` and `'` escaped (`g_markup_escape_text`), for Pango and GtkBuilder
/// markup and for HTML. Any thread.
package func markupEscaped(_ text: String) -> String {
    let escaped = g_markup_escape_text(text, -1)!
    defer { g_free(escaped) }
    return String(cString: escaped)
}
