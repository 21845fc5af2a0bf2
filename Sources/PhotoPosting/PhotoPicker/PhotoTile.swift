import Gtk
import NavigationGtk
import PostcardModel

/// One tile of Choose a Photo: the thumbnail (cropped square by `GtkPicture`'s cover fit) and the file
/// name, or a placeholder saying why the photo cannot be shown. Made once, bound to photo after photo.
@MainActor
public final class PhotoTile: ListCell {
    /// The tile's top widget.
    public var root: Widget { column }
    private let column = Box(.vertical, spacing: 4)
    /// The thumbnail (in a frame of exactly the tile's size).
    public var picture: Picture { frame.picture }
    private let frame = SizedPicture(width: PhotoPickerPage.thumbnailSize, height: PhotoPickerPage.thumbnailSize)
    /// Shown instead of the thumbnail when the photo cannot be shown.
    public let placeholderIcon = Image(iconName: "image-missing-symbolic", pixelSize: 48)
    /// The placeholder (icon and problem) in the picture's place.
    private let placeholder = Box(.vertical, spacing: 6)
    /// "Can't open this photo" or "Too large to show", under the placeholder icon.
    public let problemLabel = Label()
    /// The file name.
    public let caption = Label()
    /// The photo bound now.
    public private(set) var photo: LibraryPhoto?
    /// Whether the thumbnail is still loading.
    public private(set) var isLoading = false
    /// Whether the tile shows what it will show: its thumbnail, or its placeholder.
    public var isSettled: Bool { !isLoading && (picture.texture != nil || problemLabel.isVisible) }
    /// The grid's own item widget around this tile (what takes focus and what a screen reader reads),
    /// while bound.
    public var listItem: Widget? { binding?.item }
    /// The tooltip of the tile (the reason, for a placeholder).
    public private(set) var tooltip: String?
    private var load: Task<Void, Never>?
    private var binding: ListItemBinding?
    private var loader: ThumbnailLoader?
    private weak var index: PhotoIndex?

    init() {
        picture.contentFit = .cover
        frame.horizontalAlignment = .center
        frame.addCSSClass("thumbnail")
        // The placeholder takes the picture's place and size, so a row of tiles keeps one height.
        placeholder.setSizeRequest(width: PhotoPickerPage.thumbnailSize, height: PhotoPickerPage.thumbnailSize)
        placeholder.verticalAlignment = .center
        placeholder.addCSSClass("thumbnail")
        placeholderIcon.addCSSClass("dim-label")
        placeholderIcon.verticalAlignment = .end
        placeholderIcon.expandsVertically = true
        problemLabel.verticalAlignment = .start
        problemLabel.expandsVertically = true
        problemLabel.addCSSClass("error")
        problemLabel.addCSSClass("caption")
        // Labels take the picture's width and cut what does not fit with "…" (the tooltip has it all):
        // asking for no more than a character keeps every tile, and so the grid's columns, 144 px wide.
        for label in [caption, problemLabel] {
            label.ellipsizeAtEnd()
            label.maximumWidthInCharacters = 1
        }
        caption.addCSSClass("caption")
        placeholder.append(placeholderIcon)
        placeholder.append(problemLabel)
        placeholder.isVisible = false
        column.append(frame)
        column.append(placeholder)
        column.append(caption)
        column.addCSSClass("photo-tile")
        // The tile (the grid's item) is named by the file, with the reason when it cannot be shown in its
        // description; what is in it would only say the name again (Orca 43 read it three times).
        column.hideFromScreenReaders()
        column.onMapChanged { [weak self] mapped in
            if mapped { self?.loadIfShown() } else { self?.stopLoading() }
        }
    }

    func bind(_ photo: LibraryPhoto, binding: ListItemBinding, loader: ThumbnailLoader, index: PhotoIndex) {
        self.photo = photo
        self.binding = binding
        self.loader = loader
        self.index = index
        caption.text = photo.photo.fileName
        picture.alternativeText = photo.photo.fileName
        placeholderIcon.setAccessibleLabel(photo.photo.fileName)
        binding.setAccessibleLabel(photo.photo.fileName, tooltip: photo.photo.fileName)
        tooltip = photo.photo.fileName
        if let failure = loader.failure(for: photo) {
            showProblem(failure)
        } else {
            show(loader.cachedTexture(for: photo))
            loadIfShown()
        }
    }

    /// Loads the thumbnail while the tile is on screen: the grid keeps a few hundred tiles bound, but
    /// only those on screen are mapped, so only they load (newest request first), and a tile that
    /// scrolls away cancels its load before it starts. While the library is still being read, only
    /// thumbnails already in the cache are shown (see ``PhotoIndex/makesThumbnails``).
    func loadIfShown() {
        guard column.isMapped, let photo, let loader, let index, load == nil, picture.texture == nil,
              loader.failure(for: photo) == nil else { return }
        if let texture = loader.cachedTexture(for: photo) { return show(texture) }
        loader.textureEdge = max(loader.textureEdge, PhotoPickerPage.thumbnailSize * column.scaleFactor)
        let makes = index.makesThumbnails
        isLoading = makes
        load = Task { [weak self] in
            do {
                let texture = makes ? try await loader.thumbnail(for: photo) : await loader.cachedThumbnail(for: photo)
                guard !Task.isCancelled, let self, self.photo == photo else { return }
                if let texture { self.show(texture) }
            } catch let failure as ImageLoadError {
                guard let self, self.photo == photo else { return }
                self.showProblem(failure)
            } catch {}
            guard let self, self.photo == photo else { return }
            self.isLoading = false
            self.load = nil
            if !makes, index.makesThumbnails { self.loadIfShown() }  // the scan ended meanwhile: make it now
        }
    }

    private func stopLoading() {
        load?.cancel()
        load = nil
        isLoading = false
        if photo.flatMap({ loader?.failure(for: $0) }) == nil {
            picture.texture = nil  // the loader's bounded cache decides what stays in memory
        }
    }

    func unbind() {
        stopLoading()
        photo = nil
        binding = nil
    }

    private func show(_ texture: Texture?) {
        picture.texture = texture
        frame.isVisible = true
        placeholder.isVisible = false
        problemLabel.isVisible = false
        root.removeCSSClass("unreadable")
    }

    private func showProblem(_ failure: ImageLoadError) {
        picture.texture = nil
        frame.isVisible = false
        placeholder.isVisible = true
        problemLabel.text = failure.kind == .tooLarge ? localized("Too large to show") : localized("Can't open this photo")
        problemLabel.isVisible = true
        root.addCSSClass("unreadable")
        guard let photo else { return }
        // Translators: the tooltip of a photo that can't be shown: its file name (%1$s) and why (%2$s).
        tooltip = localized("%1$s: %2$s", photo.photo.fileName, failure.reason)
        binding?.setAccessibleLabel(photo.photo.fileName, tooltip: tooltip)
    }
}
