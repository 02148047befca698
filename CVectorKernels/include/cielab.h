#ifndef CIELAB_H
#define CIELAB_H

/// The numbers of the segmenter's CIELAB conversion (`WorkingImage.inCIELAB`), filled in
/// by it, so they are written down once.
typedef struct {
    float to_linear;      // sRGB table entries per grey level
    float to_f;           // f table entries per unit of Y / Yn
    float to_fx;          // the same per unit of X, over Xn
    float to_fz;          // the same per unit of Z, over Zn
    float l_scale, a_scale, b_scale;   // 116, 500 and 200 times the units
    float to_xyz[9];      // linear RGB to XYZ, row by row
} cielab_constants;

/// `WorkingImage.inCIELAB` for `count` colours, a multiple of eight, with AVX2: RGB 0-255
/// in the first three of every four floats (as Swift lays out SIMD3<Float>) in, L*, a*,
/// b* out in the same layout. The same operations in the same order as the Swift code
/// (no multiply-add is fused), so the same bits; its curve tables (`srgb_entries` and
/// `f_entries` floats) are read with gathers, eight lanes in one instruction, where Swift
/// reads each lane on its own. Only where `vector_kernels_have_avx2` says so.
void cielab_avx2(const float *rgb, float *lab, long count, const cielab_constants *constants,
                 const float *srgb_table, int srgb_entries, const float *f_table, int f_entries);

#endif
