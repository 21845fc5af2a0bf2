import CGtk
import Foundation
import Glibc
import Gtk
import NavigationGtk
import NavigationWeb
import PostcardApp
import PostcardModel
import Synchronization

/// `postcard-measure --measure-link-storm COUNT --storm-script FILE`: sends the running app COUNT
/// `postcard://guide/…` links over D-Bus within a second (`FILE` is `Tests/PostcardTests/Scripts/link_storm.py`,
/// run as a process of its own against this app's bus connection), the last one `postcard://guide/top`, and
/// measures what that costs: the main thread's longest stall (the longest gap between runs of a 1 ms GLib
/// timer), the most web processes alive at once and the most memory (this process's and its web processes'
/// resident memory, summed; sampled every 5 ms on a thread of its own), the time until the last link shows,
/// and how many paths were built. `make bench-hostile` runs it with 1,000 links and with the last one alone
/// (the ordinary run) and compares them in the same run.
///
/// Output: `storm-longest-stall-ms`, `storm-stalls-over-100ms`, `storm-peak-web-processes`,
/// `storm-peak-memory-kib`, `storm-last-shown-ms` (from the first link sent), `storm-paths-built`,
/// `storm-longest-answer-ms` (the storm script's: a D-Bus call answered on the main thread, every 20 ms), or
/// `storm-error 1` when the last link did not show within two minutes.
@MainActor
enum LinkStormMeasurement {
    static let final = "postcard://guide/top"

    static func run(_ app: AppController, count: Int, script: String, finish: @escaping @MainActor () -> Void) {
        app.mainWindow.window.afterNextPaint {
            Task {
                await sleep(milliseconds: 500)
                let connection = g_application_get_dbus_connection(g_application_get_default())
                let name = connection.flatMap { g_dbus_connection_get_unique_name($0) }.map { String(cString: $0) } ?? ""
                var pathsBuilt = 0
                let token = app.router.observePath { _ in pathsBuilt += 1 }
                let sampler = ProcessSampler()
                var last = DateText.monotonicMicroseconds, longest: Int64 = 0, over100 = 0
                let probe = MainLoopBridge.repeating(milliseconds: 1) {
                    let now = DateText.monotonicMicroseconds
                    longest = max(longest, now - last)
                    if now - last > 100_000 { over100 += 1 }
                    last = now
                    return true
                }
                let started = DateText.monotonicMicroseconds
                let storm = Process()
                storm.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                let objectPath = "/" + PostcardMain.applicationID.replacingOccurrences(of: ".", with: "/")
                storm.arguments = [script, name + objectPath, String(count), "1", final]
                    + ["what", "posting", "camera", "replying", "messages", "links", "shortcuts"].map { "postcard://guide/\($0)" }
                let output = Pipe()
                storm.standardOutput = output
                do { try storm.run() } catch { PostcardMain.printError("postcard-measure: can't run \(script): \(error)") }
                let target = try? Route(link: final)
                let shown = await until(timeout: 120, every: 10) {
                    !storm.isRunning && app.pendingLink == nil && app.router.visibleRoute == target
                        && app.mainWindow.stack.transition == .idle && (app.mainWindow.stack.visiblePage as? WebPage)?.isLoading == false
                }
                let shownAt = DateText.monotonicMicroseconds
                await sleep(milliseconds: 1000)  // what follows it (a process ending) is counted too
                g_source_remove(probe)
                let peaks = sampler.stop()
                _ = token
                let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                if !shown { emit("storm-error", 1); PostcardMain.printError("bus \(name): " + answers) }
                emit("storm-longest-stall-ms", Double(longest) / 1000)
                emit("storm-stalls-over-100ms", Double(over100))
                emit("storm-peak-web-processes", Double(peaks.processes))
                emit("storm-peak-memory-kib", Double(peaks.memoryKiB))
                emit("storm-last-shown-ms", Double(shownAt - started) / 1000)
                emit("storm-paths-built", Double(pathsBuilt))
                if let line = answers.split(separator: "\n").first(where: { $0.hasPrefix("longest-answer-ms ") }),
                   let value = Double(line.split(separator: " ")[1]) {
                    emit("storm-longest-answer-ms", value)
                }
                finish()
            }
        }
    }
}

/// Samples, every 5 ms on a thread of its own, this process's web processes (live descendants named
/// WebKitWebProcess) and the resident memory of this process and of them, keeping the peaks.
final class ProcessSampler: Sendable {
    private let peaks = Mutex((processes: 0, memoryKiB: 0))
    private let running = Mutex(true)

    init() {
        let me = getpid()
        Thread { [self] in
            while running.withLock({ $0 }) {
                let children = Self.webProcesses(descendingFrom: me)
                let memory = Self.residentKiB(me) + children.reduce(0) { $0 + Self.residentKiB($1) }
                peaks.withLock { $0 = (max($0.processes, children.count), max($0.memoryKiB, memory)) }
                usleep(5_000)
            }
        }.start()
    }

    /// Stops sampling; returns the peaks.
    func stop() -> (processes: Int, memoryKiB: Int) {
        running.withLock { $0 = false }
        return peaks.withLock { $0 }
    }

    private static func stat(_ pid: Int32) -> (state: Character, parent: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        return (state, parent)
    }

    static func webProcesses(descendingFrom ancestor: Int32) -> [Int32] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap(Int32.init).filter { pid in
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), name.hasPrefix("WebKitWebProces"),
                  let own = stat(pid), own.state != "Z", own.state != "X" else { return false }
            var current = own.parent
            for _ in 0..<8 {
                if current == ancestor { return true }
                guard current > 1, let up = stat(current) else { return false }
                current = up.parent
            }
            return false
        }
    }

    static func residentKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
