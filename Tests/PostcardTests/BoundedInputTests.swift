import CGtk
import Foundation
import Gtk
import GtkTesting
import Navigation
import NavigationGtk
import PhotoPosting
@testable import PostcardApp
import PostcardModel
import XCTest

/// Nothing unbounded is trusted (issue 46, part 2): a journal is read as a regular file of bounded size
/// with bounded times and a version this Postcard reads; a path deeper than a person could have
/// navigated is refused or cut to ``maximumPathDepth``, never built, wherever it comes from (a journal, the
/// saved state, code).
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread.)
final class BoundedInputTests: GtkTestCase, @unchecked Sendable {
    private func journal(_ lines: [String], named name: String = "journey.txt") throws -> String {
        let path = makeTemporaryDirectory() + "/" + name
        try (["# Postcard journey 1"] + lines).map { $0 + "\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `postcard --replay` on `path`, which must end within `seconds` (it never hangs, never traps).
    private func replay(_ path: String, within seconds: Double = 20) throws -> ProgramRun {
        let start = Date()
        let run = try runPostcard(["--replay", path, "--fast"])
        XCTAssertLessThan(Date().timeIntervalSince(start), seconds, "refused at once, not after reading or waiting")
        return run
    }

    func testAJournalThatIsADeviceOrAFIFOIsRefusedUnreadAndAHugeOneBySize() throws {
        // /dev/zero: read as a file, it grew memory without limit.
        let zero = try replay("/dev/zero")
        XCTAssertEqual(zero.status, 2)
        XCTAssertTrue(zero.errors.contains("/dev/zero: It is not a regular file (a pipe or a device), so it is not opened"), zero.errors)

        // A FIFO nobody writes to: it hung for ever (opened twice).
        let fifo = makeTemporaryDirectory() + "/journey.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let piped = try replay(fifo)
        XCTAssertEqual(piped.status, 2)
        XCTAssertTrue(piped.errors.contains("It is not a regular file"), piped.errors)

        // A file larger than any journal: refused by its size, before a byte is read.
        let huge = makeTemporaryDirectory() + "/huge.journey"
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
        XCTAssertEqual(truncate(huge, off_t(Journey.maximumBytes + 1)), 0)  // sparse: no disk used
        let large = try replay(huge)
        XCTAssertEqual(large.status, 2)
        XCTAssertTrue(large.errors.contains("is larger than \(Journey.maximumBytes) bytes"), large.errors)
    }

    func testAStepTimeBeyondAWeekAndANewerFormatAreRefusedWithAMessage() throws {
        // 4.3 million seconds trapped the app (SIGILL) as it waited for the step.
        let late = try replay(try journal(["0.000 path", "4300000.000 path postcard://messages"]))
        XCTAssertEqual(late.status, 2, "a message, not a crash: \(late.errors)")
        XCTAssertTrue(late.errors.contains("line 3, step “path”: the time is not a number of seconds from the start, goes back, or is later than 604800 seconds"),
                      late.errors)
        XCTAssertThrowsError(try Journey(text: "# Postcard journey 1\n604800.001 post\n"))
        XCTAssertNoThrow(try Journey(text: "# Postcard journey 1\n604800.000 post\n"))

        // A journal from a newer Postcard was replayed silently.
        let newer = makeTemporaryDirectory() + "/newer.journey"
        try "# Postcard journey 2\n0.000 path\n".write(toFile: newer, atomically: true, encoding: .utf8)
        let refused = try replay(newer)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.errors.contains("this journal is of version 2, from a newer Postcard; this one reads version 1"), refused.errors)
        XCTAssertThrowsError(try Journey(text: "# Postcard journey 17\n")) { error in
            XCTAssertEqual((error as? JourneyError)?.reason, .newerVersion(17))
        }
    }

    func testAPathDeeperThanAPersonGoesIsNeverBuilt() throws {
        // A journal's path of 10,000 links (1 GB and 53 s before): refused as it is read.
        let links = (1...10_000).map { _ in "postcard://messages" }.joined(separator: " ")
        let start = Date()
        XCTAssertThrowsError(try Journey(text: "# Postcard journey 1\n0.000 path \(links)\n")) { error in
            XCTAssertEqual(error as? JourneyError, JourneyError(line: 2, step: "path", reason: .badValue))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        let deepest = (1...maximumPathDepth).map { _ in "postcard://guide" }.joined(separator: " ")
        XCTAssertNoThrow(try Journey(text: "# Postcard journey 1\n0.000 path \(deepest)\n"), "64 is still a path")

        try onMain {
            let app = try makeApp(posts: ["Espresso"])
            // Code asking for 100 pages gets 64; a push beyond them is refused.
            let hundred: [Route] = (0..<100).map { $0 % 2 == 0 ? .post(1) : .comments(1) }
            let shown = app.router.setPath(hundred, animated: false)
            XCTAssertEqual(shown.count, maximumPathDepth)
            XCTAssertEqual(app.mainWindow.stack.pages.count, maximumPathDepth + 1, "the root and 64 pages")
            XCTAssertNil(app.router.push(.profile("ada"), animated: false))
            XCTAssertEqual(app.router.path.count, maximumPathDepth)
            app.router.setPath([], animated: false)
            app.shutdown()

            // A saved state of 5,000 links (1.86 GB at every start before): 64 pages at most, at once.
            let many = (0..<5_000).map { $0 % 2 == 0 ? "'postcard://post/1'" : "'postcard://post/1/comments'" }.joined(separator: ", ")
            try Files.writeText("{'path': <[\(many)]>}", to: app.navigationFile)
            let next = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(next.mainWindow.window)
            let began = Date()
            next.restoreNavigation()
            XCTAssertLessThan(Date().timeIntervalSince(began), 5)
            XCTAssertEqual(next.router.path.count, maximumPathDepth)
            next.shutdown()

            // A file larger than any state Postcard writes is not read at all.
            try Files.writeText("{'path': <['postcard://messages'" + String(repeating: " ", count: AppController.maximumStateBytes) + "]>}",
                                to: app.navigationFile)
            let third = AppController(application: nil, store: app.store, library: PhotoLibrary(directory: bundledPhotos))
            show(third.mainWindow.window)
            third.restoreNavigation()
            XCTAssertEqual(third.router.path, [])
            third.shutdown()
        }
    }
}
