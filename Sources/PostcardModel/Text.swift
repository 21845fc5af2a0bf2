extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    public func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// Whether the string holds a control character (Unicode's general category Cc: a newline, a tab,
    /// an escape, a NUL…), a line or paragraph separator (U+2028, U+2029: a name on three lines), or a
    /// bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which would make a
    /// name read as something else: a name or a code must not.
    public var containsControlCharacters: Bool {
        unicodeScalars.contains(where: Self.isControl)
    }

    /// The string with each character ``containsControlCharacters`` looks for written as its code
    /// (`\u{1B}` for ESC): text from outside (a link, a name) shown in a page, a notice or a terminal can
    /// then neither move the cursor, ring the bell nor turn the text around.
    public var escapingControlCharacters: String {
        guard containsControlCharacters else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }
}
