import CGtk
import Glibc

/// Translations through GNU gettext, as GNOME apps use it (GLib's `g_dgettext` and `g_dngettext`):
/// every user-visible string is looked up in the text domain ``domain`` (`postcard`), whose compiled
/// catalogues (`<dir>/<lang>/LC_MESSAGES/postcard.mo`) are found through ``bind(directory:)``.
///
/// Strings are marked with ``localized(_:_:)`` and ``localizedPlural(_:_:count:_:)``, which `xgettext`
/// extracts into `po/postcard.pot` (`make po`). Sentences are whole strings with C-format placeholders
/// (`%s`, `%d`, or `%1$s` when a translation reorders them), never pieces joined in code.
public enum Localization {
    /// The gettext text domain of every string of the app and its toolkit.
    public static let domain = "postcard"

    /// Sets the locale from the environment (`LANG`, `LC_ALL`, `LANGUAGE`; `setlocale(LC_ALL, "")`) and
    /// binds ``domain`` to `directory` (`<prefix>/share/locale` when installed) in UTF-8, so GTK's own
    /// strings and the app's follow the user's language. Call first thing, before any string is made.
    public static func bind(directory: FilePath) {
        setlocale(LC_ALL, "")
        directory.withCString { _ = bindtextdomain(domain, $0) }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)  // GtkBuilder's translatable strings (the Keyboard Shortcuts window)
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

    /// Whether the user's language runs right to left (Arabic, Hebrew, …), as GTK decides it for the
    /// default text direction (its own translation of "default:LTR").
    @MainActor
    public static var isRightToLeft: Bool { gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL }

    /// Lays out every widget right to left (or left to right) from now on, open windows included, as
    /// a right-to-left language would (`gtk_widget_set_default_direction`: GTK mirrors boxes, bars,
    /// arrows and transitions). For reviewing a mirrored layout without switching language. Main actor.
    @MainActor
    public static func setRightToLeft(_ rightToLeft: Bool) {
        gtk_widget_set_default_direction(rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
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

/// `message` in the user's language (gettext domain ``Localization/domain``), with its placeholders
/// (`%s`, `%d`, `%1$s`) replaced by `arguments`. Marks the string for `xgettext` (keyword `localized`).
///
/// Two identical English words that translate differently (the noun "Post", a page title, and the verb
/// "Post", a button) are told apart as GLib's `Q_()` does: a context before a `|` ("page title|Post").
/// The context is part of the message id, and is dropped when there is no translation (`g_dpgettext`
/// with offset 0), so the English text is the part after the last `|`.
public func localized(_ message: String, _ arguments: CustomStringConvertible...) -> String {
    // Untranslated, gettext returns the pointer it was given (or a pointer into it, after the `|`):
    // read it while that is still alive.
    let translated = message.withCString { String(cString: g_dpgettext(Localization.domain, $0, 0)) }
    return Localization.substitute(translated, arguments.map(\.description))
}

/// The singular or plural form of a message for `count`, in the user's language (the language's own
/// plural rules, `g_dngettext`), with `%d` or `%s` placeholders replaced by `arguments` (usually the
/// count itself). Marks the strings for `xgettext` (keyword `localizedPlural:1,2`).
public func localizedPlural(_ singular: String, _ plural: String, count: Int, _ arguments: CustomStringConvertible...) -> String {
    let translated = singular.withCString { one in
        plural.withCString { many in String(cString: g_dngettext(Localization.domain, one, many, gulong(max(count, 0)))) }
    }
    return Localization.substitute(translated, arguments.map(\.description))
}
