import Gtk
import PostcardModel

/// A program that runs the app its own way — the review gallery (`postcard-review`), the measurements
/// (`postcard-measure`) — instead of being part of the shipped `postcard`: the same start, store, window
/// and pages, with its own options and its own run. `package`: for the package's own tools only.
@MainActor
package struct AppTool {
    /// The tool's own options, parsed with the app's (GOption) and listed by its `--help`.
    package var options: [CommandLineOption] = []
    /// The text its `--help` shows above the options.
    package var summary: String
    /// Runs in the launching process once the options are parsed, before GTK opens the display: returns
    /// an exit status to end there (a tool that runs itself again per part), or nil to go on.
    package var beforeDisplay: (CommandLineOptions, AppOptions) -> Int32? = { _, _ in nil }
    /// Runs once GTK has started, before the app builds anything (text direction, desktop settings).
    package var prepare: (CommandLineOptions) -> Void = { _ in }
    /// The data folder when `--data-dir` is not given (nil: the app's own).
    package var dataDirectory: (CommandLineOptions) -> FilePath? = { _ in nil }
    /// The clock that stamps what the store writes (seconds since 1970-01-01 UTC).
    package var clock: @Sendable () -> Int64 = { DateText.nowMicroseconds / 1_000_000 }
    /// Who the user is in the data folder (nil: whom the store made at its first launch).
    package var identity: Identity?
    /// Runs once the main window shows, instead of offering a draft or restoring the pages; calls
    /// `finish` with the exit status when done, and the app quits with it.
    package var run: (AppController, CommandLineOptions, @escaping @MainActor (Int32) -> Void) -> Void

    /// A tool described by `summary` that runs `run`.
    package init(summary: String, run: @escaping (AppController, CommandLineOptions, @escaping @MainActor (Int32) -> Void) -> Void) {
        self.summary = summary
        self.run = run
    }
}
