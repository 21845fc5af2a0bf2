import CGtk

/// The direction a ``Box`` lays out its children (`GtkOrientation`).
public enum Orientation: Sendable {
    /// Left to right (mirrored in right-to-left locales).
    case horizontal
    /// Top to bottom.
    case vertical

    var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
}

/// How a widget is placed in extra space (`GtkAlign`).
public enum Alignment: Sendable {
    /// Fills the space.
    case fill
    /// At the start (left or top; right in right-to-left locales).
    case start
    /// At the end.
    case end
    /// Centred.
    case center

    var gtk: GtkAlign {
        switch self {
        case .fill: GTK_ALIGN_FILL
        case .start: GTK_ALIGN_START
        case .end: GTK_ALIGN_END
        case .center: GTK_ALIGN_CENTER
        }
    }

    init(_ align: GtkAlign) {
        switch align {
        case GTK_ALIGN_START: self = .start
        case GTK_ALIGN_END: self = .end
        case GTK_ALIGN_CENTER: self = .center
        default: self = .fill
        }
    }
}

/// How a ``Picture`` fits its image into its allocation (`GtkContentFit`).
public enum ContentFit: Sendable {
    /// All of the image visible, letterboxed (aspect ratio kept).
    case contain
    /// The allocation filled, the image cropped (aspect ratio kept).
    case cover

    var gtk: GtkContentFit { self == .contain ? GTK_CONTENT_FIT_CONTAIN : GTK_CONTENT_FIT_COVER }
}
