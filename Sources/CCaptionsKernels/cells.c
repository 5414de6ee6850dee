// See include/CCaptionsKernels.h: a changed cell's codes to light, in the order of operations
// ColorModel uses, so that Swift and C give the same figures. The AVX2 version (chosen at run
// time; HLG, whose system gamma needs pow, stays portable) does the same operations in the same
// order, eight cells at a time, and gives bit-identical results.
#include <math.h>
#include "CCaptionsKernels.h"
#include "dispatch.h"

static inline float clip01(float value) { return fminf(fmaxf(value, 0), 1); }

/// ColorModel.lookUp: `table` at `value`, interpolated, clamped to 0–1.
static inline float look_up(const float *table, int steps, float value) {
    float position = clip01(value) * (float)steps;
    int index = (int)position;
    if (index >= steps) return table[steps];
    float fraction = position - (float)index;
    return table[index] + (table[index + 1] - table[index]) * fraction;
}

/// ColorModel.dimFlashingLightsLevel's 8-bit code of a signal (truncated, as FFmpeg converts).
static inline int code_of(float value) { return (int)(clip01(value) * 255 + 1e-3f); }

/// A channel's values in a cell as two points and their weights, from its mean signal `s` and its
/// spread `d`: the mean less and plus the spread, half each; where one of those falls outside
/// 0–1 (a skewed texture, such as sparse bright dots on black), the two points of the same mean
/// and spread one of which is at that bound (exact for black and any one other value); where both
/// do, the two bounds.
typedef struct {
    float p1, p2, w1, w2;
} two_points;

/// What a spread is divided by where the mean is at a bound (no division by zero).
static const float least_gap = 1e-12f;

/// Spreads under this (signal units; 1/512, half a code at 8 bits) are none: their light differs
/// from the mean's by under 1e-5 of white, and in the AVX2 path eight cells without one take one
/// look-up a channel, not two.
static const float least_spread = 1.0f / 512;

static inline two_points split_of(float s, float d) {
    if (d < least_spread) d = 0;
    float lo = s - d, hi = s + d, q = d * d;
    two_points r = {lo, hi, 0.5f, 0.5f};
    if (lo < 0 && hi > 1) {
        float w = clip01(s);
        r = (two_points){0, 1, 1 - w, w};
    } else if (lo < 0) {
        float w = s > 0 ? s * s / (s * s + q) : 0;
        r = (two_points){0, s + q / fmaxf(s, least_gap), 1 - w, w};
    } else if (hi > 1) {
        float t = 1 - s;
        float w = t > 0 ? t * t / (t * t + q) : 0;
        r = (two_points){s - q / fmaxf(t, least_gap), 1, w, 1 - w};
    }
    return r;
}

/// The mean of the table's values at a channel's two points.
static inline float mean_at(const float *table, int steps, two_points p, float *at1, float *at2) {
    *at1 = look_up(table, steps, p.p1), *at2 = look_up(table, steps, p.p2);
    return p.w1 * *at1 + p.w2 * *at2;
}

/// The mean Dim Flashing Lights code light of a channel's two points.
static inline float mean_code_light(const float *code_light, two_points p) {
    return p.w1 * code_light[code_of(p.p1)] + p.w2 * code_light[code_of(p.p2)];
}

/// The mean of a channel's light over the display's peak, clipped to 1, at its two points.
static inline float mean_display(two_points p, float at1, float at2, float peak) {
    return p.w1 * fminf(1, at1 / peak) + p.w2 * fminf(1, at2 / peak);
}

static void cell_light_portable(
    const ccaptions_cell_model *m, const float *c0, const float *c1, const float *c2, const float *const *spreads,
    const int32_t *cells, size_t from, size_t count, float *out, size_t stride) {
    for (size_t i = from; i < count; i++) {
        size_t cell = (size_t)cells[i];
        float sr, sg, sb, dr = 0, dg = 0, db = 0;
        if (m->rgb) {
            sr = c0[cell] / 255, sg = c1[cell] / 255, sb = c2[cell] / 255;
            if (spreads) dr = spreads[0][cell] / 255, dg = spreads[1][cell] / 255, db = spreads[2][cell] / 255;
        } else {
            float y = (c0[cell] - m->luma_offset) / m->luma_divisor;
            float cb = (c1[cell] - 128) / m->chroma_divisor, cr = (c2[cell] - 128) / m->chroma_divisor;
            sr = y + m->cr_r * cr;
            sb = y + m->cb_b * cb;
            sg = y - m->cr_g * cr - m->cb_g * cb;
            if (spreads) dr = dg = db = spreads[0][cell] / m->luma_divisor;
        }
        two_points pr = split_of(sr, dr), pg = split_of(sg, dg), pb = split_of(sb, db);
        float r1, r2, g1, g2, b1, b2;
        float r = mean_at(m->to_linear, m->steps, pr, &r1, &r2), g = mean_at(m->to_linear, m->steps, pg, &g1, &g2),
              b = mean_at(m->to_linear, m->steps, pb, &b1, &b2);
        if (m->hlg_peak > 0) {
            // HLG's system gamma on the cell's mean scene light.
            float scene = m->weight_r * r + m->weight_g * g + m->weight_b * b;
            float gain = m->hlg_peak * (scene > 0 ? (float)pow((double)scene, (double)m->hlg_gamma_minus_one) : 0);
            r *= gain, g *= gain, b *= gain;
            r1 *= gain, r2 *= gain, g1 *= gain, g2 *= gain, b1 *= gain, b2 *= gain;
        }
        out[i] = r, out[stride + i] = g, out[2 * stride + i] = b;
        out[3 * stride + i] = m->weight_r * r + m->weight_g * g + m->weight_b * b;
        if (m->code_light) {
            out[4 * stride + i] = 0.299f * mean_code_light(m->code_light, pr) + 0.587f * mean_code_light(m->code_light, pg)
                + 0.114f * mean_code_light(m->code_light, pb);
        } else {
            out[4 * stride + i] = 0.299f * mean_display(pr, r1, r2, m->display_peak)
                + 0.587f * mean_display(pg, g1, g2, m->display_peak) + 0.114f * mean_display(pb, b1, b2, m->display_peak);
        }
    }
}

#ifdef CCAPTIONS_X86
AVX2 static inline __m256 clip01_avx2(__m256 value) {
    return _mm256_min_ps(_mm256_max_ps(value, _mm256_setzero_ps()), _mm256_set1_ps(1));
}

AVX2 static inline __m256 look_up_avx2(const float *table, int steps, __m256 value) {
    __m256 position = _mm256_mul_ps(clip01_avx2(value), _mm256_set1_ps((float)steps));
    __m256i index = _mm256_cvttps_epi32(position);
    __m256i top = _mm256_cmpgt_epi32(index, _mm256_set1_epi32(steps - 1));
    __m256i below = _mm256_min_epi32(index, _mm256_set1_epi32(steps - 1));
    __m256 fraction = _mm256_sub_ps(position, _mm256_cvtepi32_ps(index));
    __m256 low = _mm256_i32gather_ps(table, below, 4);
    __m256 high = _mm256_i32gather_ps(table, _mm256_add_epi32(below, _mm256_set1_epi32(1)), 4);
    __m256 between = _mm256_add_ps(low, _mm256_mul_ps(_mm256_sub_ps(high, low), fraction));
    return _mm256_blendv_ps(between, _mm256_set1_ps(table[steps]), _mm256_castsi256_ps(top));
}

AVX2 static inline __m256 code_light_avx2(const float *code_light, __m256 value) {
    __m256 code = _mm256_add_ps(_mm256_mul_ps(clip01_avx2(value), _mm256_set1_ps(255)), _mm256_set1_ps(1e-3f));
    return _mm256_i32gather_ps(code_light, _mm256_cvttps_epi32(code), 4);
}

AVX2 static inline __m256 weigh_avx2(float a, __m256 x, float b, __m256 y, float c, __m256 z) {
    return _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a), x), _mm256_mul_ps(_mm256_set1_ps(b), y)),
        _mm256_mul_ps(_mm256_set1_ps(c), z));
}

/// split_of, eight cells at a time: every case worked out, the right one chosen.
typedef struct {
    __m256 p1, p2, w1, w2;
} two_points_avx2;

AVX2 static inline two_points_avx2 split_avx2(__m256 s, __m256 d) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1), half = _mm256_set1_ps(0.5f),
                 gap = _mm256_set1_ps(least_gap);
    d = _mm256_and_ps(d, _mm256_cmp_ps(d, _mm256_set1_ps(least_spread), _CMP_GE_OQ));
    __m256 lo = _mm256_sub_ps(s, d), hi = _mm256_add_ps(s, d), q = _mm256_mul_ps(d, d);
    __m256 below = _mm256_cmp_ps(lo, zero, _CMP_LT_OQ), above = _mm256_cmp_ps(hi, one, _CMP_GT_OQ);
    __m256 both = _mm256_and_ps(below, above);
    __m256 only_below = _mm256_andnot_ps(both, below), only_above = _mm256_andnot_ps(both, above);
    // Below: 0 and s + q / s, weighted s² / (s² + q) (nothing but 0 when s <= 0).
    __m256 ss = _mm256_mul_ps(s, s);
    __m256 w_below = _mm256_and_ps(_mm256_cmp_ps(s, zero, _CMP_GT_OQ), _mm256_div_ps(ss, _mm256_add_ps(ss, q)));
    __m256 p2_below = _mm256_add_ps(s, _mm256_div_ps(q, _mm256_max_ps(s, gap)));
    // Above: s − q / t and 1, the first weighted t² / (t² + q), t = 1 − s.
    __m256 t = _mm256_sub_ps(one, s), tt = _mm256_mul_ps(t, t);
    __m256 w_above = _mm256_and_ps(_mm256_cmp_ps(t, zero, _CMP_GT_OQ), _mm256_div_ps(tt, _mm256_add_ps(tt, q)));
    __m256 p1_above = _mm256_sub_ps(s, _mm256_div_ps(q, _mm256_max_ps(t, gap)));
    // Both: 0 and 1, weighted by the mean.
    __m256 w_both = _mm256_min_ps(_mm256_max_ps(s, zero), one);
    two_points_avx2 r;
    r.p1 = _mm256_blendv_ps(_mm256_blendv_ps(lo, zero, below), p1_above, only_above);
    r.p2 = _mm256_blendv_ps(_mm256_blendv_ps(_mm256_blendv_ps(hi, p2_below, only_below), one, above), one, both);
    r.w1 = _mm256_blendv_ps(
        _mm256_blendv_ps(_mm256_blendv_ps(half, _mm256_sub_ps(one, w_below), only_below), w_above, only_above),
        _mm256_sub_ps(one, w_both), both);
    r.w2 = _mm256_blendv_ps(
        _mm256_blendv_ps(_mm256_blendv_ps(half, w_below, only_below), _mm256_sub_ps(one, w_above), only_above), w_both,
        both);
    return r;
}

AVX2 static inline __m256 mean_at_avx2(const ccaptions_cell_model *m, two_points_avx2 p, __m256 *at1, __m256 *at2) {
    *at1 = look_up_avx2(m->to_linear, m->steps, p.p1), *at2 = look_up_avx2(m->to_linear, m->steps, p.p2);
    return _mm256_add_ps(_mm256_mul_ps(p.w1, *at1), _mm256_mul_ps(p.w2, *at2));
}

AVX2 static inline __m256 mean_level_avx2(const ccaptions_cell_model *m, two_points_avx2 p, __m256 at1, __m256 at2) {
    if (m->code_light) {
        return _mm256_add_ps(
            _mm256_mul_ps(p.w1, code_light_avx2(m->code_light, p.p1)), _mm256_mul_ps(p.w2, code_light_avx2(m->code_light, p.p2)));
    }
    __m256 one = _mm256_set1_ps(1), peak = _mm256_set1_ps(m->display_peak);
    return _mm256_add_ps(
        _mm256_mul_ps(p.w1, _mm256_min_ps(one, _mm256_div_ps(at1, peak))),
        _mm256_mul_ps(p.w2, _mm256_min_ps(one, _mm256_div_ps(at2, peak))));
}

AVX2 static void cell_light_avx2(
    const ccaptions_cell_model *m, const float *c0, const float *c1, const float *c2, const float *const *spreads,
    const int32_t *cells, size_t count, float *out, size_t stride) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i index = _mm256_loadu_si256((const __m256i *)(cells + i));
        __m256 v0 = _mm256_i32gather_ps(c0, index, 4), v1 = _mm256_i32gather_ps(c1, index, 4),
               v2 = _mm256_i32gather_ps(c2, index, 4);
        __m256 sr, sg, sb, dr = _mm256_setzero_ps(), dg = dr, db = dr;
        if (m->rgb) {
            __m256 full = _mm256_set1_ps(255);
            sr = _mm256_div_ps(v0, full), sg = _mm256_div_ps(v1, full), sb = _mm256_div_ps(v2, full);
            if (spreads) {
                dr = _mm256_div_ps(_mm256_i32gather_ps(spreads[0], index, 4), full);
                dg = _mm256_div_ps(_mm256_i32gather_ps(spreads[1], index, 4), full);
                db = _mm256_div_ps(_mm256_i32gather_ps(spreads[2], index, 4), full);
            }
        } else {
            __m256 mid = _mm256_set1_ps(128), chroma = _mm256_set1_ps(m->chroma_divisor);
            __m256 y = _mm256_div_ps(_mm256_sub_ps(v0, _mm256_set1_ps(m->luma_offset)), _mm256_set1_ps(m->luma_divisor));
            __m256 cb = _mm256_div_ps(_mm256_sub_ps(v1, mid), chroma), cr = _mm256_div_ps(_mm256_sub_ps(v2, mid), chroma);
            sr = _mm256_add_ps(y, _mm256_mul_ps(_mm256_set1_ps(m->cr_r), cr));
            sb = _mm256_add_ps(y, _mm256_mul_ps(_mm256_set1_ps(m->cb_b), cb));
            sg = _mm256_sub_ps(
                _mm256_sub_ps(y, _mm256_mul_ps(_mm256_set1_ps(m->cr_g), cr)), _mm256_mul_ps(_mm256_set1_ps(m->cb_g), cb));
            if (spreads) dr = dg = db = _mm256_div_ps(_mm256_i32gather_ps(spreads[0], index, 4), _mm256_set1_ps(m->luma_divisor));
        }
        const __m256 least = _mm256_set1_ps(least_spread);
        if (!_mm256_movemask_ps(_mm256_or_ps(
                _mm256_or_ps(_mm256_cmp_ps(dr, least, _CMP_GE_OQ), _mm256_cmp_ps(dg, least, _CMP_GE_OQ)),
                _mm256_cmp_ps(db, least, _CMP_GE_OQ)))) {
            // No spread in any of the eight: one look-up a channel (what two equal points give).
            __m256 r = look_up_avx2(m->to_linear, m->steps, sr), g = look_up_avx2(m->to_linear, m->steps, sg),
                   b = look_up_avx2(m->to_linear, m->steps, sb);
            _mm256_storeu_ps(out + i, r);
            _mm256_storeu_ps(out + stride + i, g);
            _mm256_storeu_ps(out + 2 * stride + i, b);
            _mm256_storeu_ps(out + 3 * stride + i, weigh_avx2(m->weight_r, r, m->weight_g, g, m->weight_b, b));
            __m256 level;
            if (m->code_light) {
                level = weigh_avx2(
                    0.299f, code_light_avx2(m->code_light, sr), 0.587f, code_light_avx2(m->code_light, sg), 0.114f,
                    code_light_avx2(m->code_light, sb));
            } else {
                __m256 one = _mm256_set1_ps(1), peak = _mm256_set1_ps(m->display_peak);
                level = weigh_avx2(
                    0.299f, _mm256_min_ps(one, _mm256_div_ps(r, peak)), 0.587f, _mm256_min_ps(one, _mm256_div_ps(g, peak)),
                    0.114f, _mm256_min_ps(one, _mm256_div_ps(b, peak)));
            }
            _mm256_storeu_ps(out + 4 * stride + i, level);
            continue;
        }
        two_points_avx2 pr = split_avx2(sr, dr), pg = split_avx2(sg, dg), pb = split_avx2(sb, db);
        __m256 r1, r2, g1, g2, b1, b2;
        __m256 r = mean_at_avx2(m, pr, &r1, &r2), g = mean_at_avx2(m, pg, &g1, &g2), b = mean_at_avx2(m, pb, &b1, &b2);
        _mm256_storeu_ps(out + i, r);
        _mm256_storeu_ps(out + stride + i, g);
        _mm256_storeu_ps(out + 2 * stride + i, b);
        _mm256_storeu_ps(out + 3 * stride + i, weigh_avx2(m->weight_r, r, m->weight_g, g, m->weight_b, b));
        __m256 level = weigh_avx2(
            0.299f, mean_level_avx2(m, pr, r1, r2), 0.587f, mean_level_avx2(m, pg, g1, g2), 0.114f, mean_level_avx2(m, pb, b1, b2));
        _mm256_storeu_ps(out + 4 * stride + i, level);
    }
    cell_light_portable(m, c0, c1, c2, spreads, cells, i, count, out, stride);
}

#endif

void ccaptions_cell_light(
    const ccaptions_cell_model *model, const float *c0, const float *c1, const float *c2, const float *const *spreads,
    const int32_t *cells, size_t count, float *out, size_t stride) {
    if (model->hlg_peak > 0) {
        cell_light_portable(model, c0, c1, c2, spreads, cells, 0, count, out, stride);
        return;
    }
    DISPATCH(
        cell_light_avx2(model, c0, c1, c2, spreads, cells, count, out, stride),
        cell_light_portable(model, c0, c1, c2, spreads, cells, 0, count, out, stride));
}

// ---- Shot changes ---------------------------------------------------------------------------

/// One line of ccaptions_thumbnail_sad, samples from `first` (every other one) on.
static uint64_t thumbnail_row_portable(
    const uint8_t *row, int first, int width, int bytes_per_sample, int shift, int pixel_step, int offset,
    uint8_t *thumbnail) {
    uint64_t sad = 0;
    size_t out = 0;
    if (bytes_per_sample == 1) {
        for (int x = first; x < width; x += 2) {
            uint8_t value = row[(size_t)x * pixel_step + offset];
            uint8_t old = thumbnail[out];
            sad += value > old ? value - old : old - value;
            thumbnail[out++] = value;
        }
    } else {
        const uint16_t *wide = (const uint16_t *)row;
        for (int x = first; x < width; x += 2) {
            uint8_t value = (uint8_t)(wide[(size_t)x * pixel_step + offset] >> shift);
            uint8_t old = thumbnail[out];
            sad += value > old ? value - old : old - value;
            thumbnail[out++] = value;
        }
    }
    return sad;
}

#ifdef CCAPTIONS_X86
/// An 8-bit planar line (pixel_step 1, offset 0), 32 thumbnail samples at a time: the even bytes
/// of 64 picked out and packed, their sum of absolute differences with the thumbnail's taken by
/// vpsadbw. The same sums as the portable loop; returns how many samples it did (`*done`).
AVX2 static uint64_t thumbnail_row_avx2(const uint8_t *row, int width, uint8_t *thumbnail, int *done) {
    const __m256i even = _mm256_set1_epi16(0x00FF);
    __m256i total = _mm256_setzero_si256();
    int x = 0, out = 0;
    for (; x + 64 <= width; x += 64, out += 32) {
        __m256i a = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(row + x)), even);
        __m256i b = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(row + x + 32)), even);
        // packus interleaves the 128-bit lanes (a0 b0 a1 b1): put them back in order.
        __m256i values = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
        __m256i old = _mm256_loadu_si256((const __m256i *)(thumbnail + out));
        total = _mm256_add_epi64(total, _mm256_sad_epu8(values, old));
        _mm256_storeu_si256((__m256i *)(thumbnail + out), values);
    }
    *done = x;
    __m128i folded = _mm_add_epi64(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
    return (uint64_t)_mm_cvtsi128_si64(folded) + (uint64_t)_mm_extract_epi64(folded, 1);
}
#endif

uint64_t ccaptions_thumbnail_sad(
    const uint8_t *plane, ptrdiff_t stride, int width, int height, int bytes_per_sample, int shift,
    int pixel_step, int offset, uint8_t *thumbnail) {
    uint64_t sad = 0;
    const size_t across = (size_t)(width + 1) / 2;
    const int simple = bytes_per_sample == 1 && pixel_step == 1 && offset == 0;
    for (int y = 0; y < height; y += 2) {
        const uint8_t *row = plane + (ptrdiff_t)y * stride;
        uint8_t *line = thumbnail + (size_t)(y / 2) * across;
        int done = 0;
#ifdef CCAPTIONS_X86
        if (simple && ccaptions_has_avx2()) sad += thumbnail_row_avx2(row, width, line, &done);
#else
        (void)simple;
#endif
        sad += thumbnail_row_portable(row, done, width, bytes_per_sample, shift, pixel_step, offset, line + done / 2);
    }
    return sad;
}
