import CGtk
import Gtk
import Navigation

/// The widget that shows a ``NavigationStack``'s pages, one at a time, and two while a push or pop
/// slides: a push slides the incoming page over the outgoing one from the trailing edge; a pop slides
/// the outgoing page away to it, uncovering the page below (mirrored in right-to-left locales), as
/// GtkStack's `over` and `under` slides and libadwaita's navigation view do. The stack moves the slide
/// each frame by its spring (`Spring/navigation`); GtkStack's own slides have a fixed 200 ms ease,
/// which is why this replaced it. Pages not shown are not mapped (not drawn, not focusable). Clipped to
/// its bounds while a page slides (as GtkStack clips its transitions), not at rest: a page may draw
/// outside them then (content scrolled under the translucent bar above it).
///
/// Put it in the window (``NavigationStack/view``); the stack adds, shows and removes the pages.
/// Main actor only.
@MainActor
public final class PageStackView: Widget {
    /// What slides, and how far it has gone.
    private struct Slide {
        let kind: TransitionKind
        /// The page that moves: the incoming one for a push, the outgoing one for a pop.
        let moving: Widget
        /// The page that stays where it is under it.
        let still: Widget
        var progress: Double
    }

    private var children: [(name: String, widget: Widget)] = []
    private var visibleChild: Widget?
    private var slide: Slide?

    init() {
        super.init(Box.makeBox(.horizontal), transfer: .full)
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(
            nil,
            { widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
                // The largest of the pages laid out now (the shown one, and the other while sliding).
                measureLargestChild(of: widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline)
            },
            { widget, width, height, baseline in
                guard let widget else { return }
                MainActor.assumeIsolated {
                    if let view = Object.wrapper(of: UnsafeMutableRawPointer(widget)) as? PageStackView {
                        view.allocateChildren(width, height, baseline)
                    } else {
                        allocateEveryChild(of: widget, width: width, height: height, baseline: baseline)  // the stack gone
                    }
                }
            }))
    }

    /// Called when a slide starts, moves or ends, with the page going out, the page coming in (as the
    /// change has them: for a pop the moving one goes out) and how far it has gone (nil: it ended). The
    /// stack cross-fades its bar's layers by it.
    var onSlideChanged: (@MainActor (_ outgoing: Widget, _ incoming: Widget, _ progress: Double?) -> Void)?

    private func reportSlide(_ slide: Slide, ended: Bool = false) {
        let (outgoing, incoming) = slide.kind == .push ? (slide.still, slide.moving) : (slide.moving, slide.still)
        onSlideChanged?(outgoing, incoming, ended ? nil : slide.progress)
    }

    /// The name of the page shown (the page's id), or nil when there is none.
    public var visibleChildName: String? {
        guard let visibleChild else { return nil }
        return children.first { $0.widget === visibleChild }?.name
    }

    /// How many pages the view holds (shown or not): the stack's, those added for later, and popped
    /// ones until their slide ends.
    public var childCount: Int { children.count }

    /// Whether a push or pop is sliding now.
    public var isTransitionRunning: Bool { slide != nil }

    /// How far the slide has gone: 0 at its start … 1 at its end (the spring's value), or nil when
    /// nothing slides.
    public var slideProgress: Double? { slide?.progress }

    /// The frame time, in microseconds, that the running slide's spring counts from (the frame clock's
    /// time when the push, pop or swipe release began, as libadwaita's `AdwAnimation` takes it), once its
    /// first frame has run; nil when nothing slides. For the package's tests, which check each frame
    /// against the spring.
    package var slideStartTime: Int64?

    /// Adds `child` under `name`, not shown.
    func add(_ child: Widget, name: String) {
        guard !children.contains(where: { $0.widget === child }) else { return }
        children.append((name, child))
        appendToBox(child)
        gtk_widget_set_child_visible(child.widget, 0)
    }

    /// Takes `child` out (ending a slide it is part of).
    func remove(_ child: Widget) {
        guard let index = children.firstIndex(where: { $0.widget === child }) else { return }
        if let slide, slide.moving === child || slide.still === child { endSlide() }
        if visibleChild === child { visibleChild = nil }
        children.remove(at: index)
        gtk_box_remove(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self), child.widget)
    }

    /// Shows the child added under `name` at once, and no other (ending a slide).
    func showChild(named name: String) {
        guard let child = children.first(where: { $0.name == name })?.widget else { return }
        endSlide()
        guard child !== visibleChild else { return }
        if let visibleChild { gtk_widget_set_child_visible(visibleChild.widget, 0) }
        visibleChild = child
        gtk_widget_set_child_visible(child.widget, 1)
        gtk_widget_queue_resize(widget)
    }

    /// Starts a slide to the shown child from `outgoing` (shown again under or over it, as `kind` has
    /// it), at progress 0.
    func beginSlide(_ kind: TransitionKind, from outgoing: Widget) {
        guard let incoming = visibleChild, incoming !== outgoing,
              children.contains(where: { $0.widget === outgoing }) else { return }
        endSlide()
        let moving = kind == .push ? incoming : outgoing
        slide = Slide(kind: kind, moving: moving, still: kind == .push ? outgoing : incoming, progress: 0)
        gtk_widget_set_child_visible(outgoing.widget, 1)
        gtk_widget_insert_before(moving.widget, widget, nil)  // drawn last: over the other
        moving.addCSSClass("sliding-page")  // opaque, with an edge (the toolkit's style)
        // Clipped only while sliding, as GtkStack clips its transitions: at rest a page draws outside its
        // bounds (content scrolled under the translucent bar above it, a bar's shadow).
        gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN)
        gtk_widget_queue_allocate(widget)
        if let slide { reportSlide(slide) }
    }

    /// Moves the slide to `progress` (0 … 1, a little past either end while a spring overshoots).
    func setSlideProgress(_ progress: Double) {
        guard slide != nil else { return }
        slide?.progress = progress
        gtk_widget_queue_allocate(widget)
        if let slide { reportSlide(slide) }
    }

    /// Ends the slide: only the shown child stays.
    func endSlide() {
        guard let ended = slide else { return }
        slide = nil
        slideStartTime = nil
        ended.moving.removeCSSClass("sliding-page")
        gtk_widget_set_overflow(widget, GTK_OVERFLOW_VISIBLE)
        for page in [ended.moving, ended.still] where page !== visibleChild {
            gtk_widget_set_child_visible(page.widget, 0)
        }
        gtk_widget_queue_allocate(widget)
        reportSlide(ended, ended: true)
    }

    /// Called with the area's width and height in pixels each time it is laid out, before its pages
    /// (the stack's breakpoints follow it).
    var onAllocate: (@MainActor (_ width: Int32, _ height: Int32) -> Void)?

    /// Every page laid out gets the whole area; the sliding one is moved along the edge.
    private func allocateChildren(_ width: Int32, _ height: Int32, _ baseline: Int32) {
        onAllocate?(width, height)
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if gtk_widget_should_layout(current) != 0 {
                var area = GtkAllocation(x: 0, y: 0, width: width, height: height)
                if let slide, current == slide.moving.widget {
                    let share = slide.kind == .push ? 1 - slide.progress : slide.progress
                    let offset = Int32((share * Double(width)).rounded())
                    area.x = isRightToLeft ? -offset : offset
                }
                gtk_widget_size_allocate(current, &area, baseline)
            }
            child = gtk_widget_get_next_sibling(current)
        }
    }
}
