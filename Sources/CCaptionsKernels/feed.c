// See include/CCaptionsKernels.h: ccaptions_feed_row, which turns a row of cells' sums into means
// and a spread and compares them with what was last fed, in one pass, without writing the means
// of cells that did not change. Same float operations, in the same order, as ccaptions_scale_sums,
// ccaptions_spreads and ccaptions_changed_cells, so results are bit-identical to those three.
#include <math.h>
#include "CCaptionsKernels.h"
#include "dispatch.h"

// Cell i's means and spread, and whether it changed.
static inline int feed_cell(
    const uint32_t *sum0, const uint32_t *sum1, const uint32_t *sum2, const uint32_t *squares, const float *luma_weights,
    const float *chroma_weights, float luma_scale, float chroma_scale, float square_scale, size_t i, size_t cell,
    const ccaptions_feed *feed, float out[4]) {
    float m0 = (float)sum0[i] * (luma_weights[i] * luma_scale);
    float m1 = sum1 ? (float)sum1[i] * (chroma_weights[i] * chroma_scale) : 128.0f;
    float m2 = sum2 ? (float)sum2[i] * (chroma_weights[i] * chroma_scale) : 128.0f;
    float variance = (float)squares[i] * (luma_weights[i] * square_scale) - m0 * m0;
    float spread = variance > 0 ? sqrtf(variance) : 0;
    float still = feed->stillness, spread_still = feed->spread_stillness;
    float d0 = m0 - feed->fed0[cell], d1 = m1 - feed->fed1[cell], d2 = m2 - feed->fed2[cell];
    float ds = spread - feed->fed_spread[cell];
    out[0] = m0, out[1] = m1, out[2] = m2, out[3] = spread;
    return (d0 >= still || d0 <= -still) | (d1 >= still || d1 <= -still) | (d2 >= still || d2 <= -still) |
           (ds >= spread_still || ds <= -spread_still);
}

static inline size_t feed_changed(size_t cell, const float now[4], const ccaptions_feed *feed, size_t found) {
    feed->changed[found] = (int32_t)cell;
    if (feed->chroma_moves) {
        float a = fabsf(now[1] - feed->fed1[cell]), b = fabsf(now[2] - feed->fed2[cell]);
        feed->chroma_moves[found] = a < b ? b : a;
    }
    feed->fed0[cell] = now[0], feed->fed1[cell] = now[1], feed->fed2[cell] = now[2], feed->fed_spread[cell] = now[3];
    return found + 1;
}

static size_t feed_row_portable(
    const uint32_t *sum0, const uint32_t *sum1, const uint32_t *sum2, const uint32_t *squares, const float *luma_weights,
    const float *chroma_weights, float luma_scale, float chroma_scale, float square_scale, size_t base, size_t from,
    size_t count, const ccaptions_feed *feed, size_t found) {
    for (size_t i = from; i < count; i++) {
        float now[4];
        if (feed_cell(sum0, sum1, sum2, squares, luma_weights, chroma_weights, luma_scale, chroma_scale, square_scale, i,
                base + i, feed, now)) {
            found = feed_changed(base + i, now, feed, found);
        }
    }
    return found;
}

#ifdef CCAPTIONS_X86
// Whether each of eight values moved by `limit` or more from what was fed, as a mask of lanes.
AVX2 static inline __m256 moved_avx2(__m256 now, const float *fed, __m256 limit, __m256 negative) {
    __m256 d = _mm256_sub_ps(now, _mm256_loadu_ps(fed));
    return _mm256_or_ps(_mm256_cmp_ps(d, limit, _CMP_GE_OQ), _mm256_cmp_ps(d, negative, _CMP_LE_OQ));
}

// Sums below 2^31 (at most 2^16 a sample, few samples a cell), so the signed conversion is exact.
AVX2 static inline __m256 scaled_avx2(const uint32_t *sums, const float *weights, __m256 scale) {
    return _mm256_mul_ps(
        _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)sums)), _mm256_mul_ps(_mm256_loadu_ps(weights), scale));
}

AVX2 static size_t feed_row_avx2(
    const uint32_t *sum0, const uint32_t *sum1, const uint32_t *sum2, const uint32_t *squares, const float *luma_weights,
    const float *chroma_weights, float luma_scale, float chroma_scale, float square_scale, size_t base, size_t count,
    const ccaptions_feed *feed, size_t found) {
    const __m256 still = _mm256_set1_ps(feed->stillness), negative = _mm256_set1_ps(-feed->stillness);
    const __m256 spread_still = _mm256_set1_ps(feed->spread_stillness);
    const __m256 spread_negative = _mm256_set1_ps(-feed->spread_stillness);
    const __m256 luma = _mm256_set1_ps(luma_scale), chroma = _mm256_set1_ps(chroma_scale);
    const __m256 square = _mm256_set1_ps(square_scale), neutral = _mm256_set1_ps(128.0f);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        size_t cell = base + i;
        __m256 m0 = scaled_avx2(sum0 + i, luma_weights + i, luma);
        __m256 m1 = sum1 ? scaled_avx2(sum1 + i, chroma_weights + i, chroma) : neutral;
        __m256 m2 = sum2 ? scaled_avx2(sum2 + i, chroma_weights + i, chroma) : neutral;
        __m256 variance = _mm256_sub_ps(scaled_avx2(squares + i, luma_weights + i, square), _mm256_mul_ps(m0, m0));
        __m256 spread = _mm256_sqrt_ps(_mm256_max_ps(variance, _mm256_setzero_ps()));
        __m256 moved = _mm256_or_ps(
            _mm256_or_ps(moved_avx2(m0, feed->fed0 + cell, still, negative), moved_avx2(m1, feed->fed1 + cell, still, negative)),
            _mm256_or_ps(
                moved_avx2(m2, feed->fed2 + cell, still, negative),
                moved_avx2(spread, feed->fed_spread + cell, spread_still, spread_negative)));
        unsigned mask = (unsigned)_mm256_movemask_ps(moved);
        if (!mask) continue;
        float values[4][8];
        _mm256_storeu_ps(values[0], m0), _mm256_storeu_ps(values[1], m1), _mm256_storeu_ps(values[2], m2);
        _mm256_storeu_ps(values[3], spread);
        while (mask) {
            unsigned lane = (unsigned)__builtin_ctz(mask);
            float now[4] = {values[0][lane], values[1][lane], values[2][lane], values[3][lane]};
            found = feed_changed(cell + lane, now, feed, found);
            mask &= mask - 1;
        }
    }
    return feed_row_portable(
        sum0, sum1, sum2, squares, luma_weights, chroma_weights, luma_scale, chroma_scale, square_scale, base, i, count,
        feed, found);
}
#endif

size_t ccaptions_feed_row(
    const uint32_t *sum0, const uint32_t *sum1, const uint32_t *sum2, const uint32_t *squares, const float *luma_weights,
    const float *chroma_weights, float luma_scale, float chroma_scale, float square_scale, size_t base, size_t count,
    const ccaptions_feed *feed, size_t found) {
    DISPATCH(
        return feed_row_avx2(sum0, sum1, sum2, squares, luma_weights, chroma_weights, luma_scale, chroma_scale, square_scale,
            base, count, feed, found),
        return feed_row_portable(sum0, sum1, sum2, squares, luma_weights, chroma_weights, luma_scale, chroma_scale,
            square_scale, base, 0, count, feed, found));
}
