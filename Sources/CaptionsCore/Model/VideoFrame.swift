/// One decoded picture as the flash analyzer reads it: 8-bit planes with their strides, the colour
/// encoding, and the time it is shown.
///
/// The planes are borrowed: a frame is valid only inside the callback that hands it out, so that
/// decoding allocates nothing per frame.
public struct VideoFrame {
    /// How samples are laid out in the planes.
    public enum Layout: Sendable, Hashable {
        /// Three planes Y, U, V; chroma subsampled by `1 << chromaShiftX` horizontally and
        /// `1 << chromaShiftY` vertically (4:2:0 is 1, 1; 4:2:2 is 1, 0; 4:4:4 is 0, 0).
        case planarYUV(chromaShiftX: Int, chromaShiftY: Int)
        /// A Y plane and one plane of interleaved U, V at half resolution both ways.
        case nv12
        /// One plane of packed R, G, B bytes.
        case rgb24
        /// A Y plane only (grey).
        case gray
    }

    /// The YUV to RGB matrix.
    public enum Matrix: String, Sendable, Hashable {
        /// ITU-R BT.601 (standard definition).
        case bt601
        /// ITU-R BT.709 (high definition).
        case bt709
    }

    /// The range of the 8-bit codes.
    public enum Range: String, Sendable, Hashable {
        /// Y 16–235, U and V 16–240 ("tv", "mpeg").
        case limited
        /// 0–255 ("pc", "jpeg").
        case full
    }

    /// One plane: its first byte and the distance in bytes from one row to the next.
    public struct Plane {
        /// The first sample; `nil` for an unused plane.
        public var base: UnsafePointer<UInt8>?
        /// Bytes from one row to the next (at least the row's width).
        public var stride: Int

        /// A plane starting at `base`.
        public init(base: UnsafePointer<UInt8>?, stride: Int) {
            self.base = base
            self.stride = stride
        }

        /// No plane.
        public static var none: Plane { Plane(base: nil, stride: 0) }
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Sample layout.
    public var layout: Layout
    /// YUV matrix (ignored for RGB).
    public var matrix: Matrix
    /// Code range (ignored for RGB, which is always full range).
    public var range: Range
    /// Up to three planes, in layout order.
    public var planes: (Plane, Plane, Plane)
    /// When the frame is shown.
    public var time: MediaTime

    /// A frame over borrowed planes.
    public init(
        width: Int, height: Int, layout: Layout, matrix: Matrix, range: Range, planes: (Plane, Plane, Plane),
        time: MediaTime
    ) {
        self.width = width
        self.height = height
        self.layout = layout
        self.matrix = matrix
        self.range = range
        self.planes = planes
        self.time = time
    }
}
