import CGtk
import Gtk

// The split view's layout: how wide the sidebar is, and where the panes go (see the type's docs).
extension NavigationSplitView {
    /// The sidebar's width in pixels for a split view `width` pixels wide (see the type's docs).
    func sidebarWidth(for width: Int32, sidebarMinimum: Int32, contentMinimum: Int32) -> Int32 {
        let dpi = DesktopStyle.textDPI
        let low = sidebarWidthUnit.pixels(minSidebarWidth, dpi: dpi), high = sidebarWidthUnit.pixels(maxSidebarWidth, dpi: dpi)
        var wanted = Int32(min(max(Double(width) * sidebarWidthFraction, low), max(low, high)).rounded())
        wanted = max(wanted, sidebarMinimum)
        // The content keeps its minimum width; the sidebar gives way down to its own.
        return max(0, min(max(sidebarMinimum, min(wanted, width - contentMinimum - separatorWidth)), width - separatorWidth))
    }

    var separatorWidth: Int32 { separator.isVisible ? 1 : 0 }

    func measure(_ orientation: GtkOrientation, forSize: Int32) -> (minimum: Int32, natural: Int32) {
        let panes = [sidebarPane, separator, contentPane].filter(\.isVisible)
        // Collapsing on its own on a stack, its least width is the sidebar's: the content goes onto the
        // stack below the condition's width, so the window may shrink past both panes at once.
        let collapsesAlone = collapseCondition != nil && navigationStack != nil && !isCollapsed
        var minimum: Int32 = 0, natural: Int32 = 0
        for pane in panes {
            var m: Int32 = 0, n: Int32 = 0
            gtk_widget_measure(pane.widget, orientation, orientation == GTK_ORIENTATION_VERTICAL ? forSize : -1, &m, &n, nil, nil)
            if orientation == GTK_ORIENTATION_HORIZONTAL {
                // The least width is the collapsed arrangement's (one pane at a time), as libadwaita's
                // breakpoint bin lets a window shrink to where its breakpoint switches: narrower than both
                // panes' minimums side by side, the split view collapses at the next tick (one frame with
                // the content pane clipped).
                if !collapsesAlone || pane === sidebarPane { minimum = max(minimum, m) }
                natural += n
            } else {
                minimum = max(minimum, m)
                natural = max(natural, n)
            }
        }
        return (minimum, natural)
    }

    func allocate(width: Int32, height: Int32) {
        func minimumWidth(_ pane: Widget) -> Int32 {
            var m: Int32 = 0
            gtk_widget_measure(pane.widget, GTK_ORIENTATION_HORIZONTAL, height, &m, nil, nil, nil)
            return m
        }
        guard sidebarPane.isVisible, contentPane.isVisible else {
            for pane in [sidebarPane, contentPane] where pane.isVisible {
                gtk_widget_size_allocate(pane.widget, [GtkAllocation(x: 0, y: 0, width: width, height: height)], -1)
            }
            return
        }
        let sidebar = sidebarWidth(for: width, sidebarMinimum: minimumWidth(sidebarPane), contentMinimum: minimumWidth(contentPane))
        let contentWidth = max(0, width - sidebar - separatorWidth)
        let sidebarAtLeft = (sidebarPosition == .start) != (gtk_widget_get_direction(area.widget) == GTK_TEXT_DIR_RTL)
        let sidebarX = sidebarAtLeft ? 0 : width - sidebar
        let separatorX = sidebarAtLeft ? sidebar : width - sidebar - separatorWidth
        let contentX = sidebarAtLeft ? sidebar + separatorWidth : 0
        gtk_widget_size_allocate(sidebarPane.widget, [GtkAllocation(x: sidebarX, y: 0, width: sidebar, height: height)], -1)
        gtk_widget_size_allocate(separator.widget, [GtkAllocation(x: separatorX, y: 0, width: separatorWidth, height: height)], -1)
        gtk_widget_size_allocate(contentPane.widget, [GtkAllocation(x: contentX, y: 0, width: contentWidth, height: height)], -1)
    }

    /// The sidebar pane's width now, in pixels (0 when it is not shown).
    public var allocatedSidebarWidth: Int { sidebarPane.isVisible ? Int(sidebarPane.width) : 0 }
    /// The content pane's width now, in pixels (0 when it is not shown).
    public var allocatedContentWidth: Int { contentPane.isVisible ? Int(contentPane.width) : 0 }
}

/// The split view's two panes and the line between them, placed by ``NavigationSplitView``.
/// (`package`, not internal: Swift 6.3 warns of an infinite recursion in the `isolated deinit` it
/// synthesizes for an internal subclass of ``Object`` here — a false alarm, but a build warning, which
/// the example's build refuses.)
@MainActor
package final class SplitArea: Widget {
    weak var owner: NavigationSplitView?

    init() {
        super.init(Box.makeBox(.horizontal), transfer: .full)
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(
            nil,
            { widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
                let size = widget.map { widget in
                    MainActor.assumeIsolated {
                        ((Object.wrapper(of: UnsafeMutableRawPointer(widget)) as? SplitArea)?.owner?.measure(orientation, forSize: forSize)) ?? (0, 0)
                    }
                } ?? (0, 0)
                minimum?.pointee = size.0
                natural?.pointee = size.1
                minimumBaseline?.pointee = -1
                naturalBaseline?.pointee = -1
            },
            { widget, width, height, baseline in
                guard let widget else { return }
                MainActor.assumeIsolated {
                    if let owner = (Object.wrapper(of: UnsafeMutableRawPointer(widget)) as? SplitArea)?.owner {
                        owner.allocate(width: width, height: height)
                    } else {
                        allocateEveryChild(of: widget, width: width, height: height, baseline: baseline)  // the split view gone
                    }
                }
            }))
    }
}
