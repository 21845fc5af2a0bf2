// swift-tools-version:6.0
// Postcard: a GTK 4 desktop prototype of reusable navigation (pages, flows, bars), in Swift.
// Layers (lower never import higher): CGtk → Gtk → Navigation / NavigationGtk → PhotoPosting → Postcard.
import PackageDescription

let package = Package(
    name: "Postcard",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Gtk", targets: ["Gtk"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "NavigationGtk", targets: ["NavigationGtk"]),
        .library(name: "NavigationWeb", targets: ["NavigationWeb"]),
        .executable(name: "postcard", targets: ["Postcard"]),
    ],
    targets: [
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The freedesktop thumbnail cache (GnomeDesktopThumbnailFactory) and EXIF metadata (gexiv2).
        .systemLibrary(name: "CGnomeDesktop", pkgConfig: "gnome-desktop-4", providers: [.apt(["libgnome-desktop-4-dev"])]),
        .systemLibrary(name: "CGExiv2", pkgConfig: "gexiv2", providers: [.apt(["libgexiv2-dev"])]),
        // The camera: GStreamer's core, appsink and video library.
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-video-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // Web pages: WebKitGTK 6.0 (the GTK 4 API), used only by NavigationWeb and opened on first use
        // (its header declares what is used; only GTK's flags are needed to build).
        .systemLibrary(name: "CWebKit", pkgConfig: "gtk4", providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        // Test-only: XTEST input events under Xvfb.
        .systemLibrary(name: "CXTest", pkgConfig: "xtst", providers: [.apt(["libxtst-dev"])]),
        .target(name: "Gtk", dependencies: ["CGtk", "NavigationGtkResources"]),
        // The app's style sheet compiled in as a GResource (generated C; `make resources`).
        .target(name: "PostcardResources", dependencies: ["CGtk"]),
        .target(name: "Navigation"),
        // The toolkit's own style (the translucent bar) and translations compiled in as a GResource
        // (generated C; `make po`, `make resources`).
        .target(name: "NavigationGtkResources", dependencies: ["CGtk"],
                exclude: ["navigation.css", "navigation-dark.css", "navigation.gresource.xml", "locale"]),
        .target(name: "NavigationGtk", dependencies: ["Gtk", "Navigation", "NavigationGtkResources"]),
        // A web page as a navigation page (under the translucent bar); its own target so that apps using
        // the toolkit without web pages never link WebKit.
        .target(name: "NavigationWeb", dependencies: ["NavigationGtk", "Gtk", "CGtk", "CWebKit"]),
        .target(name: "PhotoPosting", dependencies: ["NavigationGtk", "Gtk", "Navigation", "CGtk", "CGnomeDesktop", "CGExiv2", "CGStreamer"]),
        .target(
            name: "PostcardApp",
            dependencies: ["PhotoPosting", "NavigationGtk", "NavigationWeb", "Navigation", "Gtk", "CSQLite", "PostcardResources"]
        ),
        .executableTarget(name: "Postcard", dependencies: ["PostcardApp"]),
        // `make bench`: scale benchmarks (a program, not tests), see bench/results.md.
        .executableTarget(
            name: "PostcardBench",
            dependencies: ["PostcardApp", "PhotoPosting", "NavigationGtk", "Navigation", "Gtk", "CGtk", "CSQLite"]
        ),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation"]),
        .testTarget(
            name: "PostcardTests",
            dependencies: ["PostcardApp", "PhotoPosting", "NavigationGtk", "NavigationWeb", "Navigation", "Gtk", "CGtk", "CXTest",
                           "PostcardResources"],
            exclude: ["Fixtures", "Scripts"]  // images in every format people have; the AT-SPI reader
        ),
    ]
)
