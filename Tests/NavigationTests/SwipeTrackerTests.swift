import Navigation
import XCTest

/// Recorded swipes and what each must do on release, as libadwaita's swipe tracker decides. No display.
final class SwipeTrackerTests: XCTestCase {
    /// One event of a trace: a touch drag's offset from its start (pixels), or a touchpad's dx.
    struct Event { let value: Double; let time: UInt32 }

    struct Trace {
        let name: String
        let device: SwipeTracker.Device
        var rightToLeft = false
        let events: [Event]
        /// When the fingers lift (ms); the last event's time unless they rested first.
        var releaseAt: UInt32?
        let goesBack: Bool
    }

    static let width = 360.0

    /// A touch drag from offset `from` to `to` pixels, an event every 10 ms, starting at `start` ms.
    static func drag(_ from: Double, _ to: Double, over milliseconds: Int, start: UInt32 = 1000) -> [Event] {
        let steps = max(1, milliseconds / 10)
        return (0...steps).map { step in
            Event(value: from + (to - from) * Double(step) / Double(steps), time: start + UInt32(step * 10))
        }
    }

    /// Touchpad deltas adding up to `total` (GTK's dx: negative goes back in left-to-right), every 10 ms.
    static func scroll(_ total: Double, over milliseconds: Int, start: UInt32 = 1000) -> [Event] {
        let steps = max(1, milliseconds / 10)
        return (1...steps).map { Event(value: total / Double(steps), time: start + UInt32($0 * 10)) }
    }

    /// The drag continuing from the last event of `events`.
    static func then(_ events: [Event], to: Double, over milliseconds: Int) -> [Event] {
        let last = events.last!
        return events + drag(last.value, to, over: milliseconds, start: last.time).dropFirst()
    }

    static func thenScroll(_ events: [Event], _ total: Double, over milliseconds: Int) -> [Event] {
        events + scroll(total, over: milliseconds, start: events.last!.time)
    }

    static let traces: [Trace] = [
        // Touch, left to right: the offset grows toward going back.
        Trace(name: "touch slow short", device: .touch, events: drag(0, 60, over: 600), goesBack: false),
        Trace(name: "touch slow long", device: .touch, events: drag(0, 250, over: 1000), goesBack: true),
        Trace(name: "touch fast short flick", device: .touch, events: drag(0, 60, over: 60), goesBack: true),
        Trace(name: "touch fast long", device: .touch, events: drag(0, 300, over: 150), goesBack: true),
        Trace(name: "touch just under the speed threshold", device: .touch, events: drag(0, 58, over: 200), goesBack: false),
        Trace(name: "touch just over the speed threshold", device: .touch, events: drag(0, 64, over: 200), goesBack: true),
        Trace(name: "touch reversed mid-way, slowly", device: .touch,
              events: then(drag(0, 250, over: 800), to: 120, over: 650), goesBack: false),
        // Still past half when released, but flung back: the projection cancels.
        Trace(name: "touch reversed mid-way, flung back", device: .touch,
              events: then(drag(0, 300, over: 1000), to: 200, over: 40), goesBack: false),
        Trace(name: "touch flung back from nearly gone: still coasts past half", device: .touch,
              events: then(drag(0, 340, over: 1700), to: 280, over: 150), goesBack: true),
        Trace(name: "touch flung fast, rested, released short", device: .touch,
              events: drag(0, 100, over: 50), releaseAt: 1250, goesBack: false),
        Trace(name: "touch flung fast, rested, released past half", device: .touch,
              events: drag(0, 250, over: 100), releaseAt: 1400, goesBack: true),
        Trace(name: "touch very fast flick from the edge (the parabola)", device: .touch,
              events: drag(0, 36, over: 10), goesBack: true),
        Trace(name: "touch flung back hard from far along", device: .touch,
              events: then(drag(0, 330, over: 3300), to: 200, over: 30), goesBack: false),
        Trace(name: "touch the wrong way (resisted)", device: .touch, events: drag(0, -150, over: 300), goesBack: false),
        Trace(name: "touch one event, released at once", device: .touch,
              events: [Event(value: 200, time: 1000)], goesBack: true),
        // Touch, right to left: mirrored.
        Trace(name: "touch RTL fast toward the left", device: .touch, rightToLeft: true,
              events: drag(0, -80, over: 80), goesBack: true),
        Trace(name: "touch RTL slow long toward the left", device: .touch, rightToLeft: true,
              events: drag(0, -220, over: 1200), goesBack: true),
        Trace(name: "touch RTL toward the right (the wrong way)", device: .touch, rightToLeft: true,
              events: drag(0, 120, over: 100), goesBack: false),
        // Touchpad: the fingers toward the trailing edge report dx < 0; 400 units is the whole way.
        Trace(name: "touchpad slow short", device: .touchpad, events: scroll(-100, over: 500), goesBack: false),
        Trace(name: "touchpad slow long", device: .touchpad, events: scroll(-260, over: 650), goesBack: true),
        Trace(name: "touchpad fast short", device: .touchpad, events: scroll(-80, over: 100), goesBack: true),
        Trace(name: "touchpad at a touch screen's fling speed, short", device: .touchpad,
              events: scroll(-90, over: 200), goesBack: false),
        Trace(name: "touchpad reversed mid-way, flung back", device: .touchpad,
              events: thenScroll(scroll(-340, over: 3400), 120, over: 60), goesBack: false),
        Trace(name: "touchpad RTL fast", device: .touchpad, rightToLeft: true, events: scroll(80, over: 100), goesBack: true),
        Trace(name: "touchpad RTL the wrong way", device: .touchpad, rightToLeft: true,
              events: scroll(-200, over: 200), goesBack: false),
    ]

    func testEachRecordedSwipeEndsAsGNOMEsWould() {
        XCTAssertGreaterThanOrEqual(Self.traces.count, 20)
        for trace in Self.traces {
            var tracker = SwipeTracker(device: trace.device, width: Self.width, rightToLeft: trace.rightToLeft)
            for event in trace.events {
                switch trace.device {
                case .touch: tracker.dragged(toOffsetX: event.value, time: event.time)
                case .touchpad: tracker.scrolled(dx: event.value, time: event.time)
                }
            }
            let outcome = tracker.released(at: trace.releaseAt ?? trace.events.last!.time)
            XCTAssertEqual(outcome.goesBack, trace.goesBack, trace.name)
        }
    }

    func testTheReleaseSpeedIsTheFingersOverTheLast150Milliseconds() {
        var tracker = SwipeTracker(device: .touch, width: Self.width, rightToLeft: false)
        // Slow for a second, then 1 px/ms for the last 150 ms: only the last part counts.
        for event in Self.then(Self.drag(0, 50, over: 1000), to: 200, over: 150) {
            tracker.dragged(toOffsetX: event.value, time: event.time)
        }
        let outcome = tracker.released(at: 2150)
        XCTAssertEqual(outcome.velocity, 1000 / Self.width, accuracy: 0.01, "1 px/ms over a 360-px way, in progress per second")
        XCTAssertEqual(outcome.progress, 200 / Self.width, accuracy: 0.0001)
    }

    func testThePageResistsPastEitherEnd() {
        var tracker = SwipeTracker(device: .touch, width: Self.width, rightToLeft: false)
        tracker.dragged(toOffsetX: 3, time: 1)
        XCTAssertEqual(tracker.progress, 3 / Self.width, accuracy: 1e-9, "within the ends it follows the finger")
        tracker.dragged(toOffsetX: -2, time: 2)
        let slightly = tracker.progress * Self.width
        XCTAssertLessThan(slightly, 0)
        XCTAssertGreaterThan(slightly, -2, "past the start it moves less than the finger")
        tracker.dragged(toOffsetX: -1000, time: 3)
        XCTAssertGreaterThan(tracker.progress * Self.width, -10, "and never more than 10 px")
        tracker.dragged(toOffsetX: 5000, time: 4)
        XCTAssertLessThan(tracker.progress, 1 + 10 / Self.width)
        XCTAssertGreaterThan(tracker.progress, 1)
    }
}
