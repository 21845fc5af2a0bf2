import CGtk

/// Lets the user pick a file with the platform's file chooser (`GtkFileChooserNative`: the desktop
/// portal when available, GTK's own dialog otherwise). GTK 4.8 has no `GtkFileDialog` (4.10+).
@MainActor
public final class FileChooser: Object {
    private var continuation: CheckedContinuation<String?, Never>?

    /// Creates a chooser that opens one image file (filter: every format GdkPixbuf can read).
    /// `title` is the dialog title; `acceptLabel` the affirmative button (e.g. "_Open").
    public init(title: String, acceptLabel: String, parent: UnsafeMutablePointer<GtkWindow>?) {
        super.init(gtk_file_chooser_native_new(title, parent, GTK_FILE_CHOOSER_ACTION_OPEN, acceptLabel, "_Cancel"),
                   transfer: .full)
        gtk_native_dialog_set_modal(pointer(), 1)
        gtk_file_chooser_add_filter(pointer(), postcard_image_filter())
        connect("response") { [weak self] args in
            guard let self else { return }
            var path: String?
            if args.int(at: 1) == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(self.pointer()) {
                if let cPath = g_file_get_path(file) { path = String(cString: cPath); g_free(cPath) }
                g_object_unref(UnsafeMutableRawPointer(file))
            }
            self.continuation?.resume(returning: path)
            self.continuation = nil
        }
    }

    /// Shows the chooser and waits for the user.
    /// - Returns: the chosen file's local path, or nil when cancelled or the file has no local path.
    public func choose() async -> String? {
        await withCheckedContinuation { continuation in
            self.continuation = continuation
            gtk_native_dialog_show(pointer())
        }
    }
}
