import Foundation
import Navigation
import XCTest

/// The spring against an independent solution of its equation (a Runge–Kutta integration of
/// m·ẍ + b·ẋ + k·x = 0) and against libadwaita's own numbers. No display.
final class SpringTests: XCTestCase {
    /// Integrates the spring numerically from `animation`'s start, 0.01 ms steps, and returns the value at
    /// each of `times` (seconds, ascending).
    private func integrated(_ animation: SpringAnimation, at times: [Double]) -> [Double] {
        let m = animation.spring.mass, b = animation.spring.damping, k = animation.spring.stiffness
        var x = animation.from - animation.to, v = animation.initialVelocity, t = 0.0
        let h = 0.000_01
        func acceleration(_ x: Double, _ v: Double) -> Double { -(b * v + k * x) / m }
        var values: [Double] = []
        for target in times {
            while t + h <= target + h / 2 {
                let (k1x, k1v) = (v, acceleration(x, v))
                let (k2x, k2v) = (v + h / 2 * k1v, acceleration(x + h / 2 * k1x, v + h / 2 * k1v))
                let (k3x, k3v) = (v + h / 2 * k2v, acceleration(x + h / 2 * k2x, v + h / 2 * k2v))
                let (k4x, k4v) = (v + h * k3v, acceleration(x + h * k3x, v + h * k3v))
                x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
                t += h
            }
            values.append(animation.to + x)
        }
        return values
    }

    /// Every 60-Hz frame of `animation` within 0.5 % of the way of the integrated spring.
    private func expectFramesMatchTheEquation(_ animation: SpringAnimation, line: UInt = #line) {
        let frames = stride(from: 0.0, to: animation.durationSeconds, by: 1.0 / 60).map { $0 }
        let expected = integrated(animation, at: frames)
        let way = max(abs(animation.to - animation.from), 1)
        for (time, value) in zip(frames, expected) {
            XCTAssertEqual(animation.value(at: time), value, accuracy: 0.005 * way,
                           "at \(Int(time * 1000)) ms", line: line)
        }
    }

    func testThePushSpringTakesLibadwaitasTimeAndFollowsTheEquation() {
        let push = SpringAnimation(spring: .navigation, from: 0, to: 1)
        // Critically damped: the envelope e^(−βt) falls below 0.001 at ln(1000)/√1000 s.
        XCTAssertEqual(push.durationSeconds, log(1000) / 1000.squareRoot(), accuracy: 0.000_001)
        XCTAssertEqual(push.durationSeconds, 0.218, accuracy: 0.001, "about 218 ms, as the issue and libadwaita say")
        expectFramesMatchTheEquation(push)
        XCTAssertEqual(push.value(at: 0), 0)
        XCTAssertEqual(push.value(at: push.durationSeconds), 1)
        XCTAssertEqual(push.velocity(at: push.durationSeconds + 1), 0)
    }

    func testAClampedPopEndsWhereItFirstArrivesAndNeverOvershoots() {
        let pop = SpringAnimation(spring: .navigation, from: 0, to: 1, clamps: true)
        XCTAssertEqual(pop.durationSeconds, 0.292, accuracy: 0.001, "about 292 ms")
        XCTAssertGreaterThanOrEqual(1 - pop.value(at: pop.durationSeconds - 0.001), 0.001, "a millisecond before, not yet within ε")
        for ms in 0...Int(pop.durationSeconds * 1000) { XCTAssertLessThanOrEqual(pop.value(at: Double(ms) / 1000), 1) }
        // A bouncy spring, clamped, stops at its first arrival instead of swinging past.
        let bouncy = SpringAnimation(spring: .bottomSheet, from: 0, to: 1, clamps: true)
        let free = SpringAnimation(spring: .bottomSheet, from: 0, to: 1)
        XCTAssertLessThan(bouncy.durationSeconds, free.durationSeconds)
        XCTAssertGreaterThan((0...Int(free.durationSeconds * 1000)).map { free.value(at: Double($0) / 1000) }.max()!, 1.001,
                             "unclamped, the bottom sheet's 0.8 damping overshoots")
    }

    func testUnderdampedAndOverdampedSpringsFollowTheEquation() {
        let sheet = SpringAnimation(spring: .bottomSheet, from: 480, to: 0)
        expectFramesMatchTheEquation(sheet)
        XCTAssertLessThan(abs(sheet.value(at: sheet.durationSeconds - 0.001)), 0.001 * 480 + 1)
        let slow = SpringAnimation(spring: Spring(dampingRatio: 2.5, mass: 1, stiffness: 600), from: 1, to: 0)
        expectFramesMatchTheEquation(slow)
        XCTAssertLessThanOrEqual(abs(slow.value(at: slow.durationSeconds * 0.999)), 0.0011, "overdamped: ends when within ε")
        XCTAssertGreaterThan(abs(slow.value(at: slow.durationSeconds * 0.9)), 0.001)
    }

    func testAnInitialVelocityCarriesTheValueOnAndIsTheStartingSlope() {
        let still = SpringAnimation(spring: .navigation, from: 0.4, to: 1)
        let thrown = SpringAnimation(spring: .navigation, from: 0.4, to: 1, initialVelocity: 6)
        XCTAssertEqual(thrown.velocity(at: 0), 6)
        let slope = (thrown.value(at: 0.0005) - thrown.value(at: 0)) / 0.0005
        XCTAssertEqual(slope, 6, accuracy: 0.1)
        XCTAssertGreaterThan(thrown.value(at: 0.01), still.value(at: 0.01) + 0.03, "ahead of the spring let go from rest")
        expectFramesMatchTheEquation(thrown)
        // The velocity the animation reports is the value's own slope at every frame.
        for time in stride(from: 0.01, to: thrown.durationSeconds, by: 0.02) {
            let numeric = (thrown.value(at: time + 0.000_01) - thrown.value(at: time - 0.000_01)) / 0.000_02
            XCTAssertEqual(thrown.velocity(at: time), numeric, accuracy: 0.01)
        }
    }

    func testNothingToMoveEndsAtOnce() {
        XCTAssertEqual(SpringAnimation(spring: .navigation, from: 1, to: 1).durationSeconds, 0)
        XCTAssertEqual(SpringAnimation(spring: .navigation, from: 1, to: 1, clamps: true).durationSeconds, 0)
        XCTAssertEqual(SpringAnimation(spring: .navigation, from: 1, to: 1).value(at: 0.1), 1)
        let nudged = SpringAnimation(spring: .navigation, from: 1, to: 1, initialVelocity: 3)
        XCTAssertGreaterThan(nudged.durationSeconds, 0, "a nudge in place still moves and comes back")
        XCTAssertGreaterThan(nudged.value(at: 0.02), 1)
    }
}

/// The tests reason in seconds, as the spring's equations do.
private extension SpringAnimation {
    var durationSeconds: Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
    func value(at seconds: Double) -> Double { value(at: .seconds(seconds)) }
    func velocity(at seconds: Double) -> Double { velocity(at: .seconds(seconds)) }
}

