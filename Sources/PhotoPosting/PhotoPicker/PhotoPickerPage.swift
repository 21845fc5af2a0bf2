import Adwaita
import Gtk
import NavigationGtk
import PostcardModel

/// **Choose a Photo**: the photos of a ``PhotoLibrary`` and its subfolders, newest first, as a recycled
/// grid of thumbnails, plus **Open File…** (at the end of the bar) for any image on disk.
///
/// Reports the choice through ``onPhotoChosen``; it does not know what happens next.
///
/// - The folder tree is read asynchronously (``PhotoLibrary/scan(batchSize:onFound:)``); tiles appear
///   as it proceeds, and the grid is put in order (newest first) once it is read. Thumbnails that are
///   not cached yet are made once the order is settled, so the first screenful is not spent on photos
///   about to move away. Opened again in the same session, the page shows the library's last listing
///   at once and brings it up to date when the new reading ends.
/// - Only tiles on screen and near it exist (`GtkGridView` recycles them); a tile loads its thumbnail
///   while it is on screen (``ThumbnailLoader``, newest request first) and a load that has not started
///   when its tile scrolls away is dropped, so scrolling fast queues no backlog.
/// - A file that cannot be shown becomes a placeholder tile ("Can't open this photo", or "Too large to
///   show") with the reason as its tooltip, and cannot be chosen; the rest works.
/// - An empty, missing or unreadable library shows why, with Open File….
/// - Keyboard: arrows move between tiles, Return chooses; a screen reader reads each tile's file name.
/// - An image file dropped from a file manager, or pasted with Ctrl+V (a file or an image), is chosen
///   too (see `PhotoPickerPage+DragAndDrop.swift`).
@MainActor
public final class PhotoPickerPage: Page {
    /// Called with the photo the user chose (a grid tile or a file from Open File…).
    public var onPhotoChosen: (@MainActor (Photo) -> Void)?

    /// The thumbnail grid (recycled tiles; activate an item to choose it, as a click or Return would).
    public let grid: GridView
    /// The Open File… button (end of the bar).
    // Translators: a button in the bar of Choose a Photo: choose any image file with the file chooser.
    // Keep it short: in a 360-pixel window the bar also holds Cancel, the title, Take Photo and Help.
    /// An icon (`document-open-symbolic`) named "Open File…" for screen readers and its tooltip: a label
    /// would not fit beside Cancel, Back, the title, Take Photo and Help in a 360-pixel window.
    public let openFileButton = Button(iconName: "document-open-symbolic", accessibleLabel: localized("Open File…"))
    /// **Take Photo** (a camera icon at the very end of the bar, named "Take Photo" for screen readers
    /// and in its tooltip), shown only while someone listens to ``onTakePhoto``. An icon, so the bar still
    /// fits a narrow window.
    public let takePhotoButton = Button(iconName: "camera-photo-symbolic", accessibleLabel: localized("Take Photo"))
    /// Called when the user asks to take a photo instead of choosing one; setting it shows
    /// ``takePhotoButton``.
    public var onTakePhoto: (@MainActor () -> Void)? {
        didSet { takePhotoButton.isVisible = onTakePhoto != nil }
    }
    /// The empty state (no photos, or the folder cannot be read), libadwaita's status page: what
    /// happened (its ``StatusPage/text`` names the folder) and its own Open File….
    public let emptyState = StatusPage(iconName: "image-x-generic-symbolic")
    /// A problem with one photo (e.g. it was deleted after the grid was shown), above the grid.
    public let messageLabel = Label()

    /// The library's photos in the grid, in grid order: newest first once ``isInOrder``; while the library
    /// is first read, batch after batch as found (photos found in the last 250 ms are not in it yet).
    public private(set) var libraryPhotos: [LibraryPhoto] = []
    /// The photos in the grid, in grid order (see ``libraryPhotos``).
    public var photos: [Photo] { libraryPhotos.map(\.photo) }
    /// Whether the library is still being read.
    public private(set) var isScanning = true
    /// Whether the grid shows its photos newest first: once the library is read, or from the start when
    /// it was read before in this session (``PhotoLibrary/lastListing``).
    public var isInOrder: Bool { !isScanning || startedFromListing }
    /// Whether the page has settled: the library is read and every tile on screen shows its thumbnail
    /// or its placeholder.
    public var hasSettled: Bool {
        guard !isScanning else { return false }
        let onScreen = factory.boundCells.map(\.cell).filter { $0.root.isMapped }
        return libraryPhotos.isEmpty || (!onScreen.isEmpty && onScreen.allSatisfy(\.isSettled))
    }
    /// Number of tiles on screen (or near it) whose thumbnail is still loading.
    public var pendingThumbnails: Int { factory.boundCells.filter { $0.cell.isLoading }.count }
    /// How far the grid is scrolled down from its first row, in pixels (0 at the top).
    public var scrollOffset: Double { scroller.verticalOffset }
    /// The tiles that exist now (on screen and near it), with their grid positions, top first.
    public var boundTiles: [(position: Int, tile: PhotoTile)] { factory.boundCells.map { ($0.position, $0.cell) } }

    /// Tile picture edge in pixels (square tiles; photos are cropped to fill them by `GtkPicture`).
    public static let thumbnailSize = 144
    /// Tile width including its padding and the grid's spacing, in pixels (sets the columns).
    static let tileWidth = 144 + 2 * 6 + 2 * 4  // picture, padding, margin (style.css)

    private let model = KeyListModel()
    private let factory: ListItemFactory<PhotoTile>
    private let loader: ThumbnailLoader
    private let library: PhotoLibrary
    private var scanTask: Task<Void, Never>?
    private var fileChooser: FileChooser?
    /// The photos by URI (the model's keys), shared with the tile factory.
    private let index: PhotoIndex
    private var pendingPhotos: [LibraryPhoto] = []
    /// Everything the running scan found so far.
    private var scanned: [LibraryPhoto] = []
    /// Whether the grid was first filled from the library's last listing.
    private var startedFromListing = false
    private var lastFlush: Int64 = 0

    private let scroller: ScrolledWindow

    /// Creates the page and starts reading `library`. Thumbnails come from `loader` (shared by default).
    public init(library: PhotoLibrary, loader: ThumbnailLoader = .shared) {
        self.library = library
        self.loader = loader
        let photosByURI = PhotoIndex()
        index = photosByURI
        factory = ListItemFactory(
            makeCell: { PhotoTile() },
            bind: { tile, binding in
                guard let photo = photosByURI.photos[binding.key] else { return }
                tile.bind(photo, binding: binding, loader: loader, index: photosByURI)
            },
            unbind: { tile in tile.unbind() })
        grid = GridView(model: model, factory: factory)
        scroller = ScrolledWindow(grid)
        // Translators: the title of the page showing the photos to choose from. Keep it short: in a
        // 360-pixel window the bar also holds Cancel, Open File…, Take Photo and Help.
        super.init(title: localized("Choose a Photo"))

        grid.addCSSClass("photo-grid")
        grid.setAccessibleLabel(title)  // named, not read by its type name ("GtkGridView")
        grid.setColumns(minimum: 1, maximum: 4)
        grid.onActivate { [weak self] position in self?.choose(at: position) }
        scroller.expandsVertically = true
        scroller.onWidthChanged { [weak self] width in self?.fitColumns(to: width) }

        messageLabel.addCSSClass("error")
        messageLabel.wraps = true
        messageLabel.setMargins(top: 8, bottom: 0, start: 12, end: 12)
        messageLabel.isVisible = false

        let emptyOpenFile = Button(label: localized("Open File…"))
        emptyOpenFile.onClicked { [weak self] in self?.openFile() }
        emptyState.addAction(emptyOpenFile)
        emptyState.expandsVertically = true
        emptyState.isVisible = false

        content.append(messageLabel)
        content.append(emptyState)
        content.append(scroller)
        takePhotoButton.isVisible = false
        takePhotoButton.onClicked { [weak self] in self?.onTakePhoto?() }
        addEndBarItem(takePhotoButton)
        addEndBarItem(openFileButton)
        openFileButton.onClicked { [weak self] in self?.openFile() }
        enableDropAndPaste()
        startScan()
    }

    deinit {
        scanTask?.cancel()
    }

    /// The grid takes focus first (arrow keys move between photos), or Open File… while it is empty.
    public override var initialFocus: Widget? { model.count > 0 ? grid : openFileButton }

    /// Pushed on a navigation stack, the bar holds Back and Cancel at its start and Open File…, Take
    /// Photo and the window's Close at its end: in a 360-pixel window the title may lose all but its
    /// first letters ("Choose…") rather than widen the window.
    public override var minimumTitleCharacters: Int { 7 }

    /// Why `photo` is shown as a placeholder, once its load failed; nil while it loads or when it shows.
    public func failure(of photo: Photo) -> ImageLoadError? {
        index.photos[photo.uri].flatMap { loader.failure(for: $0) }
    }

    private func startScan() {
        if let listing = library.lastListing, !listing.isEmpty {
            // Opened before in this session: show the last listing at once, in order, and let tiles make
            // their thumbnails right away; the scan below brings it up to date in one change at its end.
            for photo in listing { index.photos[photo.photo.uri] = photo }
            libraryPhotos = listing
            model.append(listing.map(\.photo.uri))
            index.makesThumbnails = true
            startedFromListing = true
        }
        scanTask = Task { [weak self, library] in
            do {
                let tooDeep = try await library.scan { [weak self] batch in self?.add(batch) }
                self?.finishScan(error: nil)
                if tooDeep > 0 {
                    // Translators: above the photos: %1$d folders were too deep (more than %2$d folders below the
                    // library folder) to be read.
                    self?.showMessage(localizedPlural("%1$d folder more than %2$d levels deep in the library was not read.",
                                                      "%1$d folders more than %2$d levels deep in the library were not read.",
                                                      count: tooDeep, tooDeep, PhotoLibrary.maximumDepth))
                }
            } catch is CancellationError {
            } catch {
                self?.finishScan(error: error)
            }
        }
    }

    /// Shows `batch` at the end of the grid: the first batch at once, later ones gathered and shown at
    /// most every ``flushInterval`` (each change of the grid costs a frame, and the scan waits for the
    /// main loop between batches, so a frame per batch would make a big scan many times slower). The
    /// grid is put in order (newest first) once the library is read (``sortPhotos()``): sorting each
    /// batch into place would move the tiles on screen with every batch, and such a change costs the
    /// grid time in proportion to what moved, while an append costs only what is added.
    private func add(_ batch: [LibraryPhoto]) {
        scanned += batch
        if startedFromListing { return }  // reconciled in one change when the scan ends
        for photo in batch where index.photos[photo.photo.uri] == nil {
            index.photos[photo.photo.uri] = photo
            pendingPhotos.append(photo)
        }
        if model.count == 0 || DateText.monotonicMicroseconds - lastFlush >= Self.flushInterval { flushPending() }
    }

    /// How often, at most, photos found by the scan are added to the grid, in microseconds (250 ms).
    static let flushInterval: Int64 = 250_000

    private func flushPending() {
        lastFlush = DateText.monotonicMicroseconds
        guard !pendingPhotos.isEmpty else { return }
        let wasEmpty = model.count == 0
        let new = pendingPhotos.sorted(by: LibraryPhoto.newestFirst)
        pendingPhotos = []
        libraryPhotos += new
        model.append(new.map(\.photo.uri))
        if wasEmpty, focusAwaitsPhotos { grid.grabFocus() }
    }

    /// Whether the keyboard focus waits for the first photos: on Open File… (the first control while the
    /// grid is empty), or on the grid's scroller, the grid or the page itself, where restoring the page's
    /// focus leaves it when Open File… is folded into the bar's ⋮ More (at 360 px). A screen reader says
    /// nothing there and Return opens nothing, so the first photo takes the focus when it comes.
    private var focusAwaitsPhotos: Bool {
        openFileButton.isFocus || scroller.isFocus || grid.isFocus || view.isFocus
    }

    /// Puts the grid in order, newest first, with exactly the photos the scan found (a grid shown from
    /// the last listing loses what was deleted since and gains what was added), in one model change from
    /// the first photo out of place.
    ///
    /// GTK's grid follows the photo at its top, and the photo with keyboard focus, to wherever the change
    /// moves them (`GtkListBase` tracks its anchor and focus items across `items-changed`). That keeps the
    /// place of someone who scrolled. Someone who did not scroll expects the newest photos when the order
    /// arrives, so a grid still at its top stays at its top, with focus, if a tile had it, on the first.
    private func sortPhotos() {
        var seen = Set<String>()
        let sorted = scanned.filter { seen.insert($0.photo.uri).inserted }.sorted(by: LibraryPhoto.newestFirst)
        scanned = []
        library.remember(sorted)
        for photo in sorted { index.photos[photo.photo.uri] = photo }
        let common = min(sorted.count, libraryPhotos.count)
        let first = (0..<common).first { sorted[$0] != libraryPhotos[$0] } ?? common
        guard first < max(sorted.count, libraryPhotos.count) else { return }
        let removing = libraryPhotos.count - first
        let wasAtTop = scroller.verticalOffset <= 0
        let tileHadFocus = boundTiles.contains { $0.tile.listItem?.hasFocus == true }
        libraryPhotos = sorted
        model.splice(at: first, removing: removing, with: sorted[first...].map(\.photo.uri))
        guard wasAtTop, !sorted.isEmpty else { return }
        if tileHadFocus { grid.focusFirstItem() } else { grid.scrollToItem(at: 0) }
    }

    private func finishScan(error: Error?) {
        flushPending()
        if error == nil { sortPhotos() }
        isScanning = false
        index.makesThumbnails = true
        for (_, tile) in boundTiles { tile.loadIfShown() }
        if let error {
            // Translators: the headline of Choose a Photo when its folder can't be read.
            showEmptyState(localized("Can't Read the Photo Folder"),
                           // Translators: %1$s is a folder, %2$s why it can't be read.
                           localized("Can't read the photo folder “%1$s”: %2$s", library.directory, "\(error)"))
        } else if libraryPhotos.isEmpty {
            // Translators: the headline of Choose a Photo over a folder with no photos.
            showEmptyState(localized("No Photos"),
                           // Translators: %s is a folder. “Open File…” is the button beside this text.
                           localized("No photos in “%s”. Use Open File… to choose one from elsewhere.", library.directory))
        }
    }

    private func showEmptyState(_ title: String, _ message: String) {
        emptyState.set(title: title, description: message)
        emptyState.isVisible = true
        scroller.isVisible = false
    }

    private func fitColumns(to width: Int) {
        let columns = max(1, Int(width / Self.tileWidth))
        if columns != grid.maximumColumns { grid.setColumns(minimum: 1, maximum: columns) }
    }

    private func choose(at position: Int) {
        guard libraryPhotos.indices.contains(position) else { return }
        let photo = libraryPhotos[position]
        guard loader.failure(for: photo) == nil else { return }  // a placeholder: nothing to post
        let uri = photo.photo.uri
        Task { [weak self] in
            let exists = (try? await ImageMetadata.queue.run { Files.exists(uri: uri) }) ?? false
            guard let self else { return }
            if exists {
                self.messageLabel.isVisible = false
                self.onPhotoChosen?(photo.photo)
            } else {
                self.markGone(photo)
            }
        }
    }

    /// Shows `message` above the grid (a problem with one photo; the rest still works).
    func showMessage(_ message: String) {
        messageLabel.text = message
        messageLabel.isVisible = true
    }

    private func markGone(_ photo: LibraryPhoto) {
        // Translators: %s is a photo's file name.
        showMessage(localized("“%s” is no longer there: it was moved or deleted.", photo.photo.fileName))
        loader.recordFailure(ImageLoadError(.unreadable, localized("The file no longer exists")), for: photo)
        // Rebind its tile, which shows the placeholder now.
        if let position = libraryPhotos.firstIndex(of: photo) {
            model.splice(at: position, removing: 1, with: [photo.photo.uri])
        }
    }

    private func openFile() {
        let chooser = FileChooser(title: localized("Open a Photo"), acceptLabel: localized("_Open"), parent: content.rootWindow,
                                  folder: library.directory)
        fileChooser = chooser
        Task { [weak self] in
            let uri = await chooser.choose()
            guard let self else { return }
            self.fileChooser = nil
            if let uri { self.onPhotoChosen?(Photo(uri: uri)) }
        }
    }
}

/// The picker's photos by URI, shared between the page and its tile factory (which must not hold the page).
@MainActor
final class PhotoIndex {
    var photos: [String: LibraryPhoto] = [:]
    /// False while the library is being read: tiles then show only thumbnails already cached, because
    /// newly found photos keep moving the tiles on screen, and making thumbnails for photos about to move
    /// away would only delay the ones that stay.
    var makesThumbnails = false
}
