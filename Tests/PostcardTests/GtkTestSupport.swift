import Adwaita
import CGtk
import CSQLite
import Foundation
import Gtk
import GtkTesting
import NavigationGtk
import PhotoPosting
import PostcardApp
import PostcardModel
@testable import PostcardStore
import XCTest

/// Base for the app's GTK tests: the toolkit's test case (``ToolkitTestCase``, in GtkTesting) with the
/// app's look (libadwaita initialized, as the app's AdwApplication does at start-up) and the app itself
/// (``makeApp(posts:cameras:width:dataDirectory:)``, whose flows are tracked).
class GtkTestCase: ToolkitTestCase, @unchecked Sendable {
    override class var displayName: String { "Postcard" }  // as the app does
    override class var programName: String { "postcard-tests" }

    /// The app ``makeApp`` made last in this test (its flows are tracked).
    weak var lastApp: AppController?

    @MainActor
    override func gtkDidInitialize() { Libadwaita.initialize() }
}

extension GtkTestCase {
    /// Activates Post on `page` once it is enabled (after the chosen photo has decoded), as a user
    /// who waits for the photo to show would.
    @MainActor
    func postWhenReady(_ page: CommentPage, file: StaticString = #filePath, line: UInt = #line) {
        spin(until: { page.postButton.isSensitive }, "Post enabled (the photo decoded)", file: file, line: line)
        page.postButton.activate()
    }
}

// Tests name their temporary folders as text (always UTF-8 here); the app's API takes byte-exact
// ``FilePath``s. ByteExactNameTests covers names that are not UTF-8.
extension PostStore {
    convenience init(directory: String) throws { try self.init(directory: FilePath(directory)) }
}

extension PhotoLibrary {
    init(directory: String) { self.init(directory: FilePath(directory)) }
}

extension Photo {
    init(path: String) { self.init(path: FilePath(path)) }
}

extension FilePath {
    /// The path as text, for Foundation's file APIs in tests (every test folder's name is UTF-8).
    var text: String { string! }
}

extension String {
    /// The `file://` URI of this path (made absolute).
    var uri: String { FilePath(self).uri }
}

@MainActor
extension StyleSheet {
    static func load(path: String) { load(path: FilePath(path)) }
}

extension ImageMetadata {
    static func write(dateTaken date: Int64? = nil, orientation: Int32? = nil, toFileAt path: String) throws {
        try write(dateTaken: date, orientation: orientation, toFileAt: FilePath(path))
    }
}

extension GtkTestCase {
    /// The app over a new store in a temporary folder (or `dataDirectory`), offering the bundled photos,
    /// with its main window shown: `width` pixels wide when given, the app's own size otherwise. Each of
    /// `posts` becomes a post on My Profile, oldest first, its photo in turn coffee.png, rocket.jpg and
    /// chelsea.png. The cameras are `cameras`, or what the environment says (`POSTCARD_CAMERA`).
    @MainActor
    func makeApp(posts: [String] = [], cameras: [CameraSource]? = nil, width: Int? = nil,
                 dataDirectory: String? = nil) throws -> AppController {
        StyleSheet.load(path: bundledPhotos + "/../style.css")  // a CSS error would be a fatal warning
        let store = try PostStore(directory: dataDirectory ?? makeTemporaryDirectory())
        if dataDirectory == nil { try store.setIdentityNow(.sample) }
        for (index, comment) in posts.enumerated() {
            let photo = ["coffee.png", "rocket.jpg", "chelsea.png"][index % 3]
            try store.addNow(photo: Photo(path: bundledPhotos + "/" + photo), comment: comment,
                          author: "me", profile: "me")
        }
        let library = PhotoLibrary(directory: bundledPhotos)
        let app = cameras.map { AppController(application: nil, store: store, library: library, cameraSources: $0) }
            ?? AppController(application: nil, store: store, library: library)
        if let width { app.mainWindow.window.setDefaultSize(width: width, height: 720) }
        app.onFlowStarted = { [weak self] started in self?.track(started.flow) }
        lastApp = app
        show(app.mainWindow.window)
        return app
    }
}

extension GtkTestCase {
    /// The rows of `table` in the store in `folder` with `condition`, counted on a connection of its own
    /// (marked deleted or not: what is on the disk); -1 when it can't be read.
    func rowCount(_ table: String, where condition: String = "1", inStoreAt folder: String) -> Int {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(folder + "/posts.sqlite3", &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return -1 }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM \(table) WHERE \(condition)", -1, &statement, nil) == SQLITE_OK else { return -1 }
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : -1
    }

    /// Runs `sql` on a connection of its own to the store's database in `folder`, as another program
    /// (`sqlite3`) would; fails the test when SQLite refuses it.
    func runSQL(_ sql: String, inStoreAt folder: String, file: StaticString = #filePath, line: UInt = #line) {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open(folder + "/posts.sqlite3", &db) == SQLITE_OK else {
            return XCTFail("can't open the store in \(folder)", file: file, line: line)
        }
        sqlite3_busy_timeout(db, 5000)
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            XCTFail("\(sql): \(message.map { String(cString: $0) } ?? "failed")", file: file, line: line)
            sqlite3_free(message)
        }
    }
}

extension Identity {
    /// The user the tests' stores have (the name the app's pictures and fixtures show).
    static let sample = Identity(id: "0d6a2c1e-8b3f-4e57-9a10-c4f2e7b85d93", name: "Sam Rivera")
}

/// WebKit's web processes as `/proc` shows them, for the tests of how many a page or a link storm starts.
enum WebProcesses {
    /// The live (not yet reaped zombies excluded) processes named WebKitWebProcess that descend from
    /// process `ancestor` (WebKit starts them through `bwrap`, so they may be grandchildren), by id.
    static func descending(from ancestor: Int32) -> Set<Int32> {
        func stat(of pid: Int32) -> (state: Character, parent: Int32)? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
            return (state, parent)
        }
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return Set(all.compactMap(Int32.init).filter { pid in
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
                  name.hasPrefix("WebKitWebProces"), let own = stat(of: pid), own.state != "Z", own.state != "X" else { return false }
            var current = own.parent
            for _ in 0..<8 {
                if current == ancestor { return true }
                guard current > 1, let up = stat(of: current) else { return false }
                current = up.parent
            }
            return false
        })
    }
}
