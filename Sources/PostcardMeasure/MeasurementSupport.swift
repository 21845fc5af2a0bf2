import Glibc
import Gtk

// What the measurements share: their output, waiting on GLib's loop without loading it, and the
// process's memory.

/// Prints `key value` for the bench, which reads the lines through a pipe.
func emit(_ key: String, _ value: Double) {
    print("\(key) \(value)")
    fflush(nil)  // every stream
}

/// Suspends for `milliseconds` on a GLib timeout (``MainLoopBridge/sleep(seconds:)``; no other wake-up
/// meanwhile). Main actor.
@MainActor
func sleep(milliseconds: UInt32) async {
    await MainLoopBridge.sleep(for: .seconds(Double(milliseconds) / 1000))
}

/// Checks `condition` every `interval` milliseconds until it holds (true) or `timeout` seconds pass
/// (false). Main actor.
@MainActor
func until(timeout: Double = 10, every interval: UInt32 = 1, _ condition: () -> Bool) async -> Bool {
    let deadline = DateText.monotonicMicroseconds + Int64(timeout * 1_000_000)
    while !condition() {
        if DateText.monotonicMicroseconds > deadline { return false }
        await sleep(milliseconds: interval)
    }
    return true
}

/// A `/proc/self/status` value in KiB (`"VmRSS:"`, `"VmHWM:"`), or 0 when unknown.
func processStatusKiB(_ key: String) -> Int {
    guard let status = Files.readText("/proc/self/status") else { return 0 }
    let line = status.split(separator: "\n").first { $0.hasPrefix(key) }
    return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
}
