import Foundation
import Synchronization
import GtkTesting
import XCTest

/// A link storm over D-Bus (issue 46): 1,000 `postcard://` links sent to a running Postcard within a second
/// blocked its main loop for 14 s, ran up to 363 web processes at once, took 3.2 GB, and showed the last
/// link after 17–25 s. Links arriving faster than they can be shown are coalesced (the newest wins, once
/// no newer one has come for 0.1 s), a web page has a web process only while it is shown, and the window
/// keeps answering.
/// (`@unchecked Sendable`, as every GTK test case here: XCTest runs its tests one at a time on the main thread;
/// the storm test's sampler thread shares only `Mutex`es.)
final class LinkStormTests: GtkTestCase, @unchecked Sendable {
    func testAThousandLinksInASecondOpenTheNewestWhileTheWindowKeepsAnswering() throws {
        let home = makeTemporaryDirectory()
        let log = home + "/postcard.log"
        // The real app, unique on this test's session bus (no --data-dir: links reach it as they reach
        // the user's Postcard).
        let postcard = try startPostcard([], environment: ["XDG_DATA_HOME": home + "/data", "G_MESSAGES_DEBUG": "Postcard"], log: log)
        defer { if postcard.isRunning { kill(postcard.processIdentifier, SIGKILL) } }
        try waitFor("My Profile", timeout: 30) {
            postcard.isRunning && (try? readAccessibilityTree(ofProcess: postcard.processIdentifier))?.contains("push button|New Post") == true
        }

        // Every 5 ms, how many web processes the app runs (an ending one included until it is gone).
        let peak = Mutex(0), sampling = Mutex(true)
        let pid = postcard.processIdentifier
        let sampler = Thread {
            while sampling.withLock({ $0 }) {
                let count = WebProcesses.descending(from: pid).count
                peak.withLock { $0 = max($0, count) }
                usleep(5_000)  // about time itself: the sampling pace
            }
        }
        sampler.start()
        defer { sampling.withLock { $0 = false } }

        let sections = ["what", "posting", "camera", "replying", "messages", "links", "shortcuts"]
        let final = "postcard://guide/top"
        let script = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Scripts/link_storm.py")
        let storm = try runProgram("/usr/bin/python3", [script, "io.github.postcard.Postcard", "1000", "1", final]
                                   + sections.map { "postcard://guide/\($0)" } + ["postcard://profile/me", "postcard://messages"])
        XCTAssertEqual(storm.status, 0, storm.errors)
        XCTAssertTrue(storm.output.contains("sent 1000\nerrors 0\n"), storm.output + storm.errors)

        func opened() -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
                .filter { $0.contains("Opened postcard://") }.map(String.init)
        }
        try waitFor("the newest link shown", timeout: 20) { opened().last?.contains("Opened \(final):") == true }
        usleep(1_500_000)  // about time itself: past a link's longest wait (1 s), so one opened late would be seen
        XCTAssertTrue(opened().last?.contains("Opened \(final):") == true, "the newest link wins: \(opened().suffix(3))")
        // A link opens once no newer one has come for 0.1 s, or after a second of them: one or two paths.
        XCTAssertLessThanOrEqual(opened().count, 3, "coalesced: \(opened().count) paths built for a thousand links")
        XCTAssertEqual(WebProcesses.descending(from: pid).count, 1, "one web process, for the one web page shown")
        // One shown; while a page replaces another, WebKit takes a moment (about 0.1–0.2 s here) to end
        // the previous page's process after its page has gone.
        XCTAssertLessThanOrEqual(peak.withLock { $0 }, 2, "never a web process per link")
        // The window answered throughout: a D-Bus call answered on its main thread, every 20 ms of the
        // storm (before: 14 s). A loose bound: the precise stall is `make bench-hostile`'s.
        let longest = storm.output.split(separator: "\n").first { $0.hasPrefix("longest-answer-ms ") }
            .flatMap { Double($0.split(separator: " ")[1]) } ?? .infinity
        XCTAssertLessThan(longest, 3_000, "the main loop kept answering during the storm")
        XCTAssertTrue(try readAccessibilityTree(ofProcess: pid).contains("push button|Back"), "the guide, with Back, is on screen")
    }
}
