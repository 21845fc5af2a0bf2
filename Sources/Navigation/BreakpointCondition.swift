/// When a breakpoint applies, as libadwaita 1.4's `AdwBreakpointCondition`: a length or aspect-ratio
/// condition on the size of the widget the breakpoint watches, or two conditions joined by `and` or
/// `or`. Written as libadwaita writes it (``init(parsing:)``, ``description``): `max-width: 600sp`,
/// `min-height: 400px`, `max-aspect-ratio: 4/3`, `max-width: 600sp and (min-aspect-ratio: 1 or
/// max-height: 500pt)`. `and` and `or` join from left to right, with no precedence between them, as in
/// libadwaita (`a and b or c` is `(a and b) or c`). Plain values, usable on any thread.
public indirect enum BreakpointCondition: Equatable, Sendable, CustomStringConvertible {
    /// A length condition: the watched size against `value` in `unit`.
    case length(LengthKind, value: Double, unit: LengthUnit)
    /// An aspect-ratio condition: width ÷ height against `width` ÷ `height` (`height` ≥ 1).
    case aspectRatio(RatioKind, width: Int, height: Int)
    /// Both hold.
    case all(BreakpointCondition, BreakpointCondition)
    /// Either holds.
    case any(BreakpointCondition, BreakpointCondition)

    /// Which side of a length the size must be on (inclusive, as libadwaita's).
    public enum LengthKind: String, Sendable, CaseIterable {
        /// The width is at least the value.
        case minWidth = "min-width"
        /// The width is at most the value.
        case maxWidth = "max-width"
        /// The height is at least the value.
        case minHeight = "min-height"
        /// The height is at most the value.
        case maxHeight = "max-height"
    }

    /// Which side of an aspect ratio the size's must be on (inclusive).
    public enum RatioKind: String, Sendable, CaseIterable {
        /// Width ÷ height is at least the ratio.
        case minAspectRatio = "min-aspect-ratio"
        /// Width ÷ height is at most the ratio.
        case maxAspectRatio = "max-aspect-ratio"
    }

    /// A length's unit, as libadwaita's `AdwLengthUnit`.
    public enum LengthUnit: String, Sendable, CaseIterable {
        /// Logical pixels.
        case px
        /// Points: 1/72 inch at the screen's resolution (96 dpi unless the desktop says otherwise).
        case pt
        /// Scale-independent pixels: pixels scaled with the desktop's text size (1.25× with Large Text,
        /// GNOME's text scaling factor), so a layout made for text moves with it.
        case sp

        /// `value` in this unit as logical pixels, at `dpi` (96 × the text scaling factor: GTK's
        /// `gtk-xft-dpi` ÷ 1024), as `adw_length_unit_to_px`.
        public func pixels(_ value: Double, dpi: Double) -> Double {
            switch self {
            case .px: value
            case .pt: value * dpi / 72
            case .sp: value * dpi / 96
            }
        }
    }

    /// Why a condition could not be read: the message, and where in the text (a character offset).
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was wrong, e.g. "unknown unit".
        public let message: String
        /// Where, in characters from the start of the text.
        public let offset: Int
        /// The message with its place: "Unable to parse condition: unknown unit at character 14".
        public var description: String { "Unable to parse condition: \(message) at character \(offset)" }
    }

    /// Reads a condition written as libadwaita writes one (see the type's docs): whitespace is free
    /// around names, colons, values and parentheses, but a unit follows its number and `and`/`or` stand
    /// between spaces; a length is a non-negative number, its unit `px` (the default), `pt` or `sp`; a
    /// ratio is a non-negative integer, optionally over a positive one.
    /// - Throws: ``ParseError`` for anything else (an empty text, an unknown name or unit, a negative
    ///   value, a zero denominator, unbalanced parentheses, anything left over).
    public init(parsing text: String) throws {
        var parser = Parser(Array(text.unicodeScalars))
        let condition = try parser.parseMulti()
        parser.skipSpaces()
        guard parser.isAtEnd else { throw parser.error("unexpected character") }
        self = condition
    }

    /// The condition as libadwaita writes it: lengths without a needless fraction (`400px`,
    /// `400.5px`), ratios reduced to `x` when over 1 and to `0` when 0, and parentheses only around a
    /// joined condition of the other kind (`a and b and c`, `a and (b or c)`).
    public var description: String {
        switch self {
        case let .length(kind, value, unit):
            let number = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            return "\(kind.rawValue): \(number)\(unit.rawValue)"
        case let .aspectRatio(kind, width, height):
            return width == 0 || height == 1 ? "\(kind.rawValue): \(width)" : "\(kind.rawValue): \(width)/\(height)"
        case let .all(first, second):
            return Self.join(first, "and", second, isAll: true)
        case let .any(first, second):
            return Self.join(first, "or", second, isAll: false)
        }
    }

    private var joinKind: Bool? {
        switch self {
        case .all: true
        case .any: false
        default: nil
        }
    }

    private static func join(_ first: BreakpointCondition, _ word: String, _ second: BreakpointCondition, isAll: Bool) -> String {
        func part(_ condition: BreakpointCondition) -> String {
            if let kind = condition.joinKind, kind != isAll { return "(\(condition))" }
            return condition.description
        }
        return "\(part(first)) \(word) \(part(second))"
    }

    /// Whether the condition holds for a size of `width` × `height` logical pixels, lengths in `pt`
    /// and `sp` converted at `dpi` (96 unless the desktop's text is scaled; see ``LengthUnit``).
    public func matches(width: Double, height: Double, dpi: Double = 96) -> Bool {
        switch self {
        case let .length(kind, value, unit):
            let pixels = unit.pixels(value, dpi: dpi)
            switch kind {
            case .minWidth: return width >= pixels
            case .maxWidth: return width <= pixels
            case .minHeight: return height >= pixels
            case .maxHeight: return height <= pixels
            }
        case let .aspectRatio(kind, ratioWidth, ratioHeight):
            guard height > 0 else { return false }
            let ratio = Double(ratioWidth) / Double(ratioHeight), size = width / height
            return kind == .minAspectRatio ? size >= ratio : size <= ratio
        case let .all(first, second):
            return first.matches(width: width, height: height, dpi: dpi) && second.matches(width: width, height: height, dpi: dpi)
        case let .any(first, second):
            return first.matches(width: width, height: height, dpi: dpi) || second.matches(width: width, height: height, dpi: dpi)
        }
    }
}

/// A recursive-descent reader of the condition language, as libadwaita's `parse_multi` and
/// `parse_single` read it.
private struct Parser {
    let text: [Unicode.Scalar]
    var position = 0

    init(_ text: [Unicode.Scalar]) { self.text = text }

    var isAtEnd: Bool { position >= text.count }
    var current: Unicode.Scalar? { isAtEnd ? nil : text[position] }

    func error(_ message: String) -> BreakpointCondition.ParseError {
        BreakpointCondition.ParseError(message: message, offset: position)
    }

    mutating func skipSpaces() {
        while current == " " { position += 1 }
    }

    mutating func take(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard position + scalars.count <= text.count, Array(text[position..<position + scalars.count]) == scalars else { return false }
        position += scalars.count
        return true
    }

    /// A condition, or two or more joined, from left to right.
    mutating func parseMulti() throws -> BreakpointCondition {
        skipSpaces()
        var condition: BreakpointCondition
        if take("(") {
            condition = try parseMulti()
            guard take(")") else { throw error("expected “)”") }
        } else {
            condition = try parseSingle()
        }
        while current == " " {
            skipSpaces()
            if take("and") {
                guard current == " " || current == "(" else { throw error("expected a space after “and”") }
                condition = .all(condition, try parseMulti(single: true))
            } else if take("or") {
                guard current == " " || current == "(" else { throw error("expected a space after “or”") }
                condition = .any(condition, try parseMulti(single: true))
            } else {
                break
            }
        }
        return condition
    }

    /// The operand after `and`/`or`: one condition or a parenthesised group (the join goes on left to right).
    mutating func parseMulti(single: Bool) throws -> BreakpointCondition {
        skipSpaces()
        if take("(") {
            let condition = try parseMulti()
            guard take(")") else { throw error("expected “)”") }
            return condition
        }
        return try parseSingle()
    }

    mutating func parseSingle() throws -> BreakpointCondition {
        let lengths = BreakpointCondition.LengthKind.allCases.first { take($0.rawValue) }
        let ratios = lengths == nil ? BreakpointCondition.RatioKind.allCases.first { take($0.rawValue) } : nil
        guard lengths != nil || ratios != nil else { throw error("unknown condition type") }
        skipSpaces()
        guard take(":") else { throw error("expected “:”") }
        skipSpaces()
        if let kind = lengths {
            let start = position
            guard let value = readNumber(allowingFraction: true) else { throw error("expected a number") }
            guard value >= 0 else {
                position = start
                throw error("value out of range")
            }
            skipSpaces()
            let unit: BreakpointCondition.LengthUnit
            if let named = BreakpointCondition.LengthUnit.allCases.first(where: { take($0.rawValue) }) {
                unit = named
            } else if current == nil || current == ")" || current == " " {
                unit = .px
            } else {
                throw error("unknown unit")
            }
            guard current == nil || current == ")" || current == " " else { throw error("unexpected character") }
            return .length(kind, value: value, unit: unit)
        }
        let start = position
        guard let width = readNumber(allowingFraction: false) else { throw error("expected a number") }
        guard width >= 0, width <= Double(Int32.max) else {
            position = start
            throw error("value out of range")
        }
        skipSpaces()
        var height = 1.0
        if take("/") {
            skipSpaces()
            let heightStart = position
            guard let value = readNumber(allowingFraction: false) else { throw error("expected a number") }
            guard value >= 1, value <= Double(Int32.max) else {
                position = heightStart
                throw error("value out of range")
            }
            height = value
        }
        guard current == nil || current == ")" || current == " " else { throw error("unexpected character") }
        return .aspectRatio(ratios!, width: Int(width), height: Int(height))
    }

    /// An optionally signed decimal number (digits, and with `allowingFraction` a point and digits),
    /// or nil with the position unchanged.
    mutating func readNumber(allowingFraction: Bool) -> Double? {
        let start = position
        if current == "-" || current == "+" { position += 1 }
        let digitsStart = position
        while let scalar = current, ("0"..."9").contains(scalar) { position += 1 }
        if allowingFraction, current == ".", position > digitsStart {
            position += 1
            while let scalar = current, ("0"..."9").contains(scalar) { position += 1 }
        }
        guard position > digitsStart, let value = Double(String(String.UnicodeScalarView(text[start..<position]))) else {
            position = start
            return nil
        }
        return value
    }
}
