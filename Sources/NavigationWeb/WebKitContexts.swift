// What WebPage rests on, apart from the page itself: why it may be unavailable, the WebKit web contexts
// (one per memory limit) and the library preloaded on a thread of its own.
import CGtk
import CWebKit
import Gtk
import NavigationGtk
import Synchronization

/// Why a ``WebPage`` cannot be created on this computer: WebKitGTK 6.0 could not be opened.
public struct WebPageUnavailable: Error, CustomStringConvertible {
    /// What to tell the user, translated: "Web pages need WebKitGTK 6.0: " and the loader's reason
    /// (e.g. "libwebkitgtk-6.0.so.4: cannot open shared object file: No such file or directory").
    public let reason: String
    /// The reason.
    public var description: String { reason }
}

/// WebKitGTK 6.0, opened on first use (see `CWebKit/shim.h`: linking it would add its loading time to
/// every start of the app).
@MainActor
package enum WebKitLibrary {
    /// The library's functions, or why WebKitGTK 6.0 cannot be opened; opened the first time it is asked.
    static let opened: Result<WebKitFunctions, WebPageUnavailable> = open(fileName)
    /// The library's file name (Debian's `libwebkitgtk-6.0-4`).
    nonisolated static let fileName = "libwebkitgtk-6.0.so.4"

    /// Opens the shared library `name` as WebKitGTK 6.0: its functions, or why it cannot be opened.
    package static func open(_ name: String) -> Result<WebKitFunctions, WebPageUnavailable> {
        var table = WebKitFunctions()
        if let reason = navgtk_webkit_open(name, &table) {
            return .failure(WebPageUnavailable(reason: toolkitLocalized("Web pages need WebKitGTK 6.0: %s", String(cString: reason))))
        }
        return .success(table)
    }
}

/// The WebKit web contexts of the pages, one per memory limit (see ``WebPage/webProcessMemoryLimit``),
/// made when first needed and kept for the process's life; the first also refuses every download of the
/// default network session (see ``WebPage``). Main actor.
@MainActor
enum WebContexts {
    private static var made: [String: OpaquePointer] = [:]
    /// The functions' table the download handler reads (kept for the process's life).
    private static var downloadTable: UnsafeMutablePointer<WebKitFunctions>?

    static func context(_ webKit: WebKitFunctions, limitMegabytes: Int, pollInterval: Double) -> OpaquePointer {
        let key = "\(limitMegabytes) \(pollInterval)"
        if let context = made[key] { return context }
        if downloadTable == nil {
            let table = UnsafeMutablePointer<WebKitFunctions>.allocate(capacity: 1)
            table.initialize(to: webKit)
            downloadTable = table
            navgtk_webkit_refuse_downloads(table)
            if let value = g_getenv("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR") {
                Logger.toolkit.problem("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR is set (\(String(cString: value))): web pages' memory is not bounded")
            }
        }
        let limit = UInt32(clamping: max(1, limitMegabytes))
        let context = withUnsafePointer(to: webKit) { navgtk_webkit_context_new($0, limit, max(0.1, pollInterval)) }!
        made[key] = context
        return context
    }
}

/// ``WebPage/preload()``'s state: whether it has started (once per process), and its thread's function.
enum WebKitPreload {
    private static let started = Atomic<Bool>(false)
    /// True the first time only. Any thread.
    static func start() -> Bool { !started.exchange(true, ordering: .relaxed) }

    /// The preloading thread's function (a C callback on a thread of its own, not main-actor code).
    static let load: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _ in
        _ = dlopen(WebKitLibrary.fileName, RTLD_NOW | RTLD_GLOBAL)  // kept for the process's life
        return nil
    }
}
