/// A rectangular area of the video that cues can be placed in, shaped like WebVTT's `VTTRegion`.
public struct Region: Sendable, Hashable {
    /// How new lines enter the region.
    public enum Scroll: String, Sendable, Hashable {
        /// Cues are placed where they are, without scrolling.
        case none = ""
        /// New lines push older ones up (roll-up captions).
        case up
    }

    /// The identifier cues use to name the region.
    public var id: String
    /// Width as a percentage of the video width (default 100).
    public var width: Double
    /// Height in lines (default 3). A `Double` because WebVTT accepts any run of digits here
    /// and the `VTTRegion` interface reports it as a JavaScript number.
    public var lines: Double
    /// The anchor point inside the region, as percentages of its size (default 0, 100).
    public var regionAnchorX: Double
    /// See ``regionAnchorX``.
    public var regionAnchorY: Double
    /// Where the region anchor sits in the video, as percentages of the video size (default 0, 100).
    public var viewportAnchorX: Double
    /// See ``viewportAnchorX``.
    public var viewportAnchorY: Double
    /// Scrolling behaviour.
    public var scroll: Scroll
    /// Where the region was defined.
    public var location: SourceLocation?

    /// A region with WebVTT's defaults for everything not given.
    public init(
        id: String, width: Double = 100, lines: Double = 3, regionAnchorX: Double = 0, regionAnchorY: Double = 100,
        viewportAnchorX: Double = 0, viewportAnchorY: Double = 100, scroll: Scroll = .none,
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.width = width
        self.lines = lines
        self.regionAnchorX = regionAnchorX
        self.regionAnchorY = regionAnchorY
        self.viewportAnchorX = viewportAnchorX
        self.viewportAnchorY = viewportAnchorY
        self.scroll = scroll
        self.location = location
    }
}
