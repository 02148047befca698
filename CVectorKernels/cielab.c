// The segmenter's sRGB -> CIELAB conversion with AVX2 gathers; see cielab.h.
#include "cielab.h"

#include <immintrin.h>

// Every product and sum as its own instruction, as in the Swift code it must match.
#pragma STDC FP_CONTRACT OFF

/// `table` (of `entries` floats) read at each lane's fractional `position`, by linear
/// interpolation, clamped to its ends (the Swift code's `interpolated`).
__attribute__((target("avx2")))
static inline __m256 interpolated(const float *table, int entries, __m256 position) {
    __m256 clamped = _mm256_min_ps(_mm256_max_ps(position, _mm256_setzero_ps()), _mm256_set1_ps((float)(entries - 2)));
    __m256i index = _mm256_cvttps_epi32(clamped);   // floor, as positions are not negative
    __m256 low = _mm256_i32gather_ps(table, index, 4);
    __m256 high = _mm256_i32gather_ps(table + 1, index, 4);
    __m256 fraction = _mm256_sub_ps(clamped, _mm256_cvtepi32_ps(index));
    return _mm256_add_ps(low, _mm256_mul_ps(_mm256_sub_ps(high, low), fraction));
}

/// m[0] r + m[1] g + m[2] b, summed left to right.
__attribute__((target("avx2")))
static inline __m256 row(const float *m, __m256 r, __m256 g, __m256 b) {
    __m256 sum = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(m[0]), r), _mm256_mul_ps(_mm256_set1_ps(m[1]), g));
    return _mm256_add_ps(sum, _mm256_mul_ps(_mm256_set1_ps(m[2]), b));
}

__attribute__((target("avx2")))
void cielab_avx2(const float *rgb, float *lab, long count, const cielab_constants *constants,
                 const float *srgb_table, int srgb_entries, const float *f_table, int f_entries) {
    const cielab_constants k = *constants;
    const __m256 to_linear = _mm256_set1_ps(k.to_linear);
    const __m256i every_fourth = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    for (long start = 0; start + 8 <= count; start += 8) {
        const float *in = rgb + start * 4;
        __m256 r = _mm256_i32gather_ps(in, every_fourth, 4);
        __m256 g = _mm256_i32gather_ps(in + 1, every_fourth, 4);
        __m256 b = _mm256_i32gather_ps(in + 2, every_fourth, 4);
        r = interpolated(srgb_table, srgb_entries, _mm256_mul_ps(r, to_linear));
        g = interpolated(srgb_table, srgb_entries, _mm256_mul_ps(g, to_linear));
        b = interpolated(srgb_table, srgb_entries, _mm256_mul_ps(b, to_linear));
        __m256 x = interpolated(f_table, f_entries, _mm256_mul_ps(row(k.to_xyz, r, g, b), _mm256_set1_ps(k.to_fx)));
        __m256 y = interpolated(f_table, f_entries, _mm256_mul_ps(row(k.to_xyz + 3, r, g, b), _mm256_set1_ps(k.to_f)));
        __m256 z = interpolated(f_table, f_entries, _mm256_mul_ps(row(k.to_xyz + 6, r, g, b), _mm256_set1_ps(k.to_fz)));
        float l[8], a[8], bb[8];
        _mm256_storeu_ps(l, _mm256_mul_ps(_mm256_set1_ps(k.l_scale), y));
        _mm256_storeu_ps(a, _mm256_mul_ps(_mm256_set1_ps(k.a_scale), _mm256_sub_ps(x, y)));
        _mm256_storeu_ps(bb, _mm256_mul_ps(_mm256_set1_ps(k.b_scale), _mm256_sub_ps(y, z)));
        float *out = lab + start * 4;
        for (int lane = 0; lane < 8; lane++) {
            out[lane * 4] = l[lane];
            out[lane * 4 + 1] = a[lane];
            out[lane * 4 + 2] = bb[lane];
            out[lane * 4 + 3] = 0;
        }
    }
}
