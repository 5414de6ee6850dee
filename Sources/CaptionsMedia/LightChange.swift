import CCaptionsFFmpeg
import CCaptionsKernels
import CaptionsCore
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A change to a frame's light, made in display light: each channel's signal v becomes light x,
/// then x′ = contrast × (x − adaptation) + brightness × adaptation, then each pixel's colour is
/// moved toward its grey by `saturation`. Apple's Dim Flashing Lights dimming is contrast (1 − M)²,
/// brightness 1 − M.
///
/// Light is measured as the flash analysis measures it, as a share of the display's peak:
/// - SDR: x = v^2.2 (Apple's display model), clipped to 0–1;
/// - PQ: x = cd/m² (SMPTE ST 2084) over `displayPeak`, so HDR is dimmed in absolute light; light
///   above the display's peak stays above it (up to PQ's 10,000 cd/m²);
/// - HLG: x = `hdrPeak` × scene^γ over `displayPeak` per channel (BT.2100's system gamma γ for
///   that display; exact for greys, the luminance-based OOTF approximated per channel).
public struct LightChange: Sendable, Equatable {
    /// What multiplies the light's distance from the adaptation level.
    public var contrast: Double
    /// What multiplies the adaptation level.
    public var brightness: Double
    /// The level contrast is reduced around, 0–1 of the display's peak.
    public var adaptation: Double
    /// 1 keeps colours; 0 makes every pixel grey.
    public var saturation: Double
    /// The display's peak in cd/m², which `adaptation` is a share of (PQ and HLG).
    public var displayPeak: Double = 100
    /// The peak of the display HLG is shown on, in cd/m².
    public var hdrPeak: Double = 1000

    /// A change; see the type.
    public init(contrast: Double, brightness: Double, adaptation: Double, saturation: Double = 1) {
        self.contrast = contrast
        self.brightness = brightness
        self.adaptation = adaptation
        self.saturation = saturation
    }

    /// Apple's dimming by `mitigation` (0–1) around `adaptation` (0–1 of `displayPeak` cd/m²).
    public static func dimFlashingLights(mitigation: Double, adaptation: Double, displayPeak: Double = 100) -> LightChange {
        var change = LightChange(contrast: (1 - mitigation) * (1 - mitigation), brightness: 1 - mitigation, adaptation: adaptation)
        change.displayPeak = displayPeak
        return change
    }

    /// Whether it changes nothing.
    public var isIdentity: Bool { contrast == 1 && brightness == 1 && saturation == 1 }

    /// The signal curve for pictures of `transfer`: 1025 new signals at signal 0, 1/1024 … 1.
    func curve(transfer: VideoFrame.Transfer = .sdr) -> [Float] {
        let peak = max(displayPeak, 1)
        let gamma = TransferFunction.hlgSystemGamma(peak: hdrPeak)
        func light(_ signal: Double) -> Double {
            switch transfer {
            case .sdr: pow(signal, 2.2)
            case .pq: TransferFunction.pqToNits(signal) / peak
            case .hlg: hdrPeak * pow(TransferFunction.hlgToScene(signal), gamma) / peak
            }
        }
        func signal(_ light: Double) -> Double {
            switch transfer {
            case .sdr: pow(min(1, light), 1 / 2.2)
            case .pq: TransferFunction.nitsToPQ(light * peak)
            case .hlg: TransferFunction.sceneToHLG(pow(light * peak / hdrPeak, 1 / gamma))
            }
        }
        let ceiling = transfer == .sdr ? 1 : light(1)
        return (0...1024).map { step in
            let changed = min(ceiling, max(0, contrast * (light(Double(step) / 1024) - adaptation) + brightness * adaptation))
            return Float(signal(changed))
        }
    }
}

extension LightChange {
    /// Changes `frame`'s pixels in place (after making them its own, so that no picture the
    /// decoder still refers to is touched). `frame` is the picture `view` reads: as decoded, or as
    /// converted for the analysis (RGBA, RGBA64, GRAY16 or YUV 4:4:4 16-bit), so that every
    /// format the analysis reads can be dimmed.
    func apply(to frame: UnsafeMutablePointer<AVFrame>, view: VideoFrame) throws(MediaError) {
        let descriptor = ccaptions_av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format))
        let refused = UInt64(AV_PIX_FMT_FLAG_BE) | UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM)
            | UInt64(AV_PIX_FMT_FLAG_FLOAT) | UInt64(AV_PIX_FMT_FLAG_BAYER) | UInt64(AV_PIX_FMT_FLAG_HWACCEL)
        guard let descriptor, descriptor.pointee.flags & refused == 0 else {
            let name = descriptor.map { String(cString: $0.pointee.name) } ?? "this"
            throw MediaError("media.dim.format", "dimming \(name) pictures is not supported")
        }
        if descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 {
            try applyToRGB(frame, descriptor: descriptor, transfer: view.transfer)
            return
        }
        let components = descriptor.pointee.comp
        let luma = components.0
        // P010's 10 bits sit at the top of 16: read as 16-bit samples, as the analysis reads them.
        let depth = Int(luma.depth + luma.shift)
        let bytes = depth > 8 ? 2 : 1
        let grey = descriptor.pointee.nb_components == 1
        let semiPlanar = !grey && components.1.plane == components.2.plane
        guard Int(luma.step) == bytes, depth <= 16,
            grey || Int(components.1.step) == (semiPlanar ? 2 * bytes : bytes) && Int(components.2.step) == Int(components.1.step)
        else {
            throw MediaError("media.dim.format", "dimming \(String(cString: descriptor.pointee.name)) pictures is not supported")
        }
        guard ccaptions_av_frame_make_writable(frame) >= 0 else { throw MediaError("media.memory", "out of memory") }
        let (kr, kb): (Float, Float)
        switch view.matrix {
        case .bt601: (kr, kb) = (0.299, 0.114)
        case .bt709: (kr, kb) = (0.2126, 0.0722)
        case .bt2020: (kr, kb) = (0.2627, 0.0593)
        }
        var layout = ccaptions_yuv_layout(
            width: frame.pointee.width, height: frame.pointee.height, shift_x: Int32(descriptor.pointee.log2_chroma_w),
            shift_y: Int32(descriptor.pointee.log2_chroma_h), bit_depth: Int32(depth),
            limited: view.range == .limited ? 1 : 0, kr: kr, kb: kb, chroma_step: semiPlanar ? 2 : 1)
        let curve = curve(transfer: view.transfer)
        let data = frame.pointee.data, lines = frame.pointee.linesize
        let planes = [data.0, data.1, data.2, data.3]
        let strides = [lines.0, lines.1, lines.2, lines.3].map { Int($0) }
        let u = grey ? nil : planes[Int(components.1.plane)].map { $0 + Int(components.1.offset) }
        let v = grey ? nil : planes[Int(components.2.plane)].map { $0 + Int(components.2.offset) }
        curve.withUnsafeBufferPointer { values in
            var dim = ccaptions_dim_curve(curve: values.baseAddress, saturation: Float(saturation))
            ccaptions_dim_yuv(
                planes[Int(luma.plane)].map { $0 + Int(luma.offset) }, strides[Int(luma.plane)], u,
                grey ? 0 : strides[Int(components.1.plane)], v, grey ? 0 : strides[Int(components.2.plane)], &layout, &dim)
        }
    }
}

extension LightChange {
    /// ``apply(to:view:)`` for RGB pictures, packed or planar, 8 to 16 bits.
    private func applyToRGB(
        _ frame: UnsafeMutablePointer<AVFrame>, descriptor: UnsafePointer<AVPixFmtDescriptor>, transfer: VideoFrame.Transfer
    ) throws(MediaError) {
        let components = descriptor.pointee.comp
        let parts = [components.0, components.1, components.2]
        guard parts.allSatisfy({ $0.step == parts[0].step && $0.shift == 0 }), parts[0].depth == 8 || parts[0].depth > 8 && parts[0].step % 2 == 0
        else { throw MediaError("media.dim.format", "dimming \(String(cString: descriptor.pointee.name)) pictures is not supported") }
        guard ccaptions_av_frame_make_writable(frame) >= 0 else { throw MediaError("media.memory", "out of memory") }
        var data = frame.pointee.data
        var lines = frame.pointee.linesize
        let planes = withUnsafeBytes(of: &data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: &lines) { Array($0.bindMemory(to: Int32.self)) }
        let pointers = parts.map { planes[Int($0.plane)] }
        guard let red = pointers[0], let green = pointers[1], let blue = pointers[2] else {
            throw MediaError("media.dim.format", "a picture without its planes")
        }
        let curve = curve(transfer: transfer)
        curve.withUnsafeBufferPointer { values in
            var dim = ccaptions_dim_curve(curve: values.baseAddress, saturation: Float(saturation))
            ccaptions_dim_rgb(
                red + Int(parts[0].offset), Int(strides[Int(parts[0].plane)]), green + Int(parts[1].offset),
                Int(strides[Int(parts[1].plane)]), blue + Int(parts[2].offset), Int(strides[Int(parts[2].plane)]),
                parts[0].step, frame.pointee.width, frame.pointee.height, parts[0].depth, &dim)
        }
    }
}

extension VideoDecoder {
    /// Decodes every frame, changes each as `change` says (nil: unchanged), and hands `body` the
    /// changed picture: what a rewritten video would show, without encoding it.
    public func decode(
        changing change: (VideoFrame) -> LightChange?, _ body: (VideoFrame) -> Bool
    ) throws(MediaError) -> DecodeOutcome {
        var failure: MediaError?
        let outcome = decode { (view: VideoFrame, _, picture: UnsafeMutablePointer<AVFrame>) -> Bool in
            guard let wanted = change(view), !wanted.isIdentity else { return body(view) }
            do throws(MediaError) {
                try wanted.apply(to: picture, view: view)
            } catch {
                failure = error
                return false
            }
            // Making the picture its own may have moved its planes.
            var changed = view
            let data = picture.pointee.data, lines = picture.pointee.linesize
            changed.planes = (
                VideoFrame.Plane(base: UnsafePointer(data.0), stride: Int(lines.0)),
                VideoFrame.Plane(base: UnsafePointer(data.1), stride: Int(lines.1)),
                VideoFrame.Plane(base: UnsafePointer(data.2), stride: Int(lines.2)), view.planes.3
            )
            return body(changed)
        }
        if let failure { throw failure }
        return outcome
    }
}
