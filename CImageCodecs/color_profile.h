// Internal to CImageCodecs (not exported): decoded pixels from the colours of the file's
// embedded ICC profile to sRGB, which is what everything after decoding assumes (the
// segmenter's CIELAB, the palette's hex colours) and what an untagged PNG means.
#ifndef CIC_COLOR_PROFILE_H
#define CIC_COLOR_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/// What the decoded image was before it became RGBA: colour, or grey (red, green and blue
/// equal). A profile is used only when its colour space is the image's, as libpng and
/// browsers have it; a grey photo's grey profile is as common as a colour photo's.
typedef enum { CIC_COLOR_MODEL_RGB, CIC_COLOR_MODEL_GREY } cic_color_model;

/// Converts `pixel_count` RGBA8 pixels in place from the ICC profile `icc` to sRGB (alpha
/// untouched) and returns 1; returns 0 and leaves them as they are when the profile's
/// colour space is not `model`'s (RGB or grey), it cannot be parsed, or it already
/// describes sRGB.
int cic_convert_to_srgb(const uint8_t *icc, size_t icc_length, cic_color_model model, uint8_t *rgba,
                        size_t pixel_count);

/// The same for colours an nclx box names by ITU-T H.273 code points (HEIF and AVIF):
/// `chromaticities` the xy of red, green, blue and white that `primaries` stands for, and
/// `transfer` the transfer characteristics. Left as they are (0) for unspecified
/// primaries and for transfers other than sRGB's, BT.709's (read as sRGB's curve, as
/// displays show such images), linear and gamma 2.2 or 2.8 (PQ and HLG are HDR).
int cic_convert_nclx_to_srgb(int primaries, const float chromaticities[8], int transfer, uint8_t *rgba,
                             size_t pixel_count);

/// The same for a PNG without an ICC profile or sRGB chunk that states its colours in
/// numbers: gAMA's `file_gamma` (the exponent the samples were encoded with, 1/2.2 for
/// most files) and cHRM's `chromaticities` (NULL without one: sRGB's). Left as they are
/// (0) for gamma 1/2.2 with sRGB's chromaticities, which is sRGB.
int cic_convert_png_gamma_to_srgb(double file_gamma, const double chromaticities[8], cic_color_model model,
                                  uint8_t *rgba, size_t pixel_count);

/// A conversion from CMYK under a file's CMYK ICC profile to sRGB (what a print-ready or
/// stock JPEG embeds: its inks are only colours through that profile).
typedef struct cic_cmyk_transform cic_cmyk_transform;

/// The conversion for `icc`, whose CMYK samples are stored inverted (0 = full ink) when
/// `inverted` (Adobe's CMYK JPEGs); NULL when `icc` is not a usable CMYK profile.
cic_cmyk_transform *cic_cmyk_transform_create(const uint8_t *icc, size_t icc_length, int inverted);

/// Converts `pixel_count` CMYK pixels to RGBA8 (opaque) in place.
void cic_cmyk_transform_apply(cic_cmyk_transform *transform, uint8_t *pixels, size_t pixel_count);

void cic_cmyk_transform_free(cic_cmyk_transform *transform);

#endif
