/// Follows one swipe back — a touch screen's drag or a touchpad's two-finger scroll — and decides, when
/// the fingers lift, whether it goes back, as libadwaita's `AdwSwipeTracker` decides for
/// `AdwNavigationView`:
///
/// - The speed is measured over the events of the last 150 ms before the release.
/// - Below 0.3 px/ms on a touch screen (0.6 on a touchpad), the swipe goes back only past half the way.
/// - Faster, the projected end decides: where the page would coast to with a deceleration of 0.998 per
///   millisecond (0.997 on a touchpad). A fling toward going back goes back; a fling back toward the
///   start cancels (unless, from far along, it would still coast to past half the way).
/// - Past either end the page resists: it moves less and less the further the fingers go
///   (libadwaita's overshoot curve, with 10 % of the way as its scale).
/// - In right-to-left locales, the gesture is mirrored.
///
/// Positions are in pixels (a touch screen's offset) or scroll units (a touchpad's deltas, which
/// libadwaita measures against a fixed 400-unit way); times are event times in milliseconds. A value
/// type with no GTK in it: the navigation stack feeds it GTK's events, a test feeds it recorded traces.
/// Any thread.
public struct SwipeTracker: Sendable {
    /// What the swipe comes from.
    public enum Device: Sendable, Equatable {
        /// A finger on a touch screen: GTK's drag offsets, in pixels; moving toward the trailing edge
        /// (right in left-to-right locales) goes back.
        case touch
        /// Two fingers on a touchpad: GTK's scroll deltas; fingers moving toward the trailing edge report
        /// dx < 0 and go back.
        case touchpad
    }

    /// What the release decided.
    public struct Outcome: Sendable, Equatable {
        /// Whether the page goes back (else it returns into place).
        public let goesBack: Bool
        /// The page's speed at the release, in progress per second (positive: toward going back), the
        /// fingers' speed over the last 150 ms divided by the way; the spring that ends the swipe starts
        /// at it, so the page goes on at the fingers' speed. (libadwaita hands the spring the speed in
        /// pixels per millisecond as it is, whatever the width; here it is converted.)
        public let velocity: Double
        /// The progress at the release (0 in place … 1 gone; resisted past the ends).
        public let progress: Double
    }

    /// How far back in time the speed is measured (libadwaita's 150 ms).
    public static let velocityWindow: Duration = .milliseconds(150)
    /// ``velocityWindow`` in the events' unit (milliseconds).
    private static let historyMilliseconds = Int64(velocityWindow.components.seconds * 1000 + velocityWindow.components.attoseconds / 1_000_000_000_000_000)
    /// Below this speed (pixels per millisecond) a touch swipe is decided by where it is.
    public static let touchVelocityThreshold = 0.3
    /// Below this speed (scroll units per millisecond) a touchpad swipe is decided by where it is.
    public static let touchpadVelocityThreshold = 0.6
    /// The touch screen's deceleration per millisecond, for the projected end.
    public static let touchDeceleration = 0.998
    /// The touchpad's deceleration per millisecond, for the projected end.
    public static let touchpadDeceleration = 0.997
    /// The way a touchpad swipe goes from in place to gone, in scroll units (libadwaita's 400).
    public static let touchpadDistance = 400.0
    /// The share of the way over which resistance past an end builds up (libadwaita's 0.1).
    public static let overshootScale = 0.1

    /// The device.
    public let device: Device
    /// The way from in place to gone: the page's width in pixels for touch, ``touchpadDistance`` for a
    /// touchpad.
    public let distance: Double
    /// Whether the layout is right-to-left (the gesture is mirrored).
    public let isRightToLeft: Bool

    /// How far the fingers have taken the page, without resistance, in progress (0 … 1 within the ends).
    public private(set) var rawProgress: Double
    private var history: [(delta: Double, time: UInt32)] = []
    private var lastOffset: Double = 0

    /// A tracker for a swipe from `device`; `width` is the page's width in pixels (used for touch; a
    /// touchpad uses ``touchpadDistance``), greater than 0.
    public init(device: Device, width: Double, rightToLeft: Bool) {
        self.device = device
        self.distance = device == .touch ? max(width, 1) : Self.touchpadDistance
        self.isRightToLeft = rightToLeft
        self.rawProgress = 0
    }

    /// The page's position now: 0 in place … 1 gone, resisted past either end (libadwaita's curve: never
    /// more than 10 pixels, or scroll units, past it).
    public var progress: Double {
        if rawProgress < 0 { return -Self.resisted(-rawProgress, distance: distance) }
        if rawProgress > 1 { return 1 + Self.resisted(rawProgress - 1, distance: distance) }
        return rawProgress
    }

    /// A touch drag moved: `offsetX` is GTK's offset from where the drag started, in pixels, at event
    /// time `time` (milliseconds). Returns ``progress``.
    @discardableResult
    public mutating func dragged(toOffsetX offsetX: Double, time: UInt32) -> Double {
        let offset = isRightToLeft ? -offsetX : offsetX
        let delta = offset - lastOffset
        lastOffset = offset
        return moved(delta, time: time)
    }

    /// A touchpad scroll event: `dx` as GTK reports it, at event time `time` (milliseconds). Returns
    /// ``progress``.
    @discardableResult
    public mutating func scrolled(dx: Double, time: UInt32) -> Double {
        moved(isRightToLeft ? dx : -dx, time: time)
    }

    /// The fingers lifted at event time `time` (milliseconds): whether the page goes back, and at what
    /// speed it was moving. libadwaita's rule for its two snap points (in place, gone), from the page's
    /// unresisted position: slower than the threshold, the nearer point; faster, where the projection
    /// lands — any fling toward going back goes back (unless it would not get past in place), and a
    /// fling toward the start cancels unless it would still end past half the way. The projection is
    /// libadwaita's: |v| × deceleration ÷ (1 − deceleration) ÷ 1000 of the way for |v| up to 2 px/ms
    /// (so about half the way per px/ms on a touch screen), growing as a parabola beyond.
    public func released(at time: UInt32) -> Outcome {
        let recent = history.filter { Self.elapsed(from: $0.time, to: time) <= Self.historyMilliseconds }
        var velocity = 0.0  // pixels (or scroll units) per millisecond
        if let first = recent.first, let last = recent.last, last.time != first.time {
            velocity = recent.dropFirst().reduce(0) { $0 + $1.delta } / Double(Self.elapsed(from: first.time, to: last.time))
        }
        // Past an end, a speed further out is spent on the resistance.
        if (rawProgress <= 0 && velocity < 0) || (rawProgress >= 1 && velocity > 0) { velocity = 0 }
        let threshold = device == .touch ? Self.touchVelocityThreshold : Self.touchpadVelocityThreshold
        let goesBack: Bool
        if abs(velocity) < threshold {
            goesBack = rawProgress > 0.5
        } else {
            let projected = min(1, max(0, rawProgress + (velocity > 0 ? 1 : -1) * Self.coast(abs(velocity), device: device)))
            goesBack = velocity > 0 ? projected > 0 : projected > 0.5
        }
        return Outcome(goesBack: goesBack, velocity: velocity * 1000 / distance, progress: progress)
    }

    /// libadwaita's projected coast for a release at `speed` (pixels or scroll units per millisecond), in
    /// progress: linear up to 2, a parabola beyond (its multiplier 0.35).
    static func coast(_ speed: Double, device: Device) -> Double {
        let deceleration = device == .touch ? touchDeceleration : touchpadDeceleration
        let slope = deceleration / (1 - deceleration) / 1000
        let curveStart = 2.0, multiplier = 0.35
        guard speed > curveStart else { return speed * slope }
        let c = slope / 2 / multiplier
        let x = speed - curveStart + c
        return multiplier * x * x - multiplier * c * c + slope * curveStart
    }

    /// Milliseconds from event time `start` to `end` (event times wrap after 49 days).
    static func elapsed(from start: UInt32, to end: UInt32) -> Int64 { Int64(Int32(bitPattern: end &- start)) }

    private mutating func moved(_ delta: Double, time: UInt32) -> Double {
        history.removeAll { Self.elapsed(from: $0.time, to: time) > Self.historyMilliseconds }
        history.append((delta, time))
        rawProgress += delta / distance
        return progress
    }

    /// libadwaita's resistance: `amount` past an end (in progress) becomes (1 − 1 ÷ (1 + amount × d)) ÷ d
    /// with d = the way in pixels × ``overshootScale``: about `amount` at first, never more than 1 ÷ d.
    static func resisted(_ amount: Double, distance: Double) -> Double {
        let d = max(distance * overshootScale, 1)
        return (1 - 1 / (1 + amount * d)) / d
    }
}
