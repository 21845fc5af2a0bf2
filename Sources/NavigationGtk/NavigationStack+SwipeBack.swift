import CGtk
import Glibc
import Gtk
import Navigation

// MARK: - Swipe back

/// A swipe back in progress: the leaving page, live, follows the finger over the page below, which is
/// already shown underneath (the stack's ``PageStackView`` slides it as a pop).
@MainActor
struct SwipeBack {
    let top: Page
    let below: Page
    /// The width the page can go, in pixels.
    let width: Double
    /// How far the page has gone: 0 (in place) … 1 (gone), a little past either end while resisted.
    var progress: Double = 0
    /// The frame-clock callback of the release animation, once the finger is lifted.
    var release: UInt32?
}

extension NavigationStack {
    /// How near the leading edge, in pixels, a touch must start to swipe back (as libadwaita's edge).
    public static let swipeEdgeWidth = 24.0

    var swipe: SwipeBack? {
        if case .swiping(let swipe) = phase { return swipe }
        return nil
    }

    /// Whether a swipe back is in progress.
    public var isSwipingBack: Bool { swipe != nil }

    /// How far the swiped page has gone (0 in place … 1 gone, a little past either end while the fingers
    /// push against it), or nil when no swipe is in progress.
    public var swipeBackProgress: Double? { swipe?.progress }

    /// Starts the user's interactive Back — what a touchpad's two-finger swipe and a touch screen's edge
    /// swipe do, and what a custom gesture can do through this API: the visible page follows
    /// ``updateSwipeBack(progress:)`` over the page below (both live; the page below is shown and hears
    /// `showing`, the visible page `hiding`). A custom gesture can decide its release as the stack's own
    /// do, with a `SwipeTracker`.
    /// - Returns: false, changing nothing, when the user cannot go back now (the root, a page that
    ///   cannot pop, a transition running, a swipe already started, the stack not on screen).
    @discardableResult
    public func beginSwipeBack() -> Bool {
        guard case .idle = phase, state.canUserGoBack, view.isMapped, view.width > 0,
              let top = visiblePage, let previous = state.previous, let below = pagesByID[previous.id],
              view.contains(top.view.widget), view.contains(below.view.widget) else { return false }
        phase = .swiping(SwipeBack(top: top, below: below, width: Double(view.width)))
        view.canTarget = false
        view.showChild(named: below.id.description)
        view.beginSlide(.pop, from: top.view)
        setLifecycle(.hiding, of: top)
        setLifecycle(.showing, of: below)
        deliver()
        return true
    }

    /// Moves the swiped page to `progress` of the width (0 in place … 1 gone; kept within −0.5 … 1.5),
    /// mirrored in right-to-left locales. Does nothing when no swipe is in progress.
    public func updateSwipeBack(progress: Double) {
        guard case .swiping(var swipe) = phase, swipe.release == nil else { return }
        swipe.progress = min(1.5, max(-0.5, progress))
        phase = .swiping(swipe)
        view.setSlideProgress(swipe.progress)
    }

    /// Ends the swipe: `commit` slides the page away and goes back (asking the page's
    /// ``Page/shouldLeave`` first), else it slides back into place (the page hears `shown` again, the one
    /// below `hidden`). The slide is libadwaita's navigation spring (`Spring/navigation`) from where the
    /// page is, starting at `velocity` (progress per second, positive toward going back: the fingers'
    /// speed, so the page goes on as they left it), clamped when it goes back as libadwaita's pop is. On
    /// the frame clock: the position at each frame is the spring's closed form at the frame's time since
    /// the release, and the swipe ends at the first frame past the spring's duration. With animations
    /// off (``isAnimated`` false, or the desktop's) it ends at once, in this call.
    public func endSwipeBack(commit: Bool, velocity: Double = 0) {
        guard case .swiping(var current) = phase, current.release == nil else { return }
        let leave = commit && (current.top.shouldLeave?() ?? true)
        guard isAnimated, DesktopStyle.animationsEnabled, view.isMapped else {
            finishSwipeBack(leave: leave)
            return
        }
        let spring = SpringAnimation(spring: .navigation, from: current.progress, to: leave ? 1 : 0,
                                     initialVelocity: velocity.isFinite ? velocity : 0, clamps: leave)
        let start = view.frameTime
        var first: Int64?
        current.release = view.addTickCallback { [weak self] time in
            guard let self, case .swiping(var swipe) = self.phase else { return false }
            let origin = start ?? first ?? time
            first = origin
            self.view.slideStartTime = origin
            let elapsed = Duration.microseconds(time - origin)  // the frame clock counts microseconds
            guard !spring.isFinished(at: elapsed) else {
                self.finishSwipeBack(leave: leave)
                return false
            }
            swipe.progress = spring.value(at: elapsed)
            self.phase = .swiping(swipe)
            self.view.setSlideProgress(swipe.progress)
            return true
        }
        phase = .swiping(current)
    }

    /// Ends a swipe at once, the page back in place (the stack is changing under it); the pages'
    /// `shown` and `hidden` are queued for the caller to deliver.
    func abandonSwipe() {
        if let release = swipe?.release { view.removeTickCallback(release) }
        finishSwipeBack(leave: false, deliverNow: false)
    }

    private func finishSwipeBack(leave: Bool, deliverNow: Bool = true) {
        guard let finished = swipe else { return }
        phase = .idle
        view.endSlide()
        view.canTarget = true
        if leave, state.top?.id == finished.top.id {
            var new = state
            new.goBack()
            forwardPage = finished.top
            apply(new, cause: .userBack, animated: false, lifecycleStarted: true)  // hiding and showing were heard
        } else {
            if let top = visiblePage { view.showChild(named: top.id.description) }
            setLifecycle(.shown, of: finished.top)
            setLifecycle(.hidden, of: finished.below)
            if deliverNow { deliver() }
        }
    }

    /// The stack's swipe gestures on its pages: a touchpad's two-finger swipe toward the trailing edge,
    /// and a touch screen's swipe from the leading edge (left in left-to-right locales), as libadwaita's
    /// navigation view has them, decided on release by a `SwipeTracker` (the fingers' speed, then
    /// where the page is). Mirrored in right-to-left locales.
    func installSwipeGestures() {
        let touchpad = ScrollController()
        touchpad.propagationPhase = .capture
        // Where the touchpad's scroll sequence is: the gesture's own state, not the stack's.
        var sequence = TouchpadSwipe.none
        var tracker: SwipeTracker?
        touchpad.onBegin { sequence = .undecided }
        touchpad.onScroll { [weak self, weak touchpad] dx, dy in
            guard let self, let touchpad else { return false }
            return self.touchpadScrolled(dx: dx, dy: dy, time: Self.eventTime(of: touchpad), sequence: &sequence, tracker: &tracker)
        }
        touchpad.onEnd { [weak self, weak touchpad] in
            defer { sequence = .none; tracker = nil }
            guard let self, let touchpad, sequence == .swiping, let tracker else { return }
            let outcome = tracker.released(at: Self.eventTime(of: touchpad))
            self.endSwipeBack(commit: outcome.goesBack, velocity: outcome.velocity)
        }
        view.addController(touchpad)
        swipeScrollController = touchpad

        let touch = DragGesture(touchOnly: true)
        touch.propagationPhase = .capture
        var touchTracker: SwipeTracker?
        touch.onBegin { [weak self] x, _ in
            guard let self else { return false }
            let width = Double(self.view.width)
            let fromEdge = self.view.isRightToLeft ? width - x : x
            guard fromEdge <= Self.swipeEdgeWidth, self.beginSwipeBack(), let width = self.swipe?.width else { return false }
            touchTracker = SwipeTracker(device: .touch, width: width, rightToLeft: self.view.isRightToLeft)
            return true
        }
        touch.onUpdate { [weak self, weak touch] dx, _ in
            guard let self, let touch, self.swipe != nil, touchTracker != nil else { return }
            let progress = touchTracker!.dragged(toOffsetX: dx, time: Self.eventTime(of: touch))
            self.updateSwipeBack(progress: progress)
        }
        touch.onEnd { [weak self, weak touch] _, _ in
            defer { touchTracker = nil }
            guard let self, let touch, self.swipe != nil, let tracker = touchTracker else { return }
            let outcome = tracker.released(at: Self.eventTime(of: touch))
            self.endSwipeBack(commit: outcome.goesBack, velocity: outcome.velocity)
        }
        view.addController(touch)
        swipeTouchGesture = touch
    }

    /// The time of the event `controller` handles, in milliseconds; for a signal emitted without an
    /// event (a test, an accessibility tool), GLib's monotonic clock instead, on the same scale.
    private static func eventTime(of controller: EventController) -> UInt32 {
        controller.currentEventTime ?? UInt32(truncatingIfNeeded: g_get_monotonic_time() / 1000)
    }

    /// A touchpad scroll during a sequence: the first movement decides (mostly sideways, toward going
    /// back: GTK reports fingers moving toward the right edge as dx < 0); then the page follows.
    private func touchpadScrolled(dx: Double, dy: Double, time: UInt32, sequence: inout TouchpadSwipe,
                                  tracker: inout SwipeTracker?) -> Bool {
        let back = view.isRightToLeft ? dx : -dx  // > 0: toward going back
        switch sequence {
        case .none:
            return false  // a mouse wheel: no begin, no swipe
        case .undecided:
            guard abs(dx) > abs(dy), back > 0, beginSwipeBack() else {
                sequence = .ignored
                return false
            }
            sequence = .swiping
            tracker = SwipeTracker(device: .touchpad, width: swipe?.width ?? 1, rightToLeft: view.isRightToLeft)
            fallthrough
        case .swiping:
            guard swipe != nil, tracker != nil else { return false }
            updateSwipeBack(progress: tracker!.scrolled(dx: dx, time: time))
            return true
        case .ignored:
            return false
        }
    }
}

/// Where a touchpad scroll sequence is, for the swipe back.
enum TouchpadSwipe { case none, undecided, swiping, ignored }
