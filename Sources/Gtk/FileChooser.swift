import CGtk

/// Lets the user pick a file with the platform's file chooser (`GtkFileChooserNative`: the desktop
/// portal when available, GTK's own dialog otherwise). GTK 4.8 has no `GtkFileDialog` (4.10+).
@MainActor
public final class FileChooser: Object {
    private var continuation: CheckedContinuation<String?, Never>?

    /// Creates a chooser that opens one image file (filter: every format GdkPixbuf can read).
    /// `title` is the dialog title; `acceptLabel` the affirmative button (e.g. "_Open"); `folder`, when
    /// given, is the folder it starts in (else GTK's default, Recent).
    package init(title: String, acceptLabel: String, parent: UnsafeMutablePointer<GtkWindow>?, folder: FilePath? = nil) {
        super.init(gtk_file_chooser_native_new(title, parent, GTK_FILE_CHOOSER_ACTION_OPEN, acceptLabel, toolkitLocalized("_Cancel")),
                   transfer: .full)
        gtk_native_dialog_set_modal(pointer(), 1)
        let filter = navgtk_image_filter()
        // Translators: the file chooser's filter that shows image files only.
        gtk_file_filter_set_name(filter, toolkitLocalized("Images"))
        gtk_file_chooser_add_filter(pointer(), filter)
        g_object_unref(UnsafeMutableRawPointer(filter))  // the chooser holds its own reference
        if let folder, let start = folder.withCString({ g_file_new_for_path($0) }) {
            _ = gtk_file_chooser_set_current_folder(pointer(), start, nil)
            g_object_unref(UnsafeMutableRawPointer(start))
        }
        connect("response") { [weak self] args in
            guard let self else { return }
            var uri: String?
            if args.int(at: 1) == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(self.pointer()) {
                if g_file_is_native(file) != 0, let cURI = g_file_get_uri(file) { uri = String(cString: cURI); g_free(cURI) }
                g_object_unref(UnsafeMutableRawPointer(file))
            }
            self.finish(uri)
        }
        if let parent {
            parentReference = Object.wrapping(UnsafeMutableRawPointer(parent))
            parentWatchID = parentReference!.connect("destroy") { [weak self] _ in self?.cancel() }  // the window went (heard from the window)
        }
    }

    nonisolated(unsafe) private var parentReference: Object?
    nonisolated(unsafe) private var parentWatchID: UInt = 0

    isolated deinit {
        if let parentReference { Signals.disconnect(parentReference.gobject, parentWatchID) }
    }

    /// Closes the chooser as if the user cancelled it: ``choose()`` returns nil.
    public func cancel() {
        gtk_native_dialog_hide(pointer())
        finish(nil)
    }

    private func finish(_ uri: String?) {
        continuation?.resume(returning: uri)
        continuation = nil
    }

    /// Shows the chooser and waits for the user.
    /// - Returns: the chosen file's `file://` URI (byte-exact for any name), or nil when cancelled, when
    ///   the file is not local, when the parent window goes away, or when the calling task is cancelled
    ///   (the chooser then closes): it always returns.
    ///
    /// A chooser shows once at a time: a second call while the first waits is misuse, reported with
    /// `g_critical` and answered with nil at once; the first goes on waiting for the user.
    public func choose() async -> String? {
        guard continuation == nil else {
            Logger.toolkit.critical("FileChooser.choose(): the chooser is already showing; the second call returns nil")
            return nil
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                self.continuation = continuation
                if Task.isCancelled { self.cancel(); return }
                gtk_native_dialog_show(pointer())
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.cancel() }
        }
    }
}
