/// One decoded picture as the flash analyzer reads it: planes of 8-bit or 16-bit samples with their
/// strides, the colour encoding (matrix, range, transfer, primaries), how the picture was scanned
/// (progressive or interlaced, field order) and the time it is shown.
///
/// The planes are borrowed: a frame is valid only inside the callback that hands it out, so that
/// decoding allocates nothing per frame.
public struct VideoFrame {
    /// How samples are laid out in the planes.
    public enum Layout: Sendable, Hashable {
        /// Three planes Y, U, V; chroma subsampled by `1 << chromaShiftX` horizontally and
        /// `1 << chromaShiftY` vertically (4:2:0 is 1, 1; 4:2:2 is 1, 0; 4:4:4 is 0, 0).
        case planarYUV(chromaShiftX: Int, chromaShiftY: Int)
        /// A Y plane and one plane of interleaved U, V at half resolution both ways (NV12, P010).
        case nv12
        /// A Y plane only (grey).
        case gray
        /// Three planes G, B, R at full resolution (FFmpeg's `gbrp` family), and an alpha plane
        /// (the fourth) when `alpha` is true.
        case planarGBR(alpha: Bool)
        /// One plane of packed pixels, `components` samples each, with the offset of red, green,
        /// blue and (when present) alpha inside a pixel: RGB24 is (3, 0, 1, 2, nil), BGRA (4, 2, 1, 0, 3).
        case packedRGB(components: Int, red: Int, green: Int, blue: Int, alpha: Int?)

        /// Whether the samples are R, G, B (no matrix, always full range).
        public var isRGB: Bool {
            switch self {
            case .planarGBR, .packedRGB: true
            case .planarYUV, .nv12, .gray: false
            }
        }
    }

    /// The YUV to RGB matrix.
    public enum Matrix: String, Sendable, Hashable {
        /// ITU-R BT.601 (standard definition).
        case bt601
        /// ITU-R BT.709 (high definition).
        case bt709
        /// ITU-R BT.2020 non-constant luminance (UHD, HDR).
        case bt2020
    }

    /// The range of the codes.
    public enum Range: String, Sendable, Hashable {
        /// Y 16–235, U and V 16–240 at 8 bits (64–940 and 64–960 at 10 bits): "tv", "mpeg".
        case limited
        /// The whole code range ("pc", "jpeg").
        case full
    }

    /// How code values become light.
    public enum Transfer: String, Sendable, Hashable {
        /// Standard dynamic range (BT.709, BT.601, sRGB, BT.1886 and untagged): measured as sRGB,
        /// relative to white, as WCAG defines relative luminance.
        case sdr
        /// SMPTE ST 2084 perceptual quantiser (HDR10, Dolby Vision base layers): absolute cd/m².
        case pq
        /// ARIB STD-B67 hybrid log-gamma: relative scene light, shown on a display of a chosen peak.
        case hlg
    }

    /// The colour primaries, for chromaticity (red flashes).
    public enum Primaries: String, Sendable, Hashable {
        /// BT.709 / sRGB.
        case bt709
        /// BT.2020 (wide colour gamut).
        case bt2020
    }

    /// How the picture was scanned.
    public enum FieldOrder: String, Sendable, Hashable {
        /// One picture.
        case progressive
        /// Two fields, the top (even lines) shown first.
        case topFirst
        /// Two fields, the bottom (odd lines) shown first.
        case bottomFirst
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
    /// Significant bits per sample: 8 (one byte a sample) or 9–16 (two bytes, little-endian,
    /// values in the low bits; formats that keep them in the high bits, such as P010, say 16).
    public var bitDepth: Int
    /// YUV matrix (ignored for RGB).
    public var matrix: Matrix
    /// Code range (ignored for RGB, which is always full range).
    public var range: Range
    /// The transfer function.
    public var transfer: Transfer
    /// The primaries.
    public var primaries: Primaries
    /// Progressive or interlaced.
    public var fieldOrder: FieldOrder
    /// Up to four planes, in layout order.
    public var planes: (Plane, Plane, Plane, Plane)
    /// When the frame is shown.
    public var time: MediaTime
    /// How long it is shown, when known (the second field of an interlaced frame is shown half of it later).
    public var duration: Double?
    /// Quarter turns (clockwise) a player applies to show it: the stream's display matrix, or the
    /// picture's own (H.264's display orientation SEI).
    public var quarterTurns: Int

    /// A frame over borrowed planes.
    public init(
        width: Int, height: Int, layout: Layout, bitDepth: Int = 8, matrix: Matrix, range: Range,
        transfer: Transfer = .sdr, primaries: Primaries = .bt709, fieldOrder: FieldOrder = .progressive, quarterTurns: Int = 0,
        planes: (Plane, Plane, Plane), alpha: Plane = .none, time: MediaTime, duration: Double? = nil
    ) {
        self.width = width
        self.height = height
        self.layout = layout
        self.bitDepth = bitDepth
        self.matrix = matrix
        self.range = range
        self.transfer = transfer
        self.primaries = primaries
        self.fieldOrder = fieldOrder
        self.quarterTurns = quarterTurns
        self.planes = (planes.0, planes.1, planes.2, alpha)
        self.time = time
        self.duration = duration
    }

    /// Bytes per sample: 1 or 2.
    public var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }

    /// The `width` × `height` pixels from (`x`, `y`) as a picture of their own (the same samples,
    /// borrowed); nil where a plane's subsampling cannot start there (`x` or `y` not on a chroma
    /// sample).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> VideoFrame? {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else { return nil }
        let bytes = bytesPerSample
        var (shiftX, shiftY, chromaStep) = (0, 0, 1)
        var step = 1  // samples a pixel in the first plane
        switch layout {
        case .planarYUV(let chromaShiftX, let chromaShiftY): (shiftX, shiftY) = (chromaShiftX, chromaShiftY)
        case .nv12: (shiftX, shiftY, chromaStep) = (1, 1, 2)
        case .gray, .planarGBR: break
        case .packedRGB(let components, _, _, _, _): step = components
        }
        guard x % (1 << shiftX) == 0, y % (1 << shiftY) == 0 else { return nil }
        func moved(_ plane: Plane, column: Int, row: Int) -> Plane {
            guard let base = plane.base else { return plane }
            return Plane(base: base + row * plane.stride + column * bytes, stride: plane.stride)
        }
        var picture = self
        picture.width = width
        picture.height = height
        let chroma = (column: (x >> shiftX) * chromaStep, row: y >> shiftY)
        picture.planes = (
            moved(planes.0, column: x * step, row: y), moved(planes.1, column: chroma.column, row: chroma.row),
            moved(planes.2, column: chroma.column, row: chroma.row), moved(planes.3, column: x, row: y)
        )
        return picture
    }

    /// One field of an interlaced frame as a picture of its own: every other line (`bottom`: the
    /// odd ones), with chroma lines of the same field. A progressive frame is returned as it is.
    public func field(bottom: Bool) -> VideoFrame {
        guard fieldOrder != .progressive else { return self }
        var field = self
        field.fieldOrder = .progressive
        func half(_ plane: Plane) -> Plane {
            guard let base = plane.base else { return plane }
            return Plane(base: bottom ? base + plane.stride : base, stride: plane.stride * 2)
        }
        field.planes = (half(planes.0), half(planes.1), half(planes.2), half(planes.3))
        field.height = bottom ? height / 2 : (height + 1) / 2
        return field
    }
}
