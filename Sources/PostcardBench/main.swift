// `make bench`: Postcard's scale benchmarks (a program, not tests). Every measure is a median over repeated
// runs, compared with a baseline measured in the same run; results go to bench/results.md. Then the
// navigation benchmarks (Navigation.swift; alone with `--navigation-only`), into bench/navigation.md, and the
// hostile-input ones (HostileInput.swift; alone with `--hostile-only`), into bench/hostile-input.md.
import CGtk
import CSQLite
import Foundation
import Gtk
import PostcardModel
import PostcardStore
import NavigationGtk
import PhotoPosting
import PostcardApp

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let repository = FileManager.default.currentDirectoryPath
let resultsPath = option("--out") ?? repository + "/bench/results.md"
let rounds = Int(option("--rounds") ?? "5") ?? 5
let cacheRoot = option("--cache") ?? ProcessInfo.processInfo.environment["POSTCARD_BENCH_CACHE"]
    ?? (NSHomeDirectory() + "/.cache/postcard-bench")
let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
let sizes = [1_000, 10_000]

func log(_ text: String) {
    print("bench: \(text)")
    fflush(nil)
}
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
func shell(_ command: String, environment: [String: String] = [:], input: String? = nil) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    let inputPipe = Pipe()
    if input != nil { process.standardInput = inputPipe }
    try! process.run()
    if let input {
        inputPipe.fileHandleForWriting.write(Data(input.utf8))
        try? inputPipe.fileHandleForWriting.close()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
func value(_ key: String, in output: String) -> Double? {
    output.split(separator: "\n").first { $0.hasPrefix(key + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
}

// MARK: - Data (made once, kept in the cache folder outside the repository)

/// 4000 × 3000 JPEGs (quality 90) made from the sample photos; libraries of N photos are hard links to
/// them in 100 subfolders (distinct files to every reader, so each has its own thumbnail).
func makeData() {
    let source = cacheRoot + "/source"
    try? FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
    let samples = ["rocket.jpg", "coffee.png", "chelsea.png", "astronaut.png", "hubble_deep_field.jpg", "retina.jpg"]
    for (index, name) in samples.enumerated() where !FileManager.default.fileExists(atPath: "\(source)/\(index).jpg") {
        log("making \(source)/\(index).jpg (4000 × 3000)")
        var error: UnsafeMutablePointer<GError>?
        let original = gdk_pixbuf_new_from_file(repository + "/Resources/photos/" + name, &error)!
        let big = gdk_pixbuf_scale_simple(original, 4000, 3000, GDK_INTERP_BILINEAR)!
        var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
        var values: [UnsafeMutablePointer<CChar>?] = [strdup("90"), nil]
        _ = gdk_pixbuf_savev(big, "\(source)/\(index).jpg", "jpeg", &keys, &values, &error)
        g_object_unref(UnsafeMutableRawPointer(big))
        g_object_unref(UnsafeMutableRawPointer(original))
    }
    for count in sizes {
        let library = "\(cacheRoot)/library-\(count)"
        if !FileManager.default.fileExists(atPath: library + "/done") {
            log("making \(library)")
            try? FileManager.default.removeItem(atPath: library)
            for index in 0..<count {
                let folder = String(format: "%@/folder-%02d", library, index % 100)
                if index < 100 { try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                link("\(source)/\(index % samples.count).jpg", String(format: "%@/photo-%05d.jpg", folder, index))
            }
            _ = FileManager.default.createFile(atPath: library + "/done", contents: nil)
        }
    }
    for count in [0] + sizes {
        let data = "\(cacheRoot)/data-\(count)"
        if FileManager.default.fileExists(atPath: data + "/done") { continue }
        log("making \(data) with \(count) posts")
        try? FileManager.default.removeItem(atPath: data)
        MainActor.assumeIsolated {
            let store = try! PostStore(directory: FilePath(data))
            guard count > 0 else { return }
            let first = try! store.addNow(photo: Photo(path: "\(source)/0.jpg"), comment: "Post 1", author: "me", profile: "me")
            let stored = first.photoPath.displayName.replacingOccurrences(of: data + "/", with: "")
            var db: OpaquePointer?
            sqlite3_open(data + "/posts.sqlite3", &db)
            sqlite3_exec(db, """
                WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO posts (author, profile, comment, photo_path, created_at)
                SELECT 'me', 'me', 'Post ' || i, '\(stored)', \(first.createdAt) + i FROM n;
                """, nil, nil, nil)
            sqlite3_close(db)
        }
        _ = FileManager.default.createFile(atPath: data + "/done", contents: nil)
    }
}

// MARK: - Start-up (separate processes)

struct Startup { var firstFrameMilliseconds: Double; var residentKiB: Double }

func launch(_ command: String, cache: String) -> Startup? {
    let start = Double(DateText.monotonicMicroseconds)
    let output = shell(command, environment: ["XDG_CACHE_HOME": cache])
    guard let frame = value("first-frame-monotonic-us", in: output) else { return nil }
    return Startup(firstFrameMilliseconds: (frame - start) / 1000, residentKiB: value("settled-rss-kib", in: output) ?? .nan)
}

// MARK: - In-process measures (GTK under the bench's display)

nonisolated(unsafe) var lastProbe: Int64 = 0
nonisolated(unsafe) var longestGap: Int64 = 0
nonisolated(unsafe) var gaps: [Int64] = []
nonisolated(unsafe) var lastPercentile99: Double = 0
/// A 1 ms timer on the main loop: the longest gap between two of its runs is the longest main-thread
/// stall (layout, drawing and everything else the main thread did in between).
@MainActor func startStallProbe() -> guint {
    lastProbe = DateText.monotonicMicroseconds
    longestGap = 0
    gaps = []
    return g_timeout_add(1, { _ in
        let now = DateText.monotonicMicroseconds
        longestGap = max(longestGap, now - lastProbe)
        gaps.append(now - lastProbe)
        lastProbe = now
        return 1
    }, nil)
}

/// `condition`, evaluated at most every 10 ms (the bench must not load the main thread it measures).
@MainActor func throttled(_ condition: @escaping @MainActor () -> Bool) -> () -> Bool {
    var lastCheck: Int64 = 0
    return {
        let now = DateText.monotonicMicroseconds
        guard now - lastCheck >= 10_000 else { return false }
        lastCheck = now
        return condition()
    }
}

@MainActor func spin(seconds: Double) {
    let end = DateText.monotonicMicroseconds + Int64(seconds * 1_000_000)
    MainLoopBridge.run(until: { DateText.monotonicMicroseconds >= end }, timeout: .seconds(seconds + 1))
}

/// Scrolls `adjustment` from top to bottom in steps of `step` pixels, a frame (16 ms) apart; returns the
/// longest main-thread stall in milliseconds.
@MainActor func scrollThrough(_ adjustment: UnsafeMutablePointer<GtkAdjustment>, step: Double, maximumSteps: Int = 2_000) -> Double {
    gtk_adjustment_set_value(adjustment, 0)
    spin(seconds: 0.5)
    let probe = startStallProbe()
    var steps = 0
    while gtk_adjustment_get_value(adjustment) < gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - 1,
          steps < maximumSteps {
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + step)
        spin(seconds: 0.016)
        steps += 1
    }
    spin(seconds: 0.3)
    g_source_remove(probe)
    let sorted = gaps.sorted()
    lastPercentile99 = Double(sorted[sorted.count * 99 / 100]) / 1000
    print("bench: stall gaps (ms): longest \(sorted.suffix(8).reversed().map { $0 / 1000 }), 99th percentile \(sorted[sorted.count * 99 / 100] / 1000), over \(steps) steps")
    return Double(longestGap) / 1000
}

@MainActor func pickerWindow(library: String, loader: ThumbnailLoader) -> (Gtk.Window, PhotoPickerPage) {
    let page = PhotoPickerPage(library: PhotoLibrary(directory: FilePath(library)), loader: loader)
    let window = NavigationWindow(root: page, width: 560, height: 640)  // the photo flow dialog's size
    window.present()
    return (window.window, page)
}

/// Opens Choose a Photo on `library` and returns the milliseconds until every tile on screen shows its
/// thumbnail, or nil after 60 s.
@MainActor func openPicker(library: String) -> (Double?, Gtk.Window, PhotoPickerPage) {
    let start = DateText.monotonicMicroseconds
    let (window, page) = pickerWindow(library: library, loader: ThumbnailLoader())
    let done = MainLoopBridge.run(until: throttled {
        guard page.isInOrder else { return false }  // the first screenful of the sorted grid
        let onScreen = page.boundTiles.filter { $0.tile.root.isMapped }
        return onScreen.count >= 9 && onScreen.allSatisfy { $0.tile.picture.texture != nil }
    }, timeout: .seconds(60))
    return (done ? Double(DateText.monotonicMicroseconds - start) / 1000 : nil, window, page)
}

func removeThumbnails(_ cache: String) { try? FileManager.default.removeItem(atPath: cache + "/thumbnails") }

// MARK: - Run

/// Where the navigation benchmarks' report goes (bench/navigation.md); `--navigation-only` runs just them.
let navigationResultsPath = option("--navigation-out") ?? repository + "/bench/navigation.md"
if arguments.contains("--navigation-only") {
    runNavigationBenchmarks(outPath: navigationResultsPath, repository: repository, work: cacheRoot + "/work",
                            binDirectory: binDirectory, rounds: rounds)
    exit(0)
}

/// Where the hostile-input benchmarks' report goes (bench/hostile-input.md); `--hostile-only` runs just them.
let hostileResultsPath = option("--hostile-out") ?? repository + "/bench/hostile-input.md"
if arguments.contains("--hostile-only") {
    MainActor.assumeIsolated {
        runHostileInputBenchmarks(outPath: hostileResultsPath, cacheRoot: cacheRoot, repository: repository,
                                  binDirectory: binDirectory, rounds: min(rounds, 3))
    }
    exit(0)
}

makeData()
let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? cacheRoot + "/xdg-cache"
let work = cacheRoot + "/work"
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
/// MiB of resident memory the 10,000-photo grid adds once scrolled to the end, each screen loaded, to
/// the app showing My Profile (its window drawn: GTK's renderer and fonts are set up, as in use).
@MainActor func gridMemoryGrowth() -> Double {
    let store = try! PostStore(directory: "\(cacheRoot)/data-0")
    let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: FilePath(repository).appending("Resources", "photos")))
    app.present()
    var painted = false
    app.mainWindow.window.afterNextPaint { painted = true }
    MainLoopBridge.run(until: { painted }, timeout: .seconds(30))
    spin(seconds: 1)
    let before = Double(residentMemoryKiB())
    let (window, page) = pickerWindow(library: "\(cacheRoot)/library-10000", loader: ThumbnailLoader())
    MainLoopBridge.run(until: { !page.isScanning }, timeout: .seconds(120))
    let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(page.grid.gobject))!
    // Jump a screenful at a time, letting each screen load (cold where not seen before).
    let screen = gtk_adjustment_get_page_size(adjustment)
    var offset = 0.0
    while offset < gtk_adjustment_get_upper(adjustment) {
        gtk_adjustment_set_value(adjustment, offset)
        MainLoopBridge.run(until: { page.hasSettled }, timeout: .seconds(5))
        offset += screen * 10
    }
    gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
    MainLoopBridge.run(until: { page.hasSettled }, timeout: .seconds(10))
    spin(seconds: 1)
    let growth = (Double(residentMemoryKiB()) - before) / 1024
    window.destroy()
    app.shutdown()
    return growth
}

if arguments.contains("--only-memory") {
    MainActor.assumeIsolated {
        guard initializeGtk() else { exit(1) }
        if !arguments.contains("--warm") { removeThumbnails(cache) }
        print("grid-memory-mib", gridMemoryGrowth())
    }
    exit(0)
}

if arguments.contains("--only-picker") {
    MainActor.assumeIsolated {
        guard initializeGtk() else { exit(1) }
        if !arguments.contains("--warm") { removeThumbnails(cache) }
        let start = DateText.monotonicMicroseconds
        let (window, page) = pickerWindow(library: "\(cacheRoot)/library-10000", loader: ThumbnailLoader())
        var last = ""
        MainLoopBridge.run(until: throttled {
            let onScreen = page.boundTiles.filter { $0.tile.root.isMapped }
            let state = "scanning=\(page.isScanning) mapped=\(onScreen.count) shown=\(onScreen.filter { $0.tile.picture.texture != nil }.count) loading=\(page.pendingThumbnails) waiting=\(ImageDecoder.queue.waitingCount)"
            if state != last { print(Double(DateText.monotonicMicroseconds - start) / 1000, state); last = state }
            return onScreen.count >= 9 && onScreen.allSatisfy { $0.tile.picture.texture != nil }
        }, timeout: .seconds(60))
        window.destroy()
    }
    exit(0)
}

if arguments.contains("--only-stalls") {
    MainActor.assumeIsolated {
        guard initializeGtk() else { exit(1) }
        let (window, page) = pickerWindow(library: "\(cacheRoot)/library-10000", loader: ThumbnailLoader())
        MainLoopBridge.run(until: { page.hasSettled }, timeout: .seconds(60))
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(page.grid.gobject))!
        print("grid-stall-ms", scrollThrough(adjustment, step: 240, maximumSteps: 600))
        print("grid-p99-ms", lastPercentile99)
        window.destroy()
        let store = try! PostStore(directory: "\(cacheRoot)/data-10000")
        let app = AppController(application: nil, store: store, library: PhotoLibrary(directory: FilePath(repository).appending("Resources", "photos")))
        app.present()
        MainLoopBridge.run(until: { app.myProfile.feedItems.first?.isPhotoLoaded == true }, timeout: .seconds(30))
        let feedAdjustment = gtk_scrollable_get_vadjustment(OpaquePointer(app.myProfile.list.gobject))!
        print("feed-stall-ms", scrollThrough(feedAdjustment, step: 400, maximumSteps: 600))
        print("feed-p99-ms", lastPercentile99)
    }
    exit(0)
}

if arguments.contains("--only-open") {
    // Choose a Photo over 10,000 photos: first open in a run, reopened with cold thumbnails, warm.
    MainActor.assumeIsolated {
        guard initializeGtk() else { exit(1) }
        PhotoLibrary.forgetListings()
        removeThumbnails(cache)
        let (firstTime, firstWindow, _) = openPicker(library: "\(cacheRoot)/library-10000")
        firstWindow.destroy()
        spin(seconds: 0.5)
        removeThumbnails(cache)
        let (coldTime, coldWindow, _) = openPicker(library: "\(cacheRoot)/library-10000")
        coldWindow.destroy()
        spin(seconds: 0.5)
        let (warmTime, warmWindow, _) = openPicker(library: "\(cacheRoot)/library-10000")
        warmWindow.destroy()
        print("picker-first-ms", firstTime ?? -1)
        print("picker-cold-ms", coldTime ?? -1)
        print("picker-warm-ms", warmTime ?? -1)
    }
    exit(0)
}

if arguments.contains("--only-scan") {
    MainActor.assumeIsolated { print("scan 10,000: \(scanTime("\(cacheRoot)/library-10000")) ms") }
    exit(0)
}

log("compiling the C baselines")
let cflagsGtk = shell("pkg-config --cflags --libs gtk4").trimmingCharacters(in: .whitespacesAndNewlines)
let cflagsAdwaita = shell("pkg-config --cflags --libs libadwaita-1").trimmingCharacters(in: .whitespacesAndNewlines)
let cflagsThumb = shell("pkg-config --cflags --libs gnome-desktop-4 gdk-pixbuf-2.0 gio-2.0").trimmingCharacters(in: .whitespacesAndNewlines)
_ = shell("cc -O2 -o \(work)/bare-window \(repository)/bench/baselines/bare-window.c \(cflagsGtk)")
_ = shell("cc -O2 -o \(work)/bare-adw-window \(repository)/bench/baselines/bare-adw-window.c \(cflagsAdwaita)")
_ = shell("cc -O2 -o \(work)/thumbnail-loop \(repository)/bench/baselines/thumbnail-loop.c \(cflagsThumb) -pthread")

log("start-up: \(rounds) rounds of a bare C GTK 4 window, a bare C window with libadwaita and Postcard with 0, 1,000 and 10,000 posts")
var startups: [String: [Startup]] = [:]
let smallLibrary = repository + "/Resources/photos"
for round in 1...rounds {
    if let bare = launch("\(work)/bare-window", cache: cache) { startups["bare", default: []].append(bare) }
    if let adwaita = launch("\(work)/bare-adw-window", cache: cache) { startups["bare-adw", default: []].append(adwaita) }
    for count in [0] + sizes {
        let command = "\(binDirectory)/postcard-measure --measure-startup --data-dir \(cacheRoot)/data-\(count) --library \(smallLibrary)"
        if let result = launch(command, cache: cache) { startups["\(count)", default: []].append(result) }
    }
    log("round \(round) done")
}
@MainActor func startupMedian(_ key: String) -> Double { median(startups[key, default: []].map(\.firstFrameMilliseconds)) }
@MainActor func rssMedian(_ key: String) -> Double { median(startups[key, default: []].map(\.residentKiB)) }

log("thumbnails: Postcard's loader vs a plain C loop on both cores, cold cache, 120 photos each")
let thumbnailPhotos = (0..<120).map { String(format: "%@/library-10000/folder-%02d/photo-%05d.jpg", cacheRoot, $0 % 100, $0) }
var appRates: [Double] = [], cRates: [Double] = []

guard MainActor.assumeIsolated({ initializeGtk() }) else {
    print("bench: no display (run it with `make bench`, which starts Xvfb)")
    exit(1)
}

/// Milliseconds to list `library` completely (folders, EXIF dates), median of 3.
@MainActor func scanTime(_ library: String) -> Double {
    var times: [Double] = []
    for _ in 0..<3 {
        var done = false, found = 0
        let start = DateText.monotonicMicroseconds
        Task {
            try? await PhotoLibrary(directory: FilePath(library)).scan { found += $0.count }
            done = true
        }
        MainLoopBridge.run(until: { done }, timeout: .seconds(300))
        times.append(Double(DateText.monotonicMicroseconds - start) / 1000)
    }
    return median(times)
}

let inProcess: [String: Double] = MainActor.assumeIsolated {
    var results: [String: Double] = [:]
    results["scan"] = scanTime("\(cacheRoot)/library-10000")
    for _ in 0..<3 {
        let cCache = work + "/c-loop-cache"
        try? FileManager.default.removeItem(atPath: cCache)
        let cOutput = shell("\(work)/thumbnail-loop 2", environment: ["XDG_CACHE_HOME": cCache], input: thumbnailPhotos.joined(separator: "\n"))
        if let made = value("thumbnails", in: cOutput), let seconds = Double(cOutput.split(separator: " ").last?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") { cRates.append(made / seconds) }

        removeThumbnails(cache)
        let loader = ThumbnailLoader(cacheCapacity: 200)
        var finished = 0
        let start = DateText.monotonicMicroseconds
        for path in thumbnailPhotos {
            let uri = FilePath(path).uri
            var info = stat()
            stat(path, &info)
            let photo = LibraryPhoto(photo: Photo(uri: uri), date: 0, isDateTaken: false, modified: UInt64(info.st_mtim.tv_sec),
                                     mimeType: "image/jpeg")
            Task { _ = try? await loader.thumbnail(for: photo); finished += 1 }
        }
        MainLoopBridge.run(until: { finished == thumbnailPhotos.count }, timeout: .seconds(300))
        appRates.append(Double(finished) / (Double(DateText.monotonicMicroseconds - start) / 1_000_000))
    }

    log("memory while scrolling the 10,000-photo grid to the end")
    results["gridMemoryMiB"] = gridMemoryGrowth()
    return results
}

log("Choose a Photo over 10,000 photos (first open, reopened cold, warm) and stalls while scrolling the grid and a feed of 10,000 posts, with GTK's GL renderer and its cairo renderer, 3 runs each")
var stalls: [String: [Double]] = [:]
for renderer in ["gl", "cairo"] {
    for _ in 0..<3 {
        let opens = shell("\(CommandLine.arguments[0]) --cache \(cacheRoot) --only-open",
                          environment: ["GSK_RENDERER": renderer, "XDG_CACHE_HOME": cache])
        for key in ["first", "cold", "warm"] {
            if let time = value("picker-\(key)-ms", in: opens), time >= 0 { stalls["picker-\(key)-\(renderer)", default: []].append(time) }
        }
        let output = shell("\(CommandLine.arguments[0]) --cache \(cacheRoot) --only-stalls",
                           environment: ["GSK_RENDERER": renderer, "XDG_CACHE_HOME": cache])
        if let grid = value("grid-stall-ms", in: output) { stalls["grid-\(renderer)", default: []].append(grid) }
        if let feed = value("feed-stall-ms", in: output) { stalls["feed-\(renderer)", default: []].append(feed) }
        for list in ["grid", "feed"] {
            if let p99 = value("\(list)-p99-ms", in: output) { stalls["\(list)-\(renderer)-p99", default: []].append(p99) }
        }
    }
}
@MainActor func stall(_ key: String) -> Double { median(stalls[key, default: []]) }

// MARK: - Report

func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f", a / b) }
func ms(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0) } ?? "—" }
func verdict(_ ok: Bool) -> String { ok ? "met" : "**not met**" }
let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
    .first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?.split(separator: "\n").first?
    .split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { String(format: "%.0f GiB", $0 / 1_048_576) } ?? "?"
let gtkVersion = shell("pkg-config --modversion gtk4").trimmingCharacters(in: .whitespacesAndNewlines)
let adwaitaVersion = shell("pkg-config --modversion libadwaita-1").trimmingCharacters(in: .whitespacesAndNewlines)

let n1 = startupMedian("10000") / startupMedian("0")
let n2 = startupMedian("1000") / startupMedian("0")
let bare = startupMedian("0") / startupMedian("bare")
let bareAdwaita = startupMedian("0") / startupMedian("bare-adw")
let rss = rssMedian("10000") / rssMedian("0")
let thumbRatio = median(appRates) / median(cRates)
var report = """
# Postcard benchmarks

Made by `make bench` on \(DateText.format(unixSeconds: Int64(Date().timeIntervalSince1970), "%-d %b %Y, %H:%M")): \
\(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)), \(memory) memory, GTK \(gtkVersion), \
libadwaita \(adwaitaVersion), Xvfb with software rendering, release build. Medians of \(rounds) runs for \
start-up and 3 runs for the rest; every ratio compares two measures taken in the same run. Data: 4000 × 3000 \
JPEGs (quality 90) made from the sample photos, libraries of N photos as hard links to them in 100 \
subfolders (distinct files, so each gets its own thumbnail), stores of N posts of one such photo.

| measure | result | target | |
| --- | --- | --- | --- |
| start to first frame with 10,000 posts ÷ with 0 posts | \(String(format: "%.2f", n1)) (\(ms(startupMedian("10000"))) / \(ms(startupMedian("0")))) | ≤ 1.2 | \(verdict(n1 <= 1.2)) |
| start to first frame with 1,000 posts ÷ with 0 posts | \(String(format: "%.2f", n2)) (\(ms(startupMedian("1000")))) | ≤ 1.2 | \(verdict(n2 <= 1.2)) |
| start to first frame with 0 posts ÷ a bare C GTK 4 window with a header bar | \(String(format: "%.2f", bare)) (\(ms(startupMedian("0"))) / \(ms(startupMedian("bare")))) | ≤ 1.2 | \(verdict(bare <= 1.2)) |
| start to first frame with 0 posts ÷ a bare C window with libadwaita | \(String(format: "%.2f", bareAdwaita)) (\(ms(startupMedian("0"))) / \(ms(startupMedian("bare-adw")))) | ≤ 1.2 | \(verdict(bareAdwaita <= 1.2)) |
| resident memory after showing My Profile with 10,000 posts ÷ with 0 posts | \(String(format: "%.2f", rss)) (\(String(format: "%.0f", rssMedian("10000") / 1024)) MiB / \(String(format: "%.0f", rssMedian("0") / 1024)) MiB) | ≤ 1.25 | \(verdict(rss <= 1.25)) |
| Choose a Photo over 10,000 photos: open → first screenful of thumbnails, cold thumbnail cache, first open in the app's run (the library is read from scratch), cairo renderer | \(ms(stall("picker-first-cairo"))) | < 1 s | \(verdict(stall("picker-first-cairo") < 1000)) |
| the same, GL renderer (Mesa's software GL under Xvfb) | \(ms(stall("picker-first-gl"))) | < 1 s | \(verdict(stall("picker-first-gl") < 1000)) |
| the same, cold thumbnail cache, opened again (the last listing shows at once), cairo renderer | \(ms(stall("picker-cold-cairo"))) | < 1 s | \(verdict(stall("picker-cold-cairo") < 1000)) |
| the same, GL renderer | \(ms(stall("picker-cold-gl"))) | < 1 s | \(verdict(stall("picker-cold-gl") < 1000)) |
| the same, warm thumbnail cache, opened again, cairo renderer | \(ms(stall("picker-warm-cairo"))) | < 300 ms | \(verdict(stall("picker-warm-cairo") < 300)) |
| the same, GL renderer | \(ms(stall("picker-warm-gl"))) | < 300 ms | \(verdict(stall("picker-warm-gl") < 300)) |
| longest main-thread stall scrolling the 10,000-photo grid, cairo renderer | \(ms(stall("grid-cairo"))) (99th-percentile gap: \(ms(stall("grid-cairo-p99")))) | < 16 ms | \(verdict(stall("grid-cairo") < 16)) |
| the same, GL renderer (Mesa's software GL under Xvfb) | \(ms(stall("grid-gl"))) (99th-percentile gap: \(ms(stall("grid-gl-p99")))) | < 16 ms | \(verdict(stall("grid-gl") < 16)) |
| longest main-thread stall scrolling a feed of 10,000 posts, cairo renderer | \(ms(stall("feed-cairo"))) (99th-percentile gap: \(ms(stall("feed-cairo-p99")))) | < 16 ms | \(verdict(stall("feed-cairo") < 16)) |
| the same, GL renderer (Mesa's software GL under Xvfb) | \(ms(stall("feed-gl"))) (99th-percentile gap: \(ms(stall("feed-gl-p99")))) | < 16 ms | \(verdict(stall("feed-gl") < 16)) |
| listing the 10,000-photo library with EXIF dates (all folders) | \(ms(inProcess["scan"])) | — | |
| thumbnails per second, cold cache, ÷ a plain C loop with the same library on both cores | \(ratio(median(appRates), median(cRates))) (\(String(format: "%.1f", median(appRates))) / \(String(format: "%.1f", median(cRates))) per s) | ≥ 0.8 | \(verdict(thumbRatio >= 0.8)) |
| resident memory after scrolling the 10,000-photo grid to the end, minus before opening it | \(String(format: "%.0f MiB", inProcess["gridMemoryMiB"] ?? .nan)) | < 100 MB | \(verdict((inProcess["gridMemoryMiB"] ?? .infinity) < 95.4)) |

How each is measured (`Sources/PostcardBench/main.swift`):

- *Start to first frame*: from just before the process is started to its first painted frame
  (`GdkFrameClock` `after-paint`, GLib's monotonic clock in both processes), `postcard-measure --measure-startup`
  against `bench/baselines/bare-window.c`. Memory: `VmRSS` once the feed's rows on screen show their photos.
- *A bare C window with libadwaita*: `bench/baselines/bare-adw-window.c`, the same window as `bare-window.c`
  (a `GtkApplicationWindow` with a `GtkHeaderBar`, as a minimal libadwaita 1.2 app's window and Postcard's
  are) in an `AdwApplication`, launched in every round right after the bare GTK 4 window; Postcard ÷ it
  is what Postcard adds over libadwaita itself.
- *Choose a Photo*: in a process of its own per run (`--only-open`), the page opened in a window of the photo flow dialog's size (560 × 640), until every
  tile on screen shows its thumbnail in the final (newest-first) order; cold = `~/.cache/thumbnails`
  emptied first; every open has a new in-memory texture cache. On the first open in a run, the grid is
  put in order once the library is read and thumbnails not yet cached are made after that, so it takes
  at least the listing time plus a screenful of thumbnails (see the C loop's rate). Opened again, the
  page shows the last listing at once and reads the folder anew in the background.
- *Stalls*: the longest gap (and the 99th-percentile gap) between runs of a 1 ms GLib timer while the
  list is scrolled by 240 (grid) or 400 (feed) pixels a frame (600 frames); it includes layout and the rendering of each frame, which
  under Xvfb is done in software on the same two cores: by the cairo renderer, or by Mesa's llvmpipe
  for the GL renderer GTK picks by default (on a desktop with a GPU that work leaves the CPU).
- *Thumbnails per second*: 120 photos never thumbnailed, through `ThumbnailLoader` (two decoding threads)
  against `bench/baselines/thumbnail-loop.c` (GnomeDesktopThumbnailFactory on two threads, its own empty cache).
  For JPEG, `ThumbnailLoader` decodes in process with libjpeg's DCT scaling and stores the result through
  the same factory, rather than starting the factory's sandboxed thumbnailer process for each photo.
- *Grid memory*: the 10,000-photo grid jumped through ten screens at a time to the end, each screen
  loaded, then measured.
- Decoding and thumbnailing run on two threads at nice 10, so drawing and input win the CPU.

"""
try! report.write(toFile: resultsPath, atomically: true, encoding: .utf8)
print(report)

runNavigationBenchmarks(outPath: navigationResultsPath, repository: repository, work: work, binDirectory: binDirectory, rounds: rounds)
MainActor.assumeIsolated {
    runHostileInputBenchmarks(outPath: hostileResultsPath, cacheRoot: cacheRoot, repository: repository, binDirectory: binDirectory, rounds: 3)
}

/// The process's resident memory in KiB (`VmRSS` of `/proc/self/status`), or 0 when unknown.
func residentMemoryKiB() -> Int {
    guard let status = Files.readText("/proc/self/status") else { return 0 }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
}
