import Gtk
import NavigationGtk

/// **Choose a Photo**: a grid of thumbnails of a ``PhotoLibrary`` plus **Open File…** (at the end of
/// the bar) for any image on disk.
///
/// Reports the choice through ``onPhotoChosen``; it does not know what happens next. Thumbnails load
/// asynchronously; a file that cannot be decoded shows a "Can't open" tile that cannot be chosen, and
/// the rest of the grid still works. An unreadable folder shows why, and Open File… still works.
@MainActor
public final class PhotoPickerPage: Page {
    /// Called with the photo the user chose (a grid tile or a file from Open File…).
    public var onPhotoChosen: (@MainActor (Photo) -> Void)?

    /// The thumbnail grid; each child's accessible name is its file name.
    public let grid = FlowBox()
    /// The Open File… button (end of the bar).
    public let openFileButton = Button(label: "Open File…")
    /// Shown instead of the grid when the library is empty or unreadable.
    public let statusLabel = Label()

    /// The photos shown, in grid order.
    public private(set) var photos: [Photo] = []
    /// The tiles, in grid order (activate one to choose it, as a click would).
    public private(set) var tiles: [Widget] = []
    /// Photos whose thumbnails failed to load, with GLib's reason.
    public private(set) var unreadable: [Photo: String] = [:]
    /// Number of thumbnails still loading.
    public private(set) var pendingThumbnails = 0

    private var loadTasks: [Task<Void, Never>] = []
    private var fileChooser: FileChooser?

    /// Thumbnail edge in pixels (tiles are square, photos centre-cropped to fill them).
    public static let thumbnailSize: Int32 = 144

    /// Creates the page and starts loading `library`'s thumbnails.
    public init(library: PhotoLibrary) {
        super.init(title: "Choose a Photo")
        grid.maxChildrenPerLine = 6
        grid.setSpacing(8)
        grid.setMargins(12)
        grid.verticalAlignment = .start
        grid.addCSSClass("photo-grid")
        statusLabel.wraps = true
        statusLabel.isVisible = false
        statusLabel.addCSSClass("dim-label")
        statusLabel.setMargins(24)
        let scroller = ScrolledWindow(grid)
        scroller.expandsVertically = true
        content.append(statusLabel)
        content.append(scroller)
        addEndBarItem(openFileButton)
        openFileButton.onClicked { [weak self] in self?.openFile() }
        grid.onChildActivated { [weak self] index in self?.choose(at: index) }
        load(library)
    }

    deinit {
        for task in loadTasks { task.cancel() }
    }

    /// The grid takes focus first, so arrow keys move between photos.
    public override var initialFocus: Widget? { tiles.first { $0.isSensitive } ?? openFileButton }

    private func load(_ library: PhotoLibrary) {
        do {
            photos = try library.photos()
        } catch {
            showStatus("Can't read the photo folder “\(library.directory)”: \(error)")
            return
        }
        if photos.isEmpty {
            showStatus("No photos in “\(library.directory)”. Use Open File… to choose one from elsewhere.")
        }
        for photo in photos {
            let picture = Picture()
            picture.canShrink = false
            picture.alternativeText = photo.fileName
            picture.setSizeRequest(width: Self.thumbnailSize, height: Self.thumbnailSize)
            let caption = Label(photo.fileName)
            caption.ellipsizeAtEnd()
            caption.maximumWidthInCharacters = 16  // long names are cut with "…", the grid keeps its columns
            caption.addCSSClass("caption")
            let cell = Box(.vertical, spacing: 4)
            cell.append(picture)
            cell.append(caption)
            tiles.append(grid.append(cell, accessibleLabel: photo.fileName))
            pendingThumbnails += 1
            let tile = tiles.count - 1
            loadTasks.append(Task { [weak self] in
                do {
                    let texture = try await Texture.loadThumbnail(path: photo.path, size: Self.thumbnailSize)
                    picture.texture = texture
                } catch {
                    self?.markUnreadable(photo, tile: tile, cell: cell, picture: picture, reason: "\(error)")
                }
                self?.pendingThumbnails -= 1
            })
        }
    }

    private func markUnreadable(_ photo: Photo, tile: Int, cell: Box, picture: Picture, reason: String) {
        unreadable[photo] = reason
        picture.isVisible = false
        let icon = Image(iconName: "image-missing-symbolic", pixelSize: 48)
        icon.setSizeRequest(width: Self.thumbnailSize, height: Self.thumbnailSize)
        cell.prepend(icon)
        let note = Label("Can't open this photo")
        note.addCSSClass("error")
        note.addCSSClass("caption")
        cell.append(note)
        tiles[tile].tooltip = "\(photo.fileName): \(reason)"
        tiles[tile].isSensitive = false
    }

    private func showStatus(_ message: String) {
        statusLabel.text = message
        statusLabel.isVisible = true
    }

    private func choose(at index: Int) {
        guard photos.indices.contains(index), unreadable[photos[index]] == nil else { return }
        onPhotoChosen?(photos[index])
    }

    private func openFile() {
        let chooser = FileChooser(title: "Open a Photo", acceptLabel: "_Open", parent: content.rootWindow)
        fileChooser = chooser
        Task { [weak self] in
            let path = await chooser.choose()
            guard let self else { return }
            self.fileChooser = nil
            if let path { self.onPhotoChosen?(Photo(path: path)) }
        }
    }
}
