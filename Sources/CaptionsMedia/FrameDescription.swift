import CCaptionsFFmpeg
import CaptionsCore

/// A picture's colour encoding, from its tags, with a guess where a tag is missing.
struct ColourTags: Equatable {
    var matrix: VideoFrame.Matrix
    var range: VideoFrame.Range
    var transfer: VideoFrame.Transfer
    var primaries: VideoFrame.Primaries
}

extension VideoDecoder {
    /// A frame's pixel format and colour tags as decoded: while they stay the same (every frame
    /// but the first, in most streams), the layout and colour worked out from them are kept.
    struct RawDescription: Equatable {
        var format, transfer, primaries, space, range, height: Int32

        init(_ frame: AVFrame) {
            (format, height) = (frame.format, frame.height)
            transfer = Int32(frame.color_trc.rawValue)
            primaries = Int32(frame.color_primaries.rawValue)
            space = Int32(frame.colorspace.rawValue)
            range = Int32(frame.color_range.rawValue)
        }
    }

    /// How frames of one raw description are read: the layout, the format to convert to first
    /// (nil: read in place) and the colour encoding.
    struct Description {
        var layout: PixelFormatMapping.Native
        var conversion: AVPixelFormat?
        var colour: ColourTags
    }

    func describe(_ frame: UnsafeMutablePointer<AVFrame>, key: RawDescription) -> (key: RawDescription, value: Description) {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        let native = PixelFormatMapping.native(format)
        let name = PixelFormatMapping.name(format) + (native == nil ? " (converted)" : "")
        if pixelFormats.last != name { pixelFormats.append(name) }
        var description: Description
        if let native {
            description = Description(layout: native, conversion: nil, colour: colourTags(of: frame, isRGB: native.layout.isRGB))
        } else {
            let (target, layout) = PixelFormatMapping.conversionTarget(for: format)
            description = Description(layout: layout, conversion: target, colour: colourTags(of: frame, isRGB: layout.layout.isRGB))
        }
        return (key, description)
    }


    /// The colour encoding of `frame`. Untagged values are guessed, each guess noted once in the
    /// outcome: an untagged transfer is SDR unless the stream carries HDR metadata (mastering
    /// display or content light level, in the container or the picture's side data: PQ); untagged primaries and matrix are BT.2020 for HDR,
    /// BT.709 for 720 lines or more and BT.601 below; an untagged YUV range is limited. Untagged
    /// RGB (GIF, PNG) is sRGB, which is no guess.
    func colourTags(of frame: UnsafeMutablePointer<AVFrame>, isRGB: Bool) -> ColourTags {
        let height = Int(frame.pointee.height)
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        var transfer: VideoFrame.Transfer
        switch frame.pointee.color_trc {
        case AVCOL_TRC_SMPTE2084: transfer = .pq
        case AVCOL_TRC_ARIB_STD_B67: transfer = .hlg
        case AVCOL_TRC_UNSPECIFIED, AVCOL_TRC_RESERVED, AVCOL_TRC_RESERVED0:
            transfer = hasHDRMetadata ? .pq : .sdr
            if !isRGB || hasHDRMetadata { note(hasHDRMetadata
                ? "the stream does not say its transfer function but carries HDR mastering metadata: PQ (SMPTE ST 2084) assumed"
                : "the stream does not say its transfer function: SDR assumed") }
        case AVCOL_TRC_BT709, AVCOL_TRC_SMPTE170M, AVCOL_TRC_IEC61966_2_1, AVCOL_TRC_BT2020_10,
            AVCOL_TRC_BT2020_12, AVCOL_TRC_GAMMA22, AVCOL_TRC_BT1361_ECG, AVCOL_TRC_IEC61966_2_4:
            transfer = .sdr
        default:
            // Linear, log, gamma 2.8, SMPTE 240M, DCI: measured with the sRGB curve all the same.
            transfer = .sdr
            let name = ccaptions_av_color_transfer_name(frame.pointee.color_trc).map { String(cString: $0) } ?? "unknown"
            note("the stream's transfer function (\(name)) is measured as SDR (the sRGB curve)")
        }
        let hdr = transfer != .sdr
        var primaries: VideoFrame.Primaries
        switch frame.pointee.color_primaries {
        case AVCOL_PRI_BT2020: primaries = .bt2020
        case AVCOL_PRI_UNSPECIFIED, AVCOL_PRI_RESERVED, AVCOL_PRI_RESERVED0:
            primaries = hdr ? .bt2020 : .bt709
            if !isRGB { note("the stream does not say its colour primaries: \(hdr ? "BT.2020" : "BT.709") assumed") }
        default: primaries = .bt709
        }
        var matrix: VideoFrame.Matrix
        switch frame.pointee.colorspace {
        case AVCOL_SPC_BT709: matrix = .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = .bt2020
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M, AVCOL_SPC_FCC: matrix = .bt601
        default:
            matrix = hdr || primaries == .bt2020 ? .bt2020 : height >= 720 ? .bt709 : .bt601
            if !isRGB { note("the stream does not say its YUV matrix: \(matrix.rawValue.uppercased().replacing("BT", with: "BT.")) assumed") }
        }
        var range: VideoFrame.Range
        if [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P].contains(format) {
            range = .full
        } else {
            switch frame.pointee.color_range {
            case AVCOL_RANGE_JPEG: range = .full
            case AVCOL_RANGE_MPEG: range = .limited
            default:
                range = .limited
                if !isRGB { note("the stream does not say its YUV range: limited assumed") }
            }
        }
        return ColourTags(matrix: matrix, range: range, transfer: transfer, primaries: primaries)
    }

    private func note(_ guess: String) {
        if !colourGuesses.contains(guess) { colourGuesses.append(guess) }
    }
}
