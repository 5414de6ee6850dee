// FFmpeg for Swift: the headers CaptionsMedia uses, the macros Swift cannot import, and
// forwarders that load FFmpeg on first use.
//
// The libraries are opened with dlopen when a command first needs them, not linked: Debian's
// libavcodec and libavformat pull in some 140 shared libraries, which would add 50 ms and 25 MB
// to every `captions` run, media or not. Only the major versions the headers describe are
// loaded, so the struct layouts always match.
#ifndef CCAPTIONS_FFMPEG_SHIM_H
#define CCAPTIONS_FFMPEG_SHIM_H

#include <dlfcn.h>
#include <pthread.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libavutil/mastering_display_metadata.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>
#include <libavutil/sha.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>

/// AVERROR(EAGAIN): the decoder needs more input or has no output yet.
static inline int ccaptions_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: the end of the stream.
static inline int ccaptions_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR(EINVAL) and AVERROR_INVALIDDATA: what opening a file no demuxer recognises returns.
static inline int ccaptions_averror_einval(void) { return AVERROR(EINVAL); }
static inline int ccaptions_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AV_NOPTS_VALUE, which Swift imports as a macro it cannot evaluate.
static inline int64_t ccaptions_nopts_value(void) { return AV_NOPTS_VALUE; }

#define CCAPTIONS_STRINGIFY2(x) #x
#define CCAPTIONS_STRINGIFY(x) CCAPTIONS_STRINGIFY2(x)

static const char *const ccaptions_ffmpeg_names[] = {
    "libavutil.so." CCAPTIONS_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." CCAPTIONS_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." CCAPTIONS_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." CCAPTIONS_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libswresample.so." CCAPTIONS_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
};

/// Opens the first `count` libraries of ccaptions_ffmpeg_names; NULL on success, else `failure` filled in.
static inline const char *ccaptions_ffmpeg_open(unsigned count, char *failure, size_t size) {
    for (unsigned i = 0; i < count; i++) {
        if (!dlopen(ccaptions_ffmpeg_names[i], RTLD_NOW | RTLD_GLOBAL)) {
            snprintf(failure, size, "cannot load FFmpeg (%s): %s; install the FFmpeg libraries (Scripts/setup.sh)",
                     ccaptions_ffmpeg_names[i], dlerror());
            return failure;
        }
    }
    return NULL;
}

/// Where a load's outcome is kept: one per set of libraries (function-local statics, as a
/// header-only module has no file-level storage of its own).
typedef struct { pthread_once_t once; const char *result; char failure[512]; } ccaptions_ffmpeg_load_state;

static inline ccaptions_ffmpeg_load_state *ccaptions_ffmpeg_all_state(void) {
    static ccaptions_ffmpeg_load_state state = {PTHREAD_ONCE_INIT, NULL, {0}};
    return &state;
}

static inline ccaptions_ffmpeg_load_state *ccaptions_avutil_state(void) {
    static ccaptions_ffmpeg_load_state state = {PTHREAD_ONCE_INIT, NULL, {0}};
    return &state;
}

static inline void ccaptions_ffmpeg_load_all(void) {
    ccaptions_ffmpeg_load_state *state = ccaptions_ffmpeg_all_state();
    state->result = ccaptions_ffmpeg_open(5, state->failure, sizeof state->failure);
}

static inline void ccaptions_avutil_load_one(void) {
    ccaptions_ffmpeg_load_state *state = ccaptions_avutil_state();
    state->result = ccaptions_ffmpeg_open(1, state->failure, sizeof state->failure);
}

/// Opens the five libraries once (safe from any thread); returns NULL on success, or a message
/// naming what is missing.
static inline const char *ccaptions_ffmpeg_load(void) {
    pthread_once(&ccaptions_ffmpeg_all_state()->once, ccaptions_ffmpeg_load_all);
    return ccaptions_ffmpeg_all_state()->result;
}

/// Opens libavutil alone (5 ms instead of the 75 ms of all five), for its hashes and version.
static inline const char *ccaptions_avutil_load(void) {
    pthread_once(&ccaptions_avutil_state()->once, ccaptions_avutil_load_one);
    return ccaptions_avutil_state()->result;
}

static inline ccaptions_ffmpeg_load_state *ccaptions_avfilter_state(void) {
    static ccaptions_ffmpeg_load_state state = {PTHREAD_ONCE_INIT, NULL, {0}};
    return &state;
}

static inline void ccaptions_avfilter_load_one(void) {
    ccaptions_ffmpeg_load_state *state = ccaptions_avfilter_state();
    const char *name = "libavfilter.so." CCAPTIONS_STRINGIFY(LIBAVFILTER_VERSION_MAJOR);
    state->result = NULL;
    if (!dlopen(name, RTLD_NOW | RTLD_GLOBAL)) {
        snprintf(state->failure, sizeof state->failure, "cannot load FFmpeg (%s): %s; install the FFmpeg libraries (Scripts/setup.sh)",
                 name, dlerror());
        state->result = state->failure;
    }
}

/// Opens libavfilter (after ccaptions_ffmpeg_load(); only when a picture needs a filter graph,
/// as it pulls in many more libraries): NULL on success, or a message naming what is missing.
static inline const char *ccaptions_avfilter_load(void) {
    pthread_once(&ccaptions_avfilter_state()->once, ccaptions_avfilter_load_one);
    return ccaptions_avfilter_state()->result;
}

/// The address of an FFmpeg function, once ccaptions_ffmpeg_load() has succeeded.
static inline void *ccaptions_ffmpeg_symbol(const char *name) { return dlsym(RTLD_DEFAULT, name); }

// ccaptions_NAME(...) calls NAME from the loaded libraries (resolved once; atomically, as batch
// jobs call from several threads).
#define CCAPTIONS_FORWARD(ret, name, params, args)                                                   \
    static inline ret ccaptions_##name params {                                                        \
        static __typeof__(name) *function = 0;                                                         \
        __typeof__(name) *resolved = __atomic_load_n(&function, __ATOMIC_ACQUIRE);                     \
        if (!resolved) {                                                                               \
            resolved = (__typeof__(name) *)ccaptions_ffmpeg_symbol(#name);                             \
            __atomic_store_n(&function, resolved, __ATOMIC_RELEASE);                                   \
        }                                                                                              \
        return resolved args;                                                                          \
    }

CCAPTIONS_FORWARD(const char *, av_version_info, (void), ())
CCAPTIONS_FORWARD(const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic transfer), (transfer))
CCAPTIONS_FORWARD(struct AVSHA *, av_sha_alloc, (void), ())
CCAPTIONS_FORWARD(int, av_sha_init, (struct AVSHA *context, int bits), (context, bits))
CCAPTIONS_FORWARD(void, av_sha_update, (struct AVSHA *context, const uint8_t *data, size_t length), (context, data, length))
CCAPTIONS_FORWARD(void, av_sha_final, (struct AVSHA *context, uint8_t *digest), (context, digest))
CCAPTIONS_FORWARD(void, av_free, (void *pointer), (pointer))
CCAPTIONS_FORWARD(void, av_log_set_level, (int level), (level))
CCAPTIONS_FORWARD(void, av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback))
CCAPTIONS_FORWARD(int, av_strerror, (int code, char *buffer, size_t size), (code, buffer, size))
CCAPTIONS_FORWARD(AVFormatContext *, avformat_alloc_context, (void), ())
CCAPTIONS_FORWARD(int64_t, avio_size, (AVIOContext *context), (context))
CCAPTIONS_FORWARD(int, avformat_open_input, (AVFormatContext **context, const char *url, const AVInputFormat *format, AVDictionary **options), (context, url, format, options))
CCAPTIONS_FORWARD(int, avformat_find_stream_info, (AVFormatContext *context, AVDictionary **options), (context, options))
CCAPTIONS_FORWARD(int, av_find_best_stream, (AVFormatContext *context, enum AVMediaType type, int wanted, int related, const AVCodec **decoder, int flags), (context, type, wanted, related, decoder, flags))
CCAPTIONS_FORWARD(void, avformat_close_input, (AVFormatContext **context), (context))
CCAPTIONS_FORWARD(int, av_read_frame, (AVFormatContext *context, AVPacket *packet), (context, packet))
CCAPTIONS_FORWARD(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
CCAPTIONS_FORWARD(void, avcodec_free_context, (AVCodecContext **context), (context))
CCAPTIONS_FORWARD(int, avcodec_parameters_to_context, (AVCodecContext *context, const AVCodecParameters *parameters), (context, parameters))
CCAPTIONS_FORWARD(int, avcodec_open2, (AVCodecContext *context, const AVCodec *codec, AVDictionary **options), (context, codec, options))
CCAPTIONS_FORWARD(int, avcodec_send_packet, (AVCodecContext *context, const AVPacket *packet), (context, packet))
CCAPTIONS_FORWARD(int, avcodec_receive_frame, (AVCodecContext *context, AVFrame *frame), (context, frame))
CCAPTIONS_FORWARD(AVPacket *, av_packet_alloc, (void), ())
CCAPTIONS_FORWARD(uint8_t *, av_packet_get_side_data, (const AVPacket *packet, enum AVPacketSideDataType type, size_t *size), (packet, type, size))
CCAPTIONS_FORWARD(void, av_packet_free, (AVPacket **packet), (packet))
CCAPTIONS_FORWARD(void, av_packet_unref, (AVPacket *packet), (packet))
CCAPTIONS_FORWARD(AVFrame *, av_frame_alloc, (void), ())
CCAPTIONS_FORWARD(void, av_frame_free, (AVFrame **frame), (frame))
CCAPTIONS_FORWARD(void, av_frame_unref, (AVFrame *frame), (frame))
CCAPTIONS_FORWARD(void, av_frame_move_ref, (AVFrame *target, AVFrame *source), (target, source))
CCAPTIONS_FORWARD(int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align))
CCAPTIONS_FORWARD(uint8_t *, av_stream_get_side_data, (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))
CCAPTIONS_FORWARD(double, av_display_rotation_get, (const int32_t matrix[9]), (matrix))
CCAPTIONS_FORWARD(const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat format), (format))
CCAPTIONS_FORWARD(AVFilterGraph *, avfilter_graph_alloc, (void), ())
CCAPTIONS_FORWARD(void, avfilter_graph_free, (AVFilterGraph **graph), (graph))
CCAPTIONS_FORWARD(int, avfilter_graph_parse_ptr, (AVFilterGraph *graph, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log), (graph, filters, inputs, outputs, log))
CCAPTIONS_FORWARD(int, avfilter_graph_config, (AVFilterGraph *graph, void *log), (graph, log))
CCAPTIONS_FORWARD(AVFilterContext *, avfilter_graph_get_filter, (AVFilterGraph *graph, const char *name), (graph, name))
CCAPTIONS_FORWARD(int, av_buffersrc_add_frame_flags, (AVFilterContext *source, AVFrame *frame, int flags), (source, frame, flags))
CCAPTIONS_FORWARD(int, av_buffersink_get_frame, (AVFilterContext *sink, AVFrame *frame), (sink, frame))
CCAPTIONS_FORWARD(struct SwsContext *, sws_getCachedContext, (struct SwsContext *context, int sourceWidth, int sourceHeight, enum AVPixelFormat sourceFormat, int width, int height, enum AVPixelFormat format, int flags, SwsFilter *sourceFilter, SwsFilter *filter, const double *parameters), (context, sourceWidth, sourceHeight, sourceFormat, width, height, format, flags, sourceFilter, filter, parameters))
CCAPTIONS_FORWARD(void, sws_freeContext, (struct SwsContext *context), (context))
CCAPTIONS_FORWARD(int, sws_scale, (struct SwsContext *context, const uint8_t *const sourceSlice[], const int sourceStride[], int sourceY, int sourceHeight, uint8_t *const target[], const int targetStride[]), (context, sourceSlice, sourceStride, sourceY, sourceHeight, target, targetStride))

// Writing video (`captions dim`): encoders, muxers and what they need.
CCAPTIONS_FORWARD(const AVOutputFormat *, av_guess_format, (const char *name, const char *filename, const char *mime), (name, filename, mime))
CCAPTIONS_FORWARD(int, avformat_alloc_output_context2, (AVFormatContext **context, const AVOutputFormat *format, const char *name, const char *filename), (context, format, name, filename))
CCAPTIONS_FORWARD(void, avformat_free_context, (AVFormatContext *context), (context))
CCAPTIONS_FORWARD(AVStream *, avformat_new_stream, (AVFormatContext *context, const AVCodec *codec), (context, codec))
CCAPTIONS_FORWARD(int, avformat_query_codec, (const AVOutputFormat *format, enum AVCodecID codec, int compliance), (format, codec, compliance))
CCAPTIONS_FORWARD(int, avio_open, (AVIOContext **context, const char *url, int flags), (context, url, flags))
CCAPTIONS_FORWARD(int, avio_closep, (AVIOContext **context), (context))
CCAPTIONS_FORWARD(int, avformat_write_header, (AVFormatContext *context, AVDictionary **options), (context, options))
CCAPTIONS_FORWARD(int, av_interleaved_write_frame, (AVFormatContext *context, AVPacket *packet), (context, packet))
CCAPTIONS_FORWARD(int, av_write_trailer, (AVFormatContext *context), (context))
CCAPTIONS_FORWARD(int, avcodec_parameters_copy, (AVCodecParameters *target, const AVCodecParameters *source), (target, source))
CCAPTIONS_FORWARD(int, avcodec_parameters_from_context, (AVCodecParameters *parameters, const AVCodecContext *context), (parameters, context))
CCAPTIONS_FORWARD(const AVCodec *, avcodec_find_encoder, (enum AVCodecID codec), (codec))
CCAPTIONS_FORWARD(const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))
CCAPTIONS_FORWARD(const AVCodec *, avcodec_find_decoder_by_name, (const char *name), (name))
CCAPTIONS_FORWARD(int, sws_isSupportedOutput, (enum AVPixelFormat format), (format))
CCAPTIONS_FORWARD(AVDictionaryEntry *, av_dict_get, (const AVDictionary *dictionary, const char *key, const AVDictionaryEntry *previous, int flags), (dictionary, key, previous, flags))
CCAPTIONS_FORWARD(int, avcodec_send_frame, (AVCodecContext *context, const AVFrame *frame), (context, frame))
CCAPTIONS_FORWARD(int, avcodec_receive_packet, (AVCodecContext *context, AVPacket *packet), (context, packet))
CCAPTIONS_FORWARD(void, av_packet_rescale_ts, (AVPacket *packet, AVRational source, AVRational target), (packet, source, target))
CCAPTIONS_FORWARD(const char *, avcodec_get_name, (enum AVCodecID codec), (codec))
CCAPTIONS_FORWARD(int64_t, av_rescale_q, (int64_t value, AVRational source, AVRational target), (value, source, target))
CCAPTIONS_FORWARD(enum AVPixelFormat, avcodec_find_best_pix_fmt_of_list, (const enum AVPixelFormat *list, enum AVPixelFormat source, int alpha, int *loss), (list, source, alpha, loss))
CCAPTIONS_FORWARD(AVFrameSideData *, av_frame_get_side_data, (const AVFrame *frame, enum AVFrameSideDataType type), (frame, type))
CCAPTIONS_FORWARD(int, av_frame_make_writable, (AVFrame *frame), (frame))
CCAPTIONS_FORWARD(int, av_dict_set, (AVDictionary **dictionary, const char *key, const char *value, int flags), (dictionary, key, value, flags))
CCAPTIONS_FORWARD(void, av_dict_free, (AVDictionary **dictionary), (dictionary))
CCAPTIONS_FORWARD(int, av_dict_copy, (AVDictionary **target, const AVDictionary *source, int flags), (target, source, flags))
CCAPTIONS_FORWARD(void *, av_mallocz, (size_t size), (size))
CCAPTIONS_FORWARD(void *, av_realloc_array, (void *pointer, size_t count, size_t size), (pointer, count, size))

/// Copies `source`'s chapters (times, titles and other tags) into the output context `target`,
/// which frees them with itself. 0, or a negative AVERROR when memory runs out.
static inline int ccaptions_copy_chapters(AVFormatContext *target, const AVFormatContext *source) {
    if (source->nb_chapters == 0) return 0;
    AVChapter **list = (AVChapter **)ccaptions_av_realloc_array(target->chapters, target->nb_chapters + source->nb_chapters, sizeof *list);
    if (!list) return AVERROR(ENOMEM);
    target->chapters = list;
    for (unsigned i = 0; i < source->nb_chapters; i++) {
        const AVChapter *from = source->chapters[i];
        AVChapter *chapter = (AVChapter *)ccaptions_av_mallocz(sizeof *chapter);
        if (!chapter) return AVERROR(ENOMEM);
        chapter->id = from->id;
        chapter->time_base = from->time_base;
        chapter->start = from->start;
        chapter->end = from->end;
        list[target->nb_chapters++] = chapter;
        if (ccaptions_av_dict_copy(&chapter->metadata, from->metadata, 0) < 0) return AVERROR(ENOMEM);
    }
    return 0;
}
CCAPTIONS_FORWARD(uint8_t *, av_stream_new_side_data, (AVStream *stream, enum AVPacketSideDataType type, size_t size), (stream, type, size))
CCAPTIONS_FORWARD(AVFrameSideData *, av_frame_new_side_data, (AVFrame *frame, enum AVFrameSideDataType type, size_t size), (frame, type, size))

CCAPTIONS_FORWARD(int, swr_alloc_set_opts2, (struct SwrContext **context, AVChannelLayout *outLayout, enum AVSampleFormat outFormat, int outRate, AVChannelLayout *inLayout, enum AVSampleFormat inFormat, int inRate, int logOffset, void *logContext), (context, outLayout, outFormat, outRate, inLayout, inFormat, inRate, logOffset, logContext))
CCAPTIONS_FORWARD(int, swr_init, (struct SwrContext *context), (context))
CCAPTIONS_FORWARD(void, swr_free, (struct SwrContext **context), (context))
CCAPTIONS_FORWARD(int, swr_convert, (struct SwrContext *context, uint8_t **out, int outCount, const uint8_t **in, int inCount), (context, out, outCount, in, inCount))
CCAPTIONS_FORWARD(void, av_channel_layout_default, (AVChannelLayout *layout, int channels), (layout, channels))
CCAPTIONS_FORWARD(void, av_channel_layout_uninit, (AVChannelLayout *layout), (layout))
CCAPTIONS_FORWARD(int, av_channel_layout_copy, (AVChannelLayout *target, const AVChannelLayout *source), (target, source))

/// A resampler from `frame`'s sound (its own layout, sample format and rate: streams change them
/// mid-way) to float planar samples at `rate`, keeping its channels (a layout left unspecified
/// becomes the default one for its channel count); its channel count in `channels`. NULL on failure.
static inline struct SwrContext *ccaptions_resampler(const AVFrame *frame, int rate, int *channels) {
    AVChannelLayout layout = {0};
    int count = frame->ch_layout.nb_channels > 0 ? frame->ch_layout.nb_channels : 1;
    if (frame->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame->ch_layout.nb_channels <= 0) {
        ccaptions_av_channel_layout_default(&layout, count);
    } else if (ccaptions_av_channel_layout_copy(&layout, &frame->ch_layout) < 0) {
        return NULL;
    }
    struct SwrContext *resampler = NULL;
    int result = ccaptions_swr_alloc_set_opts2(&resampler, &layout, AV_SAMPLE_FMT_FLTP, rate, &layout,
                                               (enum AVSampleFormat)frame->format, frame->sample_rate, 0, NULL);
    ccaptions_av_channel_layout_uninit(&layout);
    if (result < 0 || !resampler) return NULL;
    if (ccaptions_swr_init(resampler) < 0) {
        ccaptions_swr_free(&resampler);
        return NULL;
    }
    *channels = count;
    return resampler;
}

// The demuxer's own error messages. Some demuxers (Matroska above all) skip damaged data and
// carry on without returning an error: the message they log is the only sign of it. While a
// thread watches a format context, FFmpeg's messages at AV_LOG_ERROR or worse about that context
// (or its AVIOContext) are kept, each with the byte offset the demuxer had reached, so the reader
// can tell which packets came before and after the damage. Nothing is ever printed (the same as
// AV_LOG_QUIET); the record is per thread, so readers on other threads do not mix.

/// The most messages kept per watch; later ones are only counted.
#define CCAPTIONS_PROBLEM_CAPACITY 32

/// What the current thread has collected.
typedef struct {
    const AVFormatContext *context; // the context watched, or NULL
    int count;                      // messages seen, kept or not
    int64_t positions[CCAPTIONS_PROBLEM_CAPACITY];
    char messages[CCAPTIONS_PROBLEM_CAPACITY][160];
} ccaptions_problem_log;

static inline ccaptions_problem_log *ccaptions_problem_log_current(void) {
    static _Thread_local ccaptions_problem_log log;
    return &log;
}

/// The byte offset a reading AVIOContext has reached (avio_tell without the call).
static inline int64_t ccaptions_avio_position(const AVIOContext *context) {
    if (!context) return -1;
    return context->pos - (context->buf_end - context->buffer) + (context->buf_ptr - context->buffer);
}

static inline void ccaptions_problem_log_callback(void *context, int level, const char *format, va_list arguments) {
    ccaptions_problem_log *log = ccaptions_problem_log_current();
    if (!log->context || !context || level > AV_LOG_ERROR) return;
    if (context != (const void *)log->context && context != (const void *)log->context->pb) return;
    int index = log->count++;
    if (index >= CCAPTIONS_PROBLEM_CAPACITY) return;
    log->positions[index] = ccaptions_avio_position(log->context->pb);
    char *message = log->messages[index];
    vsnprintf(message, sizeof log->messages[index], format, arguments);
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == ' ' || message[length - 1] == '.')) message[--length] = 0;
}

/// Starts keeping the current thread's messages about `context` (installing the silent callback
/// on first use).
static inline void ccaptions_problem_log_begin(const AVFormatContext *context) {
    static atomic_flag installed = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&installed)) ccaptions_av_log_set_callback(ccaptions_problem_log_callback);
    ccaptions_problem_log *log = ccaptions_problem_log_current();
    log->context = context;
    log->count = 0;
}

/// Stops watching; what was kept stays readable until the next ccaptions_problem_log_begin.
static inline void ccaptions_problem_log_end(void) { ccaptions_problem_log_current()->context = NULL; }

/// Messages seen since ccaptions_problem_log_begin, kept or not.
static inline int ccaptions_problem_log_count(void) { return ccaptions_problem_log_current()->count; }

/// The byte offset reached when kept message `index` was logged (-1 when unknown).
static inline int64_t ccaptions_problem_log_position(int index) {
    return index >= 0 && index < CCAPTIONS_PROBLEM_CAPACITY ? ccaptions_problem_log_current()->positions[index] : -1;
}

/// The text of kept message `index`.
static inline const char *ccaptions_problem_log_message(int index) {
    return index >= 0 && index < CCAPTIONS_PROBLEM_CAPACITY ? ccaptions_problem_log_current()->messages[index] : "";
}

#endif
