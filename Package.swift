// swift-tools-version:6.1
// Postcard: a GTK 4 desktop prototype of reusable navigation (pages, flows, bars), in Swift.
// Layers (lower never import higher): CGLib → GLib → CGtk → Gtk → Navigation / NavigationGtk → (Adwaita) → PhotoPosting → Postcard.
import PackageDescription

// `make test-toolkit` builds with POSTCARD_TOOLKIT_ONLY=1 (in a scratch path of its own): the package then
// declares only the navigation toolkit (GLib, Gtk, Navigation, NavigationGtk, NavigationWeb and what they use) and its
// own tests, so the toolkit is built and tested without building the app. Everything else sees the whole
// package.
let toolkitOnly = Context.environment["POSTCARD_TOOLKIT_ONLY"] == "1"
/// The targets the toolkit's build and tests need (everything else is the app and its tools).
let toolkitTargets: Set<String> = ["CompileResources", "CGLib", "CGtk", "CWebKit", "CXTest", "GLib", "Gtk", "Navigation",
                                   "NavigationGtkResources", "NavigationGtk", "NavigationWeb", "GtkTesting", "NavigationTests",
                                   "NavigationGtkTests"]

let package = Package(
    name: "Postcard",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "GLib", targets: ["GLib"]),
        .library(name: "Gtk", targets: ["Gtk"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "NavigationGtk", targets: ["NavigationGtk"]),
        .library(name: "NavigationWeb", targets: ["NavigationWeb"]),
        .executable(name: "postcard", targets: ["Postcard"]),
        // Tools, not shipped: the review gallery (`make review`) and the app's measurements (`make bench`).
        .executable(name: "postcard-review", targets: ["PostcardReview"]),
        .executable(name: "postcard-measure", targets: ["PostcardMeasure"]),
    ],
    targets: [
        // GLib and GIO alone (files, paths, dates, logging, translations), for the layers without UI.
        .systemLibrary(name: "CGLib", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The freedesktop thumbnail cache (GnomeDesktopThumbnailFactory) and EXIF metadata (gexiv2).
        .systemLibrary(name: "CGnomeDesktop", pkgConfig: "gnome-desktop-4", providers: [.apt(["libgnome-desktop-4-dev"])]),
        .systemLibrary(name: "CGExiv2", pkgConfig: "gexiv2", providers: [.apt(["libgexiv2-dev"])]),
        // The camera: GStreamer's core, appsink and video library.
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-video-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // Postcard codes drawn for My Code: libqrencode.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Web pages: WebKitGTK 6.0 (the GTK 4 API), used only by NavigationWeb and opened on first use
        // (its header declares what is used; only GTK's flags are needed to build).
        .systemLibrary(name: "CWebKit", pkgConfig: "gtk4", providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        // libadwaita 1.2 (Debian 12): the platform's style sheet, style manager, toasts and widgets; the
        // app's only (the navigation toolkit stays plain GTK).
        .systemLibrary(name: "CAdwaita", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        // Test-only: XTEST input events under Xvfb.
        .systemLibrary(name: "CXTest", pkgConfig: "xtst", providers: [.apt(["libxtst-dev"])]),
        // GLib without GTK: FilePath, Files, DateText, Logger, GLibError, gettext (re-exported by Gtk).
        .target(name: "GLib", dependencies: ["CGLib", "NavigationGtkResources"]),
        .target(name: "Gtk", dependencies: ["GLib", "CGLib", "CGtk", "NavigationGtkResources"]),
        // Compiles a target's GResource bundle and gettext catalogues during the build (glib-compile-resources,
        // msgfmt): nothing generated is committed.
        .plugin(name: "CompileResources", capability: .buildTool()),
        // The app's style sheet (Resources/style.css) compiled in as a GResource, and its translations (po/).
        .target(name: "PostcardResources", dependencies: ["CGLib"], plugins: ["CompileResources"]),
        .target(name: "Navigation"),
        // The toolkit's own style (the translucent bar) compiled in as a GResource, and its translations
        // (po/navigation-gtk), by the CompileResources plugin.
        .target(name: "NavigationGtkResources", dependencies: ["CGLib"],
                exclude: ["navigation.css", "navigation-dark.css", "navigation.gresource.xml"],
                plugins: ["CompileResources"]),
        .target(name: "NavigationGtk", dependencies: ["Gtk", "Navigation", "NavigationGtkResources"]),
        // A web page as a navigation page (under the translucent bar); its own target so that apps using
        // the toolkit without web pages never link WebKit.
        .target(name: "NavigationWeb", dependencies: ["NavigationGtk", "Gtk", "CGtk", "CWebKit"]),
        // libadwaita for the app (AdwApplication, AdwStyleManager, toasts, status pages, …) over `Gtk`.
        .target(name: "Adwaita", dependencies: ["Gtk", "Navigation", "CGtk", "CAdwaita"]),
        // Plain values shared by the photo flow and the store (Photo, Post, Reply, Message, Draft): GLib only.
        .target(name: "PostcardModel", dependencies: ["GLib", "CGLib"]),
        // The journal of a journey (`postcard --record` / `--replay`): its format, parser and steps; GLib only.
        .target(name: "PostcardJourney", dependencies: ["PostcardModel", "Navigation", "GLib", "CGLib"]),
        // The posts in SQLite and the photo copies beside them; no UI.
        .target(name: "PostcardStore", dependencies: ["PostcardModel", "GLib", "CGLib", "CSQLite"]),
        .target(name: "PhotoPosting", dependencies: ["PostcardModel", "Adwaita", "NavigationGtk", "Gtk", "Navigation", "CGtk", "CGnomeDesktop", "CGExiv2", "CGStreamer"]),
        .target(
            name: "PostcardApp",
            dependencies: ["PostcardModel", "PostcardJourney", "PostcardStore", "PhotoPosting", "Adwaita", "NavigationGtk", "NavigationWeb", "Navigation", "Gtk", "PostcardResources", "CQRencode"]
        ),
        // The program that ships: in the release configuration the Swift runtime is linked in, so the installed
        // program runs without the toolchain (make install, the Debian package) and is the very build the
        // release tests ran (make test: the test bundle, linked against the toolchain's runtime, beside it).
        .executableTarget(name: "Postcard", dependencies: ["PostcardApp"],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
        // The review gallery and tour: `postcard-review --review-tour DIR` (`make review`).
        .executableTarget(name: "PostcardReview",
                          dependencies: ["PostcardApp", "PostcardJourney", "PostcardModel", "PostcardStore", "PhotoPosting", "Adwaita", "NavigationGtk", "NavigationWeb", "Gtk", "CGtk"],
                          exclude: ["tour.journey"]),  // the tour's journal, read from the source tree
        // The start-up and navigation measurements: `postcard-measure --measure-startup` (`make bench`).
        .executableTarget(name: "PostcardMeasure",
                          dependencies: ["PostcardApp", "PostcardModel", "PhotoPosting", "NavigationGtk", "Gtk", "CGtk"]),
        // `make bench`: scale benchmarks (a program, not tests), see bench/results.md.
        .executableTarget(
            name: "PostcardBench",
            dependencies: ["PostcardApp", "PostcardModel", "PostcardStore", "PhotoPosting", "NavigationGtk", "Navigation", "Gtk", "CGtk", "CSQLite"]
        ),
        // A test program, not shipped: ordinary Swift concurrency on GLibExecutors, reporting where each
        // construct ran (ConcurrencyOnGLibTests runs it).
        .executableTarget(name: "ExecutorProbe", dependencies: ["GLib", "CGLib", "CGStreamer"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation"]),
        // What the package's GTK tests share (a test case running GTK, XTEST input, AT-SPI reading); not a
        // product.
        .target(name: "GtkTesting", dependencies: ["NavigationGtk", "Gtk", "CGtk", "CXTest"], path: "Tests/GtkTesting",
                exclude: ["Scripts"]),  // the AT-SPI reader
        // The navigation toolkit's own GTK tests: they depend on the toolkit only (make test-toolkit).
        .testTarget(name: "NavigationGtkTests", dependencies: ["GtkTesting", "NavigationGtk", "Navigation", "Gtk", "GLib", "NavigationGtkResources", "CGtk", "CGLib", "CXTest"]),
        .testTarget(
            name: "PostcardTests",
            dependencies: ["PostcardApp", "PostcardReview", "PostcardJourney", "PostcardModel", "PostcardStore", "PhotoPosting", "Adwaita", "CAdwaita", "NavigationGtk", "NavigationWeb", "Navigation", "Gtk", "CGtk", "CSQLite", "CXTest", "CGStreamer",
                           "PostcardResources", "GtkTesting"],
            exclude: ["Fixtures", "Scripts"]  // images in every format people have; the AT-SPI reader
        ),
    ]
)

if toolkitOnly {
    package.products = package.products.filter { ["GLib", "Gtk", "Navigation", "NavigationGtk", "NavigationWeb"].contains($0.name) }
    package.targets = package.targets.filter { toolkitTargets.contains($0.name) }
}
