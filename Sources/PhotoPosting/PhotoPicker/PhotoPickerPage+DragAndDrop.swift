import Gtk
import PostcardModel

/// Other ways to choose a photo on Choose a Photo, as in GNOME apps: drop an image file from a file
/// manager onto the page, or paste (Ctrl+V) an image file or an image.
extension PhotoPickerPage {
    /// Sets up the drop target and Ctrl+V on the page.
    func enableDropAndPaste() {
        let drop = FileDropTarget()
        drop.onDrop { [weak self] uris in
            guard let self, let uri = uris.first else { return false }
            self.chooseIfImage(Photo(uri: uri))
            return true
        }
        view.addController(drop)
        let keys = KeyController()
        keys.onKeyPressed { [weak self] keyval, modifiers in
            guard let self, modifiers.contains(.control), keyval == KeyValue.v || keyval == KeyValue.capitalV else { return false }
            self.paste()
            return true
        }
        view.addController(keys)
    }

    /// Reads the clipboard and chooses the first file on it, or the image on it (saved as a PNG in the
    /// cache folder, so it can be posted like any file).
    public func paste() {
        Task { [weak self] in
            switch await Clipboard.readFilesOrImage() {
            case .files(let uris)?:
                guard let uri = uris.first else { return }
                self?.chooseIfImage(Photo(uri: uri))
            case .image(let texture)?:
                let folder = Files.userCacheDirectory.appending("postcard", "pasted")
                do {
                    try Files.makeDirectory(folder)
                } catch {
                    self?.showMessage(localized("Can't keep the pasted image: %s", "\(error)"))
                    return
                }
                let path = folder.appending("Pasted image \(DateText.nowMicroseconds).png")
                if await texture.writePNG(to: path) {
                    self?.onPhotoChosen?(Photo(path: path))
                } else {
                    // Translators: %s is the file the pasted image was to be saved as.
                    self?.showMessage(localized("Can't keep the pasted image: writing %s failed.", path.displayName))
                }
            case nil:
                self?.showMessage(localized("There is no image or image file to paste."))
            }
        }
    }

    /// Chooses `photo` when it is an image this computer can open (its header is read off the main
    /// thread); else says why, and nothing is chosen.
    func chooseIfImage(_ photo: Photo) {
        let uri = photo.uri
        Task { [weak self] in
            do {
                _ = try await ImageDecoder.queue.run { try ImageDecoder.header(uri: uri) }
                self?.messageLabel.isVisible = false
                self?.onPhotoChosen?(photo)
            } catch {
                // Translators: %1$s is a file name, %2$s why it can't be posted.
                self?.showMessage(localized("“%1$s” can't be posted: %2$s", photo.fileName, "\(error)"))
            }
        }
    }
}
