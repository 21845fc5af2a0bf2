import CGtk

/// A `GtkFlowBox`: a row of children that wraps onto more rows when narrow (e.g. the friends' buttons).
@MainActor
public final class FlowBox: Widget {
    /// Creates an empty grid with no selection (children are activated, not selected).
    public init() {
        super.init(gtk_flow_box_new(), transfer: .full)
        gtk_flow_box_set_selection_mode(pointer(), GTK_SELECTION_NONE)
        gtk_flow_box_set_activate_on_single_click(pointer(), 1)
        gtk_flow_box_set_homogeneous(pointer(), 1)
    }

    var box: OpaquePointer { opaque }

    /// Appends `child` in its own `GtkFlowBoxChild` whose accessible name is `accessibleLabel`.
    /// With `cellTakesFocus: false` the cell is skipped by keyboard focus (use it when `child` is itself
    /// a control, e.g. a button, so Tab does not stop twice).
    /// - Returns: the wrapping child, which ``Widget/activate()`` activates as a click would.
    @discardableResult
    public func append(_ child: Widget, accessibleLabel: String, cellTakesFocus: Bool = true) -> Widget {
        let cell = Widget(gtk_flow_box_child_new(), transfer: .full)
        cell.isFocusable = cellTakesFocus
        gtk_flow_box_child_set_child(cell.pointer(), child.widget)
        cell.setAccessibleLabel(accessibleLabel)
        cell.tooltip = accessibleLabel
        gtk_flow_box_insert(box, cell.widget, -1)
        return cell
    }

    /// Removes every child (and its cell).
    public func removeAll() {
        while let cell = gtk_widget_get_first_child(widget) { gtk_flow_box_remove(box, cell) }
    }

    /// The most children per row (the grid reflows to fewer when narrow).
    public var maxChildrenPerLine: Int {
        get { Int(gtk_flow_box_get_max_children_per_line(box)) }
        set { gtk_flow_box_set_max_children_per_line(box, UInt32(clamping: max(1, newValue))) }
    }

    /// Spacing between rows and between columns, in pixels.
    public func setSpacing(_ pixels: Int) {
        gtk_flow_box_set_row_spacing(box, UInt32(clamping: max(0, pixels)))
        gtk_flow_box_set_column_spacing(box, UInt32(clamping: max(0, pixels)))
    }
}
