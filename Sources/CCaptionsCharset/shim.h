// uchardet (Mozilla's universal charset detector, from Debian) to name the encoding of a caption
// file that is not UTF-8, and glibc's iconv to convert it.
#ifndef CCAPTIONS_CHARSET_SHIM_H
#define CCAPTIONS_CHARSET_SHIM_H

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <uchardet.h>

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
