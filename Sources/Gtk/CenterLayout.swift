/// The placement `GtkCenterLayout` makes of a start, centre and end child in a row (GTK 4.8's
/// `gtk_center_layout_distribute` and `allocate`), as plain arithmetic: a ``HeaderBar`` places its
/// layers' items by it, over its whole centre box, so that they sit exactly where `GtkHeaderBar` would
/// put them packed into its own boxes. Pixels throughout.
package enum CenterLayout {
    /// A child's minimum and natural width in pixels.
    package struct Size: Equatable, Sendable {
        /// The narrowest it can be, in pixels.
        package var minimum: Int32
        /// The width it would like, in pixels.
        package var natural: Int32
        /// Creates a size.
        package init(minimum: Int32, natural: Int32) {
            self.minimum = minimum
            self.natural = natural
        }
        /// Nothing: no child, or an invisible one.
        package static let zero = Size(minimum: 0, natural: 0)
        /// Whether it is ``zero``.
        package var isEmpty: Bool { self == .zero }

        /// This and `next` in one box with `spacing` pixels between them (when both have a size), as a
        /// `GtkBox` measures two children.
        package func joined(with next: Size, spacing: Int32) -> Size {
            guard !isEmpty else { return next }
            guard !next.isEmpty else { return self }
            return Size(minimum: minimum + spacing + next.minimum, natural: natural + spacing + next.natural)
        }
    }

    /// A child's place: where it starts from the row's left edge and how wide it is, in pixels.
    package struct Span: Equatable, Sendable {
        /// Where it starts, in pixels from the row's left edge.
        package var position: Int32
        /// How wide it is, in pixels.
        package var size: Int32
        /// Creates a span.
        package init(_ position: Int32, _ size: Int32) {
            self.position = position
            self.size = size
        }
    }

    /// Places `start`, `center` and `end` in a row `size` pixels wide with `spacing` (the layout's CSS
    /// border spacing) between them, as GTK 4.8's `GtkCenterLayout` does with all three children set:
    /// each side gets its width clamped between its minimum and natural, the centre is centred in the row
    /// unless a side pushes it, and an expanding centre takes the room between the sides while it stays
    /// centred. `rightToLeft` puts the end child at the left, as GTK does. Returns the spans of the
    /// start, centre and end child, from the row's left edge.
    package static func place(size: Int32, spacing: Int32, start: Size, center: Size, centerExpands: Bool,
                             end: Size, rightToLeft: Bool = false) -> (start: Span, center: Span, end: Span) {
        // Sizes, as gtk_center_layout_distribute.
        let neededSpacing = 2 * spacing
        func clamp(_ value: Int32, _ low: Int32, _ high: Int32) -> Int32 { value > high ? max(high, low) : max(value, low) }
        var centerSize = clamp(size - neededSpacing - (start.minimum + end.minimum), center.minimum, center.natural)
        let startSize = clamp(min((size - neededSpacing - centerSize) / 2, size - neededSpacing - (centerSize + end.minimum)),
                              start.minimum, start.natural)
        let endSize = clamp(min((size - neededSpacing - centerSize) / 2, size - neededSpacing - (centerSize + start.minimum)),
                            end.minimum, end.natural)
        let centerPosition = size / 2 - centerSize / 2
        if startSize > 0 && startSize + spacing > centerPosition {
        } else if endSize > 0 && size - endSize - spacing < centerPosition + centerSize {
        } else if centerExpands {
            centerSize = size - 2 * (max(startSize, endSize) + spacing)
        }
        // Positions, as gtk_center_layout_allocate: the left child is the end one in right-to-left.
        let leftSize = rightToLeft ? endSize : startSize, rightSize = rightToLeft ? startSize : endSize
        var position = size / 2 - centerSize / 2
        if leftSize > 0 && leftSize + spacing > position {
            position = leftSize + spacing
        } else if rightSize > 0 && size - rightSize - spacing < position + centerSize {
            position = size - centerSize - rightSize - spacing
        }
        let left = Span(0, leftSize), right = Span(size - rightSize, rightSize), middle = Span(position, centerSize)
        return rightToLeft ? (right, middle, left) : (left, middle, right)
    }
}
