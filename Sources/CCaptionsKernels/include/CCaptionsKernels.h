// The loops of the flash analysis that run over every pixel, or every cell, of every frame.
// Written in C so that they are vectorised the same way in every build (AVX2 where the processor
// has it, chosen at run time; portable C elsewhere, which compilers vectorise for the baseline).
#ifndef CCAPTIONS_KERNELS_H
#define CCAPTIONS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// Adds one line of 8-bit samples to `cells` accumulators, `width` (1, 2, 4 or 8) consecutive
/// samples to each: sums[c] += row[c*width] + … + row[c*width + width - 1].
void ccaptions_add_runs_u8(const uint8_t *row, int width, size_t cells, uint32_t *sums);

/// The same for 16-bit samples (native byte order).
void ccaptions_add_runs_u16(const uint16_t *row, int width, size_t cells, uint32_t *sums);

/// out[i] = (float)sums[i] * weights[i] * scale, for i < count.
void ccaptions_scale_sums(const uint32_t *sums, const float *weights, float scale, float *out, size_t count);

/// Writes the index of every cell i < count where any channel moved by `stillness` or more
/// (|now[k][i] - fed[k][i]| >= stillness, k = 0…2) into `changed`, in order; returns how many.
size_t ccaptions_changed_cells(
    const float *now0, const float *now1, const float *now2,
    const float *fed0, const float *fed1, const float *fed2,
    size_t count, float stillness, int32_t *changed);

#endif
