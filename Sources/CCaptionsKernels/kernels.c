// See include/CCaptionsKernels.h. Each kernel has a portable body (a static inline function the
// compiler vectorises for the baseline instruction set) and, on x86-64, an AVX2 version chosen once
// at run time. Both give bit-identical results: integer sums, and float operations in the same order.
#include <math.h>
#include <string.h>
#include "CCaptionsKernels.h"
#include "dispatch.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// MARK: Portable bodies

// Adds to each cell c in [from, count) its first column and, where `keep` says so, its second.
static inline void pairs_portable(
    const uint32_t *columns, const int32_t *first, const int32_t *second, const uint32_t *keep, size_t from,
    size_t count, uint32_t *cells) {
    for (size_t c = from; c < count; c++) cells[c] += columns[first[c]] + (columns[second[c]] & keep[c]);
}

// Adds each run of `width` samples of `row` to its cell's sum (a body per sample type).
#define RUNS_PORTABLE(name, sample)                                                                  \
    static inline void name(const sample *row, int width, size_t cells, uint32_t *sums) {            \
        switch (width) {                                                                             \
        case 8:                                                                                      \
            for (size_t c = 0; c < cells; c++) {                                                     \
                const sample *p = row + c * 8;                                                       \
                sums[c] += (uint32_t)p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7];          \
            }                                                                                        \
            break;                                                                                   \
        case 4:                                                                                      \
            for (size_t c = 0; c < cells; c++) {                                                     \
                const sample *p = row + c * 4;                                                       \
                sums[c] += (uint32_t)p[0] + p[1] + p[2] + p[3];                                      \
            }                                                                                        \
            break;                                                                                   \
        case 2:                                                                                      \
            for (size_t c = 0; c < cells; c++) sums[c] += (uint32_t)row[2 * c] + row[2 * c + 1];     \
            break;                                                                                   \
        default:                                                                                     \
            for (size_t c = 0; c < cells; c++) sums[c] += row[c];                                    \
        }                                                                                            \
    }
RUNS_PORTABLE(runs_u8_portable, uint8_t)
RUNS_PORTABLE(runs_u16_portable, uint16_t)

// Adds the squares of each run of `width` samples, each shifted right by `shift`, to its cell.
#define SQUARES_PORTABLE(name, sample)                                                               \
    static inline void name(const sample *row, int width, size_t cells, int shift, uint32_t *squares) { \
        for (size_t c = 0; c < cells; c++) {                                                         \
            const sample *p = row + c * (size_t)width;                                               \
            uint32_t total = 0;                                                                      \
            for (int i = 0; i < width; i++) total += ((uint32_t)p[i] * p[i]) >> shift;              \
            squares[c] += total;                                                                     \
        }                                                                                            \
    }
SQUARES_PORTABLE(squares_u8_portable, uint8_t)
SQUARES_PORTABLE(squares_u16_portable, uint16_t)

static inline void scale_portable(const uint32_t *sums, const float *weights, float scale, float *out, size_t count) {
    for (size_t i = 0; i < count; i++) out[i] = (float)sums[i] * (weights[i] * scale);
}

static inline size_t changed_portable(
    const float *const *now, const float *const *fed, int channels, size_t from, size_t count, float still,
    float spread_still, int32_t *changed, size_t found) {
    for (size_t i = from; i < count; i++) {
        int moved = 0;
        for (int k = 0; k < channels; k++) {
            float d = now[k][i] - fed[k][i], limit = k < 3 ? still : spread_still;
            moved |= d >= limit || d <= -limit;
        }
        if (moved) changed[found++] = (int32_t)i;
    }
    return found;
}

// MARK: AVX2

#ifdef CCAPTIONS_X86
AVX2 static void runs_u8_avx2(const uint8_t *row, int width, size_t cells, uint32_t *sums) {
    size_t c = 0;
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
    switch (width) {
    case 8: {
        // Four cells of eight bytes: the sums of absolute differences from zero are the sums.
        const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        for (; c + 4 <= cells; c += 4) {
            __m256i sad = _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(row + c * 8)), _mm256_setzero_si256());
            __m128i four = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(sad, pick));
            _mm_storeu_si128((__m128i *)(sums + c), _mm_add_epi32(_mm_loadu_si128((const __m128i *)(sums + c)), four));
        }
        break;
    }
    case 4:
        // Eight cells of four bytes: byte pairs to 16 bits, word pairs to 32 bits, in order.
        for (; c + 8 <= cells; c += 8) {
            __m256i pairs = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i *)(row + c * 4)), ones8);
            __m256i quads = _mm256_madd_epi16(pairs, ones16);
            _mm256_storeu_si256((__m256i *)(sums + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sums + c)), quads));
        }
        break;
    case 2:
        for (; c + 8 <= cells; c += 8) {
            __m128i pairs = _mm_maddubs_epi16(_mm_loadu_si128((const __m128i *)(row + c * 2)), _mm_set1_epi8(1));
            __m256i wide = _mm256_cvtepu16_epi32(pairs);
            _mm256_storeu_si256((__m256i *)(sums + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sums + c)), wide));
        }
        break;
    default:
        for (; c + 8 <= cells; c += 8) {
            __m256i wide = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(row + c)));
            _mm256_storeu_si256((__m256i *)(sums + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sums + c)), wide));
        }
    }
    runs_u8_portable(row + c * (size_t)width, width, cells - c, sums + c);
}

AVX2 static inline __m256i load_u16_as_u32(const uint16_t *p) {
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
}

// Sixteen samples' pairwise sums as eight 32-bit lanes, in order, less 65536 each: the samples
// are made signed (x − 32768, by flipping the top bit) so that one multiply-add with ones sums
// each pair of any 16-bit values without overflow; the caller adds the 65536s back.
AVX2 static inline __m256i pair_sums_u16_biased(const uint16_t *p) {
    __m256i samples = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)p), _mm256_set1_epi16((short)0x8000));
    return _mm256_madd_epi16(samples, _mm256_set1_epi16(1));
}

AVX2 static void runs_u16_avx2(const uint16_t *row, int width, size_t cells, uint32_t *sums) {
    size_t c = 0;
    switch (width) {
    case 4: {
        // Eight cells of four samples: pair sums of 32 samples, one horizontal add (cells
        // 0 1 4 5 | 2 3 6 7 by 128-bit lane), the cells put in order, four biases of 32768 back.
        const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7), bias = _mm256_set1_epi32(4 * 32768);
        for (; c + 8 <= cells; c += 8) {
            const uint16_t *p = row + c * 4;
            __m256i quads = _mm256_hadd_epi32(pair_sums_u16_biased(p), pair_sums_u16_biased(p + 16));
            __m256i cellsums = _mm256_add_epi32(_mm256_permutevar8x32_epi32(quads, order), bias);
            _mm256_storeu_si256((__m256i *)(sums + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sums + c)), cellsums));
        }
        break;
    }
    case 2: {
        const __m256i bias = _mm256_set1_epi32(2 * 32768);
        for (; c + 8 <= cells; c += 8) {
            __m256i pairs = _mm256_add_epi32(pair_sums_u16_biased(row + c * 2), bias);
            _mm256_storeu_si256((__m256i *)(sums + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sums + c)), pairs));
        }
        break;
    }
    case 1:
        for (; c + 8 <= cells; c += 8) {
            _mm256_storeu_si256(
                (__m256i *)(sums + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sums + c)), load_u16_as_u32(row + c)));
        }
        break;
    default:
        break;
    }
    runs_u16_portable(row + c * (size_t)width, width, cells - c, sums + c);
}

// Squares of 8-bit samples: 32 samples to 16 bits, squared and summed in pairs (one multiply-add),
// the pairs summed across into eight runs of four (cells 0 1 4 5 | 2 3 6 7 by 128-bit lane, put in
// order): the cells of width 4, or the halves of four cells of width 8.
AVX2 static inline __m256i quad_squares_u8(const uint8_t *p) {
    __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p));
    __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p + 16)));
    __m256i quads = _mm256_hadd_epi32(_mm256_madd_epi16(a, a), _mm256_madd_epi16(b, b));
    return _mm256_permutevar8x32_epi32(quads, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
}

AVX2 static void squares_u8_avx2(const uint8_t *row, int width, size_t cells, uint32_t *squares) {
    size_t c = 0;
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    for (; (width == 4 || width == 8) && c + 8 <= cells; c += 8) {
        const uint8_t *p = row + c * (size_t)width;
        __m256i sums = quad_squares_u8(p);
        if (width == 8) {
            // Two runs of four make a cell: quads 0–7 are cells 0–3, quads 8–15 cells 4–7.
            sums = _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(sums, quad_squares_u8(p + 32)), order);
        }
        _mm256_storeu_si256((__m256i *)(squares + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(squares + c)), sums));
    }
    squares_u8_portable(row + c * (size_t)width, width, cells - c, 0, squares + c);
}

// Squares of 16-bit samples, each shifted right: eight at a time in 32 bits.
AVX2 static inline __m256i shifted_squares_u16(const uint16_t *p, __m128i shift) {
    __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_srl_epi32(_mm256_mullo_epi32(v, v), shift);
}

AVX2 static void squares_u16_avx2(const uint16_t *row, int width, size_t cells, int shift, uint32_t *squares) {
    size_t c = 0;
    const __m128i count = _mm_cvtsi32_si128(shift);
    if (width == 4) {
        // Eight cells from four loads (two cells each): two horizontal adds leave cells
        // 0 2 4 6 | 1 3 5 7 by lane, put in order.
        const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        for (; c + 8 <= cells; c += 8) {
            const uint16_t *p = row + c * 4;
            __m256i h01 = _mm256_hadd_epi32(shifted_squares_u16(p, count), shifted_squares_u16(p + 8, count));
            __m256i h23 = _mm256_hadd_epi32(shifted_squares_u16(p + 16, count), shifted_squares_u16(p + 24, count));
            __m256i sums = _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(h01, h23), order);
            _mm256_storeu_si256((__m256i *)(squares + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(squares + c)), sums));
        }
    }
    squares_u16_portable(row + c * (size_t)width, width, cells - c, shift, squares + c);
}

AVX2 static void scale_avx2(const uint32_t *sums, const float *weights, float scale, float *out, size_t count) {
    scale_portable(sums, weights, scale, out, count);
}

// Whether channel k of cells i … i + 7 moved by `still` or more, as a mask of lanes.
#define MOVED_AVX2(k, limit, negative)                                                               \
    _mm256_or_ps(                                                                                    \
        _mm256_cmp_ps(_mm256_sub_ps(_mm256_loadu_ps(n[k] + i), _mm256_loadu_ps(f[k] + i)), limit, _CMP_GE_OQ), \
        _mm256_cmp_ps(_mm256_sub_ps(_mm256_loadu_ps(n[k] + i), _mm256_loadu_ps(f[k] + i)), negative, _CMP_LE_OQ))

AVX2 static size_t changed_avx2(
    const float *const *now, const float *const *fed, int channels, size_t count, float still, float spread_still,
    int32_t *changed) {
    const __m256 limit = _mm256_set1_ps(still), negative = _mm256_set1_ps(-still);
    const __m256 spread_limit = _mm256_set1_ps(spread_still), spread_negative = _mm256_set1_ps(-spread_still);
    // The pointers in locals (the stores to `changed` would otherwise reload them), unused ones
    // repeating channel 0.
    const float *n[6], *f[6];
    for (int k = 0; k < 6; k++) n[k] = now[k < channels ? k : 0], f[k] = fed[k < channels ? k : 0];
    size_t found = 0, i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256 moved = _mm256_or_ps(
            _mm256_or_ps(MOVED_AVX2(0, limit, negative), MOVED_AVX2(1, limit, negative)),
            _mm256_or_ps(MOVED_AVX2(2, limit, negative), MOVED_AVX2(3, spread_limit, spread_negative)));
        if (channels > 4) {
            moved = _mm256_or_ps(
                moved, _mm256_or_ps(MOVED_AVX2(4, spread_limit, spread_negative), MOVED_AVX2(5, spread_limit, spread_negative)));
        }
        unsigned mask = (unsigned)_mm256_movemask_ps(moved);
        while (mask) {
            changed[found++] = (int32_t)(i + (size_t)__builtin_ctz(mask));
            mask &= mask - 1;
        }
    }
    return changed_portable(now, fed, channels, i, count, still, spread_still, changed, found);
}

#endif

// MARK: Entry points

void ccaptions_add_runs_u8(const uint8_t *row, int width, size_t cells, uint32_t *sums) {
    DISPATCH(runs_u8_avx2(row, width, cells, sums), runs_u8_portable(row, width, cells, sums));
}

void ccaptions_add_runs_u16(const uint16_t *row, int width, size_t cells, uint32_t *sums) {
    DISPATCH(runs_u16_avx2(row, width, cells, sums), runs_u16_portable(row, width, cells, sums));
}

void ccaptions_add_run_squares_u8(const uint8_t *row, int width, size_t cells, uint32_t *squares) {
    DISPATCH(squares_u8_avx2(row, width, cells, squares), squares_u8_portable(row, width, cells, 0, squares));
}

void ccaptions_add_run_squares_u16(const uint16_t *row, int width, size_t cells, int shift, uint32_t *squares) {
    DISPATCH(
        squares_u16_avx2(row, width, cells, shift, squares), squares_u16_portable(row, width, cells, shift, squares));
}

static inline void keep_strip_portable(
    uint32_t *runs, size_t from, size_t cells, int shift, int merge, uint32_t *sums, uint8_t *strip) {
    const uint32_t half = ((uint32_t)1 << shift) >> 1;
    for (size_t c = from; c < cells; c++) {
        uint32_t run = runs[c], mean = (run + half) >> shift;
        if (mean > 255) mean = 255;
        sums[c] += run;
        strip[c] = (uint8_t)(merge ? (strip[c] + mean + 1) >> 1 : mean);
        runs[c] = 0;
    }
}

#ifdef CCAPTIONS_X86
// Eight cells at a time: the means capped at 255 and packed to bytes, merged by pavgb, which is
// (a + b + 1) >> 1.
AVX2 static void keep_strip_avx2(uint32_t *runs, size_t cells, int shift, int merge, uint32_t *sums, uint8_t *strip) {
    const __m256i half = _mm256_set1_epi32((int)(((uint32_t)1 << shift) >> 1));
    const __m128i count = _mm_cvtsi32_si128(shift);
    size_t c = 0;
    for (; c + 8 <= cells; c += 8) {
        __m256i run = _mm256_loadu_si256((const __m256i *)(runs + c));
        _mm256_storeu_si256((__m256i *)(sums + c), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sums + c)), run));
        _mm256_storeu_si256((__m256i *)(runs + c), _mm256_setzero_si256());
        __m256i mean = _mm256_min_epu32(_mm256_srl_epi32(_mm256_add_epi32(run, half), count), _mm256_set1_epi32(255));
        __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(mean), _mm256_extracti128_si256(mean, 1));
        __m128i bytes = _mm_packus_epi16(words, words);
        if (merge) bytes = _mm_avg_epu8(bytes, _mm_loadl_epi64((const __m128i *)(strip + c)));
        _mm_storel_epi64((__m128i *)(strip + c), bytes);
    }
    keep_strip_portable(runs, c, cells, shift, merge, sums, strip);
}
#endif

void ccaptions_keep_strip(uint32_t *runs, size_t cells, int shift, int merge, uint32_t *sums, uint8_t *strip) {
    DISPATCH(
        keep_strip_avx2(runs, cells, shift, merge, sums, strip), keep_strip_portable(runs, 0, cells, shift, merge, sums, strip));
}

static inline void keep_texture_portable(
    uint32_t *squares, const uint32_t *runs, size_t from, size_t cells, int count_shift, int depth_shift, int merge,
    uint32_t *column_squares, uint8_t *texture) {
    const float per_sample = 1.0f / (float)(1u << count_shift), to_8bit = per_sample / (float)(1u << depth_shift);
    for (size_t c = from; c < cells; c++) {
        float mean = (float)runs[c] * to_8bit, variance = (float)squares[c] * per_sample - mean * mean;
        float spread = variance > 0 ? sqrtf(variance) + 0.5f : 0.5f;
        uint32_t value = spread >= 255 ? 255 : (uint32_t)spread;
        texture[c] = (uint8_t)(merge ? (texture[c] + value + 1) >> 1 : value);
        column_squares[c] += squares[c];
        squares[c] = 0;
    }
}

#ifdef CCAPTIONS_X86
// Eight cells at a time, in the same float operations as the portable loop (so the same bytes):
// the spread plus a half truncated, capped at 255, packed to bytes and merged by pavgb.
AVX2 static void keep_texture_avx2(
    uint32_t *squares, const uint32_t *runs, size_t cells, int count_shift, int depth_shift, int merge,
    uint32_t *column_squares, uint8_t *texture) {
    const float per_sample = 1.0f / (float)(1u << count_shift), to_8bit = per_sample / (float)(1u << depth_shift);
    const __m256 scale = _mm256_set1_ps(to_8bit), per = _mm256_set1_ps(per_sample), half = _mm256_set1_ps(0.5f);
    const __m256 cap = _mm256_set1_ps(255);
    size_t c = 0;
    for (; c + 8 <= cells; c += 8) {
        __m256i square = _mm256_loadu_si256((const __m256i *)(squares + c));
        __m256 mean = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(runs + c))), scale);
        __m256 variance = _mm256_sub_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(square), per), _mm256_mul_ps(mean, mean));
        __m256 positive = _mm256_cmp_ps(variance, _mm256_setzero_ps(), _CMP_GT_OQ);
        __m256 spread = _mm256_add_ps(_mm256_and_ps(_mm256_sqrt_ps(_mm256_max_ps(variance, _mm256_setzero_ps())), positive), half);
        __m256i value = _mm256_cvttps_epi32(_mm256_min_ps(spread, cap));
        __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(value), _mm256_extracti128_si256(value, 1));
        __m128i bytes = _mm_packus_epi16(words, words);
        if (merge) bytes = _mm_avg_epu8(bytes, _mm_loadl_epi64((const __m128i *)(texture + c)));
        _mm_storel_epi64((__m128i *)(texture + c), bytes);
        __m256i *sums = (__m256i *)(column_squares + c);
        _mm256_storeu_si256(sums, _mm256_add_epi32(_mm256_loadu_si256(sums), square));
        _mm256_storeu_si256((__m256i *)(squares + c), _mm256_setzero_si256());
    }
    keep_texture_portable(squares, runs, c, cells, count_shift, depth_shift, merge, column_squares, texture);
}
#endif

void ccaptions_keep_texture(
    uint32_t *squares, const uint32_t *runs, size_t cells, int count_shift, int depth_shift, int merge,
    uint32_t *column_squares, uint8_t *texture) {
    DISPATCH(
        keep_texture_avx2(squares, runs, cells, count_shift, depth_shift, merge, column_squares, texture),
        keep_texture_portable(squares, runs, 0, cells, count_shift, depth_shift, merge, column_squares, texture));
}

// The spreads of cell columns [from, count) from their sums and sums of squares, as
// ``CellSampler``'s Swift model computed them (float operations in its order).
static inline void mapped_spreads_portable(
    const uint32_t *runs, const uint32_t *squares, const float *per_sample, size_t from, size_t count, int depth_shift,
    int merge, uint8_t *texture) {
    const float depth = (float)(1u << depth_shift);
    for (size_t c = from; c < count; c++) {
        float mean = (float)runs[c] * per_sample[c] / depth;
        float variance = (float)squares[c] * per_sample[c] - mean * mean;
        float spread = (variance > 0 ? sqrtf(variance) : 0) + 0.5f;
        uint32_t value = spread >= 255 ? 255 : (uint32_t)spread;
        texture[c] = (uint8_t)(merge ? (texture[c] + value + 1) >> 1 : value);
    }
}

#ifdef CCAPTIONS_X86
// Eight columns at a time, in the same float operations.
AVX2 static void mapped_spreads_avx2(
    const uint32_t *runs, const uint32_t *squares, const float *per_sample, size_t count, int depth_shift, int merge,
    uint8_t *texture) {
    const __m256 depth = _mm256_set1_ps((float)(1u << depth_shift)), half = _mm256_set1_ps(0.5f);
    const __m256 cap = _mm256_set1_ps(255), zero = _mm256_setzero_ps();
    size_t c = 0;
    for (; c + 8 <= count; c += 8) {
        __m256 per = _mm256_loadu_ps(per_sample + c);
        // Sums and squares are below 2^31 (a column's few samples, at most 16 bits each).
        __m256 run = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(runs + c)));
        __m256 square = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(squares + c)));
        __m256 mean = _mm256_div_ps(_mm256_mul_ps(run, per), depth);
        __m256 variance = _mm256_sub_ps(_mm256_mul_ps(square, per), _mm256_mul_ps(mean, mean));
        __m256 positive = _mm256_cmp_ps(variance, zero, _CMP_GT_OQ);
        __m256 spread = _mm256_add_ps(_mm256_and_ps(_mm256_sqrt_ps(_mm256_max_ps(variance, zero)), positive), half);
        __m256i value = _mm256_cvttps_epi32(_mm256_min_ps(spread, cap));
        __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(value), _mm256_extracti128_si256(value, 1));
        __m128i bytes = _mm_packus_epi16(words, words);
        if (merge) bytes = _mm_avg_epu8(bytes, _mm_loadl_epi64((const __m128i *)(texture + c)));
        _mm_storel_epi64((__m128i *)(texture + c), bytes);
    }
    mapped_spreads_portable(runs, squares, per_sample, c, count, depth_shift, merge, texture);
}
#endif

// The columns are a pixel or a few wide: a plain loop over each column's samples for the sums
// and the means (exact, in integers), then the spreads eight columns at a time.
#define KEEP_MAPPED(name, sample, params, depth, square)                                              \
    void name(const sample *row, const int32_t *starts, const uint64_t *reciprocals, const float *per_sample, \
              size_t columns params, int merge, uint32_t *runs, uint32_t *squares, uint32_t *row_sums,   \
              uint32_t *row_squares, uint8_t *strip, uint8_t *texture) {                               \
        const int shift = 32 + (depth);                                                             \
        const uint64_t half = (uint64_t)1 << (shift - 1);                                            \
        for (size_t c = 0; c < columns; c++) {                                                       \
            uint32_t run = 0, total = 0;                                                             \
            for (int32_t x = starts[c]; x < starts[c + 1]; x++) {                                    \
                uint32_t value = row[x];                                                             \
                run += value;                                                                        \
                total += (value * value) >> (square);                                                \
            }                                                                                        \
            runs[c] = run;                                                                           \
            squares[c] = total;                                                                      \
            uint64_t mean = ((uint64_t)run * reciprocals[c] + half) >> shift;                        \
            uint32_t value = mean > 255 ? 255 : (uint32_t)mean;                                      \
            strip[c] = (uint8_t)(merge ? (strip[c] + value + 1) >> 1 : value);                       \
        }                                                                                            \
        DISPATCH(                                                                                    \
            mapped_spreads_avx2(runs, squares, per_sample, columns, (depth), merge, texture),        \
            mapped_spreads_portable(runs, squares, per_sample, 0, columns, (depth), merge, texture)); \
        for (size_t c = 0; c < columns; c++) {                                                       \
            row_sums[c] += runs[c];                                                                  \
            row_squares[c] += squares[c];                                                            \
            runs[c] = squares[c] = 0;                                                                \
        }                                                                                            \
    }
#define NO_PARAMS
#define DEPTH_PARAMS , int depth_shift, int square_shift
KEEP_MAPPED(ccaptions_keep_strip_mapped_u8, uint8_t, NO_PARAMS, 0, 0)
KEEP_MAPPED(ccaptions_keep_strip_mapped_u16, uint16_t, DEPTH_PARAMS, depth_shift, square_shift)

// The lines a window [top, bottom) of a picture `lines` tall takes its sources from when moved up
// to `search` lines either way: [*low, *high).
static inline void source_lines(long top, long bottom, int search, size_t lines, long *low, long *high) {
    *low = top - search > 0 ? top - search : 0;
    *high = bottom + search < (long)lines ? bottom + search : (long)lines;
}

// The lines y of the window [top, bottom) whose sources y − s and y − s − 1 (a move between whole
// shifts s and s + 1) both lie in [low, high): [*from, *to), empty when *to ≤ *from.
static inline void span_lines(long top, long bottom, long low, long high, long s, long *from, long *to) {
    *from = top > low + s + 1 ? top : low + s + 1;
    *to = bottom < high + s ? bottom : high + s;
}

// The sum of |a[i] − b[i]| for i < n. With SSE2 (every x86-64), sixteen bytes at a time by
// psadbw, the last sixteen masked: both buffers must be readable 15 bytes past n.
static inline uint32_t sad_u8(const uint8_t *a, const uint8_t *b, size_t n) {
#if defined(__SSE2__)
    __m128i total = _mm_setzero_si128();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        total = _mm_add_epi64(total, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(a + i)), _mm_loadu_si128((const __m128i *)(b + i))));
    }
    if (i < n) {
        static const uint8_t ramp[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        // Bytes n − i and past are masked to zero in both (a difference of zero).
        __m128i keep = _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)ramp), _mm_set1_epi8((char)(n - i)));
        __m128i x = _mm_and_si128(_mm_loadu_si128((const __m128i *)(a + i)), keep);
        __m128i y = _mm_and_si128(_mm_loadu_si128((const __m128i *)(b + i)), keep);
        total = _mm_add_epi64(total, _mm_sad_epu8(x, y));
    }
    return (uint32_t)(_mm_cvtsi128_si64(total) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(total, total)));
#else
    uint32_t total = 0;
    for (size_t i = 0; i < n; i++) total += (uint32_t)(a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]);
    return total;
#endif
}

void ccaptions_shift_errors(
    const uint8_t *now, const uint8_t *before, size_t lines, size_t first, size_t last, long top, long bottom, int search,
    uint32_t *sums, uint32_t *counts) {
    long low, high;
    source_lines(top, bottom, search, lines, &low, &high);
    for (int s = -search; s <= search; s++) sums[s + search] = counts[s + search] = 0;
    if (bottom <= top) return;
    for (size_t c = first; c <= last; c++) {
        // A column's lines are contiguous, so a shift is an offset into them.
        const uint8_t *column_now = now + c * lines, *column_before = before + c * lines;
        for (int s = -search; s <= search; s++) {
            // Lines y of the window whose source y − s is a line of the picture.
            long from = top > low + s ? top : low + s, to = bottom < high + s ? bottom : high + s;
            if (to <= from) continue;
            sums[s + search] += sad_u8(column_now + from, column_before + (from - s), (size_t)(to - from));
            counts[s + search] += (uint32_t)(to - from);
        }
    }
}

// The sum of how far each now[i] lies outside the values a[i] and a[i − 1], each way past them by
// an eighth of their difference (nothing inside; a[−1] is read). With SSE2, sixteen at a time by
// saturating differences, the rest one by one.
static inline uint32_t span_sad_u8(const uint8_t *now, const uint8_t *a, size_t n) {
    uint32_t total = 0;
    size_t i = 0;
#if defined(__SSE2__)
    __m128i sums = _mm_setzero_si128(), zero = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(now + i));
        __m128i x = _mm_loadu_si128((const __m128i *)(a + i)), y = _mm_loadu_si128((const __m128i *)(a + i - 1));
        __m128i high = _mm_max_epu8(x, y), low = _mm_min_epu8(x, y);
        // An eighth of the difference (bytes shifted in 16-bit lanes, the next byte's bits masked off).
        __m128i room = _mm_and_si128(_mm_srli_epi16(_mm_subs_epu8(high, low), 3), _mm_set1_epi8(0x1f));
        high = _mm_adds_epu8(high, room);
        low = _mm_subs_epu8(low, room);
        __m128i outside = _mm_adds_epu8(_mm_subs_epu8(v, high), _mm_subs_epu8(low, v));
        sums = _mm_add_epi64(sums, _mm_sad_epu8(outside, zero));
    }
    total = (uint32_t)(_mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
#endif
    const uint8_t *above = a - 1;  // a[i − 1] without an index below zero
    for (; i < n; i++) {
        int x = a[i], y = above[i], high = x > y ? x : y, low = x > y ? y : x, room = (high - low) >> 3;
        high = high + room > 255 ? 255 : high + room;
        low = low - room < 0 ? 0 : low - room;
        total += (uint32_t)(now[i] > high ? now[i] - high : now[i] < low ? low - now[i] : 0);
    }
    return total;
}

void ccaptions_span_errors(
    const uint8_t *now, const uint8_t *before, size_t lines, size_t first, size_t last, long top, long bottom, int search,
    const uint8_t *wanted, uint32_t *sums, uint32_t *counts) {
    long low, high;
    source_lines(top, bottom, search, lines, &low, &high);
    for (int s = -search; s < search; s++) sums[s + search] = counts[s + search] = 0;
    if (bottom <= top) return;
    for (size_t c = first; c <= last; c++) {
        const uint8_t *column_now = now + c * lines, *column_before = before + c * lines;
        for (int s = -search; s < search; s++) {
            if (!wanted[s + search]) continue;
            // Lines y of the window whose sources y − s and y − s − 1 are both lines of the picture.
            long from, to;
            span_lines(top, bottom, low, high, s, &from, &to);
            if (to <= from) continue;
            sums[s + search] += span_sad_u8(column_now + from, column_before + (from - s), (size_t)(to - from));
            counts[s + search] += (uint32_t)(to - from);
        }
    }
}

void ccaptions_line_steps(const uint8_t *strips, size_t lines, size_t first, size_t last, size_t from, size_t to, uint32_t *sums) {
    if (to <= from) return;
    size_t count = to - from;
    memset(sums, 0, count * sizeof(uint32_t));
    // Column by column (each column's lines are contiguous), then the running sum.
    for (size_t c = first; c <= last; c++) {
        const uint8_t *column = strips + c * lines + from;
        for (size_t i = 1; i < count; i++) {
            int step = (int)column[i] - (int)column[i - 1];
            sums[i] += (uint32_t)(step < 0 ? -step : step);
        }
    }
    for (size_t i = 1; i < count; i++) sums[i] += sums[i - 1];
}

int ccaptions_wanted_spans(
    const uint32_t *sums, const uint32_t *counts, int search, float shift, float limit, const uint8_t *before,
    size_t lines, size_t first, size_t last, long top, long bottom, uint32_t needed, uint32_t *steps, uint8_t *wanted) {
    // The lines the sources may come from, as in ccaptions_shift_errors and ccaptions_span_errors.
    long low, high;
    source_lines(top, bottom, search, lines, &low, &high);
    long columns = (long)(last - first + 1);
    if (high <= low || bottom <= top) return 0;
    ccaptions_line_steps(before, lines, first, last, (size_t)low, (size_t)high, steps);
    // Spans at least two lines from `shift`: whole + 0.5 − shift ≤ −2, or ≥ 2.
    float below = floorf(shift - 2.5f), above = ceilf(shift + 1.5f);
    int any = 0;
    for (int whole = -search; whole < search; whole++) {
        wanted[whole + search] = 0;
        if (!((float)whole <= below || (float)whole >= above)) continue;
        // The span's lines y (both sources lines), and its terms: a subset of each whole shift's,
        // whose extra terms (at the picture's edges) leave at most 255 each.
        long from, to;
        span_lines(top, bottom, low, high, whole, &from, &to);
        if (to <= from) continue;
        long terms = (to - from) * columns;
        if (terms < (long)needed) continue;  // too few to count, as a whole shift's
        double at = (double)sums[whole + search] - 255.0 * (double)((long)counts[whole + search] - terms);
        double next = (double)sums[whole + search + 1] - 255.0 * (double)((long)counts[whole + search + 1] - terms);
        // Lines L = y − whole, each less the line before it: the running sum to the last less the
        // running sum to the line before the first.
        uint32_t step = steps[to - whole - 1 - low] - steps[from - whole - 1 - low];
        double floor_value = ((at > 0 ? at : 0) + (next > 0 ? next : 0)) / 2 - 0.625 * (double)step;
        // (A hundredth of a code's room: the mean a span is measured by is a float quotient.)
        wanted[whole + search] = (uint8_t)(floor_value < (double)limit * (double)terms + 0.01);
        any |= wanted[whole + search];
    }
    return any;
}

void ccaptions_gather_column(const uint8_t *in, size_t lines, size_t columns, size_t column, uint8_t *out) {
    for (size_t y = 0; y < lines; y++) out[y] = in[y * columns + column];
}

void ccaptions_fold_columns(uint32_t *columns, const int32_t *cell_of, size_t count, int shift, uint32_t *cells) {
    if (count == 0) return;
    for (size_t x = 0; x < count; x++) cells[cell_of[x]] += columns[x >> shift];
    memset(columns, 0, (((count - 1) >> shift) + 1) * sizeof(uint32_t));
}

void ccaptions_fold_pairs(
    uint32_t *columns, size_t clear, const int32_t *first, const int32_t *second, const uint32_t *keep, size_t count,
    uint32_t *cells) {
    // Scalar on purpose: AVX2 gathers were slower here than the plain loop.
    pairs_portable(columns, first, second, keep, 0, count, cells);
    memset(columns, 0, clear * sizeof(uint32_t));
}

void ccaptions_scale_sums(const uint32_t *sums, const float *weights, float scale, float *out, size_t count) {
    DISPATCH(scale_avx2(sums, weights, scale, out, count), scale_portable(sums, weights, scale, out, count));
}

static inline void spreads_portable(
    const uint32_t *squares, const float *weights, float scale, const float *means, float *out, size_t from,
    size_t count) {
    for (size_t i = from; i < count; i++) {
        float variance = (float)squares[i] * (weights[i] * scale) - means[i] * means[i];
        out[i] = variance > 0 ? sqrtf(variance) : 0;
    }
}

#ifdef CCAPTIONS_X86
AVX2 static void spreads_avx2(
    const uint32_t *squares, const float *weights, float scale, const float *means, float *out, size_t count) {
    size_t i = 0;
    const __m256 factor = _mm256_set1_ps(scale);
    for (; i + 8 <= count; i += 8) {
        // Sums of squares stay below 2^31 (at most 2^16 a sample), so a signed conversion is exact.
        __m256 sums = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(squares + i)));
        __m256 mean = _mm256_loadu_ps(means + i);
        __m256 variance = _mm256_sub_ps(
            _mm256_mul_ps(sums, _mm256_mul_ps(_mm256_loadu_ps(weights + i), factor)), _mm256_mul_ps(mean, mean));
        _mm256_storeu_ps(out + i, _mm256_sqrt_ps(_mm256_max_ps(variance, _mm256_setzero_ps())));
    }
    spreads_portable(squares, weights, scale, means, out, i, count);
}
#endif

void ccaptions_spreads(
    const uint32_t *squares, const float *weights, float scale, const float *means, float *out, size_t count) {
    DISPATCH(spreads_avx2(squares, weights, scale, means, out, count), spreads_portable(squares, weights, scale, means, out, 0, count));
}

size_t ccaptions_changed_cells(
    const float *const *now, const float *const *fed, int channels, size_t count, float stillness,
    float spread_stillness, int32_t *changed) {
    size_t found = 0;
    DISPATCH(
        found = changed_avx2(now, fed, channels, count, stillness, spread_stillness, changed),
        found = changed_portable(now, fed, channels, 0, count, stillness, spread_stillness, changed, 0));
    return found;
}

// MARK: Dimming

static inline float curve_at(const float *curve, float value) {
    float position = (value < 0 ? 0 : value > 1 ? 1 : value) * 1024.0f;
    int index = (int)position;
    if (index >= 1024) return curve[1024];
    float fraction = position - (float)index;
    return curve[index] + (curve[index + 1] - curve[index]) * fraction;
}

static inline float clamp01(float value) { return value < 0 ? 0 : value > 1 ? 1 : value; }

void ccaptions_dim_yuv(
    void *y, ptrdiff_t y_stride, void *u, ptrdiff_t u_stride, void *v, ptrdiff_t v_stride,
    const ccaptions_yuv_layout *layout, const ccaptions_dim_curve *dim) {
    const int wide = layout->bit_depth > 8;
    const float max_code = (float)((1 << layout->bit_depth) - 1);
    const float scale = (float)(1 << (layout->bit_depth - 8)); // 8-bit steps to samples
    const float kr = layout->kr, kb = layout->kb, kg = 1 - kr - kb;
    const float y_offset = layout->limited ? 16 * scale : 0, y_range = layout->limited ? 219 * scale : max_code;
    const float c_offset = 128 * scale, c_range = layout->limited ? 224 * scale : max_code;
    const int chroma_width = (layout->width + (1 << layout->shift_x) - 1) >> layout->shift_x;
    const int chroma_height = (layout->height + (1 << layout->shift_y) - 1) >> layout->shift_y;
    const float s = dim->saturation;
    const int step = layout->chroma_step > 0 ? layout->chroma_step : 1;
#define SAMPLE(plane, stride, x, yy) \
    (wide ? (float)((uint16_t *)((uint8_t *)(plane) + (ptrdiff_t)(yy) * (stride)))[x] \
          : (float)((uint8_t *)(plane) + (ptrdiff_t)(yy) * (stride))[x])
#define STORE(plane, stride, x, yy, value) do { \
        float stored = (value) < 0 ? 0 : (value) > max_code ? max_code : (value); \
        if (wide) ((uint16_t *)((uint8_t *)(plane) + (ptrdiff_t)(yy) * (stride)))[x] = (uint16_t)(stored + 0.5f); \
        else ((uint8_t *)(plane) + (ptrdiff_t)(yy) * (stride))[x] = (uint8_t)(stored + 0.5f); \
    } while (0)
    if (u == NULL || v == NULL) {
        // Grey: R′ = G′ = B′ = luma, so the new luma is the curve's (and saturation moves nothing).
        for (int py = 0; py < layout->height; py++) {
            for (int px = 0; px < layout->width; px++) {
                float luma = (SAMPLE(y, y_stride, px, py) - y_offset) / y_range;
                float changed = curve_at(dim->curve, clamp01(luma));
                STORE(y, y_stride, px, py, y_offset + changed * y_range);
            }
        }
        return;
    }
    for (int cy = 0; cy < chroma_height; cy++) {
        for (int cx = 0; cx < chroma_width; cx++) {
            float cb = (SAMPLE(u, u_stride, cx * step, cy) - c_offset) / c_range;
            float cr = (SAMPLE(v, v_stride, cx * step, cy) - c_offset) / c_range;
            float red = 0, green = 0, blue = 0;
            int pixels = 0;
            for (int py = cy << layout->shift_y; py < ((cy + 1) << layout->shift_y) && py < layout->height; py++) {
                for (int px = cx << layout->shift_x; px < ((cx + 1) << layout->shift_x) && px < layout->width; px++) {
                    float luma = (SAMPLE(y, y_stride, px, py) - y_offset) / y_range;
                    float r = curve_at(dim->curve, clamp01(luma + 2 * (1 - kr) * cr));
                    float b = curve_at(dim->curve, clamp01(luma + 2 * (1 - kb) * cb));
                    float g = curve_at(dim->curve, clamp01(luma - 2 * (1 - kr) * kr / kg * cr - 2 * (1 - kb) * kb / kg * cb));
                    float new_luma = kr * r + kg * g + kb * b;
                    r = new_luma + s * (r - new_luma);
                    g = new_luma + s * (g - new_luma);
                    b = new_luma + s * (b - new_luma);
                    STORE(y, y_stride, px, py, y_offset + new_luma * y_range);
                    red += r;
                    green += g;
                    blue += b;
                    pixels++;
                }
            }
            if (pixels == 0) continue;
            red /= (float)pixels;
            green /= (float)pixels;
            blue /= (float)pixels;
            float mean_luma = kr * red + kg * green + kb * blue;
            STORE(u, u_stride, cx * step, cy, c_offset + (blue - mean_luma) / (2 * (1 - kb)) * c_range);
            STORE(v, v_stride, cx * step, cy, c_offset + (red - mean_luma) / (2 * (1 - kr)) * c_range);
        }
    }
#undef SAMPLE
#undef STORE
}

void ccaptions_dim_rgb(
    uint8_t *red, ptrdiff_t red_stride, uint8_t *green, ptrdiff_t green_stride, uint8_t *blue, ptrdiff_t blue_stride,
    int step, int width, int height, int bit_depth, const ccaptions_dim_curve *dim) {
    const int wide = bit_depth > 8;
    const float max_code = (float)((1 << bit_depth) - 1);
    const float s = dim->saturation;
    for (int y = 0; y < height; y++) {
        uint8_t *r = red + (ptrdiff_t)y * red_stride, *g = green + (ptrdiff_t)y * green_stride;
        uint8_t *b = blue + (ptrdiff_t)y * blue_stride;
        for (int x = 0; x < width; x++, r += step, g += step, b += step) {
            float values[3];
            uint8_t *samples[3] = {r, g, b};
            for (int c = 0; c < 3; c++) {
                float code = wide ? (float)*(uint16_t *)samples[c] : (float)*samples[c];
                values[c] = curve_at(dim->curve, code / max_code);
            }
            float luma = 0.2126f * values[0] + 0.7152f * values[1] + 0.0722f * values[2];
            for (int c = 0; c < 3; c++) {
                float value = (luma + s * (values[c] - luma)) * max_code;
                value = value < 0 ? 0 : value > max_code ? max_code : value;
                if (wide) *(uint16_t *)samples[c] = (uint16_t)(value + 0.5f);
                else *samples[c] = (uint8_t)(value + 0.5f);
            }
        }
    }
}
