import CaptionsCommands
import CaptionsFlash
import Foundation
import Testing

/// `captions dim`: the dimmed video follows Apple's model, keeps what it should, and is written
/// safely. Each output is decoded again (by `captions flashes`, exactly) and compared.
@Suite(.serialized)
struct DimCommandTests {
    /// `flashes --format csv` rows of a video.
    static func frames(_ path: String, _ options: [String] = []) -> [[String: String]] {
        let io = MemoryIO()
        _ = run(["flashes", path, "--format", "csv", "-q"] + options, io: io)
        return DFLMaterial.table(String(decoding: io.output, as: UTF8.self))
    }

    static func number(_ row: [String: String], _ key: String) -> Double { Double(row[key] ?? "") ?? .nan }

    /// Frame n of the output is frame n of the input with its light changed by frame n − 1's
    /// mitigation M and adaptation A (a = A / peak): APL′ = (1 − M)² (APL − a) + (1 − M) a; frames
    /// the model leaves alone are only re-encoded.
    @Test(.enabled(if: DFLMaterial.available, "needs ../shared/dfl"))
    func theDimmedPictureLevelFollowsApplesFormula() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let output = folder.appendingPathComponent("dimmed.mp4").path
        let io = MemoryIO()
        #expect(run(["dim", DFLMaterial.clip, "-o", output, "-q", "--preset", "veryfast"], io: io) == 0, "\(io.errors)")
        #expect(String(decoding: io.output, as: UTF8.self).contains("frames dimmed"))
        let before = Self.frames(DFLMaterial.clip), after = Self.frames(output)
        try #require(before.count == 552 && after.count == 552)
        var model = DimFlashingLights(display: .standard, frameRate: 24)
        var previous = model.next(apl: Self.number(before[0], "apl"))
        var dimmed = 0
        for index in 1..<before.count {
            let level = Self.number(before[index], "apl"), got = Self.number(after[index], "apl")
            let m = previous.mitigation, a = previous.adaptation / 100
            let expected = (1 - m) * (1 - m) * (level - a) + (1 - m) * a
            if m > 0 { dimmed += 1 }
            #expect(abs(got - expected) <= 0.01, "frame \(index): APL \(got), formula \(expected) (M \(m))")
            previous = model.next(apl: level)
        }
        #expect(dimmed > 200)
        // The dimmed video is a lower risk on the same display.
        let peak = { (rows: [[String: String]]) in rows.map { Self.number($0, "dfl_risk") }.max() ?? 0 }
        #expect(peak(after) < peak(before) / 2, "risk \(peak(before)) → \(peak(after))")
    }

    /// A 10-bit HEVC clip with sound: the video keeps its codec family, pixel format and colour
    /// tags, the audio is copied, the flashing is dimmed until the clip passes WCAG.
    /// A GIF written back as GIF: a palette for each picture, transparent pixels kept transparent,
    /// and the summary says how the colours were made (an APNG keeps them exactly and says nothing).
    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"))
    func aGIFKeepsItsTransparencyAndSaysHowItsColoursWereMade() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        // Left half transparent, right half black and white at 5 Hz: a GIF that fails.
        let input = folder.appendingPathComponent("half.gif").path
        try #require(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i",
            "color=c=white:s=160x120:r=10:d=3,format=rgba,geq=r='255*mod(N,2)':g='255*mod(N,2)':b='255*mod(N,2)':a='if(lt(X,80),0,255)'",
            "-filter_complex", "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1", input,
        ]))
        for (name, notes) in [("dimmed.gif", true), ("dimmed.apng", false)] {
            let output = folder.appendingPathComponent(name).path
            let io = MemoryIO()
            #expect(run(["dim", input, "-o", output, "--method", "wcag", "-q"], io: io) == 0, "\(io.errors)")
            #expect(io.outputText.contains("input: FAIL") && io.outputText.contains("output: PASS"), "\(io.outputText)")
            #expect(io.outputText.contains("[dim.gif.palette]") == notes, "\(name)")
            #expect(try Self.transparentPixels(output) == [Int](repeating: 80 * 120, count: 30), "\(name)")
        }
    }

    /// A video written as `.gif` or `.apng` becomes a GIF or an APNG (those files hold nothing
    /// else: the H.264 stream was handed to their muxers, which refused it), every frame kept.
    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"), arguments: [("gif", "gif"), ("apng", "apng")])
    func aVideoWrittenAsAnAnimationBecomesOne(fileExtension: String, codec: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = FlashSamples.path("a-black-white-5hz-fail")
        let output = folder.appendingPathComponent("dimmed." + fileExtension).path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "-q"], io: io) == 0, "\(io.errors)")
        #expect(try Self.probe(output, ["-show_entries", "stream=codec_name"]).contains("codec_name=\(codec)"))
        #expect(DimCommandTests.frames(output).count == DimCommandTests.frames(input).count)
    }

    /// How many pixels of each picture are fully transparent.
    static func transparentPixels(_ path: String) throws -> [Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let picture = 160 * 120 * 4
        return stride(from: 0, to: data.count - picture + 1, by: picture).map { start in
            stride(from: start + 3, to: start + picture, by: 4).count { data[$0] == 0 }
        }
    }

    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"))
    func tenBitVideoWithSoundKeepsItsFormatAndItsSound() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("flash.mkv").path
        // Black and white at 5 Hz for 4 s, BT.709 tagged, with a tone.
        try #require(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=320x180:r=30:d=4,geq=lum='if(lt(mod(N\\,6)\\,3)\\,16\\,235)':cb=128:cr=128",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=4",
            "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error",
            "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-c:a", "aac", "-shortest", input,
        ]))
        #expect(run(["flashes", input, "-q"], io: MemoryIO()) == 2)
        let output = folder.appendingPathComponent("dimmed.mkv").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "-q", "--preset", "ultrafast"], io: io) == 0, "\(io.errors)")
        #expect(String(decoding: io.output, as: UTF8.self).contains("encoded with libx265"))
        let streams = try Self.probe(output)
        #expect(streams.contains("codec_name=hevc|codec_type=video|pix_fmt=yuv420p10le|color_space=bt709|color_transfer=bt709|color_primaries=bt709"), "\(streams)")
        #expect(streams.contains("codec_name=aac|codec_type=audio"), "\(streams)")
        #expect(run(["flashes", output, "-q"], io: MemoryIO()) == 0)
    }

    /// HDR10 mastering display and light level metadata (carried in the first frame) survive.
    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"))
    func hdr10MetadataIsKept() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("hdr10.mkv").path
        try #require(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "color=c=gray:s=320x180:r=30:d=1", "-c:v", "libx265", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc",
            "-x265-params",
            "log-level=error:hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400",
            input,
        ]))
        let output = folder.appendingPathComponent("dimmed.mkv").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "-q", "--preset", "ultrafast"], io: io) == 0, "\(io.errors)")
        let firstFrame = try Self.probe(output, ["-show_frames", "-read_intervals", "%+#1", "-show_entries", "frame_side_data"])
        #expect(firstFrame.contains("side_data_type=Mastering display metadata"), "\(firstFrame)")
        #expect(firstFrame.contains("red_x=34000/50000") && firstFrame.contains("max_luminance=10000000/10000"), "\(firstFrame)")
        #expect(firstFrame.contains("max_content=1000") && firstFrame.contains("max_average=400"), "\(firstFrame)")
        let streams = try Self.probe(output)
        #expect(streams.contains("pix_fmt=yuv420p10le|color_space=bt2020nc|color_transfer=smpte2084|color_primaries=bt2020"), "\(streams)")
    }

    /// Languages, titles, the start timecode and chapters survive, in QuickTime (where the muxer
    /// writes the chapter and timecode tracks again, so they are not listed as lost) and Matroska.
    @Test(.enabled(if: FlashSamples.available, "needs ffmpeg"), arguments: ["mov", "mkv"])
    func tagsChaptersAndTimecodeAreKept(fileExtension: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let chapters = folder.appendingPathComponent("chapters.txt")
        try Data("""
            ;FFMETADATA1
            title=My film
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1000
            title=Opening
            [CHAPTER]
            TIMEBASE=1/1000
            START=1000
            END=2000
            title=Flashes

            """.utf8).write(to: chapters)
        let input = folder.appendingPathComponent("in.mov").path
        try #require(FlashSamples.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=160x120:r=25:d=2,geq=lum='255*lt(mod(N\\,6)\\,3)':cb=128:cr=128",
            "-f", "lavfi", "-i", "sine=d=2", "-i", chapters.path, "-map", "0", "-map", "1", "-map_metadata", "2",
            "-map_chapters", "2", "-metadata:s:a:0", "language=fra", "-timecode", "10:00:00:00",
            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", input,
        ]))
        let output = folder.appendingPathComponent("dimmed.\(fileExtension)").path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "--preset", "ultrafast"], io: io) == 0, "\(io.errors)")
        #expect(!io.outputText.contains("not copied"), "\(io.outputText)")
        let entries = ["-show_entries", "stream=codec_type:stream_tags=language,timecode:format_tags=title:chapter=start_time:chapter_tags=title"]
        let probed = try Self.probe(output, entries).lowercased()
        #expect(probed.contains("codec_type=audio|tag:language=fra"), "\(probed)")
        #expect(probed.contains("tag:timecode=10:00:00:00"), "\(probed)")
        #expect(probed.contains("chapter|start_time=0.000000|tag:title=opening"), "\(probed)")
        #expect(probed.contains("chapter|start_time=1.000000|tag:title=flashes"), "\(probed)")
        #expect(probed.contains("format|tag:title=my film"), "\(probed)")
    }

    /// Never over the input, never over a device; a bad display is a usage error.
    @Test func theOutputIsCheckedFirst() throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = folder.appendingPathComponent("in.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: input))
        // The output being the input is a usage error, as in every command.
        #expect(run(["dim", input, "-o", input], io: MemoryIO()) == 64)
        let device = MemoryIO()
        #expect(run(["dim", input, "-o", "/dev/null"], io: device) == 1)
        #expect(device.errors.contains("not a regular file") || device.errors.contains("error"), "\(device.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == Data("not a video".utf8))
        let display = MemoryIO()
        #expect(run(["dim", input, "-o", folder.appendingPathComponent("o.mp4").path, "--display", "watch"], io: display) == 64)
        #expect(display.errors.contains("phone, tablet, laptop, tv"))
        // Nothing is left behind when the input cannot be read.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names == ["in.mp4"], "\(names)")
    }

    /// `ffprobe`'s compact description of a file's streams (or what `entries` ask for).
    static func probe(
        _ path: String,
        _ entries: [String] = ["-show_entries", "stream=codec_name,codec_type,pix_fmt,color_space,color_transfer,color_primaries"]
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error"] + entries + ["-of", "compact", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// `dim --method wcag` on failing sample clips of each kind (general, red, a box in a quarter of
/// the field, RGB APNG, RGB H.264 written through libx264rgb, HDR10 PQ dimmed in cd/m², GIF
/// written back as GIF with a palette a picture): each output passes.
@Suite(.enabled(if: FlashSamples.available, "needs ffmpeg to make the sample clips"), .serialized)
struct LeastDimmingTests {
    @Test(arguments: [
        "a-black-white-5hz-fail.mp4", "d-red-grey-4hz-fail.mp4", "t-box-27pc-fail.mp4", "p-apng-fail.apng",
        "r-h264rgb-fail.mkv", "g-pq-100-140nits-fail.mkv", "o-gif-fail.gif", "z-ntsc-pasp-fail.mov",
    ])
    func theDimmedClipPasses(name: String) throws {
        let folder = try temporaryFolder()
        defer { removeTemporaryFolder(folder) }
        let input = FlashSamples.folder.appendingPathComponent(name).path
        let output = folder.appendingPathComponent(name).path
        let io = MemoryIO()
        #expect(run(["dim", input, "-o", output, "--method", "wcag", "-q", "--preset", "ultrafast"], io: io) == 0, "\(io.errors)")
        let text = io.outputText
        #expect(text.contains("input: FAIL") && text.contains("output: PASS"), "\(text)")
        // The least change: not everything is darkened to nothing.
        #expect(!text.contains("by 100%"), "\(text)")
        #expect(run(["flashes", output, "-q"], io: MemoryIO()) == 0)
        // Every frame is still there.
        let before = DimCommandTests.frames(input), after = DimCommandTests.frames(output)
        #expect(before.count == after.count)
        // Shown at the same shape (the container's pixel aspect was dropped: 4:3 became 3:2).
        let aspect = ["-select_streams", "v:0", "-show_entries", "stream=display_aspect_ratio"]
        #expect(try DimCommandTests.probe(output, aspect) == DimCommandTests.probe(input, aspect))
    }
}
