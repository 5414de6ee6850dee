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

/// Adds the squares of one line's samples the same way, each square shifted right by `shift`
/// (0 for 8-bit samples; 2 × (bits − 8) for wider ones, which keeps a square within 16 bits):
/// squares[c] += (row[c*width]² >> shift) + … for `width` (1, 2, 4 or 8) samples a cell. With the
/// sums, they give each cell's spread of values (``CellSampler``).
void ccaptions_add_run_squares_u8(const uint8_t *row, int width, size_t cells, uint32_t *squares);
void ccaptions_add_run_squares_u16(const uint16_t *row, int width, size_t cells, int shift, uint32_t *squares);

/// Keeps one line's run sums (``ccaptions_add_runs_u8`` into `runs`, zeroed before) as the line's
/// strip of mean values a cell column, and adds them to the row's sums: sums[c] += runs[c];
/// strip[c] = min(255, (runs[c] + half) >> shift), half = 2^shift / 2; runs[c] = 0, for c < cells.
/// `shift` is log2 of the run's width plus the samples' bits past 8 (``MotionStrips``). With
/// `merge`, the strip keeps the mean of what it held and this line: (strip[c] + mean + 1) >> 1.
void ccaptions_keep_strip(uint32_t *runs, size_t cells, int shift, int merge, uint32_t *sums, uint8_t *strip);

/// Keeps one line's spread a cell column, the texture a line's mean cannot show (a checkerboard
/// of single pixels has the mean of flat grey): from the line's run sums `runs` (samples'
/// scale, each run 2^count_shift samples with depth_shift bits past 8) and run squares `squares`
/// (the 8-bit scale squared, zeroed before), texture[c] = the rounded standard deviation of the
/// run on the 8-bit scale, at most 255 (with `merge`, averaged with what it held as the strip is);
/// column_squares[c] += squares[c]; squares[c] = 0. Call it before ``ccaptions_keep_strip``,
/// which clears `runs`.
void ccaptions_keep_texture(
    uint32_t *squares, const uint32_t *runs, size_t cells, int count_shift, int depth_shift, int merge,
    uint32_t *column_squares, uint8_t *texture);

/// Keeps one line's strip and texture where cells are not a uniform width (720p, 360p): for each
/// cell column c < columns, whose samples are row[starts[c]] … row[starts[c + 1] − 1], its sum s
/// and sum of squares q (each square shifted right by `square_shift`) into runs[c] and squares[c];
/// strip[c] = min(255, (s × reciprocals[c] + 2^(31 + depth_shift)) >> (32 + depth_shift)) and
/// texture[c] the spread sqrt(q × p − m²) + 0.5 (0.5 where q × p − m² ≤ 0) truncated to at most
/// 255, p = per_sample[c]
/// (reciprocals[c] / 2^32 as a float), m = s × p / 2^depth_shift, in that order of float
/// operations. With `merge` each is averaged with what it held, (old + new + 1) >> 1
/// (``MotionStrips``). The sums and squares are then added to the row's: row_sums[c] += s,
/// row_squares[c] += q (the line's part of its row of cells). `runs` and `squares` are scratch,
/// left zeroed.
void ccaptions_keep_strip_mapped_u8(
    const uint8_t *row, const int32_t *starts, const uint64_t *reciprocals, const float *per_sample, size_t columns,
    int merge, uint32_t *runs, uint32_t *squares, uint32_t *row_sums, uint32_t *row_squares, uint8_t *strip,
    uint8_t *texture);
void ccaptions_keep_strip_mapped_u16(
    const uint16_t *row, const int32_t *starts, const uint64_t *reciprocals, const float *per_sample, size_t columns,
    int depth_shift, int square_shift, int merge, uint32_t *runs, uint32_t *squares, uint32_t *row_sums,
    uint32_t *row_squares, uint8_t *strip, uint8_t *texture);

/// How far a window of strips (column by column: column c's `lines` values at c × lines, the
/// buffers readable 15 bytes past their end) is from the previous picture's moved down by each whole
/// shift s from −search to search: sums[s + search] = Σ |now[c × lines + y] − before[c × lines + y − s]|
/// over columns first … last and lines y in [top, bottom) whose y − s is a line, and
/// counts[s + search] the number of terms (``MotionStrips``).
void ccaptions_shift_errors(
    const uint8_t *now, const uint8_t *before, size_t lines, size_t first, size_t last, long top, long bottom, int search,
    uint32_t *sums, uint32_t *counts);

/// The same for moves between whole lines: for each s from −search to search − 1, the span
/// between shifts s and s + 1, sums[s + search] = Σ over the same columns and lines of how far
/// now[c × lines + y] lies outside the values before[c × lines + y − s] and before[c × lines + y −
/// s − 1], each way past them by an eighth of their difference (nothing inside), over lines y in
/// [top, bottom) whose two sources are lines, and counts[s + search] the number of terms (``MotionStrips``: a move of a fraction of a line); only
/// for the spans where wanted[s + search] is not 0 (the others' sums and counts are 0).
void ccaptions_span_errors(
    const uint8_t *now, const uint8_t *before, size_t lines, size_t first, size_t last, long top, long bottom, int search,
    const uint8_t *wanted, uint32_t *sums, uint32_t *counts);

/// Running sums of how much each line of column-by-column strips (column c's `lines` values at
/// c × lines) differs from the line before it, over columns first … last: sums[i] = Σ for lines y
/// of from + 1 … from + i of Σ_c |strips[c × lines + y] − strips[c × lines + y − 1]|, sums[0] = 0,
/// for i < to − from (``MotionStrips``: how far a move between two lines can fall from both).
void ccaptions_line_steps(const uint8_t *strips, size_t lines, size_t first, size_t last, size_t from, size_t to, uint32_t *sums);

/// Which spans between whole shifts s and s + 1 (s from −search to search − 1) may leave less than
/// `limit` and are at least two lines from `shift`: wanted[s + search] = 1 for each, from the whole
/// shifts' error sums and counts (``ccaptions_shift_errors``, same window, s from −search to
/// search). Per term, a value's distance outside two lines a and b, past each by an eighth of
/// their difference, is at least (|v − a| + |v − b|) / 2 − 5/8 × |a − b|; so a span whose terms'
/// sum of that bound is `limit` × terms or more is ruled out. Each whole shift's terms hold the
/// span's, and any extra one (at the picture's edges) counts 255 at most; the differences
/// |a − b| are the lines' own (``ccaptions_line_steps`` of `before`, column by column). Spans of
/// fewer than `needed` terms are not wanted (they cannot count). `steps` is scratch for bottom −
/// top + 2 × search values. Returns whether any is wanted (``MotionStrips``).
int ccaptions_wanted_spans(
    const uint32_t *sums, const uint32_t *counts, int search, float shift, float limit, const uint8_t *before,
    size_t lines, size_t first, size_t last, long top, long bottom, uint32_t needed, uint32_t *steps, uint8_t *wanted);

/// One column of strips kept line by line (`lines` lines of `columns` values): out[y] =
/// in[y × columns + column], for y < lines.
void ccaptions_gather_column(const uint8_t *in, size_t lines, size_t columns, size_t column, uint8_t *out);

/// Folds a line's column sums into a row of cells and clears them:
/// cells[cell_of[x]] += columns[x >> shift] for x < count, then columns[0 … (count - 1) >> shift] = 0.
/// `shift` replicates each column over 2^shift entries of `cell_of` (chroma narrower than its cells).
void ccaptions_fold_columns(uint32_t *columns, const int32_t *cell_of, size_t count, int shift, uint32_t *cells);

/// The same fold where no cell has more than two columns, cell by cell with no chain of writes
/// to one cell: cells[c] += columns[first[c]] + (columns[second[c]] & keep[c]) for c < count
/// (`keep` all ones, or 0 for a cell of one column); then columns[0 … clear - 1] = 0.
void ccaptions_fold_pairs(
    uint32_t *columns, size_t clear, const int32_t *first, const int32_t *second, const uint32_t *keep, size_t count,
    uint32_t *cells);

/// Fetches `length` bytes from `address` into cache for reading, every 64-byte line of them: a
/// picture's line some lines ahead of the one being summed (the summing waits on memory otherwise;
/// the hardware's own prefetching keeps up with one stream, not with luma and two chroma planes).
static inline void ccaptions_prefetch_read(const void *address, size_t length) {
    for (size_t offset = 0; offset < length; offset += 64) __builtin_prefetch((const char *)address + offset, 0, 3);
}

/// Asks for the cache lines of `length` bytes at `address`, about to be read and written (a
/// hint: it changes no result). The per-cell state of the cells that changed in a picture is
/// scattered over megabytes; fetched a few cells ahead, it is in cache when its turn comes.
static inline void ccaptions_prefetch(const void *address, size_t length) {
    __builtin_prefetch(address, 1, 3);
    __builtin_prefetch((const char *)address + length - 1, 1, 3);
}

/// out[i] = (float)sums[i] * weights[i] * scale, for i < count.
void ccaptions_scale_sums(const uint32_t *sums, const float *weights, float scale, float *out, size_t count);

/// Each cell's spread (standard deviation) from its sum of squares and its mean:
/// out[i] = √max(0, squares[i] × (weights[i] × scale) − means[i]²), for i < count.
void ccaptions_spreads(
    const uint32_t *squares, const float *weights, float scale, const float *means, float *out, size_t count);

/// Writes the index of every cell i < count where any of the `channels` (4–6: three means, then
/// spreads) moved by `stillness` or more (|now[k][i] - fed[k][i]| >= stillness, k < 3), or a
/// spread by `spread_stillness` (k >= 3), into `changed`, in order; returns how many.
size_t ccaptions_changed_cells(
    const float *const *now, const float *const *fed, int channels, size_t count, float stillness,
    float spread_stillness, int32_t *changed);

/// What a row of cells is compared with and fed into (``ccaptions_feed_row``): every cell's means
/// and luma spread as last fed (whole-grid arrays), and where the cells that changed are listed.
typedef struct {
    float *fed0, *fed1, *fed2, *fed_spread;
    int32_t *changed;      // the changed cells, appended
    float *chroma_moves;   // NULL, or how far each changed cell's chroma moved, in the order of `changed`
    float stillness;       // how far a mean must move for its cell to change
    float spread_stillness; // how far the spread must move
} ccaptions_feed;

/// One row of `count` cells, the first `base`, from its sums (`sum1`, `sum2` NULL: grey, chroma
/// 128): means m0 = sum0[i] × (luma_weights[i] × luma_scale), m1 and m2 the same with chroma's, the
/// spread √max(0, squares[i] × (luma_weights[i] × square_scale) − m0²) — as ccaptions_scale_sums
/// and ccaptions_spreads give them — compared as ccaptions_changed_cells compares them with what
/// was fed; a cell that changed is appended to `changed` (from `found`), its chroma move
/// max(|m1 − fed1|, |m2 − fed2|) recorded, and its means and spread fed. Returns the new count.
size_t ccaptions_feed_row(
    const uint32_t *sum0, const uint32_t *sum1, const uint32_t *sum2, const uint32_t *squares, const float *luma_weights,
    const float *chroma_weights, float luma_scale, float chroma_scale, float square_scale, size_t base, size_t count,
    const ccaptions_feed *feed, size_t found);

/// How a picture's R′G′B′ is rewritten by ccaptions_dim_yuv: each channel through `curve`
/// (1025 values of the new signal at signal 0, 1/1024 … 1, interpolated), then moved toward its
/// luma by `saturation` (1: unchanged, 0: grey).
typedef struct {
    const float *curve;
    float saturation;
} ccaptions_dim_curve;

/// The YUV encoding of a picture for ccaptions_dim_yuv.
typedef struct {
    int width, height;
    int shift_x, shift_y; // chroma subsampling (1, 1 for 4:2:0)
    int bit_depth;        // 8 (uint8_t samples) or 9–16 (uint16_t)
    int limited;          // 1: limited ("TV") range, 0: full
    float kr, kb;         // the matrix's luma weights of red and blue
    int chroma_step;      // samples from one chroma sample to the next in a row: 1 planar, 2 NV12
} ccaptions_yuv_layout;

/// Rewrites a planar or semi-planar (NV12, P010: `u` and `v` in one plane, `chroma_step` 2) YUV
/// picture in place: every pixel's R′G′B′ (its own luma, its chroma sample's colour) goes through
/// the curve; each luma sample is the new luma of its pixel, each chroma sample the colour of the
/// mean new R′G′B′ of the pixels it covers. A grey picture has no chroma: `u` and `v` NULL.
void ccaptions_dim_yuv(
    void *y, ptrdiff_t y_stride, void *u, ptrdiff_t u_stride, void *v, ptrdiff_t v_stride,
    const ccaptions_yuv_layout *layout, const ccaptions_dim_curve *curve);

/// Rewrites the R, G, B samples of a picture in place through the curve, then toward their luma
/// (BT.709 weights of the signal) by the saturation. `red`, `green`, `blue` point at each
/// channel's first sample; `step` is the bytes from one pixel to the next in a row (packed RGB:
/// the pixel size; planar: the sample size); samples are 8-bit, or 16-bit native-endian when
/// `bit_depth` > 8. Alpha, if any, is left alone.
void ccaptions_dim_rgb(
    uint8_t *red, ptrdiff_t red_stride, uint8_t *green, ptrdiff_t green_stride, uint8_t *blue, ptrdiff_t blue_stride,
    int step, int width, int height, int bit_depth, const ccaptions_dim_curve *curve);

/// How ccaptions_cell_light turns a cell's mean codes (8-bit scale) into light: the same
/// arithmetic, in the same order, as CaptionsFlash's ColorModel, whose figures fill it in.
typedef struct {
    /// The channels are R, G, B (each over 255); else Y, Cb, Cr.
    int rgb;
    /// R′G′B′ from Y, Cb, Cr: y = (c0 - luma_offset) / luma_divisor, cb and cr = (c - 128) /
    /// chroma_divisor; r = y + cr_r * cr, b = y + cb_b * cb, g = y - cr_g * cr - cb_g * cb.
    float luma_offset, luma_divisor, chroma_divisor;
    float cr_r, cb_b, cr_g, cb_g;
    /// The transfer function: steps + 1 values at signal 0, 1/steps, … 1, interpolated.
    const float *to_linear;
    int steps;
    /// HLG's system gamma: when hlg_peak > 0, each channel times hlg_peak ×
    /// (scene luminance)^hlg_gamma_minus_one.
    float hlg_peak, hlg_gamma_minus_one;
    /// Luminance weights of linear R, G, B.
    float weight_r, weight_g, weight_b;
    /// Apple's Dim Flashing Lights level: 0.299, 0.587, 0.114 of each channel's code_light[code]
    /// (256 values, the signal truncated to an 8-bit code); when code_light is NULL, of each
    /// channel's light over display_peak, clipped to 1.
    const float *code_light;
    float display_peak;
} ccaptions_cell_model;

/// For each of the `count` cells listed in `cells`, reads its channels from c0, c1, c2 and writes
/// linear R, G, B, luminance and the Dim Flashing Lights level to out[i], out[stride + i] …
/// out[4 stride + i] (stride >= count).
///
/// `spreads` (or NULL) holds each cell's spread of values, on the channels' scale: for YUV one
/// array (luma), for RGB three. A cell's light is then the mean of the light of two points, its
/// mean signal less and plus its spread (in luma, every R′G′B′ channel moves with it): exact for
/// a cell of two values in equal parts (a 1-pixel checkerboard is half black and half white light,
/// not the light of mid grey), and to second order for any other. So is the level: Apple's model
/// means the light of every pixel too.
void ccaptions_cell_light(
    const ccaptions_cell_model *model, const float *c0, const float *c1, const float *c2, const float *const *spreads,
    const int32_t *cells, size_t count, float *out, size_t stride);

/// Shot changes: samples every other sample of every other line of one plane (8-bit, or 16-bit
/// shifted right by `shift` to 8 bits; `pixel_step` samples apart starting at `offset`, for packed
/// RGB), writes them to `thumbnail` ((width+1)/2 × (height+1)/2 bytes) and returns the sum of
/// absolute differences with what `thumbnail` held (the previous picture's samples).
uint64_t ccaptions_thumbnail_sad(
    const uint8_t *plane, ptrdiff_t stride, int width, int height, int bytes_per_sample, int shift,
    int pixel_step, int offset, uint8_t *thumbnail);

#endif
