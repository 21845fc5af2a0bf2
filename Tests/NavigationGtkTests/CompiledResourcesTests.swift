import CGLib
import GLib
import Glibc
import NavigationGtkResources
import XCTest

/// The toolkit's style and translations come from the build (the CompileResources plugin), not from
/// committed files, and are found without writing anything. No display needed.
///
/// `Tests/resources-test.sh` (make test) checks, in a copy of the package, that an edited `navigation.css`
/// and `po/navigation-gtk/de.po` are in the next build's bundle and catalogue; these check that the program
/// uses exactly what its build compiled.
final class CompiledResourcesTests: XCTestCase {
    /// A rule the compiled navigation.css has today.
    private let expectedStyle = "@define-color navigation_bar_shade_color"
    /// The German for the toolkit's "Back", as po/navigation-gtk/de.po has it today.
    private let expectedBack = "Zurück"

    func testTheToolkitsStyleSheetIsTheOneThisBuildCompiled() throws {
        XCTAssertTrue(CompiledNavigationGtkResources.isRegistered, "GIO reads the compiled bundle")
        let bytes = try XCTUnwrap(g_resources_lookup_data("/io/github/NavigationGtk/navigation.css", G_RESOURCE_LOOKUP_FLAGS_NONE, nil),
                                  "navigation.css is in the bundle")
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        let data = try XCTUnwrap(g_bytes_get_data(bytes, &size))
        let css = String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
        XCTAssertTrue(css.contains(expectedStyle), "the compiled navigation.css has “\(expectedStyle)”")
    }

    func testTheToolkitsGermanIsThisBuildsAndNothingIsWrittenToFindIt() throws {
        let cache = String(cString: g_get_user_cache_dir())
        let oldLanguage = getenv("LANGUAGE").map { String(cString: $0) }
        let oldLocale = String(cString: setlocale(LC_MESSAGES, nil))
        setenv("LANGUAGE", "de", 1)
        XCTAssertNotNil(setlocale(LC_MESSAGES, "de_DE.UTF-8"), "the de_DE.UTF-8 locale exists (make deps makes it)")
        defer {
            if let oldLanguage { setenv("LANGUAGE", oldLanguage, 1) } else { unsetenv("LANGUAGE") }
            setlocale(LC_MESSAGES, oldLocale)
        }
        XCTAssertEqual(toolkitLocalized("Back"), expectedBack, "the toolkit's Back in German, from this build's catalogue")
        let bound = try XCTUnwrap(bindtextdomain(Localization.toolkitDomain, nil).map { String(cString: $0) })
        XCTAssertEqual(bound, CompiledNavigationGtkResources.buildLocaleDirectory,
                       "run from the build folder, the toolkit reads the catalogue where the build compiled it")
        XCTAssertFalse(bound.hasPrefix(cache), "not from the user's cache (\(cache))")
        XCTAssertEqual(g_file_test(cache + "/" + Localization.toolkitDomain, G_FILE_TEST_EXISTS), 0,
                       "nothing of the toolkit's is written to the user's cache")
    }
}
