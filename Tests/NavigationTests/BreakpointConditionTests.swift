import Navigation
import XCTest

/// libadwaita's `tests/test-breakpoint.c` cases for `AdwBreakpointCondition` (to-string and parse),
/// ported: the same inputs, the same written forms, the same refusals; then what a condition matches.
/// No display.
final class BreakpointConditionTests: XCTestCase {
    private typealias Condition = BreakpointCondition

    private func check(_ input: String, _ expected: String?, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = try? Condition(parsing: input)
        if let expected {
            XCTAssertEqual(parsed?.description, expected, "“\(input)”", file: file, line: line)
        } else {
            XCTAssertNil(parsed, "“\(input)” is invalid, but was parsed as “\(parsed?.description ?? "")”", file: file, line: line)
        }
    }

    func testToString() {
        XCTAssertEqual(Condition.length(.maxWidth, value: 400, unit: .px).description, "max-width: 400px")
        XCTAssertEqual(Condition.length(.minHeight, value: 200, unit: .pt).description, "min-height: 200pt")
        XCTAssertEqual(Condition.length(.minHeight, value: 200.5, unit: .pt).description, "min-height: 200.5pt")
        XCTAssertEqual(Condition.aspectRatio(.minAspectRatio, width: 4, height: 3).description, "min-aspect-ratio: 4/3")
        XCTAssertEqual(Condition.aspectRatio(.minAspectRatio, width: 2, height: 1).description, "min-aspect-ratio: 2")
        XCTAssertEqual(Condition.aspectRatio(.minAspectRatio, width: 0, height: 2).description, "min-aspect-ratio: 0")
        let one = Condition.length(.maxWidth, value: 400, unit: .px)
        let two = Condition.aspectRatio(.minAspectRatio, width: 4, height: 3)
        let three = Condition.aspectRatio(.maxAspectRatio, width: 2, height: 1)
        XCTAssertEqual(Condition.all(one, two).description, "max-width: 400px and min-aspect-ratio: 4/3")
        XCTAssertEqual(Condition.any(one, two).description, "max-width: 400px or min-aspect-ratio: 4/3")
        XCTAssertEqual(Condition.all(one, .all(two, three)).description,
                       "max-width: 400px and min-aspect-ratio: 4/3 and max-aspect-ratio: 2")
        XCTAssertEqual(Condition.all(one, .any(two, three)).description,
                       "max-width: 400px and (min-aspect-ratio: 4/3 or max-aspect-ratio: 2)")
        XCTAssertEqual(Condition.any(.all(one, two), three).description,
                       "(max-width: 400px and min-aspect-ratio: 4/3) or max-aspect-ratio: 2")
        XCTAssertEqual(Condition.length(.maxWidth, value: 600, unit: .sp).description, "max-width: 600sp")
    }

    func testParseNothingOrNonsense() {
        check("", nil)
        check("()", nil)
        check("foo", nil)
    }

    func testParseLengths() {
        check("max-width: 400px", "max-width: 400px")
        check("max-width: 400", "max-width: 400px")
        check("max-width: 400pt", "max-width: 400pt")
        check("max-width:400pt", "max-width: 400pt")
        check("max-width: 400.0px", "max-width: 400px")
        check("max-width: 400.5px", "max-width: 400.5px")
        check("      max-width        :        400     pt       ", "max-width: 400pt")
        check("max-width: 600sp", "max-width: 600sp")
        check("max-width:", nil)
        check("max-width: px", nil)
        check("max-length: 400px", nil)
        check("max-width 400px", nil)
        check("max-width: -1px", nil)
        check("max-width: 400p", nil)
        check("max-width: 400px;", nil)
    }

    func testParseRatios() {
        check("max-aspect-ratio: 4/3", "max-aspect-ratio: 4/3")
        check("max-aspect-ratio: 2", "max-aspect-ratio: 2")
        check("max-aspect-ratio: 2/1", "max-aspect-ratio: 2")
        check("max-aspect-ratio: 0/3", "max-aspect-ratio: 0")
        check("max-aspect-ratio:4/3", "max-aspect-ratio: 4/3")
        check("       max-aspect-ratio   :         4/3       ", "max-aspect-ratio: 4/3")
        check("max-aspect-ratio:", nil)
        check("max-aspect-ratio: 4/3px", nil)
        check("max-aspect-ratio: 4px", nil)
        check("max-aspect-ratio: -4", nil)
        check("max-aspect-ratio: -4/3", nil)
        check("max-aspect-ratio: 4/0", nil)
        check("max-aspect-ratio: 4/3;", nil)
    }

    func testParseParentheses() {
        check("(max-width: 100px)", "max-width: 100px")
        check("(((max-width: 100px)))", "max-width: 100px")
        check("   (   max-width   :   100px   )   ", "max-width: 100px")
        check("(max-width: 100px", nil)
        check("(max-width: 100px(", nil)
        check("(max-width): 100px", nil)
        check("(max-width: 100px))", nil)
    }

    func testParseAndOr() {
        check("max-width: 100px and max-height: 200px", "max-width: 100px and max-height: 200px")
        check("max-width: 100px or max-height: 200px", "max-width: 100px or max-height: 200px")
        check("   max-width   :   100px   or   max-height   :   200px   ", "max-width: 100px or max-height: 200px")
        check("(max-width: 100px) and max-height: 200px", "max-width: 100px and max-height: 200px")
        check("max-width: 100px and (max-height: 200px)", "max-width: 100px and max-height: 200px")
        check("(max-width: 100px) and (max-height: 200px)", "max-width: 100px and max-height: 200px")
        check("(max-width: 100px and max-height: 200px)", "max-width: 100px and max-height: 200px")
        check("(max-width: 100px and max-height: 200px) or max-aspect-ratio: 3/2",
              "(max-width: 100px and max-height: 200px) or max-aspect-ratio: 3/2")
        check("max-width: 100px and (max-height: 200px or max-aspect-ratio: 3/2)",
              "max-width: 100px and (max-height: 200px or max-aspect-ratio: 3/2)")
        check("max-width: 100px and max-height: 200px and max-aspect-ratio: 3/2 and min-aspect-ratio: 1/2",
              "max-width: 100px and max-height: 200px and max-aspect-ratio: 3/2 and min-aspect-ratio: 1/2")
        check("max-width: 100px or max-height: 200px or max-aspect-ratio: 3/2 or min-aspect-ratio: 1/2",
              "max-width: 100px or max-height: 200px or max-aspect-ratio: 3/2 or min-aspect-ratio: 1/2")
        // No precedence: left to right, as libadwaita.
        check("max-width: 100px and max-height: 200px or max-aspect-ratio: 3/2 and min-aspect-ratio: 1/2",
              "((max-width: 100px and max-height: 200px) or max-aspect-ratio: 3/2) and min-aspect-ratio: 1/2")
        check("max-width: 100pxor max-height: 200px", nil)
        check("max-width: 100px ormax-height: 200px", nil)
        check("max-width: 100px max-height: 200px", nil)
        check("max-width: 100px or max-height", nil)
        check("max-width: 100px o", nil)
        check("max-width: 100px or ()", nil)
        check("() or max-height: 200px", nil)
    }

    /// A refusal says what and where.
    func testAParseErrorSaysWhereItIs() {
        XCTAssertThrowsError(try Condition(parsing: "max-width: 400p")) { error in
            XCTAssertEqual((error as? Condition.ParseError)?.description, "Unable to parse condition: unknown unit at character 14")
        }
    }

    /// What a condition matches: inclusive bounds, `sp` scaled with the text (Large Text: 1.25), `pt` at
    /// the screen's resolution, ratios, and `and`/`or`.
    func testMatching() throws {
        let narrow = try Condition(parsing: "max-width: 600sp")
        XCTAssertTrue(narrow.matches(width: 600, height: 800))
        XCTAssertFalse(narrow.matches(width: 601, height: 800))
        XCTAssertTrue(narrow.matches(width: 700, height: 800, dpi: 96 * 1.25), "Large Text: 600sp is 750 px")
        XCTAssertFalse(narrow.matches(width: 751, height: 800, dpi: 96 * 1.25))
        XCTAssertTrue(try Condition(parsing: "min-width: 72pt").matches(width: 96, height: 10), "72 pt is an inch: 96 px at 96 dpi")
        XCTAssertFalse(try Condition(parsing: "min-width: 72pt").matches(width: 95, height: 10))
        let portrait = try Condition(parsing: "max-aspect-ratio: 3/4")
        XCTAssertTrue(portrait.matches(width: 360, height: 800))
        XCTAssertFalse(portrait.matches(width: 1280, height: 800))
        let both = try Condition(parsing: "max-width: 600px and min-height: 500px")
        XCTAssertTrue(both.matches(width: 500, height: 500))
        XCTAssertFalse(both.matches(width: 500, height: 499))
        let either = try Condition(parsing: "max-width: 600px or min-height: 500px")
        XCTAssertTrue(either.matches(width: 1000, height: 500))
        XCTAssertFalse(either.matches(width: 1000, height: 499))
    }
}
