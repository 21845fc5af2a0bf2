// The hostile-input benchmarks of issue 22 (`make bench-hostile`, and the end of `make bench`): posting a
// photo file far larger than its pixels, and a comment of a megabyte, each against the same app posting an
// ordinary photo and comment in the same run. The app measures itself (`postcard-measure --measure-posting`,
// Sources/PostcardMeasure/PostingMeasurement.swift); this program makes the data, runs it, and writes
// bench/hostile-input.md.
import Foundation
import Gtk
import PostcardModel
import PostcardStore

/// rocket.jpg (640 × 427) with `segments` metadata segments of 65,000 bytes after its header (APP1 XMP
/// extensions and APP2 ICC profile chunks, alternately, as some cameras and editors write) and `trailing`
/// bytes after its end (where cameras put previews).
func writePaddedJPEG(from source: String, to path: String, segments: Int, trailing: Int) {
    let bytes = [UInt8](FileManager.default.contents(atPath: source)!)
    var headerEnd = 2
    while bytes[headerEnd] == 0xFF, (0xE0...0xEF).contains(bytes[headerEnd + 1]) {
        headerEnd += 2 + (Int(bytes[headerEnd + 2]) << 8 | Int(bytes[headerEnd + 3]))
    }
    func segment(_ marker: UInt8, _ prefix: String) -> [UInt8] {
        let payload = Array(prefix.utf8) + [UInt8](repeating: 0x20, count: 65_000)
        return [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
    let pair = segment(0xE1, "http://ns.adobe.com/xmp/extension/\0") + segment(0xE2, "ICC_PROFILE\0")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let file = FileHandle(forWritingAtPath: path)!
    file.write(Data(bytes[..<headerEnd]))
    let block = Data((0..<32).flatMap { _ in pair })
    for _ in 0..<(segments / 64) { file.write(block) }
    file.write(Data(bytes[headerEnd...]))
    file.write(Data(count: trailing))
    try? file.close()
}

/// Runs the hostile-input benchmarks and writes the report to `outPath`.
/// - Parameters:
///   - cacheRoot: where the data is made (kept between runs) and the runs' folders go.
///   - repository: the checkout (for the sample photo).
///   - binDirectory: where the release `postcard-measure` is.
///   - rounds: runs of each case (medians are reported).
@MainActor
func runHostileInputBenchmarks(outPath: String, cacheRoot: String, repository: String, binDirectory: String, rounds: Int) {
    let root = cacheRoot + "/hostile"
    let ordinaryLibrary = root + "/ordinary", paddedLibrary = root + "/padded"
    for folder in [ordinaryLibrary, paddedLibrary] { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    let sample = repository + "/Resources/photos/rocket.jpg"
    if !FileManager.default.fileExists(atPath: ordinaryLibrary + "/rocket.jpg") {
        try? FileManager.default.copyItem(atPath: sample, toPath: ordinaryLibrary + "/rocket.jpg")
    }
    let padded = paddedLibrary + "/rocket-padded.jpg"
    if !FileManager.default.fileExists(atPath: padded) {
        log("hostile input: making \(padded)")
        writePaddedJPEG(from: sample, to: padded + ".part", segments: 4_096, trailing: 48 << 20)
        try? FileManager.default.moveItem(atPath: padded + ".part", toPath: padded)
    }
    func size(_ path: String) -> Double { Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) ?? 0 }
    let megabyteComment = String(repeating: "long words on one line ", count: 45_591)

    /// One run in a process of its own, on a fresh data folder holding one post (its caption
    /// `storedComment`) and a fresh, cold thumbnail cache.
    func run(library: String, commentLength: Int, storedComment: String, renderer: String) -> [String: Double] {
        let data = root + "/run-data", cache = root + "/run-cache"
        try? FileManager.default.removeItem(atPath: data)
        try? FileManager.default.removeItem(atPath: cache)
        do {
            let store = try PostStore(directory: FilePath(data))
            let post = try store.addNow(photo: Photo(path: FilePath(sample)), comment: "Stored", author: "me", profile: "me")
            try store.execute("UPDATE posts SET comment = '\(storedComment)' WHERE id = \(post.id)")
        } catch {
            log("hostile input: can't make \(data): \(error)")
            return [:]
        }
        let output = shell("\(binDirectory)/postcard-measure --measure-posting --comment-length \(commentLength) --data-dir \(data) --library \(library)",
                           environment: ["XDG_CACHE_HOME": cache, "GSK_RENDERER": renderer])
        let values = keyValues(output)
        if let step = values["posting-error"] { log("hostile input: step \(Int(step)) did not happen (\(library), \(commentLength) characters)") }
        return values
    }

    /// One link storm (`count` links over D-Bus within a second; 1: the ordinary run, the last link alone)
    /// in a process of its own on a fresh, empty data folder (`postcard-measure --measure-link-storm`).
    func storm(count: Int) -> [String: Double] {
        let data = root + "/storm-data", cache = root + "/run-cache"
        try? FileManager.default.removeItem(atPath: data)
        try? FileManager.default.removeItem(atPath: cache)
        let script = repository + "/Tests/PostcardTests/Scripts/link_storm.py"
        let output = shell("\(binDirectory)/postcard-measure --measure-link-storm \(count) --storm-script \(script) --data-dir \(data)",
                           environment: ["XDG_CACHE_HOME": cache, "GSK_RENDERER": "cairo"])
        let values = keyValues(output)
        if values["storm-error"] != nil { log("hostile input: the last of \(count) links did not show") }
        return values
    }

    var results: [String: [[String: Double]]] = [:]
    log("hostile input: \(rounds) rounds of posting an ordinary photo and comment, a padded photo file, a megabyte of comment, and of a link storm")
    for round in 1...rounds {
        for renderer in ["cairo", "gl"] {
            results["ordinary-\(renderer)", default: []].append(run(library: ordinaryLibrary, commentLength: 40, storedComment: "An ordinary caption", renderer: renderer))
            results["photo-\(renderer)", default: []].append(run(library: paddedLibrary, commentLength: 40, storedComment: "An ordinary caption", renderer: renderer))
            results["comment-\(renderer)", default: []].append(run(library: ordinaryLibrary, commentLength: megabyteComment.utf8.count,
                                                                   storedComment: megabyteComment, renderer: renderer))
        }
        results["storm-1", default: []].append(storm(count: 1))
        results["storm-1000", default: []].append(storm(count: 1_000))
        log("hostile input: round \(round) done")
    }
    // Idle wake-ups before, while and after a web page shows (issue 57: the web processes' memory bound
    // keeps WebKit's memory-pressure monitor on, and a shown page's process measures itself every 2 s).
    log("hostile input: idle wake-ups before, while and after a web page shows (about 2 minutes)")
    let webIdle: [String: Double] = {
        let data = root + "/web-idle-data", cache = root + "/run-cache"
        try? FileManager.default.removeItem(atPath: data)
        try? FileManager.default.removeItem(atPath: cache)
        return keyValues(shell("\(binDirectory)/postcard-measure --measure-web-idle --data-dir \(data)",
                               environment: ["XDG_CACHE_HOME": cache, "GSK_RENDERER": "cairo"]))
    }()
    func perSecond(_ key: String) -> Double { (webIdle[key] ?? .nan) / 10 }
    func ratio(_ value: Double, _ baseline: Double) -> String {
        baseline > 0 ? String(format: "%.1f×", value / baseline) : "— (none before)"
    }
    let before = perSecond("web-idle-before-wakeups")
    let shownApp = perSecond("web-idle-shown-wakeups"), shownWeb = perSecond("web-idle-shown-web-process-wakeups")
    let after = perSecond("web-idle-after-wakeups")
    let webIdleRows = """
    | idle, a web page shown (its memory bound on): wake-ups a second, the app + its web process (before any web page beside it) | \(String(format: "%.1f + %.1f", shownApp, shownWeb)) (\(String(format: "%.1f", before))); \(ratio(shownApp + shownWeb, before)) | — | |
    | idle after the web page closed (WebKit's memory monitor stays): the app's wake-ups a second (before any web page beside it) | \(String(format: "%.1f", after)) (\(String(format: "%.1f", before))); \(ratio(after, before)) | — | |
    """

    func value(_ run: String, _ key: String) -> Double { median(results[run, default: []].compactMap { $0[key] }) }
    let peak = { (run: String) in value(run, "posting-peak-rss-kib") / 1024 }
    let stall = { (run: String) in value(run, "posting-longest-stall-ms") }
    let enabled = { (run: String) in value(run, "posting-post-enabled-ms") }
    func row(_ what: String, _ kind: String, renderer: String, counted: Bool) -> String {
        let run = "\(kind)-\(renderer)", ordinary = "ordinary-\(renderer)"
        let memory = peak(run) / peak(ordinary)
        let memoryTarget = counted ? "≤ 1.25" : "—", stallTarget = counted ? "≤ 50 ms" : "—"
        let memoryVerdict = counted ? (memory <= 1.25 ? "met" : "**not met**") : ""
        let stallVerdict = counted ? (stall(run) <= 50 ? "met" : "**not met**") : ""
        return """
        | \(what), \(renderer == "gl" ? "GL renderer (Mesa's software GL)" : "cairo renderer"): peak memory ÷ the ordinary run's | \(String(format: "%.2f", memory)) (\(String(format: "%.0f", peak(run))) MiB / \(String(format: "%.0f", peak(ordinary))) MiB) | \(memoryTarget) | \(memoryVerdict) |
        | the same: longest main-thread stall (the ordinary run's beside it) | \(String(format: "%.0f ms", stall(run))) (\(String(format: "%.0f ms", stall(ordinary)))) | \(stallTarget) | \(stallVerdict) |
        | the same: the photo chosen → Post enabled (the ordinary run's beside it) | \(String(format: "%.0f ms", enabled(run))) (\(String(format: "%.0f ms", enabled(ordinary)))) | — | |
        """
    }
    func storm(_ key: String, _ count: Int) -> Double { value("storm-\(count)", "storm-" + key) }
    let stormMemory = storm("peak-memory-kib", 1_000) / storm("peak-memory-kib", 1)
    let stormStall = storm("longest-stall-ms", 1_000)
    let stormRows = """
    | a link storm (1,000 links over D-Bus within a second): longest main-thread stall (the ordinary run's beside it) | \(String(format: "%.0f ms", stormStall)) (\(String(format: "%.0f ms", storm("longest-stall-ms", 1)))) | ≤ 100 ms | \(stormStall <= 100 ? "met" : "**not met**") |
    | the same: most web processes alive at once (the ordinary run's beside it) | \(String(format: "%.0f", storm("peak-web-processes", 1_000))) (\(String(format: "%.0f", storm("peak-web-processes", 1)))) | 1 shown (+1 ending) | \(storm("peak-web-processes", 1_000) <= 2 ? "met" : "**not met**") |
    | the same: peak memory, the app and its web processes, ÷ the ordinary run's | \(String(format: "%.2f", stormMemory)) (\(String(format: "%.0f", storm("peak-memory-kib", 1_000) / 1024)) MiB / \(String(format: "%.0f", storm("peak-memory-kib", 1) / 1024)) MiB) | ≤ 1.25 | \(stormMemory <= 1.25 ? "met" : "**not met**") |
    | the same: first link sent → the last one shown (the ordinary run's beside it) | \(String(format: "%.0f ms", storm("last-shown-ms", 1_000))) (\(String(format: "%.0f ms", storm("last-shown-ms", 1)))) | — | |
    | the same: paths built; longest wait for a D-Bus answer from the main thread | \(String(format: "%.0f", storm("paths-built", 1_000))); \(String(format: "%.0f ms", storm("longest-answer-ms", 1_000))) | — | |
    """
    let report = """
    # Hostile input

    Made by `make bench-hostile` (and `make bench`) on \(DateText.format(unixSeconds: Int64(Date().timeIntervalSince1970), "%-d %b %Y, %H:%M")), \
    release build, Xvfb, with GTK's cairo renderer and its GL renderer. Medians of \(rounds) runs of each case, each in a process of its own \
    (`postcard-measure --measure-posting`) on a fresh data folder holding one post and a cold thumbnail cache; every \
    ratio compares two runs of the same run of the benchmark.

    Each run does what a user does: New Post, waits for the photo's thumbnail in Choose a Photo, chooses it, \
    pastes the comment at once, waits for Post, posts, waits for the photo in the feed, then opens each post on \
    My Profile (the new one and the one stored before) and goes back.

    - *ordinary*: rocket.jpg (\(String(format: "%.0f", size(ordinaryLibrary + "/rocket.jpg") / 1024)) KiB, 640 × 427 pixels), a 40-character comment, a stored caption of a few words.
    - *a photo file far larger than its pixels*: the same photo padded to \(String(format: "%.0f", size(padded) / 1_048_576)) MiB with 4,096 metadata segments \
    (APP1 XMP extensions and APP2 ICC chunks of 64 KB) and 48 MiB after its end; comment and caption as ordinary.
    - *a megabyte of comment*: the ordinary photo, a one-line comment of \(megabyteComment.utf8.count) bytes pasted \
    (Add a Comment keeps its first 2,200 characters and says so), and a stored caption of the same megabyte (another \
    program wrote it), shown cut in the feed and on its Post page.

    | measure | result | target | |
    | --- | --- | --- | --- |
    \(row("a photo file far larger than its pixels", "photo", renderer: "cairo", counted: true))
    \(row("a megabyte of comment", "comment", renderer: "cairo", counted: true))
    \(row("a photo file far larger than its pixels", "photo", renderer: "gl", counted: false))
    \(row("a megabyte of comment", "comment", renderer: "gl", counted: false))
    \(stormRows)
    \(webIdleRows)

    The stall is the longest gap between runs of a 1 ms GLib timer over the whole run, drawing included (under \
    Xvfb it is done in software on the same two cores). Peak memory is the process's `VmHWM`. The targets are \
    met or not with GTK's cairo renderer: with the GL renderer GTK picks by default, Mesa's software GL \
    (llvmpipe) rasterises on the CPU, and the ordinary run itself stalls for hundreds of milliseconds (a new \
    window's GL context, a large photo's first frame), for reasons outside the app (on a desktop with a GPU that \
    work leaves the CPU); those rows are kept for comparison. A run's stalls over 50 ms are in \
    `postcard-measure`'s output (`posting-stall-during STEP MS`).

    *A link storm*: `postcard-measure --measure-link-storm 1000` sends itself, from a process of its own \
    (`Tests/PostcardTests/Scripts/link_storm.py`, through the session bus as `gio open` does), 1,000 \
    `postcard://guide/…` links spread over one second, the last `postcard://guide/top`, and waits until that page \
    shows; the ordinary run sends that last link alone. Links are coalesced (the newest waiting opens when the main \
    loop is idle), a web page starts its web process only once shown, and a replaced page's process ends a moment \
    after its page has gone (hence one shown and, for about 0.1–0.2 s, one ending). Memory is the resident memory of \
    the app and its web processes, summed, sampled every 5 ms; the stall is the 1 ms timer's, as above, with the \
    cairo renderer. Before (issue 46): a 14 s stall, 363 web processes and 3.2 GB. The first web page's WebKitGTK library loads on a thread of its own while the link waits \
    (`WebPage.preload()`): in the turn that built the page, its `dlopen` alone took 75–90 ms.

    *Idle with a web page* (`postcard-measure --measure-web-idle`, one run): context switches of every thread over \
    10 s with nothing happening, after 35 s to settle, in one process: on My Profile before any web page, with the \
    guide shown (the app, and its web process apart), and after the guide was closed and its process ended. Since \
    issue 57 a web process is bounded (`WebPage.webProcessMemoryLimit`): that needs WebKit's memory-pressure \
    monitor, a thread of the app reading `/proc/meminfo` every 5 s from the first web view on, and the shown page's \
    process measures its memory every 2 s. Threads that woke: \(webIdle.isEmpty ? "not measured" : "see `postcard-measure --measure-web-idle`'s `-thread` lines").

    """
    try! report.write(toFile: outPath, atomically: true, encoding: .utf8)
    print(report)
}
