/// A cue's placement, exactly as WebVTT cue settings and the `VTTCue` interface describe it.
public struct CueSettings: Sendable, Hashable {
    /// Writing direction.
    public enum Vertical: String, Sendable, Hashable {
        /// Horizontal text (the default).
        case horizontal = ""
        /// Vertical, lines growing right to left.
        case rightToLeft = "rl"
        /// Vertical, lines growing left to right.
        case leftToRight = "lr"
    }

    /// The `line` setting: automatic, or a line number / percentage (see ``snapToLines``).
    public enum Line: Sendable, Hashable {
        /// Placed by the rendering rules.
        case auto
        /// A line number when ``snapToLines`` is true (negative counts from the bottom), else a percentage.
        case value(Double)
    }

    /// Alignment of the cue box to the line position.
    public enum LineAlign: String, Sendable, Hashable {
        /// The default.
        case start
        /// Centre.
        case center
        /// End.
        case end
    }

    /// Alignment of the cue box to the position.
    public enum PositionAlign: String, Sendable, Hashable {
        /// Derived from the text alignment (the default).
        case auto
        /// Line-left.
        case lineLeft = "line-left"
        /// Centre.
        case center
        /// Line-right.
        case lineRight = "line-right"
    }

    /// Text alignment inside the cue box.
    public enum Align: String, Sendable, Hashable {
        /// Start of the line (by text direction).
        case start
        /// Centre (the default).
        case center
        /// End of the line.
        case end
        /// Left.
        case left
        /// Right.
        case right
    }

    // Stored widest first, so that the struct packs into 64 bytes.

    /// Box size as a percentage (default 100).
    public var size: Double = 100
    /// Line position.
    public var line: Line = .auto
    /// Position as a percentage, or `nil` for auto.
    public var position: Double?
    /// The id of the region the cue is placed in.
    public var region: String?
    /// Writing direction.
    public var vertical: Vertical = .horizontal
    /// Whether ``line`` counts lines (true) or is a percentage (false).
    public var snapToLines = true
    /// Alignment to the line position.
    public var lineAlign: LineAlign = .start
    /// Alignment to the position.
    public var positionAlign: PositionAlign = .auto
    /// Text alignment.
    public var align: Align = .center

    /// The defaults: auto placement, centred, full width, no region.
    public init() {}

    /// True when every setting has its default value.
    public var isDefault: Bool {
        line == .auto && position == nil && region == nil && size == 100 && align == .center
            && vertical == .horizontal && snapToLines && lineAlign == .start && positionAlign == .auto
    }
}

extension CueSettings {
    /// The cue box across the picture, in percent of its width, as WebVTT computes it: the
    /// position (when automatic: 0, 100 or 50 by the text alignment), the size, and the box's
    /// alignment to the position (when automatic: by the text alignment).
    public var horizontalBox: (left: Double, right: Double) {
        let leftward = align == .left || align == .start, rightward = align == .right || align == .end
        var boxAlign = positionAlign
        if boxAlign == .auto { boxAlign = leftward ? .lineLeft : rightward ? .lineRight : .center }
        let anchor = position ?? (leftward ? 0 : rightward ? 100 : 50)
        // The box is as wide as the size, at most as wide as fits on the screen from the anchor.
        let width: Double
        let left: Double
        switch boxAlign {
        case .lineLeft, .auto:
            width = min(size, 100 - anchor)
            left = anchor
        case .center:
            width = min(size, 2 * min(anchor, 100 - anchor))
            left = anchor - width / 2
        case .lineRight:
            width = min(size, anchor)
            left = anchor - width
        }
        return (left, left + width)
    }
}
