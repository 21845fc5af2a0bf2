import CGLib
import Foundation
import Gtk
import GtkTesting
import XCTest

/// Ordinary Swift concurrency runs on GLib (``GLibExecutors``), whatever the code writes: the
/// `ExecutorProbe` program, which installs nothing but `GLibExecutors` and writes plain `Task { }`,
/// `await`, `async let`, task groups, `AsyncStream` and continuations resumed on other threads, reports
/// where each construct ran. It runs in a process of its own, because this test process's XCTest starts
/// libdispatch's pool itself.
final class ConcurrencyOnGLibTests: GtkTestCase, @unchecked Sendable {
    /// What the probe printed: construct → places it ran (in order), and its last lines.
    private struct ProbeRun {
        var places: [String: [String]] = [:]
        var wakeUps: [String: Int] = [:]
        var threads: [String] = []
        var resumedFrom = ""
        var finished = false
    }

    private func runProbe() throws -> ProbeRun {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("ExecutorProbe").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        let process = Process()
        process.executableURL = directory.appendingPathComponent("ExecutorProbe")
        process.arguments = ["2"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the probe ended normally")
        var run = ProbeRun()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "ran": run.places[words[1], default: []].append(words.dropFirst(2).joined(separator: " "))
            case "resumed-from": run.resumedFrom = words.dropFirst().joined(separator: " ")
            case "wake-ups":
                for entry in words.dropFirst(2) {
                    let parts = entry.split(separator: "=")
                    let name = String(parts[0].prefix { $0 != "[" })
                    run.wakeUps[name, default: 0] += Int(parts[1]) ?? 0
                }
            case "threads": run.threads = Array(words.dropFirst())
            case "done": run.finished = true
            default: break
            }
        }
        return run
    }

    func testEveryConstructRunsOnTheMainLoopOrGLibsPoolAndLibdispatchNeverStarts() throws {
        let run = try runProbe()
        XCTAssertTrue(run.finished, "the probe ran every construct and ended")
        let onMainLoop = "main=1 owner=1 thread=probe-main"
        let onPool = "main=0 owner=0 thread=\(GLibExecutors.poolThreadName)"
        // Main-actor code: on the main thread, inside GLib's loop of the default main context.
        for construct in ["main-actor-function", "plain-task", "task-main-actor-from-pool", "main-actor-run-from-pool",
                          "detached-hops-back", "after-concurrent-function", "continuation-glib-thread", "continuation-gio",
                          "continuation-gstreamer", "after-sleep", "after-async-let", "after-task-group",
                          "async-stream-element", "after-async-stream"] {
            XCTAssertFalse(run.places[construct, default: []].isEmpty, "\(construct) ran")
            for place in run.places[construct, default: []] {
                XCTAssertEqual(place, onMainLoop, "\(construct): main-actor code on GLib's main loop")
            }
        }
        XCTAssertEqual(run.places["async-stream-element"]?.count, 3, "every element of the stream")
        // Nonisolated work: on GLib's pool.
        for construct in ["detached", "concurrent-function", "async-let-child", "task-group-child"] {
            XCTAssertFalse(run.places[construct, default: []].isEmpty, "\(construct) ran")
            for place in run.places[construct, default: []] {
                XCTAssertEqual(place, onPool, "\(construct): nonisolated work on GLib's thread pool")
            }
        }
        XCTAssertTrue(run.resumedFrom.hasSuffix("thread=videotestsrc0:s"), "the GStreamer continuation was resumed on its streaming thread: \(run.resumedFrom)")
        // libdispatch's pool never started; GLib's executor threads sleep while idle.
        XCTAssertTrue(run.threads.contains(GLibExecutors.poolThreadName), "GLib's pool ran the nonisolated work: \(run.threads)")
        XCTAssertFalse(run.threads.contains { $0.hasSuffix("-qos") || $0.hasSuffix("qos.overcommit") },
                       "no libdispatch worker thread: \(run.threads)")
        XCTAssertEqual(run.wakeUps[GLibExecutors.poolThreadName, default: 0], 0,
                       "the executors' threads do not wake while idle: \(run.wakeUps)")
    }

    /// Main-actor isolation is the main thread, checked as the runtime checks it: `MainActor.assumeIsolated`
    /// holds in a GLib callback outside any task, and main-actor work queued from another thread runs
    /// inside GLib's loop, also in a loop nested in a main-actor job, in the order it was queued.
    func testMainActorWorkRunsInOrderInsideGLibsLoopAlsoWhenNested() {
        onMain {
            XCTAssertTrue(GLibExecutors.isInstalled)
            var order: [Int] = []
            var nestedRan = false
            Task {
                order.append(0)
                // A nested loop inside a main-actor job (a test's spin, a modal wait) still runs later jobs.
                Task { order.append(1) }
                Task { order.append(2) }
                nestedRan = MainLoopBridge.run(until: { order.count == 3 }, timeout: .seconds(5))
            }
            spin(until: { nestedRan }, "the nested loop ran the jobs queued inside the job")
            XCTAssertEqual(order, [0, 1, 2])
            let collected = Collected()
            for index in 0..<20 {
                Task.detached { await MainActor.run { collected.values.append(index) } }
            }
            spin(until: { collected.values.count == 20 }, "main-actor work from the pool")
            XCTAssertEqual(Set(collected.values), Set(0..<20))
        }
    }
}

@MainActor private final class Collected {
    var values: [Int] = []
}
