// The `postcard` executable: everything lives in PostcardApp so tests can build the real app.
import Glibc
import PostcardApp

exit(MainActor.assumeIsolated { PostcardMain.run() })
