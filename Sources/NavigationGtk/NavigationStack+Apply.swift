import CGtk
import Gtk
import Navigation

/// What a ``NavigationStack`` is doing, as one value.
@MainActor
enum Phase {
    /// Nothing is moving: input goes to the visible page.
    case idle
    /// The change's slide is running (or, not animated, about to end in this change).
    case sliding(Handover)
    /// The user is swiping the visible page away.
    case swiping(SwipeBack)
    /// The stack's widgets are gone (window closed); nothing changes any more.
    case destroyed
}

/// The pages a change moves from and to, whose lifecycle (hidden, shown) ends with the transition.
@MainActor
struct Handover {
    let from: Page?
    let to: Page?
    let kind: TransitionKind
}

extension NavigationStack {
    // MARK: - The one path for every change

    func attach(_ page: Page) {
        guard pagesByID[page.id] == nil else { return }
        pagesByID[page.id] = page
        page.navigationStack = self
        page.isNamedForScreenReaders = namesPagesForScreenReaders
        follow(page)
        if !page.keepsStandaloneBar {
            page.hideStandaloneBar(removing: nil)
            addLayer(of: page)
        }
        if page.extendsUnderTopBar { page.setTopInset(topInset) }
        pagesAwaitingRemoval.removeAll { $0 === page }
        if !view.contains(page.view.widget) {
            view.add(page.view, name: page.id.description)
        }
    }

    /// Follows `page`'s property changes: a page on the stack or added to it.
    func follow(_ page: Page) {
        page.stackDidChangeProperty = { [weak self] page, property in self?.pageDidChange(page, property) }
        page.stackAcceptsTag = { [weak self] page, tag in self?.accepts(tag, for: page) ?? true }
    }

    /// Stops following `page` (unless it is still added, for later).
    func unfollow(_ page: Page) {
        guard !isAdded(page) else { return }
        page.stackDidChangeProperty = nil
        page.stackAcceptsTag = nil
    }

    /// Whether `page` was added with ``add(_:)`` and is kept for later.
    func isAdded(_ page: Page) -> Bool { addedPages.values.contains { $0 === page } }

    /// Whether `page` may take `tag`: not when another page on the stack or another added page has it
    /// (misuse, `g_critical`; the page keeps its tag, as libadwaita refuses a duplicate).
    private func accepts(_ tag: String?, for page: Page) -> Bool {
        guard let tag else { return true }
        if let entry = state.entry(taggedAs: tag), entry.id != page.id {
            logMisuse("tag: “\(tag)” is already used on this stack; “\(page.title)” keeps its tag")
            return false
        }
        if let other = addedPages[tag], other !== page {
            logMisuse("tag: “\(tag)” is already used by “\(other.title)”, added to this stack; “\(page.title)” keeps its tag")
            return false
        }
        return true
    }

    func detach(_ page: Page) {
        page.navigationStack = nil
        unfollow(page)
        page.setTopInset(0)
        page.savedFocus = nil
    }

    /// Puts `page`'s bar layer in the stack's bar, with an item from each of the host's makers, once.
    private func addLayer(of page: Page) {
        let layer = page.barLayer
        guard layer.bar !== headerBar else { return }
        headerBar.addLayer(layer)
        let made = hostEndItemMakers.map { $0() }
        for item in made.reversed() { layer.packEnd(item, outermost: true) }
        hostEndItems[ObjectIdentifier(layer)] = made
    }

    /// Takes `page`'s bar layer out of the stack's bar (the page left the stack), with the host's items.
    func removeLayer(of page: Page) {
        guard let layer = page.madeBarLayerIfAny, layer.bar === headerBar else { return }
        for item in hostEndItems.removeValue(forKey: ObjectIdentifier(layer)) ?? [] { layer.remove(item) }
        headerBar.removeLayer(layer)
    }

    /// Adds an item made by `make` at the very end of every page's part of the bar (outside the page's
    /// own items), for pages on the stack now and pushed later: one item per page, built once with its
    /// layer, e.g. a dialog's Help.
    func addEndBarItemToEveryPage(_ make: @escaping @MainActor () -> Widget) {
        hostEndItemMakers.append(make)
        for layer in headerBar.layers {
            let item = make()
            layer.packEnd(item, outermost: true)
            hostEndItems[ObjectIdentifier(layer), default: []].append(item)
        }
    }

    /// Applies `new`: computes the change, moves the widgets, and only then delivers what it caused —
    /// lifecycle, visible page, title, removed pages, events — in that order, once each (``deliver()``).
    /// `lifecycleStarted`: the pages already heard hiding and showing (a finished swipe). `asReplace`:
    /// observers hear one ``Event/replaced(removed:added:)`` whatever the change was (``replace(with:animated:)``,
    /// as libadwaita's `replace` emits only `replaced`), also when nothing changed.
    func apply(_ new: NavigationStackState, cause: Cause, animated: Bool = true, lifecycleStarted: Bool = false,
               asReplace: Bool = false) {
        if case .destroyed = phase { return }
        let change = state.change(to: new)
        guard change != .none else {
            state = new
            if asReplace {
                enqueue { [weak self] in self?.eventObservers.notify((.replaced(removed: [], added: []), cause)) }
                deliver()
            }
            return
        }
        let outgoing = visiblePage
        if case .swiping = phase, !lifecycleStarted { abandonSwipe() }  // code changed the stack mid-swipe
        endPhase()  // a change during a transition first finishes the previous one cleanly
        flushRemovals()
        if let outgoing { outgoing.savedFocus = focusedWidget(in: outgoing) }
        let oldIDs = Set(state.entries.map(\.id)), newIDs = Set(new.entries.map(\.id))
        let added = new.entries.filter { !oldIDs.contains($0.id) }.compactMap { pagesByID[$0.id] }
        // Only pages on neither stack leave (bottom first): one that stays keeps its widget wherever it moves.
        let removed = state.entries.filter { !newIDs.contains($0.id) }.compactMap { pagesByID.removeValue(forKey: $0.id) }
        state = new
        let incoming = visiblePage
        removed.forEach(detach)
        pagesAwaitingRemoval.append(contentsOf: removed)
        if state.forwardEntry == nil { forwardPage = nil }
        show(Handover(from: outgoing, to: incoming, kind: change.transitionKind ?? .push),
             animated: animated && change.transitionKind != nil, lifecycleStarted: lifecycleStarted)
        updateBar()
        // Only the visible page is there for a screen reader: pages below it are not, and neither is a
        // page leaving (it goes from the view when its slide ends). Set only when it changes: each change
        // is a pair of D-Bus signals to the accessibility bus. Hiding the leaving page costs a pop about a
        // sixth of its time, but without it Orca 43 said the page a pop comes back to (its window or dialog)
        // only when the control that had focus was already gone when it looked: with the leaving page out
        // of the tree, the control focus comes back to is always heard with where it is.
        for page in pagesByID.values { page.setHiddenFromScreenReaders(page !== incoming) }
        for page in removed { page.setHiddenFromScreenReaders(true) }
        if let incoming { restoreFocus(in: incoming) }
        if case .sliding = phase, !view.isTransitionRunning { endPhase() }

        if incoming !== outgoing {  // only a real change (libadwaita notifies visible-page only then)
            enqueue { [weak self, weak incoming] in self?.visiblePageObservers.notify(incoming) }
        }
        if !removed.isEmpty {
            enqueue { [weak self] in self?.popObservers.notify((removed, cause)) }
        }
        let events: [Event]
        if asReplace {
            events = [.replaced(removed: removed, added: added)]
        } else if outgoing === incoming, added.isEmpty, !removed.isEmpty {
            events = removed.map { .removed($0) }  // taken from below the visible page
        } else {
            switch change {
            case .push: events = added.map { .pushed($0) }
            case .pop: events = removed.reversed().map { .popped($0) }
            case .replace: events = [.replaced(removed: removed, added: added)]
            case .none: events = []
            }
        }
        for event in events { enqueue { [weak self] in self?.eventObservers.notify((event, cause)) } }
        deliver()
    }

    /// The lifecycle's hiding and showing, then the stack shows the handover's incoming page (sliding or
    /// at once).
    private func show(_ handover: Handover, animated: Bool, lifecycleStarted: Bool) {
        let outgoing = handover.from, incoming = handover.to
        if outgoing !== incoming, !lifecycleStarted {
            if let outgoing { setLifecycle(.hiding, of: outgoing) }
            if let incoming { setLifecycle(.showing, of: incoming) }
        }
        if let incoming {
            let slides = animated && isAnimated && DesktopStyle.animationsEnabled && view.isMapped && outgoing !== incoming
            lastSlide = slides ? (view.isRightToLeft ? .left : .right) : .none
            view.canTarget = false
            phase = .sliding(handover)
            view.showChild(named: incoming.id.description)
            if slides, let outgoing, view.contains(outgoing.view.widget) { startSlide(handover.kind, from: outgoing) }
        } else {
            phase = .sliding(handover)
        }
    }

    /// Queues a notification of a change already applied.
    func enqueue(_ notification: @escaping @MainActor () -> Void) {
        pendingNotifications.append(notification)
    }

    /// Delivers the queued notifications in order. A handler that changes the stack applies its change
    /// at once and queues its notifications behind the ones still waiting, which this loop then delivers:
    /// nothing is dropped, nothing overtakes.
    func deliver() {
        guard !isDelivering else { return }
        isDelivering = true
        defer { isDelivering = false }
        while !pendingNotifications.isEmpty {
            pendingNotifications.removeFirst()()
        }
    }

    func setLifecycle(_ event: PageLifecycleEvent, of page: Page) {
        page.lifecycle = event
        enqueue { [weak page] in page?.lifecycleObservers.notify(event) }
    }

    /// Ends whatever the stack is doing at once: a slide or cross-fade finishes (its pages' hidden and
    /// shown are queued, for the caller to ``deliver()``), a swipe is abandoned.
    func endPhase() {
        switch phase {
        case .idle, .destroyed:
            return
        case .swiping:
            abandonSwipe()
        case .sliding(let handover):
            stopSlide()
            finish(handover)
        }
    }

    /// Slides the shown page in over `outgoing` (push) or `outgoing` away over it (pop) with
    /// libadwaita's navigation spring, clamped for a pop as libadwaita's is, on the frame clock: the
    /// slide at each frame is the spring's closed form at the frame's time since the change, and it ends
    /// at the first frame past the spring's duration.
    private func startSlide(_ kind: TransitionKind, from outgoing: Page) {
        view.beginSlide(kind, from: outgoing.view)
        guard view.isTransitionRunning else { return }
        let spring = SpringAnimation(spring: .navigation, from: 0, to: 1, clamps: kind == .pop)
        let start = view.frameTime
        var first: Int64?
        slideTick = view.addTickCallback { [weak self] time in
            guard let self, case .sliding(let handover) = self.phase else { return false }
            let origin = start ?? first ?? time
            first = origin
            self.view.slideStartTime = origin
            let elapsed = Duration.microseconds(time - origin)  // the frame clock counts microseconds
            guard !spring.isFinished(at: elapsed) else {
                self.slideTick = nil
                self.view.endSlide()
                self.finish(handover)
                self.deliver()
                return false
            }
            self.view.setSlideProgress(spring.value(at: elapsed))
            return true
        }
    }

    /// Stops the running slide where it is (the shown page stays).
    private func stopSlide() {
        if let tick = slideTick { view.removeTickCallback(tick) }
        slideTick = nil
        view.endSlide()
    }

    private func finish(_ handover: Handover) {
        phase = .idle
        view.canTarget = true
        flushRemovals()
        if handover.from !== handover.to {
            if let left = handover.from, left.lifecycle == .hiding { setLifecycle(.hidden, of: left) }
            if let came = handover.to, came.lifecycle == .showing { setLifecycle(.shown, of: came) }
        }
    }

    func flushRemovals() {
        let removing = pagesAwaitingRemoval
        pagesAwaitingRemoval = []
        for page in removing {
            if view.contains(page.view.widget) { view.remove(page.view) }
            page.setHiddenFromScreenReaders(false)  // hidden while it left; wherever it goes next, it is there
            removeLayer(of: page)  // its items go with it, once its slide has ended
        }
    }

    // MARK: - Bar

    func updateBar() {
        let page = visiblePage
        // The tooltip names the page Back goes to. Set only when it changes, and while the button is
        // hidden when it is about to show: GTK asks the X server where the pointer is whenever a visible
        // widget's tooltip is set (a round trip in every push and pop).
        // It is not Back's accessible description: Orca 43 heard it twice when Back appeared with focus
        // (GTK 4.8 sends a newly shown button's description after the focus moved to it, and Orca says a
        // focused control's new description again); the page's title, heard as the page comes, says
        // where one is.
        let tooltip = state.previous?.title
        if state.canUserGoBack {
            if backButton.tooltip != tooltip {  // no round trip while hidden
                backButton.tooltip = tooltip
                backButton.clearAccessibleDescription()
            }
            backButton.isVisible = true
        } else {
            backButton.isVisible = false
            if backButton.tooltip != tooltip {
                backButton.tooltip = tooltip
                backButton.clearAccessibleDescription()
            }
        }
        let title = state.top?.title ?? ""
        if title != lastTitle {
            lastTitle = title
            enqueue { [weak self] in self?.titleObservers.notify(title) }
        }
        let layer = page.flatMap { $0.keepsStandaloneBar ? nil : $0.barLayer }
        headerBar.showLayer(layer)
        // The visible page's last start button (a flow's Cancel, pushed here) may go into the bar's
        // overflow menu while Back is shown, as a dialog's Cancel does (the bar's own, when it has one,
        // takes its place).
        layer?.setMovableStartItem(page?.startBarItems.last { $0 is Button }) { [weak self] in self?.backButton.isVisible == true }
    }

    /// Cross-fades the bar from the layer of the page whose view is `outgoing` to that of `incoming`
    /// with a slide's or a swipe's progress (nil: it ended, the visible page's layer alone).
    func crossFadeBar(from outgoing: Widget, to incoming: Widget, progress: Double?) {
        guard let progress else { return headerBar.endCrossFade() }
        func layer(of view: Widget) -> BarLayer? {
            let page = pagesByID.values.first { $0.view === view } ?? pagesAwaitingRemoval.first { $0.view === view }
            return page?.madeBarLayerIfAny
        }
        headerBar.crossFade(from: layer(of: outgoing), to: layer(of: incoming), progress: progress)
    }

    /// A page on the stack changed its title, tag or ``Page/canPop``: the model follows (a tag another
    /// page on the stack has is misuse and is not taken), and the bar if it is the visible page.
    private func pageDidChange(_ page: Page, _ property: Page.Property) {
        switch property {
        case .title, .subtitle:
            state.setTitle(page.title, of: page.id)
        case .canPop:
            state.setCanPop(page.canPop, of: page.id)
        case .tag:
            // Accepted already (``accepts(_:for:)``): the model and the added pages follow.
            if let old = addedPages.first(where: { $0.value === page })?.key {
                addedPages[old] = nil
                if let tag = page.tag { addedPages[tag] = page } else if !state.contains(page.id) { unfollow(page) }
            }
            guard state.contains(page.id) else { return }
            state.setTag(page.tag, of: page.id)
        }
        updateBar()
        deliver()
    }

    // MARK: - Focus

    private func focusedWidget(in page: Page) -> Widget? {
        guard let window = page.view.rootWindow, let focus = gtk_window_get_focus(window),
              page.view.contains(focus) else { return nil }
        return Widget.widget(wrapping: UnsafeMutableRawPointer(focus))
    }

    private func restoreFocus(in page: Page) {
        guard page.view.rootWindow != nil else { return }
        if let saved = page.savedFocus, page.view.contains(saved.widget), saved.grabFocus() { return }
        if let initial = page.initialFocus, initial.grabFocus() { return }
        if page.content.grabFocus() { return }
        // Nothing in it takes focus (a photo and its caption): the page itself does, until focus leaves
        // it, so that a screen reader says which page came ("Post panel", when the stack names its
        // pages), as a libadwaita page grabs focus for itself; Tab goes on to its controls.
        if namesPagesForScreenReaders, page.view.isMapped || page.view.rootWindow != nil, page.focusItself() { return }
        if backButton.isVisible { backButton.grabFocus() }
    }
}
