import CGtk

/// A `GtkDropTarget` that accepts files dragged from a file manager (`GdkFileList`, the
/// `text/uri-list` of the drag). Add it to a widget with ``Widget/addController(_:)``.
@MainActor
public final class FileDropTarget: EventController {
    /// Creates a target accepting files, with the copy action.
    public init() {
        super.init(gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY), transfer: .full)
    }

    /// Runs `handler(uris)` with the dropped files' `file://` URIs, in the drag's order; it returns
    /// whether the drop was accepted.
    public func onDrop(_ handler: @escaping @MainActor ([String]) -> Bool) {
        connect("drop") { args in
            guard let value = args.boxed(at: 1)?.assumingMemoryBound(to: GValue.self),
                  let list = g_value_get_boxed(value) else { return args.setReturn(false) }
            args.setReturn(handler(Clipboard.uris(ofFileList: OpaquePointer(list))))
        }
    }
}

/// What a paste offers: files (copied in a file manager) or an image (copied from an image viewer or a
/// browser).
public enum PastedContent {
    /// Files, as `file://` URIs.
    case files([String])
    /// An image.
    case image(Texture)
}

/// The display's clipboard (`GdkClipboard`), read asynchronously. Main actor only.
@MainActor
public enum Clipboard {
    /// Reads the clipboard: files when it offers a file list, else an image when it offers one, else
    /// nil (text, or nothing). Files are preferred, so a copied photo file posts its original bytes.
    public static func readFilesOrImage() async -> PastedContent? {
        guard let display = gdk_display_get_default() else { return nil }
        let clipboard = gdk_display_get_clipboard(display)!
        let formats = gdk_clipboard_get_formats(clipboard)
        if gdk_content_formats_contain_gtype(formats, gdk_file_list_get_type()) != 0 {
            // The value belongs to the read's result, which is freed after `finish`: take the URIs there.
            let files: [String]? = try? await AsyncCall.run { callback, box, cancellable in
                gdk_clipboard_read_value_async(clipboard, gdk_file_list_get_type(), G_PRIORITY_DEFAULT, cancellable, callback, box)
            } finish: { result, error in
                gdk_clipboard_read_value_finish(clipboard, result, error)
                    .flatMap { g_value_get_boxed($0) }
                    .map { uris(ofFileList: OpaquePointer($0)) }
            }
            if let files { return .files(files) }
        }
        if gdk_content_formats_contain_gtype(formats, gdk_texture_get_type()) != 0 {
            let texture: OpaquePointer? = try? await AsyncCall.run { callback, box, cancellable in
                gdk_clipboard_read_texture_async(clipboard, cancellable, callback, box)
            } finish: { result, error in
                gdk_clipboard_read_texture_finish(clipboard, result, error)
            }
            if let texture { return .image(Texture(taking: texture)) }
        }
        return nil
    }

    /// Puts files (`file://` URIs) on the clipboard, as a file manager's Copy does.
    public static func setFiles(_ uris: [String]) {
        guard let display = gdk_display_get_default() else { return }
        var list: UnsafeMutablePointer<GSList>?
        for uri in uris.reversed() { list = g_slist_prepend(list, UnsafeMutableRawPointer(g_file_new_for_uri(uri))) }
        let files = gdk_file_list_new_from_list(list)
        g_slist_free_full(list, g_object_unref)
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        g_value_take_boxed(&value, UnsafeRawPointer(files))
        gdk_clipboard_set_value(gdk_display_get_clipboard(display), &value)
        g_value_unset(&value)
    }

    /// Puts `text` on the clipboard (plain text, as a text field's Copy does).
    public static func setText(_ text: String) {
        guard let display = gdk_display_get_default() else { return }
        gdk_clipboard_set_text(gdk_display_get_clipboard(display), text)
    }

    /// Reads the clipboard as text (what Paste into a text field would get), or nil when it holds no
    /// text or cannot be read.
    public static func readText() async -> String? {
        guard let display = gdk_display_get_default() else { return nil }
        let clipboard = gdk_display_get_clipboard(display)!
        return try? await AsyncCall.run { callback, box, cancellable in
            gdk_clipboard_read_text_async(clipboard, cancellable, callback, box)
        } finish: { result, error in
            gdk_clipboard_read_text_finish(clipboard, result, error).map { text in
                defer { g_free(text) }
                return String(cString: text)
            }
        }
    }

    /// Puts an image on the clipboard, as an image viewer's Copy does.
    public static func setImage(_ texture: Texture) {
        guard let display = gdk_display_get_default() else { return }
        gdk_clipboard_set_texture(gdk_display_get_clipboard(display), texture.opaque)
    }

    /// The URIs of a `GdkFileList`.
    static func uris(ofFileList list: OpaquePointer) -> [String] {
        var uris: [String] = []
        let files = gdk_file_list_get_files(list)
        var node = files
        while let current = node {
            if let file = current.pointee.data, let uri = g_file_get_uri(OpaquePointer(file)) {
                uris.append(String(cString: uri))
                g_free(uri)
            }
            node = current.pointee.next
        }
        g_slist_free(files)
        return uris
    }
}
