import CaptionsCommands
import Foundation
import Testing

/// `captions dim` on every kind of picture the scan reads, and into containers that cannot hold
/// the input's codec.
@Suite(.enabled(if: FlashSamples.available, "needs ffmpeg"), .serialized)
struct DimFormatTests {
    /// White and black at 6.25 Hz for 2 s at 160 × 120: a general flash over the whole picture.
    static let whiteBlack = "color=c=white:s=160x120:r=25:d=2,geq=r='if(lt(mod(N\\,4)\\,2)\\,255\\,0)':g='if(lt(mod(N\\,4)\\,2)\\,255\\,0)':b='if(lt(mod(N\\,4)\\,2)\\,255\\,0)'"

    /// `name` in `folder`, made by ffmpeg from the lavfi `source` with `options` (codec, pixel format).
    static func clip(_ name: String, in folder: URL, _ source: String, _ options: [String]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try #require(FlashSamples.ffmpeg(["-f", "lavfi", "-i", source] + options + [path]))
        return path
    }

    /// Pixel formats read in place (grey, NV12 with U and V in one plane) and formats the
    /// analysis converts (a palette, packed 4:2:2, grey with alpha, CIE XYZ, 5-6-5 RGB): dimming
    /// NV12 crashed, and the others were refused as "not supported yet".
    @Test(arguments: ["nv12", "gray", "pal8", "uyvy422", "ya8", "xyz12le", "rgb565le"])
    func everyFormatTheScanReadsIsDimmed(pixelFormat: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("flash.nut").path
        // White and black at 6.25 Hz for 2 s: a general flash over the whole picture.
        try #require(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", Self.whiteBlack,
            "-c:v", "rawvideo", "-pix_fmt", pixelFormat, input,
        ]))
        let formats = try DimCommandTests.probe(input, ["-show_entries", "stream=pix_fmt"])
        try #require(formats.contains("pix_fmt=\(pixelFormat)"), "ffmpeg wrote \(formats)")
        #expect(run(["flashes", input, "-q"], io: MemoryIO()) == 2)
        let output = folder.appendingPathComponent("dimmed.mp4").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "--method", "wcag", "--preset", "ultrafast"], io: io) == 0, "\(io.errors)")
        #expect(io.outputText.contains("output: PASS"), "\(io.outputText)")
        let before = DimCommandTests.frames(input), after = DimCommandTests.frames(output)
        #expect(before.count == 50 && after.count == 50)
        // The white pictures are dimmed, not blacked out or left alone.
        let level = { (rows: [[String: String]]) in rows.map { DimCommandTests.number($0, "apl") }.max() ?? .nan }
        #expect(level(after) < level(before) * 0.9 && level(after) > 0.01, "\(level(before)) → \(level(after))")
    }

    /// Written in the input's own container and codec, a dimmed copy keeps the input's pixel
    /// format: raw packed 4:2:2, NV21 and big-endian grey were written in the analysis's format
    /// (16-bit 4:4:4, RGBA), which QuickTime and AVI cannot name: an unreadable file, exit 0.
    @Test(arguments: [("uyvy422", "mov"), ("nv21", "avi"), ("yuyv422", "avi"), ("gray16be", "mov"), ("pal8", "mov")])
    func aCopyInTheInputsContainerKeepsItsPixelFormat(pixelFormat: String, container: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try Self.clip("flash.\(container)", in: folder, Self.whiteBlack, ["-c:v", "rawvideo", "-pix_fmt", pixelFormat])
        let output = folder.appendingPathComponent("dimmed.\(container)").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output], io: io) == 0, "\(io.errors)")
        #expect(try DimCommandTests.probe(output, ["-show_entries", "stream=pix_fmt"]).contains("pix_fmt=\(pixelFormat)"))
        #expect(DimCommandTests.frames(output).count == 50)
        #expect(run(["flashes", output, "-q"], io: MemoryIO()) == 0)
    }

    /// Grey with alpha is composited over black like any other alpha (it was read as grey alone:
    /// a white picture whose alpha flickers passed), and a dimmed copy keeps its alpha.
    @Test func greyWithAlphaIsCompositedAndKeepsItsAlpha() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let flicker = try Self.clip(
            "flicker.mov", in: folder, "color=c=white:s=160x120:r=25:d=2,format=ya8,geq=lum=255:a='if(lt(mod(N\\,4)\\,2)\\,255\\,0)'",
            ["-c:v", "png", "-pix_fmt", "ya8"])
        #expect(run(["flashes", flicker, "-q"], io: MemoryIO()) == 2)
        // A flashing grey picture whose left half is transparent.
        let input = try Self.clip(
            "half.mov", in: folder,
            "color=c=white:s=160x120:r=25:d=2,format=ya8,geq=lum='if(lt(mod(N\\,4)\\,2)\\,255\\,0)':a='if(lt(X\\,80)\\,0\\,255)'",
            ["-c:v", "png", "-pix_fmt", "ya8"])
        let output = folder.appendingPathComponent("dimmed.mov").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output], io: io) == 0, "\(io.errors)")
        #expect(try DimCommandTests.probe(output, ["-show_entries", "stream=pix_fmt"]).contains("pix_fmt=ya8"))
        // Every picture as RGBA: transparent on the left, opaque on the right, as in the input.
        let pixels = folder.appendingPathComponent("dimmed.rgba").path
        try #require(FlashSamples.ffmpeg(["-i", output, "-f", "rawvideo", "-pix_fmt", "rgba", pixels]))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pixels)))
        let picture = 160 * 120 * 4
        #expect(bytes.count == 50 * picture)
        let (left, right): (Int, Int) = ((10 * 160 + 10) * 4 + 3, (10 * 160 + 100) * 4 + 3)
        let alphas: [[UInt8]] = stride(from: 0, to: bytes.count, by: picture).map { start in [bytes[start + left], bytes[start + right]] }
        #expect(alphas.allSatisfy { $0 == [0, 255] }, "\(alphas)")
        // Raw grey with alpha is a format QuickTime cannot name: the file read back as 5-5-5 RGB
        // with exit 0. What does not read back as written is an error, and nothing is left.
        let raw = folder.appendingPathComponent("raw.mov").path
        let refused = MemoryIO()
        #expect(run(["dim", input, "-o", raw, "--codec", "rawvideo"], io: refused) == 1)
        #expect(refused.errors.contains("[dim.output.unreadable]") && refused.errors.contains("rgb555be"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: raw))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".") })
    }

    /// VP9 with alpha (WebM): a flash that is wholly transparent is black, and stays so when it
    /// is copied (the dimmed copy took FFmpeg's decoder's format, without alpha: it FAILed).
    /// Raw Bayer, which libswscale cannot write, is written as the analysis reads it.
    @Test func alphaBesideThePictureAndFormatsNoConverterWritesAreCopied() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = try Self.clip(
            "clear.webm", in: folder,
            "color=c=black:s=160x120:r=30:d=2,format=yuva420p,geq=lum='if(lt(mod(N\\,6)\\,3)\\,235\\,16)':cb=128:cr=128:a=0",
            ["-c:v", "libvpx-vp9", "-b:v", "500k"])
        #expect(run(["flashes", input, "-q"], io: MemoryIO()) == 0)
        let output = folder.appendingPathComponent("copy.webm").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output], io: io) == 0, "\(io.errors)")
        #expect(run(["flashes", output, "-q"], io: MemoryIO()) == 0)
        // Bayer samples can only be given as raw bytes (no filter makes them): a ramp, 10 frames.
        let samples = folder.appendingPathComponent("bayer.raw")
        try Data((0..<(64 * 48 * 10)).map { UInt8(truncatingIfNeeded: $0 % 64 * 4) }).write(to: samples)
        let bayer = folder.appendingPathComponent("bayer.nut").path
        try #require(FlashSamples.ffmpeg([
            "-f", "rawvideo", "-pix_fmt", "bayer_rggb8", "-s", "64x48", "-r", "10", "-i", samples.path, "-c:v", "rawvideo", bayer,
        ]))
        let raw = MemoryIO()
        #expect(run(["dim", bayer, "-o", folder.appendingPathComponent("bayer-out.nut").path], io: raw) == 0, "\(raw.errors)")
    }

    /// VP9 cannot go in QuickTime: with no `--codec` the container's own (H.264) is used and the
    /// report says why; asked for by name, the refusal names the container and the encoder.
    @Test func theContainersOwnCodecIsUsedWhenTheInputsCannotGoInIt() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("flash.webm").path
        try #require(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=160x120:r=25:d=2,geq=lum='if(lt(mod(N\\,4)\\,2)\\,235\\,16)':cb=128:cr=128",
            "-c:v", "libvpx-vp9", "-b:v", "500k", input,
        ]))
        let output = folder.appendingPathComponent("dimmed.mov").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "--preset", "ultrafast"], io: io) == 0, "\(io.errors)")
        #expect(io.outputText.contains("encoded with libx264") && io.outputText.contains("[dim.codec.container]"), "\(io.outputText)")
        #expect(try DimCommandTests.probe(output, ["-show_entries", "stream=codec_name"]).contains("codec_name=h264"))
        let asked = MemoryIO()
        #expect(run(["dim", input, "-o", output, "--codec", "libvpx-vp9"], io: asked) == 1)
        #expect(asked.errors.contains("mov refused libvpx-vp9 video"), "\(asked.errors)")
    }

    /// A palette clip dimmed "to pass" and encoded as YUV H.264: the least dimming measured on
    /// the decoded pictures left the encoded ones just over the limit (exit 2, "output: FAIL").
    /// The written file is scanned, and what still fails is dimmed more and written again.
    @Test func whatStillFlashesOnceEncodedIsDimmedMore() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("flash.nut").path
        try #require(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", Self.whiteBlack,
            "-c:v", "rawvideo", "-pix_fmt", "pal8", input,
        ]))
        let output = folder.appendingPathComponent("dimmed.mp4").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "--method", "wcag", "--codec", "libx264", "--preset", "ultrafast"], io: io) == 0, "\(io.errors)")
        #expect(io.outputText.contains("output: PASS"), "\(io.outputText)")
        #expect(run(["flashes", output, "-q"], io: MemoryIO()) == 0)
    }
}
