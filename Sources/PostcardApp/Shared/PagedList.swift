import Gtk
import PostcardModel
import PostcardStore

/// Rows of one list read from the store a page at a time (keyset paging: each page starts after the last
/// row of the one before, so reading page 100 costs what page 1 costs). Main actor only.
@MainActor
public final class PagedRows<Row: Identifiable & Sendable> where Row.ID == Int64 {
    /// Reads at most `limit` rows that come after `last` in the list's order (from the start when nil).
    public typealias Fetch = @MainActor (_ last: Row?, _ limit: Int) throws -> [Row]

    /// The rows read so far, in list order.
    public private(set) var rows: [Row] = []
    /// Whether the last page has been read.
    public private(set) var isComplete = false
    /// Rows per page.
    public let pageSize: Int
    private let fetch: Fetch

    /// Creates a source that reads pages of `pageSize` rows with `fetch`.
    public init(pageSize: Int = 24, fetch: @escaping Fetch) {
        self.pageSize = pageSize
        self.fetch = fetch
    }

    /// Reads the next page; returns its rows (none when the list is complete).
    /// - Throws: what `fetch` throws (a ``PostStoreError``); nothing read so far is lost.
    @discardableResult
    public func loadMore() throws -> [Row] {
        guard !isComplete else { return [] }
        let page = try fetch(rows.last, pageSize)
        rows += page
        isComplete = page.count < pageSize
        return page
    }

    /// Adds `row` at `index` (a row just posted), without reading anything.
    func insert(_ row: Row, at index: Int) { rows.insert(row, at: min(index, rows.count)) }

    /// Takes out the row with `id` (deleted), without reading anything; returns its index, or nil when
    /// it was not read.
    func remove(id: Int64) -> Int? {
        guard let index = rows.firstIndex(where: { $0.id == id }) else { return nil }
        rows.remove(at: index)
        return index
    }

    /// Replaces the row with `row`'s id (an edited caption); returns its index, or nil when not read yet.
    func replace(_ row: Row) -> Int? {
        guard let index = rows.firstIndex(where: { $0.id == row.id }) else { return nil }
        rows[index] = row
        return index
    }
}

/// A recycled `GtkListView` over ``PagedRows``: optional leading rows (a profile's header), then one row
/// per record, read from the store a page at a time as the user scrolls near the end. Rows are made by
/// `Cell`'s factory and bound to record after record; posting or editing changes one row in place.
/// Main actor only.
@MainActor
final class PagedListView<Row: Identifiable & Sendable, Cell: ListCell> where Row.ID == Int64 {
    /// The list view (put it in a scrolled window).
    let view: ListView
    /// The rows' factory (its bound cells are what is on screen and near it).
    let factory: ListItemFactory<Cell>
    /// The source of the rows, once shown.
    private(set) var source: PagedRows<Row>?
    /// Called when reading a page failed (the rows already shown stay).
    var onLoadError: (@MainActor (Error) -> Void)?
    private let model = KeyListModel()
    private let leadingKeys: [String]
    private let state: State

    /// The next page is read when the user scrolls within this many screens of the end, in the way of
    /// infinite scrolling lists: reading is driven by what is shown, not by how many rows GTK keeps bound.
    static var prefetchScreens: Double { 3 }

    /// What the factory's closures share with the list (they must not hold the list itself).
    @MainActor final class State {
        var rowsByKey: [String: Row] = [:]
    }

    /// - Parameters:
    ///   - leadingKeys: keys of rows before the records, bound with `bindLeading`.
    ///   - makeCell: makes one cell (once per row widget).
    ///   - bindRow: points a cell at a record.
    ///   - bindLeading: points a cell at a leading row.
    ///   - unbind: cancels a cell's loads and drops what it holds.
    init(leadingKeys: [String] = [],
         makeCell: @escaping @MainActor () -> Cell,
         bindRow: @escaping @MainActor (Cell, Row, ListItemBinding) -> Void,
         bindLeading: @escaping @MainActor (Cell, String, ListItemBinding) -> Void = { _, _, _ in },
         unbind: @escaping @MainActor (Cell) -> Void) {
        self.leadingKeys = leadingKeys
        let state = State()
        self.state = state
        factory = ListItemFactory(makeCell: makeCell, bind: { cell, binding in
            if let row = state.rowsByKey[binding.key] {
                bindRow(cell, row, binding)
            } else {
                bindLeading(cell, binding.key, binding)
            }
        }, unbind: unbind)
        view = ListView(model: model, factory: factory)
        model.append(leadingKeys)
    }

    /// Starts reading pages as the user scrolls; call once the view is in its scrolled window.
    func readMoreWhenScrolled() {
        view.onScroll { [weak self] distance in
            guard let self else { return }
            let screen = Double(self.view.height)
            if distance < max(screen, 1) * Self.prefetchScreens { self.readMore() }
        }
    }

    /// The key of a record's row.
    static func key(_ row: Row) -> String { "row:\(row.id)" }

    /// Shows `source`'s rows from the top (reads its first page).
    /// - Throws: the first page's error; the list is then empty.
    func show(_ source: PagedRows<Row>) throws {
        self.source = source
        state.rowsByKey = [:]
        model.splice(at: leadingKeys.count, removing: model.count - leadingKeys.count, with: [])
        try append(source.loadMore())
    }

    /// The records read so far, in list order.
    var rows: [Row] { source?.rows ?? [] }

    /// The record shown at list `position` (after the leading rows), or nil.
    func row(at position: Int) -> Row? {
        let index = position - leadingKeys.count
        return rows.indices.contains(index) ? rows[index] : nil
    }

    /// The list position of the record at `index`.
    func position(ofRowAt index: Int) -> Int { index + leadingKeys.count }

    /// Adds `row` at `index` (0: the top) without rebuilding anything; other rows keep their widgets,
    /// and the scroll position and focus stay with the row the user was on. Returns false (and changes
    /// nothing) when a row with its id is shown already or nothing is shown yet.
    @discardableResult
    func insert(_ row: Row, at index: Int) -> Bool {
        guard let source, !source.rows.contains(where: { $0.id == row.id }) else { return false }
        source.insert(row, at: index)
        state.rowsByKey[Self.key(row)] = row
        model.insert(Self.key(row), at: position(ofRowAt: min(index, source.rows.count - 1)))
        return true
    }

    /// Takes out the record with `id` (deleted) without rebuilding anything: the other rows keep their
    /// widgets, and focus and scrolling stay where they were. Returns whether it was shown.
    @discardableResult
    func remove(id: Int64) -> Bool {
        guard let source, let index = source.remove(id: id) else { return false }
        state.rowsByKey["row:\(id)"] = nil
        model.splice(at: position(ofRowAt: index), removing: 1, with: [])
        return true
    }

    /// Shows `row` in place of the record with the same id (rebinding that one row).
    func replace(_ row: Row) {
        guard let index = source?.replace(row) else { return }
        state.rowsByKey[Self.key(row)] = row
        model.splice(at: position(ofRowAt: index), removing: 1, with: [Self.key(row)])
    }

    private func append(_ page: [Row]) {
        for row in page { state.rowsByKey[Self.key(row)] = row }
        model.append(page.map(Self.key))
    }

    private var isReading = false

    private func readMore() {
        guard let source, !source.isComplete, !isReading else { return }
        isReading = true
        // Read after this layout pass: the model must not change while the list lays out its rows.
        MainLoopBridge.afterLayout { [weak self] in
            guard let self else { return }
            self.isReading = false
            guard let source = self.source, !source.isComplete else { return }
            do {
                self.append(try source.loadMore())
            } catch {
                self.onLoadError?(error)
            }
        }
    }
}
