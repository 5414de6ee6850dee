// FFmpeg for Swift: the headers CaptionsMedia uses, and the macros Swift cannot import.
#ifndef CCAPTIONS_FFMPEG_SHIM_H
#define CCAPTIONS_FFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/// AVERROR(EAGAIN): the decoder needs more input or has no output yet.
static inline int ccaptions_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: the end of the stream.
static inline int ccaptions_averror_eof(void) { return AVERROR_EOF; }
/// AV_NOPTS_VALUE, which Swift imports as a macro it cannot evaluate.
static inline int64_t ccaptions_nopts_value(void) { return AV_NOPTS_VALUE; }

#endif
