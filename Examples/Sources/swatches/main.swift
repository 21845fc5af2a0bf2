import Glibc
import Swatches

exit(MainActor.assumeIsolated { SwatchesApp.main() })
