// uchardet (Mozilla's universal charset detector, from Debian) to name the encoding of a caption
// file that is not UTF-8, ICU's charset detector for a second opinion with a confidence (uchardet
// 0.0.7, Debian 12's, gives none), and glibc's iconv to convert it.
#ifndef CCAPTIONS_CHARSET_SHIM_H
#define CCAPTIONS_CHARSET_SHIM_H

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <uchardet.h>
#include <unicode/ucsdet.h>

/// The charset uchardet detects in `bytes` ("" when it cannot tell), copied into `name`
/// (`capacity` bytes, NUL-terminated).
static inline void ccaptions_detect_charset(const char *bytes, size_t count, char *name, size_t capacity) {
    name[0] = 0;
    uchardet_t detector = uchardet_new();
    if (!detector) return;
    if (uchardet_handle_data(detector, bytes, count) == 0) {
        uchardet_data_end(detector);
        const char *found = uchardet_get_charset(detector);
        if (found) {
            strncpy(name, found, capacity - 1);
            name[capacity - 1] = 0;
        }
    }
    uchardet_delete(detector);
}

/// ICU's charset detector's candidates for `bytes` (markup ignored), best first: up to `capacity`
/// names, each copied NUL-terminated into `names + i * name_capacity`, and their confidences
/// (0-100) into `confidences`. Returns how many; 0 when ICU has no guess or fails. At most the
/// first 1 MiB is looked at.
static inline int ccaptions_charset_candidates(
    const char *bytes, size_t count, char *names, size_t name_capacity, int *confidences, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UCharsetDetector *detector = ucsdet_open(&status);
    if (U_FAILURE(status) || !detector) return 0;
    ucsdet_enableInputFilter(detector, 1);
    ucsdet_setText(detector, bytes, (int32_t)(count < (1u << 20) ? count : (1u << 20)), &status);
    int32_t found = 0;
    const UCharsetMatch **matches = U_SUCCESS(status) ? ucsdet_detectAll(detector, &found, &status) : NULL;
    int written = 0;
    for (int32_t i = 0; matches && U_SUCCESS(status) && i < found && written < capacity; i++) {
        const char *name = ucsdet_getName(matches[i], &status);
        int32_t confidence = ucsdet_getConfidence(matches[i], &status);
        if (U_FAILURE(status) || !name) break;
        strncpy(names + (size_t)written * name_capacity, name, name_capacity - 1);
        names[(size_t)written * name_capacity + name_capacity - 1] = 0;
        confidences[written++] = confidence;
    }
    ucsdet_close(detector);
    return written;
}

/// Converts `count` bytes in `charset` to UTF-8 with iconv. Returns a malloc'd buffer (free it)
/// and its length in *out_count, or NULL when the charset is unknown (*failed_at = -1) or a byte
/// sequence is invalid in it (*failed_at = its offset).
static inline char *ccaptions_convert_to_utf8(
    const char *charset, const char *bytes, size_t count, size_t *out_count, long *failed_at) {
    *failed_at = -1;
    iconv_t converter = iconv_open("UTF-8", charset);
    if (converter == (iconv_t)-1) return NULL;
    size_t capacity = count * 4 + 16;
    char *out = malloc(capacity);
    if (!out) {
        iconv_close(converter);
        return NULL;
    }
    char *in = (char *)bytes, *next = out;
    size_t left = count, room = capacity;
    while (left > 0) {
        if (iconv(converter, &in, &left, &next, &room) == (size_t)-1) {
            if (errno == E2BIG) {
                size_t used = (size_t)(next - out);
                capacity *= 2;
                char *grown = realloc(out, capacity);
                if (!grown) break;
                out = grown;
                next = out + used;
                room = capacity - used;
                continue;
            }
            *failed_at = (long)(in - bytes);
            free(out);
            iconv_close(converter);
            return NULL;
        }
    }
    iconv_close(converter);
    *out_count = (size_t)(next - out);
    return out;
}

#endif
