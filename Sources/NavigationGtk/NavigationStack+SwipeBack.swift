import CGtk
import Glibc
import Gtk
import Navigation

// MARK: - Swipe back

/// A swipe back in progress: the leaving page drawn as a picture that follows the finger over the page
/// below, which is already live underneath.
@MainActor
struct SwipeBack {
    let picture: Picture
    let top: Page
    let below: Page
    /// Where the stack's pages are in the layer, in pixels.
    let frame: LayerFrame
    /// How far the page has gone: 0 (in place) … 1 (gone).
    var progress: Double = 0
    /// The frame-clock callback of the release animation, once the finger is lifted.
    var release: UInt32?
}

extension NavigationStack {
    /// The share of the width past which a released swipe goes back (below it, the page returns).
    public static let swipeCommitThreshold = 0.3
    /// How near the leading edge, in pixels, a touch must start to swipe back (as libadwaita's edge).
    public static let swipeEdgeWidth = 24.0
    /// How long the release animation takes from one end to the other, in milliseconds (less from
    /// part-way), eased out (cubic), on the frame clock.
    public static let swipeReleaseDuration = 200.0

    var swipe: SwipeBack? {
        if case .swiping(let swipe) = phase { return swipe }
        return nil
    }

    /// Whether a swipe back is in progress.
    public var isSwipingBack: Bool { swipe != nil }

    /// How far the swiped page has gone (0…1), or nil when no swipe is in progress.
    public var swipeBackProgress: Double? { swipe?.progress }

    /// Starts the user's interactive Back — what a touchpad's two-finger swipe and a touch screen's edge
    /// swipe do, and what a custom gesture can do through this API: the visible page becomes a picture
    /// that follows ``updateSwipeBack(progress:)`` over the page below (live, already shown: it hears
    /// `showing`, the visible page `hiding`). Needs a host that gives the stack a layer to draw in
    /// (``NavigationWindow`` does).
    /// - Returns: false, changing nothing, when the user cannot go back now (the root, a page that
    ///   cannot pop, a transition running, a swipe already started, no layer).
    @discardableResult
    public func beginSwipeBack() -> Bool {
        guard case .idle = phase, state.canUserGoBack, let layer = swipeLayer,
              let top = visiblePage, let previous = state.previous, let below = pagesByID[previous.id],
              let (picture, frame) = pictureOverPages(of: top, in: layer) else { return false }
        phase = .swiping(SwipeBack(picture: picture, top: top, below: below, frame: frame))
        view.canTarget = false
        view.showChild(named: below.id.description, transition: GTK_STACK_TRANSITION_TYPE_NONE)
        setLifecycle(.hiding, of: top)
        setLifecycle(.showing, of: below)
        gtk_widget_queue_allocate(layer.widget)
        deliver()
        return true
    }

    /// Moves the swiped page to `progress` of the width (0 in place … 1 gone), mirrored in right-to-left
    /// locales. Does nothing when no swipe is in progress.
    public func updateSwipeBack(progress: Double) {
        guard case .swiping(var swipe) = phase else { return }
        swipe.progress = min(1, max(0, progress))
        phase = .swiping(swipe)
        if let layer = swipeLayer { gtk_widget_queue_allocate(layer.widget) }
    }

    /// Ends the swipe: `commit` slides the page away and goes back (asking the page's
    /// ``Page/shouldLeave`` first), else it slides back into place (the page hears `shown` again, the one
    /// below `hidden`). Animated on the frame clock over up to ``swipeReleaseDuration`` from where it is:
    /// the position at each frame follows the frame's time, and the swipe ends at the first frame past
    /// the duration.
    public func endSwipeBack(commit: Bool) {
        guard case .swiping(var current) = phase, current.release == nil else { return }
        let leave = commit && (current.top.shouldLeave?() ?? true)
        let target = leave ? 1.0 : 0.0
        let from = current.progress
        let duration = max(1.0, Self.swipeReleaseDuration * 1000 * abs(target - from))  // microseconds
        var start: Int64?
        current.release = view.addTickCallback { [weak self] time in
            guard let self, self.swipe != nil else { return false }
            let first = start ?? time
            start = first
            let t = min(1, Double(time - first) / duration)
            let eased = 1 - pow(1 - t, 3)  // ease-out cubic
            self.updateSwipeBack(progress: from + (target - from) * eased)
            guard t >= 1 else { return true }
            self.finishSwipeBack(leave: leave)
            return false
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
        gtk_overlay_remove_overlay(OpaquePointer(swipeLayer?.gobject), finished.picture.widget)
        view.canTarget = true
        if leave, state.top?.id == finished.top.id {
            var new = state
            new.goBack()
            forwardPage = finished.top
            apply(new, cause: .userBack, animated: false, lifecycleStarted: true)  // hiding and showing were heard
        } else {
            if let top = visiblePage { view.showChild(named: top.id.description, transition: GTK_STACK_TRANSITION_TYPE_NONE) }
            setLifecycle(.shown, of: finished.top)
            setLifecycle(.hidden, of: finished.below)
            if deliverNow { deliver() }
        }
    }

    /// The stack's swipe gestures on its pages: a touchpad's two-finger swipe toward the trailing edge,
    /// and a touch screen's swipe from the leading edge (left in left-to-right locales), as libadwaita's
    /// navigation view has them. Mirrored in right-to-left locales.
    func installSwipeGestures() {
        let touchpad = ScrollController()
        touchpad.propagationPhase = .capture
        // Where the touchpad's scroll sequence is: the gesture's own state, not the stack's.
        var sequence = TouchpadSwipe.none
        touchpad.onBegin { sequence = .undecided }
        touchpad.onScroll { [weak self] dx, dy in
            guard let self else { return false }
            return self.touchpadScrolled(dx: dx, dy: dy, sequence: &sequence)
        }
        touchpad.onEnd { [weak self] in
            guard let self else { return }
            if sequence == .swiping { self.endSwipeBack(commit: (self.swipe?.progress ?? 0) > Self.swipeCommitThreshold) }
            sequence = .none
        }
        view.addController(touchpad)
        swipeScrollController = touchpad

        let touch = DragGesture(touchOnly: true)
        touch.propagationPhase = .capture
        touch.onBegin { [weak self] x, _ in
            guard let self else { return false }
            let width = Double(self.view.width)
            let fromEdge = self.view.isRightToLeft ? width - x : x
            return fromEdge <= Self.swipeEdgeWidth && self.beginSwipeBack()
        }
        touch.onUpdate { [weak self] dx, _ in
            guard let self, let width = self.swipe?.frame.width, width > 0 else { return }
            self.updateSwipeBack(progress: (self.view.isRightToLeft ? -dx : dx) / Double(width))
        }
        touch.onEnd { [weak self] _, _ in
            guard let self, self.swipe != nil else { return }
            self.endSwipeBack(commit: (self.swipe?.progress ?? 0) > Self.swipeCommitThreshold)
        }
        view.addController(touch)
        swipeTouchGesture = touch
    }

    /// A touchpad scroll during a sequence: the first movement decides (mostly sideways, toward going
    /// back: GTK reports fingers moving toward the right edge as dx < 0); then the page follows.
    private func touchpadScrolled(dx: Double, dy: Double, sequence: inout TouchpadSwipe) -> Bool {
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
            fallthrough
        case .swiping:
            guard let width = swipe?.frame.width, width > 0 else { return false }
            updateSwipeBack(progress: (swipe?.progress ?? 0) + back / Double(width))
            return true
        case .ignored:
            return false
        }
    }
}

/// Where a touchpad scroll sequence is, for the swipe back.
enum TouchpadSwipe { case none, undecided, swiping, ignored }
