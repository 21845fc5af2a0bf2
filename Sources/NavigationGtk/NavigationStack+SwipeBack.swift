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
    let frame: (x: Int32, y: Int32, width: Int32, height: Int32)
    /// How far the page has gone: 0 (in place) … 1 (gone).
    var progress: Double = 0
    var animation: UInt32 = 0
}

extension NavigationStack {
    /// The share of the width past which a released swipe goes back (below it, the page returns).
    public static let swipeCommitThreshold = 0.3
    /// How near the leading edge, in pixels, a touch must start to swipe back (as libadwaita's edge).
    public static let swipeEdgeWidth = 24.0

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
        guard swipe == nil, transition == .idle, state.canUserGoBack, let layer = swipeLayer,
              let top = visiblePage, let previous = state.previous, let below = pagesByID[previous.id],
              let (picture, frame) = pictureOverPages(of: top, in: layer) else { return false }
        swipe = SwipeBack(picture: picture, top: top, below: below, frame: frame)
        view.canTarget = false
        view.showChild(named: below.id.description, transition: GTK_STACK_TRANSITION_TYPE_NONE)
        top.lifecycleDidChange(.hiding)
        below.lifecycleDidChange(.showing)
        gtk_widget_queue_allocate(layer.widget)
        return true
    }

    /// Moves the swiped page to `progress` of the width (0 in place … 1 gone), mirrored in right-to-left
    /// locales. Does nothing when no swipe is in progress.
    public func updateSwipeBack(progress: Double) {
        guard swipe != nil else { return }
        swipe!.progress = min(1, max(0, progress))
        if let layer = swipeLayer { gtk_widget_queue_allocate(layer.widget) }
    }

    /// Ends the swipe: `commit` slides the page away and goes back (asking the page's
    /// ``Page/shouldLeave`` first), else it slides back into place (the page hears `shown` again, the one
    /// below `hidden`). Animated over up to 200 ms from where it is.
    public func endSwipeBack(commit: Bool) {
        guard let current = swipe, current.animation == 0 else { return }
        let leave = commit && (current.top.shouldLeave?() ?? true)
        let target = leave ? 1.0 : 0.0
        let start = current.progress, started = g_get_monotonic_time()
        let duration = max(1.0, 200_000 * abs(target - start))  // microseconds
        swipe!.animation = MainLoopBridge.repeating(milliseconds: 16) { [weak self] in
            guard let self, self.swipe != nil else { return false }
            let t = min(1, Double(g_get_monotonic_time() - started) / duration)
            let eased = 1 - pow(1 - t, 3)  // ease-out cubic
            self.updateSwipeBack(progress: start + (target - start) * eased)
            guard t >= 1 else { return true }
            self.finishSwipeBack(leave: leave)
            return false
        }
    }

    /// Ends a swipe at once, the page back in place (the stack is changing under it).
    func abandonSwipe() {
        if let animation = swipe?.animation, animation != 0 { g_source_remove(animation) }
        finishSwipeBack(leave: false)
    }

    private func finishSwipeBack(leave: Bool) {
        guard let finished = swipe else { return }
        swipe = nil
        gtk_overlay_remove_overlay(OpaquePointer(swipeLayer?.gobject), finished.picture.widget)
        view.canTarget = true
        if leave, state.top?.id == finished.top.id {
            lifecycleAlreadyStarted = true  // hiding and showing were heard when the swipe began
            isGoingBack = true
            var new = state
            new.goBack()
            apply(new, animated: false)
            isGoingBack = false
            lifecycleAlreadyStarted = false
            if state.forwardEntry?.id == finished.top.id { forwardPage = finished.top }
        } else {
            if let top = visiblePage { view.showChild(named: top.id.description, transition: GTK_STACK_TRANSITION_TYPE_NONE) }
            finished.top.lifecycleDidChange(.shown)
            finished.below.lifecycleDidChange(.hidden)
        }
    }

    /// The stack's swipe gestures on its pages: a touchpad's two-finger swipe toward the trailing edge,
    /// and a touch screen's swipe from the leading edge (left in left-to-right locales), as libadwaita's
    /// navigation view has them. Mirrored in right-to-left locales.
    func installSwipeGestures() {
        let touchpad = ScrollController()
        touchpad.propagationPhase = .capture
        touchpad.onBegin { [weak self] in self?.touchpadSwipe = .undecided }
        touchpad.onScroll { [weak self] dx, dy in self?.touchpadScrolled(dx: dx, dy: dy) ?? false }
        touchpad.onEnd { [weak self] in
            guard let self else { return }
            if self.touchpadSwipe == .swiping { self.endSwipeBack(commit: (self.swipe?.progress ?? 0) > Self.swipeCommitThreshold) }
            self.touchpadSwipe = .none
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
    private func touchpadScrolled(dx: Double, dy: Double) -> Bool {
        let back = view.isRightToLeft ? dx : -dx  // > 0: toward going back
        switch touchpadSwipe {
        case .none:
            return false  // a mouse wheel: no begin, no swipe
        case .undecided:
            guard abs(dx) > abs(dy), back > 0, beginSwipeBack() else {
                touchpadSwipe = .ignored
                return false
            }
            touchpadSwipe = .swiping
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
