import CSQLite
import Foundation
import GLib
import PostcardModel
@testable import PostcardStore
import GtkTesting
import XCTest

/// Delete and Undo keep the user's last word whatever ends the app right after the press (issue 46): a
/// real Postcard, Delete or Undo pressed over AT-SPI as a screen reader user does, then `kill -9` or a
/// logout's SIGTERM (the same `Application.quit()` as Ctrl+Q) a few milliseconds after the press was
/// handled. The next store to open the folder must find what the user chose last: a deleted post gone with
/// its photo, an undone one back with its photo.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread.)
final class LastChoiceTests: GtkTestCase, @unchecked Sendable {
    private struct Running {
        let postcard: Process
        let data: String
        let photo: String
        let log: String
    }

    /// A data folder holding one post, and a Postcard showing it (its Delete button on screen).
    private func startOnAPost() throws -> Running {
        let home = makeTemporaryDirectory()
        let data = home + "/data"
        let photo = try MainActor.assumeIsolated {
            let store = try PostStore(directory: FilePath(data))
            let post = try store.addNow(photo: Photo(path: bundledPhotos + "/coffee.png"), comment: "The last word", author: "me", profile: "me")
            return post.photoPath.displayName
        }
        let postcard = try startPostcard(["--data-dir", data, "postcard://post/1"], environment: ["XDG_DATA_HOME": home + "/xdg", "G_MESSAGES_DEBUG": "Postcard"],
                                         log: home + "/postcard.log")
        var started = false
        defer { if postcard.isRunning && !started { kill(postcard.processIdentifier, SIGKILL) } }
        try waitFor("the post's page", timeout: 30) {
            (try? readAccessibilityTree(ofProcess: postcard.processIdentifier))?.contains("push button|Delete") == true
        }
        started = true
        return Running(postcard: postcard, data: data, photo: photo, log: home + "/postcard.log")
    }

    /// Presses `button` in `running`'s Postcard over AT-SPI, then sends it `signal` (SIGKILL, SIGTERM)
    /// `milliseconds` after the app says it handled the press (its log's "Delete pressed" or "Undo
    /// pressed": AT-SPI's action only queues the click), or, with nil, as soon as the press is queued
    /// (the signal may then be handled first). Waits for the process to end.
    /// - Returns: whether the app handled the press before it ended.
    @discardableResult
    private func press(_ button: String, in running: Running, then signal: Int32, after milliseconds: Int?) throws -> Bool {
        let script = ToolkitTestCase.accessibilityReaderScript
        let run = try runProgram("/usr/bin/python3", [script, String(running.postcard.processIdentifier), "--press", button])
        XCTAssertEqual(run.status, 0, run.errors)
        func handled() -> Bool { (try? String(contentsOfFile: running.log, encoding: .utf8))?.contains("\(button) pressed") ?? false }
        if let milliseconds {
            let deadline = Date().addingTimeInterval(10)
            while !handled() {
                guard Date() < deadline else { throw TimedOut(what: "the app handling \(button)") }
                usleep(500)  // polls the log for the line; the timeout above bounds it
            }
            usleep(UInt32(milliseconds * 1000))  // about time itself: the signal lands this long after the press
        }
        kill(running.postcard.processIdentifier, signal)
        let exited = Date().addingTimeInterval(30)
        while running.postcard.isRunning && Date() < exited { usleep(10_000) }  // polls for the exit; bounded above
        if running.postcard.isRunning { kill(running.postcard.processIdentifier, SIGKILL) }
        running.postcard.waitUntilExit()
        return handled()
    }

    /// Deletes the post, waits for its toast with Undo, and presses Undo followed by `signal`.
    /// - Returns: whether the app handled Undo before it ended.
    private func deleteThenUndo(in running: Running, then signal: Int32, after milliseconds: Int?) throws -> Bool {
        let script = ToolkitTestCase.accessibilityReaderScript
        XCTAssertEqual(try runProgram("/usr/bin/python3", [script, String(running.postcard.processIdentifier), "--press", "Delete"]).status, 0)
        try waitFor("the toast with Undo", timeout: 10) {
            (try? readAccessibilityTree(ofProcess: running.postcard.processIdentifier))?.contains("push button|Undo") == true
        }
        return try press("Undo", in: running, then: signal, after: milliseconds)
    }

    /// What the next launch finds: whether the post is there (and its photo with it).
    private func postSurvives(in running: Running, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        try MainActor.assumeIsolated {
            let store = try PostStore(directory: FilePath(running.data))  // finishes what the gone instance left
            let there = try store.post(id: 1) != nil
            XCTAssertEqual(FileManager.default.fileExists(atPath: running.photo), there,
                           "the photo goes with its post, and only with it", file: file, line: line)
            return there
        }
    }

    func testKilledAtAnyMomentAfterDeleteTheDeletionStands() throws {
        for milliseconds in [nil, 0, 15, 50] {
            let running = try startOnAPost()
            let handled = try press("Delete", in: running, then: SIGKILL, after: milliseconds)
            XCTAssertEqual(try postSurvives(in: running), !handled,
                           "kill -9 \(milliseconds.map { "\($0) ms" } ?? "at once") after Delete: deleted if and only if the app had the press")
        }
    }

    func testKilledAtAnyMomentAfterUndoThePostStaysBack() throws {
        for milliseconds in [nil, 0, 20] {
            let running = try startOnAPost()
            let handled = try deleteThenUndo(in: running, then: SIGKILL, after: milliseconds)
            XCTAssertEqual(try postSurvives(in: running), handled,
                           "kill -9 \(milliseconds.map { "\($0) ms" } ?? "at once") after Undo: back if and only if the app had the press")
        }
    }

    /// SIGTERM runs the same quit as Ctrl+Q (`Application.quit()`): what the user chose last must win over
    /// the quit's clean-up, which removes for good what is still marked deleted.
    func testQuittingRightAfterUndoOrDeleteKeepsTheLastChoice() throws {
        for milliseconds in [nil, 0, 30] {
            let running = try startOnAPost()
            let handled = try deleteThenUndo(in: running, then: SIGTERM, after: milliseconds)
            XCTAssertEqual(running.postcard.terminationReason, .exit, "SIGTERM quits through the quit path")
            XCTAssertEqual((Files.names(inDirectory: FilePath(running.data + "/instances")) ?? []).filter { $0.displayName.hasSuffix(".deletions") }, [],
                           "the quit carried out every choice")
            XCTAssertEqual(try postSurvives(in: running), handled,
                           "quit \(milliseconds.map { "\($0) ms" } ?? "at once") after Undo: back if and only if the app had the press")
        }
        let running = try startOnAPost()
        let handled = try press("Delete", in: running, then: SIGTERM, after: nil)
        XCTAssertEqual(try postSurvives(in: running), !handled, "quit right after Delete: deleted if and only if the app had the press")
    }
}
