// Colour management: see color_profile.h. Profiles are parsed by Little CMS 2 (lcms2).
// Matrix/TRC profiles (Display P3, Adobe RGB, ProPhoto: what cameras and phones embed) are
// applied here with tables and a 3x3 matrix, as ICC.1:2010 annex F.3 defines them, about
// three times faster than lcms2's 8-bit transform (3 million pixels, a 12 MP photo decoded
// at half size: 16 ms against 45-53 ms, and within one level of it); any other RGB
// profile, and CMYK profiles, go through lcms2. A grey profile's 256 levels go through
// lcms2 once, into a table.
#include "color_profile.h"

#include <lcms2.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

/// sRGB's encoding of a linear value, by the value's index in `LINEAR_STEPS` equal steps
/// of 0...1: fine enough that the dark end, where the curve is steepest (12.92), is off
/// by at most a fifth of a level.
#define LINEAR_STEPS 16383
static uint8_t srgb_encoded[LINEAR_STEPS + 1];
static pthread_once_t srgb_encoded_once = PTHREAD_ONCE_INIT;

static void fill_srgb_encoded(void) {
    for (int i = 0; i <= LINEAR_STEPS; i++) {
        double v = (double)i / LINEAR_STEPS;
        double encoded = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
        srgb_encoded[i] = (uint8_t)lround(encoded * 255);
    }
}

/// The colorants (columns: red, green, blue; rows: X, Y, Z in the D50 connection space)
/// and tone curves of a matrix/TRC profile; 0 when it lacks any of them.
static int read_matrix_shaper(cmsHPROFILE profile, double matrix[3][3], const cmsToneCurve *curves[3]) {
    static const cmsTagSignature colorants[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    static const cmsTagSignature trcs[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    for (int channel = 0; channel < 3; channel++) {
        const cmsCIEXYZ *xyz = cmsReadTag(profile, colorants[channel]);
        curves[channel] = cmsReadTag(profile, trcs[channel]);
        if (xyz == NULL || curves[channel] == NULL) return 0;
        matrix[0][channel] = xyz->X;
        matrix[1][channel] = xyz->Y;
        matrix[2][channel] = xyz->Z;
    }
    return 1;
}

/// Whether a matrix/TRC profile is sRGB's to within what the sRGB profiles in circulation
/// differ by, so the common case of a photo tagged sRGB costs nothing and changes no byte.
static int describes_srgb(const double matrix[3][3], const cmsToneCurve *const curves[3],
                          const double srgb[3][3], const cmsToneCurve *srgb_curve) {
    for (int row = 0; row < 3; row++) {
        for (int column = 0; column < 3; column++) {
            if (fabs(matrix[row][column] - srgb[row][column]) > 0.003) return 0;
        }
    }
    for (int channel = 0; channel < 3; channel++) {
        for (int step = 1; step < 16; step++) {
            float level = (float)step / 16;
            if (fabsf(cmsEvalToneCurveFloat(curves[channel], level) - cmsEvalToneCurveFloat(srgb_curve, level)) > 0.002f) {
                return 0;
            }
        }
    }
    return 1;
}

/// `inverse` = `matrix`^-1 by cofactors; 0 when it is singular.
static int invert(const double m[3][3], double inverse[3][3]) {
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if (fabs(det) < 1e-9) return 0;
    for (int row = 0; row < 3; row++) {
        for (int column = 0; column < 3; column++) {
            // The cofactor of (column, row), transposed into place.
            int r0 = (column + 1) % 3, r1 = (column + 2) % 3, c0 = (row + 1) % 3, c1 = (row + 2) % 3;
            inverse[row][column] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
        }
    }
    return 1;
}

/// `value` within 0...`top`, and 0 for NaN (plain comparisons: fminf and fmaxf are
/// library calls).
static inline float clamp(float value, float top) { return value > 0 ? (value < top ? value : top) : 0; }

/// Each pixel: the source curves undone by table, the source colorants then sRGB's
/// inverse as one matrix, clipped to 0...1, sRGB's curve by table (relative colorimetric,
/// which is also what the perceptual intent means for a matrix/TRC profile). Returns 0,
/// touching no pixel, when a curve or the matrix is not finite (a damaged profile).
static int apply_matrix_shaper(const double source[3][3], const cmsToneCurve *const curves[3],
                                const double srgb_inverse[3][3], uint8_t *rgba, size_t pixel_count) {
    float linear[3][256];
    for (int channel = 0; channel < 3; channel++) {
        for (int v = 0; v < 256; v++) {
            linear[channel][v] = cmsEvalToneCurveFloat(curves[channel], (float)v / 255);
            if (!isfinite(linear[channel][v])) return 0;
        }
    }
    float m[3][3];
    for (int row = 0; row < 3; row++) {
        for (int column = 0; column < 3; column++) {
            double sum = 0;
            for (int k = 0; k < 3; k++) sum += srgb_inverse[row][k] * source[k][column];
            m[row][column] = (float)sum * LINEAR_STEPS;
            if (!isfinite(m[row][column])) return 0;
        }
    }
    pthread_once(&srgb_encoded_once, fill_srgb_encoded);
    // Read whole, written whole: byte stores could alias the tables, and would make the
    // compiler load them again for every channel.
    const float m00 = m[0][0], m01 = m[0][1], m02 = m[0][2], m10 = m[1][0], m11 = m[1][1], m12 = m[1][2];
    const float m20 = m[2][0], m21 = m[2][1], m22 = m[2][2], top = LINEAR_STEPS;
    const uint8_t *encoded = srgb_encoded;
    for (size_t i = 0; i < pixel_count; i++) {
        uint8_t *pixel = rgba + 4 * i;
        float r = linear[0][pixel[0]], g = linear[1][pixel[1]], b = linear[2][pixel[2]];
        float x = clamp(m00 * r + m01 * g + m02 * b + 0.5f, top);
        float y = clamp(m10 * r + m11 * g + m12 * b + 0.5f, top);
        float z = clamp(m20 * r + m21 * g + m22 * b + 0.5f, top);
        uint8_t red = encoded[(int)x], green = encoded[(int)y], blue = encoded[(int)z];
        pixel[0] = red;
        pixel[1] = green;
        pixel[2] = blue;
    }
    return 1;
}

/// `transform` applied in place to `pixel_count` pixels of four bytes: cmsDoTransform
/// counts pixels in 32 bits, so a chunk at a time.
static void transform_in_place(cmsHTRANSFORM transform, uint8_t *pixels, size_t pixel_count) {
    const size_t chunk = (size_t)1 << 24;
    for (size_t done = 0; done < pixel_count; done += chunk) {
        size_t count = pixel_count - done < chunk ? pixel_count - done : chunk;
        cmsDoTransform(transform, pixels + done * 4, pixels + done * 4, (cmsUInt32Number)count);
    }
}

/// Any other RGB profile, through lcms2 (in place, alpha untouched).
static int apply_with_lcms(cmsContext context, cmsHPROFILE source, cmsHPROFILE srgb, uint8_t *rgba, size_t pixel_count) {
    cmsHTRANSFORM transform = cmsCreateTransformTHR(context, source, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL,
                                                    cmsFLAGS_COPY_ALPHA);
    if (transform == NULL) return 0;
    transform_in_place(transform, rgba, pixel_count);
    cmsDeleteTransform(transform);
    return 1;
}

/// A grey profile (Photoshop's "Dot Gain 20%", "Gray Gamma 2.2"): its 256 levels through
/// lcms2 to sRGB once, then each channel of each pixel (all three equal, a grey image's)
/// by that table. Returns 0, touching no pixel, when the table is the identity (a grey
/// profile with sRGB's curve) or lcms2 cannot make the transform.
static int apply_grey_table(cmsContext context, cmsHPROFILE source, cmsHPROFILE srgb, uint8_t *rgba,
                            size_t pixel_count) {
    cmsHTRANSFORM transform = cmsCreateTransformTHR(context, source, TYPE_GRAY_8, srgb, TYPE_RGB_8, INTENT_PERCEPTUAL, 0);
    if (transform == NULL) return 0;
    uint8_t levels[256], table[256][3];
    for (int v = 0; v < 256; v++) levels[v] = (uint8_t)v;
    cmsDoTransform(transform, levels, table, 256);
    cmsDeleteTransform(transform);
    int identity = 1;
    for (int v = 0; v < 256 && identity; v++) {
        for (int c = 0; c < 3; c++) identity &= table[v][c] == v;
    }
    if (identity) return 0;
    for (size_t i = 0; i < pixel_count; i++) {
        uint8_t *pixel = rgba + 4 * i;
        for (int c = 0; c < 3; c++) pixel[c] = table[pixel[c]][c];
    }
    return 1;
}

/// Converts from `source` (a profile of `context`), which it closes, when its colour space
/// is the image's (`model`).
static int convert_from(cmsContext context, cmsHPROFILE source, cic_color_model model, uint8_t *rgba,
                        size_t pixel_count) {
    int converted = 0;
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    double srgb_matrix[3][3], srgb_inverse[3][3], matrix[3][3];
    const cmsToneCurve *srgb_curves[3], *curves[3];
    int usable = source != NULL && srgb != NULL && cmsGetDeviceClass(source) != cmsSigLinkClass;
    if (usable && model == CIC_COLOR_MODEL_GREY && cmsGetColorSpace(source) == cmsSigGrayData) {
        converted = apply_grey_table(context, source, srgb, rgba, pixel_count);
    } else if (usable && model == CIC_COLOR_MODEL_RGB && cmsGetColorSpace(source) == cmsSigRgbData
               && read_matrix_shaper(srgb, srgb_matrix, srgb_curves) && invert(srgb_matrix, srgb_inverse)) {
        int shaper = !cmsIsTag(source, cmsSigAToB0Tag) && read_matrix_shaper(source, matrix, curves);
        if (shaper && describes_srgb(matrix, curves, srgb_matrix, srgb_curves[0])) {
            converted = 0;
        } else if (shaper) {
            converted = apply_matrix_shaper(matrix, curves, srgb_inverse, rgba, pixel_count);
        } else {
            converted = apply_with_lcms(context, source, srgb, rgba, pixel_count);
        }
    }
    if (srgb != NULL) cmsCloseProfile(srgb);
    if (source != NULL) cmsCloseProfile(source);
    return converted;
}

int cic_convert_to_srgb(const uint8_t *icc, size_t icc_length, cic_color_model model, uint8_t *rgba,
                        size_t pixel_count) {
    if (icc == NULL || icc_length < 132 || icc_length > UINT32_MAX || rgba == NULL) return 0;
    // A context of its own per call: no state shared between threads decoding at once.
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (context == NULL) return 0;
    cmsHPROFILE source = cmsOpenProfileFromMemTHR(context, icc, (cmsUInt32Number)icc_length);
    int converted = convert_from(context, source, model, rgba, pixel_count);
    cmsDeleteContext(context);
    return converted;
}

/// Converts from the colour space of `chromaticities` (the xy of red, green, blue and
/// white; only white's for grey) under the tone curve `gamma` (a pure power; negative for
/// sRGB's curve): a profile built from what a file states in numbers rather than ICC.
static int convert_described(const double chromaticities[8], double gamma, cic_color_model model, uint8_t *rgba,
                             size_t pixel_count) {
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (context == NULL) return 0;
    double srgb_curve[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = gamma < 0 ? cmsBuildParametricToneCurve(context, 4, srgb_curve) : cmsBuildGamma(context, gamma);
    cmsCIExyY white = {chromaticities[6], chromaticities[7], 1};
    cmsCIExyYTRIPLE colorants = {{chromaticities[0], chromaticities[1], 1}, {chromaticities[2], chromaticities[3], 1},
                                 {chromaticities[4], chromaticities[5], 1}};
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE source = curve == NULL ? NULL
        : model == CIC_COLOR_MODEL_GREY ? cmsCreateGrayProfileTHR(context, &white, curve)
        : cmsCreateRGBProfileTHR(context, &white, &colorants, curves);
    int converted = convert_from(context, source, model, rgba, pixel_count);
    if (curve != NULL) cmsFreeToneCurve(curve);
    cmsDeleteContext(context);
    return converted;
}

int cic_convert_nclx_to_srgb(int primaries, const float chromaticities[8], int transfer, uint8_t *rgba,
                             size_t pixel_count) {
    // H.273 table 3: sRGB's curve for 13; BT.709's (1, 6, 14, 15) and unspecified (2) read
    // as it; 8 linear; 4 and 5 gamma 2.2 and 2.8.
    double gamma = 0;
    switch (transfer) {
    case 1: case 2: case 6: case 13: case 14: case 15: gamma = -1; break;
    case 4: gamma = 2.2; break;
    case 5: gamma = 2.8; break;
    case 8: gamma = 1; break;
    default: return 0;
    }
    if (primaries == 2 || chromaticities == NULL || rgba == NULL) return 0;
    double xy[8];
    for (int i = 0; i < 8; i++) xy[i] = chromaticities[i];
    return convert_described(xy, gamma, CIC_COLOR_MODEL_RGB, rgba, pixel_count);
}

/// sRGB's primaries and white (IEC 61966-2-1), as PNG's cHRM states them.
static const double srgb_chromaticities[8] = {0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290};

int cic_convert_png_gamma_to_srgb(double file_gamma, const double chromaticities[8], cic_color_model model,
                                  uint8_t *rgba, size_t pixel_count) {
    if (!(file_gamma > 0.01 && file_gamma < 10) || rgba == NULL) return 0;
    const double *xy = chromaticities != NULL ? chromaticities : srgb_chromaticities;
    // gAMA 1/2.2 stands for sRGB's curve (what libpng and browsers take it for), and with
    // sRGB's chromaticities or none the pixels are sRGB as they are.
    double gamma = fabs(file_gamma - 1 / 2.2) < 0.005 ? -1 : 1 / file_gamma;
    int srgb_gamut = 1;
    for (int i = 0; i < 8; i++) srgb_gamut &= fabs(xy[i] - srgb_chromaticities[i]) < 0.01;
    if (gamma < 0 && srgb_gamut) return 0;
    return convert_described(xy, gamma, model, rgba, pixel_count);
}

struct cic_cmyk_transform {
    cmsContext context;
    cmsHTRANSFORM transform;
};

cic_cmyk_transform *cic_cmyk_transform_create(const uint8_t *icc, size_t icc_length, int inverted) {
    if (icc == NULL || icc_length < 132 || icc_length > UINT32_MAX) return NULL;
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (context == NULL) return NULL;
    cmsHPROFILE source = cmsOpenProfileFromMemTHR(context, icc, (cmsUInt32Number)icc_length);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    cmsHTRANSFORM transform = NULL;
    if (source != NULL && srgb != NULL && cmsGetColorSpace(source) == cmsSigCmykData
        && cmsGetDeviceClass(source) != cmsSigLinkClass) {
        // Relative colorimetric with black point compensation: what Photoshop's colour
        // settings apply from CMYK to RGB by default, and what takes process cyan to the
        // sRGB (0, 174, 239) printers publish for it.
        transform = cmsCreateTransformTHR(context, source, inverted ? TYPE_CMYK_8_REV : TYPE_CMYK_8, srgb, TYPE_RGBA_8,
                                          INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_BLACKPOINTCOMPENSATION);
    }
    if (srgb != NULL) cmsCloseProfile(srgb);
    if (source != NULL) cmsCloseProfile(source);
    cic_cmyk_transform *result = transform != NULL ? malloc(sizeof *result) : NULL;
    if (result == NULL) {
        if (transform != NULL) cmsDeleteTransform(transform);
        cmsDeleteContext(context);
        return NULL;
    }
    result->context = context;
    result->transform = transform;
    return result;
}

void cic_cmyk_transform_apply(cic_cmyk_transform *transform, uint8_t *pixels, size_t pixel_count) {
    // Four bytes a pixel in and out, so in place; the output's alpha lane is not written.
    transform_in_place(transform->transform, pixels, pixel_count);
    for (size_t i = 0; i < pixel_count; i++) pixels[i * 4 + 3] = 255;
}

void cic_cmyk_transform_free(cic_cmyk_transform *transform) {
    if (transform == NULL) return;
    cmsDeleteTransform(transform->transform);
    cmsDeleteContext(transform->context);
    free(transform);
}
