#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The physical parameters of a damped spring: a mass on a spring with a damper, as libadwaita's
/// `AdwSpringParams` describes one. A ``SpringAnimation`` moves a value as this spring would.
///
/// A value type; any thread.
public struct Spring: Sendable, Equatable {
    /// How damped the spring is against critical damping: 1 settles fastest without overshooting, less
    /// than 1 overshoots and oscillates, more than 1 creeps. Greater than 0.
    public var dampingRatio: Double
    /// The mass, greater than 0.
    public var mass: Double
    /// The stiffness, greater than 0: the higher, the faster.
    public var stiffness: Double

    /// A spring of `dampingRatio`, `mass` and `stiffness` (all greater than 0; others are taken as
    /// the nearest valid value, 0.000001).
    public init(dampingRatio: Double, mass: Double, stiffness: Double) {
        self.dampingRatio = max(dampingRatio, 1e-6)
        self.mass = max(mass, 1e-6)
        self.stiffness = max(stiffness, 1e-6)
    }

    /// The damping coefficient: `dampingRatio` × the critical damping 2√(mass × stiffness).
    public var damping: Double { dampingRatio * 2 * (mass * stiffness).squareRoot() }

    /// The navigation transition's spring, libadwaita's `AdwNavigationView`: critically damped (ratio 1,
    /// mass 1, stiffness 1000). A push takes about 218 ms, a pop (clamped) about 292 ms.
    public static let navigation = Spring(dampingRatio: 1, mass: 1, stiffness: 1000)

    /// The bottom sheet's spring, libadwaita's (ratio 0.8, mass 1, stiffness 400): a little bounce.
    public static let bottomSheet = Spring(dampingRatio: 0.8, mass: 1, stiffness: 400)
}

/// A value moved from ``from`` to ``to`` by a ``Spring``, solved in closed form at any time, as
/// libadwaita's `AdwSpringAnimation` solves it (no stepping: the value at a frame depends only on the
/// frame's time since the start).
///
/// The animation ends after ``duration``: when the spring's envelope has decayed below ``epsilon``
/// (underdamped or critically damped), when the value is within ``epsilon`` of the end (overdamped),
/// or, when ``clamps``, the first time the value comes within ``epsilon`` of the end, so it never
/// overshoots. After that, ``value(at:)`` is ``to`` and ``velocity(at:)`` is 0.
///
/// A value type; any thread.
public struct SpringAnimation: Sendable, Equatable {
    /// The spring.
    public let spring: Spring
    /// The value at time 0.
    public let from: Double
    /// The value the spring comes to rest at.
    public let to: Double
    /// The value's speed at time 0, in value units per second (positive: increasing).
    public let initialVelocity: Double
    /// Ends the animation the first time the value reaches ``to`` (within ``epsilon``).
    public let clamps: Bool
    /// How near ``to`` counts as there, in value units (libadwaita's default 0.001).
    public let epsilon: Double
    /// How long the animation runs (0 when ``from`` equals ``to`` and there is no initial velocity).
    public var duration: Duration { .seconds(seconds) }
    /// ``duration`` in seconds, what the solution is computed in.
    private var seconds: Double

    /// The most the duration can be: a spring that never settles (for example, one so weak it still moves
    /// after a minute) is cut off here, as libadwaita caps its search at 20,000 steps.
    public static let longestDuration: Duration = .seconds(longestSeconds)
    private static let longestSeconds = 20.0

    /// An animation of `spring` from `from` to `to`, starting at `initialVelocity` (value units per
    /// second); `clamps` stops it where it first reaches `to`. `epsilon` (greater than 0) is how near
    /// counts as there.
    public init(spring: Spring, from: Double, to: Double, initialVelocity: Double = 0, clamps: Bool = false,
                epsilon: Double = 0.001) {
        self.spring = spring
        self.from = from
        self.to = to
        self.initialVelocity = initialVelocity
        self.clamps = clamps
        self.epsilon = max(epsilon, 1e-9)
        self.seconds = 0
        seconds = estimatedDuration()
    }

    /// The value at `elapsed` after the start: ``from`` before 0, ``to`` from ``duration`` on.
    public func value(at elapsed: Duration) -> Double {
        let t = elapsed.inSeconds
        if t <= 0 { return from }
        if t >= seconds { return to }
        return oscillate(t).value
    }

    /// The value's speed at `elapsed` after the start, in value units per second: 0 from ``duration`` on.
    public func velocity(at elapsed: Duration) -> Double {
        let t = elapsed.inSeconds
        if t <= 0 { return initialVelocity }
        if t >= seconds { return 0 }
        return oscillate(t).velocity
    }

    /// Whether the animation has ended at `elapsed` after the start.
    public func isFinished(at elapsed: Duration) -> Bool { elapsed.inSeconds >= seconds }

    /// The solution of m·ẍ + b·ẋ + k·x = 0 for x = value − ``to``, x(0) = from − to, ẋ(0) = the
    /// initial velocity: critically damped, underdamped or overdamped.
    private func oscillate(_ t: Double) -> (value: Double, velocity: Double) {
        let beta = spring.damping / (2 * spring.mass)
        let omega0 = (spring.stiffness / spring.mass).squareRoot()
        let x0 = from - to, v0 = initialVelocity
        let envelope = exp(-beta * t)
        if abs(beta - omega0) <= Double(Float.ulpOfOne) * max(1, omega0) {
            let value = to + envelope * (x0 + (beta * x0 + v0) * t)
            let velocity = envelope * (v0 - beta * t * (v0 + beta * x0))
            return (value, velocity)
        }
        if beta < omega0 {
            let omega1 = (omega0 * omega0 - beta * beta).squareRoot()
            let c = (beta * x0 + v0) / omega1
            let value = to + envelope * (x0 * cos(omega1 * t) + c * sin(omega1 * t))
            let velocity = envelope * (v0 * cos(omega1 * t) - (x0 * omega1 + beta * c) * sin(omega1 * t))
            return (value, velocity)
        }
        let omega2 = (beta * beta - omega0 * omega0).squareRoot()
        let c = (beta * x0 + v0) / omega2
        let value = to + envelope * (x0 * cosh(omega2 * t) + c * sinh(omega2 * t))
        let velocity = envelope * (v0 * cosh(omega2 * t) + (omega2 * x0 - beta * c) * sinh(omega2 * t))
        return (value, velocity)
    }

    /// libadwaita's estimate: the first millisecond within ``epsilon`` of the end when clamping; the
    /// envelope's decay below ``epsilon`` when not overdamped; else Newton's method on the value itself.
    private func estimatedDuration() -> Double {
        let beta = spring.damping / (2 * spring.mass)
        let omega0 = (spring.stiffness / spring.mass).squareRoot()
        let distance = to - from
        if abs(distance) <= Double.ulpOfOne, initialVelocity == 0 { return 0 }
        if clamps {
            guard abs(distance) > Double.ulpOfOne else { return 0 }
            var milliseconds = 1.0
            while milliseconds < Self.longestSeconds * 1000 {
                let value = oscillate(milliseconds / 1000).value
                if distance > 0 ? to - value <= epsilon : value - to <= epsilon { return milliseconds / 1000 }
                milliseconds += 1
            }
            return Self.longestSeconds
        }
        let envelopeEnd = -log(epsilon) / beta
        if abs(beta - omega0) <= Double(Float.ulpOfOne) * max(1, omega0) || beta < omega0 {
            return min(envelopeEnd, Self.longestSeconds)
        }
        // Overdamped: the value decays more slowly than the envelope; find where it is within epsilon.
        let step = 0.001
        var t = envelopeEnd
        for _ in 0..<1000 {
            let y = oscillate(t).value
            if abs(to - y) <= epsilon { return min(t, Self.longestSeconds) }
            let slope = (oscillate(t + step).value - y) / step
            guard slope != 0, slope.isFinite else { break }
            t = max(0, t + (to - y) / slope)
            if t >= Self.longestSeconds { return Self.longestSeconds }
        }
        return min(t, Self.longestSeconds)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
