// swift-tools-version:6.0
// Swatches: a small GTK 4 app built on Postcard's navigation toolkit, as an app of your own would use it.
// `make test` builds it and runs its tests headlessly; `make example` opens it.
import PackageDescription

let package = Package(
    name: "Swatches",
    dependencies: [
        // The toolkit's checkout, by path. `name:` makes "Postcard" the package's name for `package:` below
        // whatever the checkout folder is called (without it, a path package is known by its folder name).
        .package(name: "Postcard", path: ".."),
    ],
    targets: [
        .target(name: "Swatches", dependencies: [.product(name: "NavigationGtk", package: "Postcard")]),
        .executableTarget(name: "swatches", dependencies: ["Swatches"]),
        .testTarget(name: "SwatchesTests", dependencies: ["Swatches"]),
    ]
)
