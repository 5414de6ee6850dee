/// The closed-caption data a video carries with one picture: ATSC A/53 `cc_data` as libavcodec
/// hands it over (H.264 and HEVC SEI user data, MPEG-2 picture user data), in display order.
///
/// CaptionsMedia reads these from a video stream; CaptionsFormats decodes their CEA-608 pairs
/// into a ``TimedTextDocument`` as it decodes an SCC file.
public struct ClosedCaptionData: Sendable, Hashable {
    /// When the picture is shown, from the first picture of the video (0).
    public var time: MediaTime
    /// `cc_data` triplets: a marker byte (bit 2 `cc_valid`, bits 0–1 `cc_type`: 0 field 1,
    /// 1 field 2, 2 and 3 CEA-708 DTVCC), then two bytes of data.
    public var triplets: [UInt8]

    /// The data of one picture.
    public init(time: MediaTime, triplets: [UInt8]) {
        self.time = time
        self.triplets = triplets
    }
}
