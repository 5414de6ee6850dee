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

/// Linear R, G, B of one point's signal, HLG's system gamma applied.
static inline void point_light(const ccaptions_cell_model *m, float sr, float sg, float sb, float *r, float *g, float *b) {
    *r = look_up(m->to_linear, m->steps, sr), *g = look_up(m->to_linear, m->steps, sg),
    *b = look_up(m->to_linear, m->steps, sb);
    if (m->hlg_peak > 0) {
        float scene = m->weight_r * *r + m->weight_g * *g + m->weight_b * *b;
        float gain = m->hlg_peak * (scene > 0 ? (float)pow((double)scene, (double)m->hlg_gamma_minus_one) : 0);
        *r *= gain, *g *= gain, *b *= gain;
    }
}

/// Apple's Dim Flashing Lights level of one point: its signal's codes, or its light over the peak.
static inline float point_level(const ccaptions_cell_model *m, float sr, float sg, float sb, float r, float g, float b) {
    if (m->code_light) {
        return 0.299f * m->code_light[code_of(sr)] + 0.587f * m->code_light[code_of(sg)]
            + 0.114f * m->code_light[code_of(sb)];
    }
    return 0.299f * fminf(1, r / m->display_peak) + 0.587f * fminf(1, g / m->display_peak)
        + 0.114f * fminf(1, b / m->display_peak);
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
        float rl, gl, bl, rh, gh, bh;
        point_light(m, sr - dr, sg - dg, sb - db, &rl, &gl, &bl);
        point_light(m, sr + dr, sg + dg, sb + db, &rh, &gh, &bh);
        float r = (rl + rh) * 0.5f, g = (gl + gh) * 0.5f, b = (bl + bh) * 0.5f;
        out[i] = r, out[stride + i] = g, out[2 * stride + i] = b;
        out[3 * stride + i] = m->weight_r * r + m->weight_g * g + m->weight_b * b;
        out[4 * stride + i] = (point_level(m, sr - dr, sg - dg, sb - db, rl, gl, bl)
                               + point_level(m, sr + dr, sg + dg, sb + db, rh, gh, bh)) * 0.5f;
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

AVX2 static inline __m256 point_level_avx2(
    const ccaptions_cell_model *m, __m256 sr, __m256 sg, __m256 sb, __m256 r, __m256 g, __m256 b) {
    if (m->code_light) {
        return weigh_avx2(
            0.299f, code_light_avx2(m->code_light, sr), 0.587f, code_light_avx2(m->code_light, sg), 0.114f,
            code_light_avx2(m->code_light, sb));
    }
    __m256 one = _mm256_set1_ps(1), peak = _mm256_set1_ps(m->display_peak);
    return weigh_avx2(
        0.299f, _mm256_min_ps(one, _mm256_div_ps(r, peak)), 0.587f, _mm256_min_ps(one, _mm256_div_ps(g, peak)), 0.114f,
        _mm256_min_ps(one, _mm256_div_ps(b, peak)));
}

AVX2 static void cell_light_avx2(
    const ccaptions_cell_model *m, const float *c0, const float *c1, const float *c2, const float *const *spreads,
    const int32_t *cells, size_t count, float *out, size_t stride) {
    size_t i = 0;
    const __m256 half = _mm256_set1_ps(0.5f);
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
        __m256 lr = _mm256_sub_ps(sr, dr), lg = _mm256_sub_ps(sg, dg), lb = _mm256_sub_ps(sb, db);
        __m256 hr = _mm256_add_ps(sr, dr), hg = _mm256_add_ps(sg, dg), hb = _mm256_add_ps(sb, db);
        __m256 rl = look_up_avx2(m->to_linear, m->steps, lr), gl = look_up_avx2(m->to_linear, m->steps, lg),
               bl = look_up_avx2(m->to_linear, m->steps, lb);
        __m256 rh = look_up_avx2(m->to_linear, m->steps, hr), gh = look_up_avx2(m->to_linear, m->steps, hg),
               bh = look_up_avx2(m->to_linear, m->steps, hb);
        __m256 r = _mm256_mul_ps(_mm256_add_ps(rl, rh), half), g = _mm256_mul_ps(_mm256_add_ps(gl, gh), half),
               b = _mm256_mul_ps(_mm256_add_ps(bl, bh), half);
        _mm256_storeu_ps(out + i, r);
        _mm256_storeu_ps(out + stride + i, g);
        _mm256_storeu_ps(out + 2 * stride + i, b);
        _mm256_storeu_ps(out + 3 * stride + i, weigh_avx2(m->weight_r, r, m->weight_g, g, m->weight_b, b));
        __m256 level = _mm256_mul_ps(
            _mm256_add_ps(point_level_avx2(m, lr, lg, lb, rl, gl, bl), point_level_avx2(m, hr, hg, hb, rh, gh, bh)), half);
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
