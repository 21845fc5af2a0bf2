// `postcard-review`: the review gallery (for UX review), not part of the shipped `postcard`.
//
//     postcard-review --review-tour DIR [--journey FILE] [--compare OLD] [postcard's options, e.g. --camera test]
//
// Walks the real app through every screen (ReviewTour) once per window width, scale and direction
// (ReviewPart: this program again, one process per part), saving each screen light, dark and high contrast, then
// writes DIR/index.html (ReviewGallery), listing what changed since the gallery in OLD.
import Glibc
import Gtk
import PostcardModel
import PostcardApp

/// The gallery as a tool the app runs (see ``AppTool``).
@MainActor
func reviewTool() -> AppTool {
    var tool = AppTool(summary: "Save a picture of every screen of Postcard in every style, width and direction, with an index.html.") { app, options, finish in
        guard let directory = options.filename("review-tour") else {
            PostcardMain.printError("postcard-review: --review-tour FOLDER is needed")
            return finish(2)
        }
        let part = ReviewGallery.partOfThisProcess
        if let file = options.filename("journey") {
            let journey: Journey
            do {
                journey = try loadJourney(file, library: app.library.directory)
            } catch {
                PostcardMain.printError("postcard-review: \(file.displayName): \(error)")
                return finish(2)
            }
            ReviewTour.run(journey: journey, title: file.lastComponent.displayName, app: app, into: directory, part: part,
                           variants: part.map(ReviewVariant.all(in:)) ?? [ReviewVariant(dark: false, rightToLeft: false)]) { succeeded in
                finish(succeeded ? 0 : 1)
            }
            return
        }
        ReviewTour.run(app: app, into: directory, part: part,
                       variants: part.map(ReviewVariant.all(in:)) ?? [ReviewVariant(dark: false, rightToLeft: false)]) { succeeded in
            finish(succeeded ? 0 : 1)
        }
    }
    tool.options = [
        CommandLineOption("review-tour", value: .filename,
                          description: "Save the pictures in FOLDER, with an index.html, then quit", argumentDescription: "FOLDER"),
        CommandLineOption("journey", value: .filename,
                          description: "Save a picture of each step of the journey in FILE (recorded with postcard --record), instead of the tour",
                          argumentDescription: "FILE"),
        CommandLineOption("compare", value: .filename,
                          description: "List the pictures that changed since the gallery in FOLDER", argumentDescription: "FOLDER"),
    ]
    tool.beforeDisplay = { options, appOptions in
        guard let gallery = options.filename("review-tour"), ReviewGallery.partOfThisProcess == nil else { return nil }
        var screens = ReviewGallery.screens
        if let file = options.filename("journey") {
            // Read and checked before any part starts: a damaged journal stops here, naming its step.
            do {
                let journey = try loadJourney(file, library: try appOptions.libraryDirectory(resources: try ResourceLocator.resourcesDirectory()))
                screens = ReviewGallery.screens(of: journey, title: file.lastComponent.displayName)
            } catch {
                PostcardMain.printError("postcard-review: \(file.displayName): \(error)")
                return 2
            }
        }
        // The gallery: this program again once per part (each opens the display), then the index.
        return ReviewGallery.make(in: gallery.absolute, compare: options.filename("compare")?.absolute, screens: screens,
                                  arguments: CommandLine.unsafeArgv)
    }
    tool.prepare = { _ in
        if let part = ReviewGallery.partOfThisProcess { ReviewGallery.prepare(for: part) }
    }
    tool.dataDirectory = { options in
        // A part of the gallery: the same folder every run (its name shows in an empty state's text).
        guard let gallery = options.filename("review-tour")?.absolute else { return nil }
        if let part = ReviewGallery.partOfThisProcess {
            return gallery.appending(".data", part.name + (SpokenWords.isUnderOrca ? "-orca" : ""))
        }
        return gallery.appending("data-\(DateText.nowMicroseconds)")
    }
    tool.clock = ReviewGallery.clock
    // The same user every run (their name and code show in the pictures).
    tool.identity = Identity(id: "7c0f3a52-9d14-4b6e-a8e1-2f5b6c9d0e31", name: "Sam Rivera")
    return tool
}

/// The journey in `file`, read and checked against `library` (``JourneyReplayer/check(_:library:)``).
/// - Throws: ``JourneyError`` naming the first bad step, or ``GLibError`` for a file that can't be read
///   (missing, not a regular file, larger than ``Journey/maximumBytes``).
func loadJourney(_ file: FilePath, library: FilePath) throws -> Journey {
    let journey = try Journey(text: try Files.readRegularText(file, maximumBytes: Journey.maximumBytes))
    try JourneyReplayer.check(journey, library: library)
    return journey
}

exit(MainActor.assumeIsolated { PostcardMain.run(tool: reviewTool()) })
