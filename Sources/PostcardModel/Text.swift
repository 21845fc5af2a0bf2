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
        unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
        }
    }
}
