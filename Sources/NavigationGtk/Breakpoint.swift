import CGtk
import Gtk
import Navigation

/// Values that change when the space a ``NavigationStack`` shows its pages in matches a condition, as
/// libadwaita 1.4's `AdwBreakpoint`: e.g. a ``NavigationSplitView`` collapses below 600 sp.
///
/// Add setters (``addSetter(_:_:_:)``, ``addSetter(get:set:value:)``), then add the breakpoint to a stack
/// (``NavigationStack/addBreakpoint(_:)``). Whenever the stack's page area is laid out at a new size,
/// the **last** added breakpoint whose ``condition`` matches it is the current one: its setters are
/// applied, each remembering the value it replaced; when it stops being current (another matches, or
/// none), those values come back before the next one's setters apply. Lengths in `sp` follow the
/// desktop's text size (`DesktopStyle/textDPI`).
///
/// The switch never happens in the middle of a layout: the frame being laid out is drawn as it was,
/// and the values change at the next frame clock tick, with keyboard focus kept where it was (as
/// libadwaita's breakpoint bin does). Main actor only.
@MainActor
public final class Breakpoint {
    /// When the breakpoint applies (see `BreakpointCondition`).
    public let condition: BreakpointCondition

    /// A breakpoint for `condition`, with no setters yet.
    public init(condition: BreakpointCondition) {
        self.condition = condition
    }

    /// A breakpoint for the condition in `text` (e.g. `"max-width: 600sp"`).
    /// - Throws: `BreakpointCondition/ParseError` when `text` is not a condition.
    public convenience init(_ text: String) throws {
        self.init(condition: try BreakpointCondition(parsing: text))
    }

    /// Sets `object`'s `keyPath` to `value` while the breakpoint is current; the value it had comes back
    /// after.
    public func addSetter<Root: AnyObject, Value>(_ object: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>, _ value: Value) {
        addSetter(get: { [weak object] in object?[keyPath: keyPath] }, set: { [weak object] newValue in
            if let newValue { object?[keyPath: keyPath] = newValue }
        }, value: Optional(value))
    }

    /// Calls `set(value)` when the breakpoint becomes current, after reading what to restore with
    /// `get`, and `set` with that when it stops being current.
    public func addSetter<Value>(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void, value: Value) {
        var original: Value?
        setters.append((apply: { original = get(); set(value) },
                        unapply: { if let value = original { set(value) }; original = nil }))
    }

    /// Calls `handler` with true when the breakpoint becomes current (after its setters applied) and
    /// false when it stops being current (after the values came back), until the token goes
    /// (libadwaita's `apply` and `unapply` signals).
    public func observeApplied(_ handler: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
        appliedObservers.add(handler)
    }

    /// Whether the breakpoint is current on its stack now.
    public private(set) var isApplied = false

    private var setters: [(apply: @MainActor () -> Void, unapply: @MainActor () -> Void)] = []
    private let appliedObservers = Observers<Bool>()

    func apply() {
        guard !isApplied else { return }
        isApplied = true
        for setter in setters { setter.apply() }
        appliedObservers.notify(true)
    }

    func unapply() {
        guard isApplied else { return }
        isApplied = false
        for setter in setters.reversed() { setter.unapply() }
        appliedObservers.notify(false)
    }
}

extension NavigationStack {
    /// Adds `breakpoint`: from the next layout on, the last added breakpoint matching the page area's
    /// size is current (see ``Breakpoint``). A breakpoint added twice is misuse (`g_critical`, ignored).
    public func addBreakpoint(_ breakpoint: Breakpoint) {
        guard !breakpoints.contains(where: { $0 === breakpoint }) else {
            logMisuse("addBreakpoint: this breakpoint was added already; ignored")
            return
        }
        breakpoints.append(breakpoint)
        // Laid out already (a page added it as it was pushed): decide now, before the next frame, so
        // the page never draws in the wrong arrangement first.
        if view.width > 0, view.height > 0 {
            let dpi = DesktopStyle.textDPI
            switchBreakpoint(to: breakpoints.last { $0.condition.matches(width: Double(view.width), height: Double(view.height), dpi: dpi) })
        }
        view.queueResize()
    }

    /// Whether a breakpoint switch waits for the next frame clock tick (the page area was just laid out
    /// at a size where another breakpoint, or none, matches). Replays and tests wait for it.
    package var isSwitchingBreakpoint: Bool { breakpointTick != nil }

    /// Removes `breakpoint`; if it was current, its values come back at once.
    public func removeBreakpoint(_ breakpoint: Breakpoint) {
        breakpoints.removeAll { $0 === breakpoint }
        if currentBreakpoint === breakpoint {
            breakpoint.unapply()
            currentBreakpoint = nil
            view.queueResize()
        }
    }

    /// The page area was laid out `width` × `height` pixels: if another breakpoint matches now, switch
    /// to it at the next tick (never inside the layout).
    func pageAreaAllocated(width: Int32, height: Int32) {
        guard !breakpoints.isEmpty else { return }
        let dpi = DesktopStyle.textDPI
        let matching = breakpoints.last { $0.condition.matches(width: Double(width), height: Double(height), dpi: dpi) }
        pendingBreakpoint = .init(value: matching)
        guard matching !== currentBreakpoint, breakpointTick == nil else { return }
        breakpointTick = view.addTickCallback { [weak self] _ in
            guard let self else { return false }
            self.breakpointTick = nil
            self.switchBreakpoint(to: self.pendingBreakpoint.value)
            return false
        }
    }

    func switchBreakpoint(to breakpoint: Breakpoint?) {
        guard breakpoint !== currentBreakpoint else { return }
        let focus = view.rootWindow.flatMap { gtk_window_get_focus($0) }.map { Widget.widget(wrapping: UnsafeMutableRawPointer($0)) }
        currentBreakpoint?.unapply()
        currentBreakpoint = breakpoint
        breakpoint?.apply()
        if let focus, focus.isMapped, !focus.isFocus { _ = focus.grabFocus() }
    }
}

/// A weak reference to the breakpoint waiting for the next tick (nil: none matches).
struct PendingBreakpoint {
    weak var value: Breakpoint?
}
