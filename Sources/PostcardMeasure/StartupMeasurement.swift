import Glibc
import Gtk
import PostcardApp

/// `postcard-measure --measure-startup`: reports, on standard output, when My Profile's first frame was painted
/// and how much memory the process holds once the photos on screen show, then quits. `make bench`
/// runs it with 0 and with thousands of posts and compares the two in the same run.
///
/// Output (one line each): `first-frame-monotonic-us N` (GLib's monotonic clock, comparable with the
/// launching process's), then `settled-rss-kib N`.
@MainActor
public enum StartupMeasurement {
    static func run(_ app: AppController, finish: @escaping @MainActor () -> Void) {
        app.mainWindow.window.afterNextPaint {
            print("first-frame-monotonic-us \(DateText.monotonicMicroseconds)")
            fflush(nil)  // every stream: the bench reads the lines through a pipe
            Task {
                // Settled: the feed's rows on screen show their photos (or there are none), and layout is done.
                for _ in 0..<400 {
                    let items = app.myProfile.feedItems.filter { $0.view.isMapped }
                    if items.allSatisfy(\.isPhotoLoaded) { break }
                    await sleep(milliseconds: 25)
                }
                await sleep(milliseconds: 500)
                print("settled-rss-kib \(processStatusKiB("VmRSS:"))")
                fflush(nil)  // every stream: the bench reads the lines through a pipe
                finish()
            }
        }
    }

}
