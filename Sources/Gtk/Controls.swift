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
    /// reference of its own. Use ``button(wrapping:)``, which finds a wrapper made before.
    private init(wrapping button: UnsafeMutablePointer<GtkWidget>) {
        super.init(UnsafeMutableRawPointer(button), transfer: .none)
    }

    /// The wrapper of a button GTK or a library made (libadwaita's dialogs and toasts): the one made
    /// before, while it lives, else a new one. Main actor.
    package static func button(wrapping button: UnsafeMutablePointer<GtkWidget>) -> Button {
        if let existing = wrapper(of: UnsafeMutableRawPointer(button)) as? Button { return existing }
        return Button(wrapping: button)
    }

    /// Creates an icon-only button (e.g. `"go-previous-symbolic"`); `accessibleLabel` is the name a
    /// screen reader says and the tooltip a pointer user sees.
    public init(iconName: String, accessibleLabel: String) {
        super.init(gtk_button_new_from_icon_name(iconName), transfer: .full)
        // The icon says nothing the name does not; nameless, Orca 43 would read it by its type name
        // ("GtkImage Messages push button").
        if let icon = gtk_button_get_child(pointer()) { navgtk_accessible_set_hidden(icon, 1) }
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
    }

    /// Cuts the button's text label with "…" at its end when the button is narrower than the text, so
    /// data shown on it (a person's name) never widens the window; a screen reader still reads all of
    /// it. Nothing for an icon button.
    public func ellipsizesLabel() {
        guard let child = gtk_button_get_child(pointer()), isInstance(UnsafeMutableRawPointer(child), of: gtk_label_get_type()) else { return }
        gtk_label_set_ellipsize(OpaquePointer(child), PANGO_ELLIPSIZE_END)
    }

    /// Lets the button's text label wrap onto more lines instead of widening the button (and the window)
    /// when it does not fit, e.g. with the desktop's Large Text. Nothing for an icon button.
    package func wrapsLabel() {
        guard let child = gtk_button_get_child(pointer()), isInstance(UnsafeMutableRawPointer(child), of: gtk_label_get_type()) else { return }
        gtk_label_set_wrap(OpaquePointer(child), 1)
        gtk_label_set_justify(OpaquePointer(child), GTK_JUSTIFY_CENTER)
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

    /// Runs `handler` on click, Space/Return while focused, or `activate()`.
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
    /// speaks when it is shown. Give it an accessible name with its text (`setAccessibleLabel(_:)`):
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

    /// Whether the user can select (and copy) the text.
    public var isSelectable: Bool {
        get { gtk_label_get_selectable(pointer()) != 0 }
        set { gtk_label_set_selectable(pointer(), newValue ? 1 : 0) }
    }

    /// Horizontal alignment of the text within the label, 0 (start) to 1 (end).
    public var xAlign: Float {
        get { gtk_label_get_xalign(pointer()) }
        set { gtk_label_set_xalign(pointer(), newValue) }
    }

    /// The width the label asks for at least, in characters (-1: as narrow as its text allows).
    public var widthInCharacters: Int {
        get { Int(gtk_label_get_width_chars(pointer())) }
        set { gtk_label_set_width_chars(pointer(), Int32(clamping: newValue)) }
    }

    /// The width the label asks for at most, in characters (-1: its text's width). With ellipsizing,
    /// longer text is cut with "…".
    public var maximumWidthInCharacters: Int {
        get { Int(gtk_label_get_max_width_chars(pointer())) }
        set { gtk_label_set_max_width_chars(pointer(), Int32(clamping: newValue)) }
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
    /// - Throws: `GLibError` with GIO's reason, e.g. when no application handles the scheme.
    @MainActor
    public static func open(_ uri: String) throws {
        _ = try GLibError.check { g_app_info_launch_default_for_uri(uri, nil, $0) }
    }

    /// The name of the application that opens `scheme` links ("Thunderbird Mail" for `mailto`), as the
    /// desktop shows it (`g_app_info_get_default_for_uri_scheme`), or nil when none does.
    public static func name(forScheme scheme: String) -> String? {
        guard let info = g_app_info_get_default_for_uri_scheme(scheme) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return g_app_info_get_display_name(info).map { String(cString: $0) }
    }
}

/// A `GtkImage` showing a themed icon at icon size.
@MainActor
public final class Image: Widget {
    /// Creates an image of the named icon (e.g. `"image-missing-symbolic"`), `pixelSize` in pixels.
    public init(iconName: String, pixelSize: Int = 16) {
        super.init(gtk_image_new_from_icon_name(iconName), transfer: .full)
        gtk_image_set_pixel_size(pointer(), Int32(clamping: pixelSize))
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
    public init(width: Int = -1, height: Int = -1) {
        super.init(gtk_overlay_new(), transfer: .full)
        sizer.setSizeRequest(width: width, height: height)
        gtk_overlay_set_child(opaque, sizer.widget)
        gtk_overlay_add_overlay(opaque, picture.widget)
        picture.canShrink = true
    }

    /// Changes the frame's size in pixels (-1 leaves a side to the parent).
    public func setSize(width: Int = -1, height: Int = -1) { sizer.setSizeRequest(width: width, height: height) }
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

/// `text` with `&`, `<`, `>`, `"` and `'` escaped (`g_markup_escape_text`), for Pango and GtkBuilder
/// markup and for HTML. Any thread.
package func markupEscaped(_ text: String) -> String {
    let escaped = g_markup_escape_text(text, -1)!
    defer { g_free(escaped) }
    return String(cString: escaped)
}

/// A `GtkEntry`: one line of editable text (a name, a link). Screen readers name it by its accessible
/// label. Main actor only.
@MainActor
public final class Entry: Widget {
    /// Creates an empty entry named `accessibleLabel` for screen readers, showing `placeholder` (dimmed)
    /// while empty.
    public init(accessibleLabel: String, placeholder: String? = nil) {
        super.init(gtk_entry_new(), transfer: .full)
        gtk_entry_set_placeholder_text(pointer(), placeholder)
        setAccessibleLabel(accessibleLabel)
    }

    private var editable: OpaquePointer { OpaquePointer(gobject) }

    /// The text typed (plain text).
    public var text: String {
        get { String(cString: gtk_editable_get_text(editable)) }
        set { gtk_editable_set_text(editable, newValue) }
    }

    /// The longest text, in characters, the entry takes (0: no limit).
    public var maximumLength: Int {
        get { Int(gtk_entry_get_max_length(pointer())) }
        set { gtk_entry_set_max_length(pointer(), Int32(clamping: newValue)) }
    }

    /// The width the entry asks for, in characters.
    public var widthInCharacters: Int {
        get { Int(gtk_editable_get_width_chars(editable)) }
        set { gtk_editable_set_width_chars(editable, Int32(clamping: newValue)) }
    }

    /// Runs `handler` after each change of the text (typed, pasted, or set).
    public func onChanged(_ handler: @escaping @MainActor () -> Void) {
        connect("changed") { _ in handler() }
    }

    /// Runs `handler` when the user presses Return in the entry (GTK's `activate`).
    public func onActivate(_ handler: @escaping @MainActor () -> Void) {
        connect("activate") { _ in handler() }
    }
}

extension Widget {
    /// A new `GtkSeparator`: a 1-pixel line between parts of a window (CSS node `separator`), for
    /// `orientation` (`.vertical` is a line that runs top to bottom, between side-by-side parts).
    public static func separator(_ orientation: Orientation) -> Widget {
        Widget(UnsafeMutableRawPointer(gtk_separator_new(orientation.gtk)), transfer: .full)
    }
}
