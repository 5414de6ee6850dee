import CCaptionsFFmpeg

/// Turns pictures into palette pictures for a GIF encoder, each with its own 256-colour palette
/// made from that picture (libavfilter's `palettegen` and `paletteuse`), so that dimmed colours
/// come out as near as 256 colours allow. libswscale's fixed palette moved a dimmed flash back
/// toward the colours it was dimmed from, and the GIF failed the very test it was dimmed for.
///
/// Ordered (Bayer) dithering keeps each area's mean light, as a flash scan measures it, without
/// the error diffusion that crawls from one picture to the next; transparent pixels stay
/// transparent. Pictures come out in order, some after later ones went in; ``finish()`` lets the
/// last ones out.
final class PaletteFilter {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private var output: UnsafeMutablePointer<AVFrame>?
    /// The size and pixel format of the pictures it takes.
    let width: Int32, height: Int32, format: Int32

    /// A filter for pictures of this size and pixel format, stamped in `timeBase`.
    init(width: Int32, height: Int32, format: AVPixelFormat, timeBase: AVRational, aspect: AVRational) throws(MediaError) {
        if let failure = ccaptions_avfilter_load() { throw MediaError("media.ffmpeg.missing", String(cString: failure)) }
        guard let graph = ccaptions_avfilter_graph_alloc(), let output = ccaptions_av_frame_alloc() else {
            throw MediaError("media.memory", "out of memory")
        }
        self.graph = graph
        self.output = output
        (self.width, self.height, self.format) = (width, height, format.rawValue)
        let aspect = aspect.num > 0 && aspect.den > 0 ? aspect : AVRational(num: 1, den: 1)
        let description = "buffer@in=video_size=\(width)x\(height):pix_fmt=\(format.rawValue)"
            + ":time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=\(aspect.num)/\(aspect.den),"
            + "split[colours][picture];[colours]palettegen=stats_mode=single[palette];"
            + "[picture][palette]paletteuse=new=1:dither=bayer:bayer_scale=3,buffersink@out"
        let parsed = ccaptions_avfilter_graph_parse_ptr(graph, description, nil, nil, nil)
        let configured = parsed >= 0 ? ccaptions_avfilter_graph_config(graph, nil) : parsed
        guard parsed >= 0, configured >= 0,
            let source = ccaptions_avfilter_graph_get_filter(graph, "buffer@in"),
            let sink = ccaptions_avfilter_graph_get_filter(graph, "buffersink@out")
        else {
            ccaptions_avfilter_graph_free(&self.graph)
            ccaptions_av_frame_free(&self.output)
            throw MediaError("media.encoder", "cannot set up per-picture palettes (libavfilter palettegen, paletteuse)")
        }
        self.source = source
        self.sink = sink
    }

    deinit {
        ccaptions_avfilter_graph_free(&graph)
        ccaptions_av_frame_free(&output)
    }

    /// Hands a picture in (its buffers are referenced, not taken); false when the filter refuses it.
    func add(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        ccaptions_av_buffersrc_add_frame_flags(source, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)) >= 0
    }

    /// Says that no picture follows, so that the last ones come out.
    func finish() { _ = ccaptions_av_buffersrc_add_frame_flags(source, nil, 0) }

    /// The next palette picture ready (valid until the next call), or nil when none is yet.
    func next() -> UnsafeMutablePointer<AVFrame>? {
        guard let output else { return nil }
        ccaptions_av_frame_unref(output)
        return ccaptions_av_buffersink_get_frame(sink, output) >= 0 ? output : nil
    }
}
