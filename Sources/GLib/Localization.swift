import CGLib
import Glibc
internal import NavigationGtkResources

/// Translations through GNU gettext, as GNOME apps use it (GLib's `g_dgettext` and `g_dngettext`), in two
/// text domains, as a GNOME app and the libraries it uses each have their own (GTK's is `gtk40`):
///
/// - **The app's**: the app names it and its folder with ``bind(domain:directory:)`` (Postcard's is
///   `postcard`, `<prefix>/share/locale/<lang>/LC_MESSAGES/postcard.mo`); ``localized(_:_:)`` and
///   ``localizedPlural(_:_:count:_:)`` look strings up there. An app that binds none gets its strings
///   as written.
/// - **The toolkit's** (``toolkitDomain``, `navigation-gtk`): the strings of `Gtk`, `NavigationGtk` and
///   `NavigationWeb` ("Back", "Cancel", a photo that can't be read). They are compiled from
///   `po/navigation-gtk` during the build, so an app built on the toolkit gets "Zurück" in German without
///   translating anything: run from its build folder it finds the build's catalogues; installed, it finds
///   them in `<prefix>/share/locale`, where its installation copies them (``toolkitLocaleDirectories``).
///   Nothing is written to the user's folders.
///
/// Sentences are whole strings with C-format placeholders (`%s`, `%d`, or `%1$s` when a translation
/// reorders them), never pieces joined in code; `xgettext` extracts them (`make po`).
public enum Localization {
    /// The toolkit's own gettext text domain (see the type's docs).
    public static let toolkitDomain = "navigation-gtk"

    /// Sets the locale from the environment (`LANG`, `LC_ALL`, `LANGUAGE`; `setlocale(LC_ALL, "")`) and
    /// makes `domain` the app's text domain, bound to `directory` (`<prefix>/share/locale` when
    /// installed) in UTF-8: ``localized(_:_:)`` and GtkBuilder's translatable strings (`textdomain`) look
    /// there. Call first thing, before any string is made; main thread. GTK's and the toolkit's own
    /// strings follow the same language from their own domains.
    public static func bind(domain: String, directory: FilePath) {
        setlocale(LC_ALL, "")
        directory.withCString { _ = bindtextdomain(domain, $0) }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    /// Binds ``toolkitDomain`` once per process, at its first string (any thread: a static `let` is
    /// initialised once, atomically), to the first of ``toolkitLocaleDirectories`` that holds a catalogue;
    /// with none, gettext looks in its default folder and the strings stay English where it has none.
    /// Nothing is written anywhere.
    fileprivate static let toolkitCatalogue: Bool = {
        let languages = CompiledNavigationGtkResources.languages
        guard let directory = toolkitLocaleDirectories.first(where: { directory in
            languages.contains { language in
                directory.appending(language, "LC_MESSAGES", "\(toolkitDomain).mo").withCString { g_file_test($0, G_FILE_TEST_IS_REGULAR) != 0 }
            }
        }) else { return false }
        directory.withCString { _ = bindtextdomain(toolkitDomain, $0) }
        bind_textdomain_codeset(toolkitDomain, "UTF-8")
        return true
    }()

    /// Where the toolkit's compiled catalogues (`<lang>/LC_MESSAGES/navigation-gtk.mo`) are looked for, in
    /// order: `<prefix>/share/locale` beside the running program (`<prefix>/bin/<program>`), where an
    /// installed app or package puts them; then the folder the build compiled them into
    /// (`CompiledNavigationGtkResources.buildLocaleDirectory`, in `.build/plugins/outputs/…`), for a program
    /// run from its build folder.
    public static var toolkitLocaleDirectories: [FilePath] {
        var result: [FilePath] = []
        if let program = Files.executablePath {
            result.append(program.removingLastComponent.removingLastComponent.appending("share", "locale"))
        }
        result.append(FilePath(CompiledNavigationGtkResources.buildLocaleDirectory))
        return result
    }

    /// The user's languages for messages, most preferred first, each also in its shorter forms
    /// (`de_DE.UTF-8`, `de_DE`, `de.UTF-8`, `de`), ending with `C` (`g_get_language_names`, from
    /// `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG`).
    public static var languageNames: [String] {
        guard let names = g_get_language_names() else { return ["C"] }
        var result: [String] = [], index = 0
        while let name = names[index] { result.append(String(cString: name)); index += 1 }
        return result
    }

    /// Replaces the C-format placeholders in `format` (`%s`, `%d`, `%1$s`, `%2$d`; `%%` is a percent
    /// sign) with `arguments` in order or by position. A placeholder without an argument stays as it is.
    public static func substitute(_ format: String, _ arguments: [String]) -> String {
        // Most texts have no placeholder: a byte scan settles that (Swift's `String.contains(_:)` with a
        // string argument is a generic search, and this runs for every label of every page built).
        guard format.utf8.contains(UInt8(ascii: "%")), !arguments.isEmpty || format.contains("%%") else { return format }
        var result = ""
        var next = 0
        var characters = format[...]
        while let character = characters.popFirst() {
            guard character == "%" else { result.append(character); continue }
            if characters.first == "%" { characters.removeFirst(); result.append("%"); continue }
            var digits = ""
            var lookahead = characters
            while let digit = lookahead.first, digit.isASCII, digit.isNumber { digits.append(digit); lookahead.removeFirst() }
            var index = next
            if !digits.isEmpty, lookahead.first == "$", let position = Int(digits) {
                lookahead.removeFirst()
                index = position - 1
            } else {
                lookahead = characters
            }
            guard let kind = lookahead.first, kind == "s" || kind == "d", arguments.indices.contains(index) else {
                result.append(character); continue
            }
            lookahead.removeFirst()
            characters = lookahead
            result += arguments[index]
            if digits.isEmpty || index == next { next = index + 1 }
        }
        return result
    }
}

/// `message` in the user's language (the app's gettext domain, ``Localization/bind(domain:directory:)``),
/// with its placeholders (`%s`, `%d`, `%1$s`) replaced by `arguments`. Marks the string for `xgettext`
/// (keyword `localized`). Any thread.
///
/// Two identical English words that translate differently (the noun "Post", a page title, and the verb
/// "Post", a button) are told apart as GLib's `Q_()` does: a context before a `|` ("page title|Post").
/// The context is part of the message id, and is dropped when there is no translation (`g_dpgettext`
/// with offset 0), so the English text is the part after the last `|`.
public func localized(_ message: String, _ arguments: CustomStringConvertible...) -> String {
    // Untranslated, gettext returns the pointer it was given (or a pointer into it, after the `|`):
    // read it while that is still alive.
    let translated = message.withCString { String(cString: g_dpgettext(nil, $0, 0)) }
    return Localization.substitute(translated, arguments.map(\.description))
}

/// A string of the toolkit's own, in the user's language (``Localization/toolkitDomain``), as
/// ``localized(_:_:)`` (keyword `toolkitLocalized` for `xgettext`). Any thread.
package func toolkitLocalized(_ message: String, _ arguments: CustomStringConvertible...) -> String {
    _ = Localization.toolkitCatalogue
    let translated = message.withCString { String(cString: g_dpgettext(Localization.toolkitDomain, $0, 0)) }
    return Localization.substitute(translated, arguments.map(\.description))
}

/// The singular or plural form of a message for `count`, in the user's language (the language's own
/// plural rules, `g_dngettext`), with `%d` or `%s` placeholders replaced by `arguments` (usually the
/// count itself), in the app's domain. Marks the strings for `xgettext` (keyword `localizedPlural:1,2`).
/// Any thread.
public func localizedPlural(_ singular: String, _ plural: String, count: Int, _ arguments: CustomStringConvertible...) -> String {
    let translated = singular.withCString { one in
        plural.withCString { many in String(cString: g_dngettext(nil, one, many, gulong(max(count, 0)))) }
    }
    return Localization.substitute(translated, arguments.map(\.description))
}
