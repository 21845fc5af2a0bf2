import Foundation
import Navigation
import XCTest

/// The change from one path of routes to another, without GTK: what a path-driven stack pops and pushes.
final class PathChangeTests: XCTestCase {
    enum Route: Hashable, Codable, Sendable {
        case profile(String), post(Int), comments(Int), messages
    }

    func testEqualPathsChangeNothing() {
        XCTAssertEqual(PathChange<Route>(from: [], to: []), .none)
        let path: [Route] = [.profile("ada"), .post(12)]
        let change = PathChange(from: path, to: path)
        XCTAssertEqual(change, .none)
        XCTAssertEqual(change.kept(from: path), 2, "every page stays")
        XCTAssertNil(change.transitionKind)
    }

    func testALongerPathPushesOnlyItsNewTail() {
        let change = PathChange<Route>(from: [.profile("ada")], to: [.profile("ada"), .post(12), .comments(12)])
        XCTAssertEqual(change, .push([.post(12), .comments(12)]))
        XCTAssertEqual(change.kept(from: [.profile("ada")]), 1, "Ada's page is kept, not rebuilt")
        XCTAssertEqual(change.added, [.post(12), .comments(12)])
        XCTAssertEqual(change.transitionKind, .push)
        XCTAssertEqual(PathChange<Route>(from: [], to: [.messages]), .push([.messages]), "from the root alone")
    }

    func testAShorterCommonPrefixPops() {
        let old: [Route] = [.profile("ada"), .post(12), .comments(12)]
        let change = PathChange(from: old, to: [.profile("ada")])
        XCTAssertEqual(change, .pop(count: 2))
        XCTAssertEqual(change.kept(from: old), 1)
        XCTAssertEqual(change.added, [])
        XCTAssertEqual(change.transitionKind, .pop)
    }

    func testAnEmptyPathPopsToTheRoot() {
        let old: [Route] = [.profile("ada"), .post(12)]
        XCTAssertEqual(PathChange(from: old, to: []), .pop(count: 2))
        XCTAssertEqual(PathChange(from: old, to: []).kept(from: old), 0)
    }

    func testPathsThatPartAfterACommonPrefixPopThenPush() {
        let old: [Route] = [.profile("ada"), .post(12), .comments(12)]
        let change = PathChange(from: old, to: [.profile("ada"), .post(13)])
        XCTAssertEqual(change, .replace(kept: 1, removing: 2, adding: [.post(13)]))
        XCTAssertEqual(change.kept(from: old), 1)
        XCTAssertEqual(change.added, [.post(13)])
        XCTAssertEqual(change.transitionKind, .push, "animated as a push of the new last page")
    }

    func testACompletelyDifferentPathReplacesEverythingAboveTheRoot() {
        let old: [Route] = [.profile("ada"), .post(12)]
        let change = PathChange(from: old, to: [.messages])
        XCTAssertEqual(change, .replace(kept: 0, removing: 2, adding: [.messages]))
        XCTAssertEqual(change.kept(from: old), 0)
    }

    func testTheSameRouteAtAnotherPlaceIsNotKept() {
        // Equal routes count only at the start: a page is kept where it is, never moved.
        let change = PathChange<Route>(from: [.post(12), .profile("ada")], to: [.profile("ada")])
        XCTAssertEqual(change, .replace(kept: 0, removing: 2, adding: [.profile("ada")]))
    }

    func testAPathEncodesAndDecodesWithoutProcessLocalIDs() throws {
        let path: [Route] = [.profile("ada"), .post(12), .comments(12)]
        let data = try JSONEncoder().encode(path)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertFalse(text.contains("rawValue"), "no page ids: \(text)")
        XCTAssertEqual(try JSONDecoder().decode([Route].self, from: data), path, "a later run rebuilds the same path")
    }
}
