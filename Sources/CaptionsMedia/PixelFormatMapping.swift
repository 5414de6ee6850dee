import CCaptionsFFmpeg
import CaptionsCore

/// How a decoded picture's pixel format is read: in place when the analysis reads its layout
/// (8-bit and 9–16-bit little-endian planar and semi-planar YUV, grey, planar GBR and packed RGB
/// with or without alpha), or converted once by libswscale into a format it reads without losing
/// precision or changing the colour model: RGB, palette and grey-with-alpha formats to RGBA or
/// RGBA64, grey to 16-bit grey, YUV formats to 16-bit 4:4:4.
enum PixelFormatMapping {
    /// A format read in place.
    struct Native {
        var layout: VideoFrame.Layout
        var bitDepth: Int
    }

    /// The layout of `format` when it is read in place; nil when it needs converting.
    static func native(_ format: AVPixelFormat) -> Native? {
        guard let descriptor = ccaptions_av_pix_fmt_desc_get(format)?.pointee else { return nil }
        let flags = descriptor.flags
        let refused = UInt64(AV_PIX_FMT_FLAG_BE) | UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM)
            | UInt64(AV_PIX_FMT_FLAG_HWACCEL) | UInt64(AV_PIX_FMT_FLAG_BAYER) | UInt64(AV_PIX_FMT_FLAG_FLOAT)
        guard flags & refused == 0 else { return nil }
        let count = Int(descriptor.nb_components)
        let components = withUnsafeBytes(of: descriptor.comp) { Array($0.bindMemory(to: AVComponentDescriptor.self)) }
        guard count >= 1, count <= 4 else { return nil }
        let first = components[0]
        let depth = Int(first.depth + first.shift)
        // Every component the same size: 8 bits in a byte, or up to 16 in two bytes.
        let bytes = depth > 8 ? 2 : 1
        for index in 0..<count {
            let component = components[index]
            guard Int(component.depth + component.shift) == depth, depth <= 16, component.depth >= 8 else { return nil }
        }
        let isRGB = flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let planar = flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0
        if isRGB {
            guard count >= 3 else { return nil }
            let hasAlpha = count == 4
            if planar {
                // FFmpeg's gbrp family: R in plane 2, G in 0, B in 1, alpha in 3.
                guard components[0].plane == 2, components[1].plane == 0, components[2].plane == 1,
                    !hasAlpha || components[3].plane == 3, components.prefix(count).allSatisfy({ Int($0.step) == bytes })
                else { return nil }
                return Native(layout: .planarGBR(alpha: hasAlpha), bitDepth: depth)
            }
            let step = Int(first.step)
            guard components.prefix(count).allSatisfy({ $0.plane == 0 && Int($0.step) == step && Int($0.offset) % bytes == 0 }),
                step % bytes == 0
            else { return nil }
            return Native(
                layout: .packedRGB(
                    components: step / bytes, red: Int(components[0].offset) / bytes,
                    green: Int(components[1].offset) / bytes, blue: Int(components[2].offset) / bytes,
                    alpha: hasAlpha ? Int(components[3].offset) / bytes : nil),
                bitDepth: depth)
        }
        if count == 1 {
            guard Int(first.step) == bytes else { return nil }
            return Native(layout: .gray, bitDepth: depth)
        }
        guard count >= 3, Int(first.step) == bytes, first.plane == 0 else { return nil }
        let shiftX = Int(descriptor.log2_chroma_w)
        let shiftY = Int(descriptor.log2_chroma_h)
        let (u, v) = (components[1], components[2])
        if u.plane == 1, v.plane == 1 {
            // NV12, P010, P016: U then V interleaved at half size both ways.
            guard shiftX == 1, shiftY == 1, Int(u.step) == 2 * bytes, Int(u.offset) == 0, Int(v.offset) == bytes
            else { return nil }
            return Native(layout: .nv12, bitDepth: depth)
        }
        // Planar Y, U, V, and an alpha plane (yuva420p, ProRes 4444) that the sampler composites over black.
        guard u.plane == 1, v.plane == 2, Int(u.step) == bytes, Int(v.step) == bytes else { return nil }
        return Native(layout: .planarYUV(chromaShiftX: shiftX, chromaShiftY: shiftY), bitDepth: depth)
    }

    /// The format a picture that is not read in place is converted to.
    static func conversionTarget(for format: AVPixelFormat) -> (AVPixelFormat, Native) {
        let descriptor = ccaptions_av_pix_fmt_desc_get(format)?.pointee
        let flags = descriptor?.flags ?? 0
        let rgbLike = flags & (UInt64(AV_PIX_FMT_FLAG_RGB) | UInt64(AV_PIX_FMT_FLAG_PAL)) != 0
        let deep = (descriptor.map { Int($0.comp.0.depth) } ?? 8) > 8
        // Grey with alpha goes to RGBA (grey is full range: R = G = B), so that its alpha is
        // composited over black like any other, and a dimmed copy keeps it.
        if rgbLike || descriptor?.nb_components == 2 {
            let alpha = VideoFrame.Layout.packedRGB(components: 4, red: 0, green: 1, blue: 2, alpha: 3)
            return deep ? (AV_PIX_FMT_RGBA64LE, Native(layout: alpha, bitDepth: 16)) : (AV_PIX_FMT_RGBA, Native(layout: alpha, bitDepth: 8))
        }
        if descriptor?.nb_components == 1 {
            return (AV_PIX_FMT_GRAY16LE, Native(layout: .gray, bitDepth: 16))
        }
        return (AV_PIX_FMT_YUV444P16LE, Native(layout: .planarYUV(chromaShiftX: 0, chromaShiftY: 0), bitDepth: 16))
    }

    /// Whether a picture encoded as `encoded` and decoded as `decoded` kept its kind: as many
    /// components, RGB or not, alpha or not, at the same depth. Decoders may hand over a
    /// relative of what was encoded (RGB H.264 as planar GBR, YUVJ as YUV, grey H.264 as YUV); a palette is
    /// decoded to whatever its decoder chooses (GIF: BGRA), so it always keeps its kind, and so
    /// does 8-bit grey read back as a palette of greys (raw grey in QuickTime).
    static func sameKind(_ decoded: AVPixelFormat, _ encoded: AVPixelFormat) -> Bool {
        guard let a = ccaptions_av_pix_fmt_desc_get(decoded)?.pointee, let b = ccaptions_av_pix_fmt_desc_get(encoded)?.pointee else {
            return false
        }
        if b.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0 { return true }
        // Raw 8-bit grey in QuickTime is read back as a palette of greys: the same picture.
        if a.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0, b.nb_components == 1, b.comp.0.depth == 8 { return true }
        let kind = UInt64(AV_PIX_FMT_FLAG_RGB) | UInt64(AV_PIX_FMT_FLAG_ALPHA)
        // Grey decoded as YUV with neutral chroma (H.264 4:0:0) is grey.
        let components = a.nb_components == b.nb_components || (b.nb_components == 1 && a.nb_components == 3)
        return components && a.flags & kind == b.flags & kind && a.comp.0.depth == b.comp.0.depth
    }

    /// The name FFmpeg gives `format`.
    static func name(_ format: AVPixelFormat) -> String {
        ccaptions_av_pix_fmt_desc_get(format).map { String(cString: $0.pointee.name) } ?? "unknown"
    }
}
