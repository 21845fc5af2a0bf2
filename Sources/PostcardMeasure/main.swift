// `postcard-measure`: the app's own measurements for `make bench` and `make bench-navigation`, not part
// of the shipped `postcard`.
//
//     postcard-measure --measure-startup [postcard's options]      (StartupMeasurement)
//     postcard-measure --measure-navigation [postcard's options]   (NavigationMeasurement)
//     postcard-measure --measure-posting [--comment-length N] [postcard's options]   (PostingMeasurement)
//     postcard-measure --measure-link-storm N --storm-script FILE [postcard's options]   (LinkStormMeasurement)
//     postcard-measure --measure-web-idle [postcard's options]     (WebIdleMeasurement)
//
// Each runs the real app (the same start, store, window and pages as `postcard`), prints `key value`
// lines on standard output and quits.
import Glibc
import Gtk
import PostcardApp

/// The measurements as a tool the app runs (see ``AppTool``).
@MainActor
func measureTool() -> AppTool {
    var tool = AppTool(summary: "Measure Postcard's start-up or navigation and print the results.") { app, options, finish in
        if options.contains("measure-startup") {
            StartupMeasurement.run(app) { finish(0) }
        } else if options.contains("measure-navigation") {
            NavigationMeasurement.run(app) { finish(0) }
        } else if let count = options.string("measure-link-storm").flatMap({ Int($0) }), let script = options.string("storm-script") {
            LinkStormMeasurement.run(app, count: count, script: script) { finish(0) }
        } else if options.contains("measure-web-idle") {
            WebIdleMeasurement.run(app) { finish(0) }
        } else if options.contains("measure-posting") {
            let length = options.string("comment-length").flatMap { Int($0) } ?? 40
            PostingMeasurement.run(app, commentLength: length) { finish(0) }
        } else {
            PostcardMain.printError("postcard-measure: --measure-startup, --measure-navigation, --measure-posting, --measure-web-idle or --measure-link-storm N --storm-script FILE is needed")
            finish(2)
        }
    }
    tool.options = [
        CommandLineOption("measure-startup", description: "Print the time to the first frame and the memory in use, then quit"),
        CommandLineOption("measure-navigation", description: "Push and pop pages, open and cancel New Post, idle, print the times measured, then quit"),
        CommandLineOption("measure-posting", description: "Post the library's first photo with a pasted comment, open every post, print the longest stall and the peak memory, then quit"),
        CommandLineOption("measure-link-storm", value: .string, description: "Send the app N links over D-Bus within a second, print the longest stall, the peak web processes and memory, then quit"),
        CommandLineOption("measure-web-idle", description: "Count idle wake-ups before, while and after a web page shows, then quit"),
        CommandLineOption("storm-script", value: .string, description: "With --measure-link-storm: the storm's sender (Tests/PostcardTests/Scripts/link_storm.py)"),
        CommandLineOption("comment-length", value: .string, description: "With --measure-posting: the comment's length in characters (default 40)"),
    ]
    return tool
}

exit(MainActor.assumeIsolated { PostcardMain.run(tool: measureTool()) })
