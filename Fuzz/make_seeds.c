// Writes the fuzzer's seed corpus: small images of every kind the decoders read, so
// that mutations start from valid files. Usage: make_seeds FOLDER
//
// JPEGs come from the project's own encoder (baseline, progressive, grey, Adobe CMYK,
// every EXIF orientation, one tagged with a Display P3 ICC profile, a CMYK one with a
// CMYK profile, a grey one with a grey profile); PNGs from libpng
// directly, one per colour type, bit depth and interlace method, palettes with and
// without tRNS, two with gAMA and cHRM; WebP lossless, lossy with alpha and a two-frame animation; TIFFs from
// libtiff (RGB in LZW and Deflate, RGBA with unassociated alpha, 16-bit grey, 16-bit
// grey with alpha in strips and in tiles, a turned one, CMYK with a CMYK profile); GIFs
// from giflib (still, interlaced with a transparent index, an animation); JPEG XL from
// libjxl's encoder (lossless with alpha, lossy and turned); and bare EXIF payloads.
#include "CImageCodecs.h"

#include <gif_lib.h>
#include <jxl/encode.h>
#include <lcms2.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

static int write_file(const char *folder, const char *name, const uint8_t *bytes, size_t length) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *file = fopen(path, "wb");
    if (file == NULL) return 1;
    size_t written = fwrite(bytes, 1, length, file);
    return (fclose(file) != 0 || written != length) ? 1 : 0;
}

/// A small picture with a gradient background and a disc, so every codec path has edges.
static uint8_t *make_rgba(uint32_t width, uint32_t height) {
    uint8_t *rgba = malloc((size_t)width * height * 4);
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width; x++) {
            uint8_t *p = rgba + ((size_t)y * width + x) * 4;
            int dx = (int)x - (int)width / 2, dy = (int)y - (int)height / 2;
            int inside = dx * dx + dy * dy < (int)(width * height) / 8;
            p[0] = inside ? 200 : (uint8_t)(x * 255 / width);
            p[1] = inside ? 40 : (uint8_t)(y * 255 / height);
            p[2] = inside ? 60 : 128;
            p[3] = inside ? 255 : (uint8_t)(x * 255 / width);
        }
    }
    return rgba;
}

/// `profile` as ICC bytes (malloc'd), which it closes; NULL and `*length` 0 when it is
/// NULL or could not be saved.
static uint8_t *saved_profile(cmsHPROFILE profile, size_t *length) {
    *length = 0;
    cmsUInt32Number size = 0;
    uint8_t *bytes = NULL;
    if (profile != NULL && cmsSaveProfileToMem(profile, NULL, &size) && (bytes = malloc(size)) != NULL
        && cmsSaveProfileToMem(profile, bytes, &size)) {
        *length = size;
    }
    if (profile != NULL) cmsCloseProfile(profile);
    return bytes;
}

/// A Display P3 ICC profile (P3 primaries, D65 white, sRGB's curve) made by lcms2, so the
/// colour conversion's profile parsing is fuzzed too; `*length` 0 when it could not be made.
static uint8_t *display_p3_profile(size_t *length) {
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE primaries = {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
    double parameters[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, parameters);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    uint8_t *bytes = saved_profile(curve == NULL ? NULL : cmsCreateRGBProfile(&white, &primaries, curves), length);
    if (curve != NULL) cmsFreeToneCurve(curve);
    return bytes;
}

/// A grey profile of gamma 2.2 made by lcms2, for the grey path of the conversion.
static uint8_t *grey_profile(size_t *length) {
    cmsToneCurve *curve = cmsBuildGamma(NULL, 2.2);
    uint8_t *bytes = saved_profile(curve == NULL ? NULL : cmsCreateGrayProfile(cmsD50_xyY(), curve), length);
    if (curve != NULL) cmsFreeToneCurve(curve);
    return bytes;
}

/// CIELAB (16-bit encoding) of a CMYK grid point: darker with more ink, neutral.
static int lab_of_inks(const cmsUInt16Number inks[], cmsUInt16Number lab[], void *cargo) {
    (void)cargo;
    unsigned most = inks[0];
    for (int i = 1; i < 4; i++) most = inks[i] > most ? inks[i] : most;
    lab[0] = (cmsUInt16Number)(65535 - most);
    lab[1] = lab[2] = 0x8080;
    return 1;
}

/// A small CMYK output profile made by lcms2 (an AToB0 of identity curves, a lookup table
/// on a 2-point grid and identity curves: a form lutAtoBType can store), so the CMYK JPEG
/// path that converts inks through a profile is fuzzed; `*length` 0 when it could not be
/// made.
static uint8_t *cmyk_profile(size_t *length) {
    *length = 0;
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
    cmsPipeline *pipeline = cmsPipelineAlloc(NULL, 4, 3);
    cmsStage *table = cmsStageAllocCLut16bit(NULL, 2, 4, 3, NULL);
    uint8_t *bytes = NULL;
    if (profile != NULL && pipeline != NULL && table != NULL && cmsStageSampleCLut16bit(table, lab_of_inks, NULL, 0)
        && cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, table)
        && cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, cmsStageAllocToneCurves(NULL, 4, NULL))
        && cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(NULL, 3, NULL))) {
        table = NULL;  // the pipeline owns it now
        cmsSetProfileVersion(profile, 4.3);
        cmsSetDeviceClass(profile, cmsSigOutputClass);
        cmsSetColorSpace(profile, cmsSigCmykData);
        cmsSetPCS(profile, cmsSigLabData);
        if (cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ()) && cmsWriteTag(profile, cmsSigAToB0Tag, pipeline)) {
            bytes = saved_profile(profile, length);
            profile = NULL;
        }
    }
    if (table != NULL) cmsStageFree(table);
    if (pipeline != NULL) cmsPipelineFree(pipeline);
    if (profile != NULL) cmsCloseProfile(profile);
    return bytes;
}

static int write_jpegs(const char *folder) {
    int failures = 0;
    uint8_t *rgba = make_rgba(24, 16);
    size_t profile_length = 0;
    uint8_t *profile = display_p3_profile(&profile_length);
    size_t cmyk_length = 0;
    uint8_t *cmyk = cmyk_profile(&cmyk_length);
    size_t grey_length = 0;
    uint8_t *grey = grey_profile(&grey_length);
    const struct { const char *name; cic_jpeg_options options; } kinds[] = {
        {"baseline.jpg", {80, CIC_JPEG_YCBCR, 0, 0}},
        {"progressive.jpg", {80, CIC_JPEG_YCBCR, 1, 0}},
        {"grey.jpg", {80, CIC_JPEG_GRAY, 0, 0}},
        {"cmyk.jpg", {80, CIC_JPEG_CMYK_ADOBE, 0, 0}},
        {"orientation-3.jpg", {60, CIC_JPEG_YCBCR, 0, 3}},
        {"orientation-6.jpg", {60, CIC_JPEG_YCBCR, 0, 6}},
        {"orientation-8.jpg", {60, CIC_JPEG_YCBCR, 1, 8}},
        {"display-p3.jpg", {80, CIC_JPEG_YCBCR, 0, 0, profile, profile_length}},
        {"cmyk-profile.jpg", {80, CIC_JPEG_CMYK_ADOBE, 0, 0, cmyk, cmyk_length}},
        {"grey-profile.jpg", {80, CIC_JPEG_GRAY, 0, 0, grey, grey_length}},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        uint8_t *bytes = NULL;
        size_t length = 0;
        char message[CIC_MESSAGE_CAPACITY];
        if (cic_jpeg_encode(rgba, 24, 16, &kinds[i].options, &bytes, &length, message, sizeof message) != CIC_OK) {
            fprintf(stderr, "make_seeds: %s: %s\n", kinds[i].name, message);
            failures++;
            continue;
        }
        failures += write_file(folder, kinds[i].name, bytes, length);
        cic_free(bytes);
    }
    free(rgba);
    free(profile);
    free(cmyk);
    free(grey);
    return failures;
}

/// One PNG of `color_type` at `bit_depth`, with samples derived from the test picture;
/// with `with_gamma`, gAMA 1.0 and Display P3's cHRM instead of a profile.
static int write_png(const char *folder, const char *name, int color_type, int bit_depth,
                     int interlace, int with_trns, int with_gamma) {
    const uint32_t width = 13, height = 9;
    uint8_t *rgba = make_rgba(width, height);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *file = fopen(path, "wb");
    if (file == NULL) return 1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(file);
        free(rgba);
        return 1;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, width, height, bit_depth, color_type, interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (with_gamma) {
        png_set_gAMA(png, info, 1.0);
        png_set_cHRM(png, info, 0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060);
    }
    int levels = 1 << (bit_depth > 8 ? 8 : bit_depth);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        png_byte alphas[256];
        for (int i = 0; i < levels; i++) {
            palette[i].red = (png_byte)(i * 255 / (levels - 1));
            palette[i].green = (png_byte)(255 - i * 255 / (levels - 1));
            palette[i].blue = (png_byte)(i * 37);
            alphas[i] = (png_byte)(i * 255 / (levels - 1));
        }
        png_set_PLTE(png, info, palette, levels);
        if (with_trns) png_set_tRNS(png, info, alphas, levels, NULL);
    } else if (with_trns) {
        png_color_16 transparent = {0};
        png_set_tRNS(png, info, NULL, 0, &transparent);
    }
    png_write_info(png, info);
    int channels = png_get_channels(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    png_bytep row = calloc(1, row_bytes);
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            memset(row, 0, row_bytes);
            for (uint32_t x = 0; x < width; x++) {
                const uint8_t *p = rgba + ((size_t)y * width + x) * 4;
                for (int c = 0; c < channels; c++) {
                    unsigned sample = color_type == PNG_COLOR_TYPE_PALETTE ? (p[0] * (unsigned)levels) / 256
                                                                         : p[c % 4];
                    if (bit_depth == 16) {
                        size_t at = ((size_t)x * channels + c) * 2;
                        row[at] = (png_byte)sample;
                        row[at + 1] = (png_byte)(sample ^ 0x5A);
                    } else if (bit_depth == 8) {
                        row[(size_t)x * channels + c] = (png_byte)sample;
                    } else {
                        unsigned value = color_type == PNG_COLOR_TYPE_PALETTE ? sample : sample >> (8 - bit_depth);
                        size_t bit = (size_t)x * bit_depth;
                        row[bit / 8] |= (png_byte)(value << (8 - bit_depth - bit % 8));
                    }
                }
            }
            png_write_row(png, row);
        }
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    free(rgba);
    return fclose(file) != 0;
}

static int write_pngs(const char *folder) {
    int failures = 0;
    failures += write_png(folder, "rgba8.png", PNG_COLOR_TYPE_RGBA, 8, PNG_INTERLACE_NONE, 0, 0);
    failures += write_png(folder, "rgba16-interlaced.png", PNG_COLOR_TYPE_RGBA, 16, PNG_INTERLACE_ADAM7, 0, 0);
    failures += write_png(folder, "rgb8-trns.png", PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, 1, 0);
    failures += write_png(folder, "grey1.png", PNG_COLOR_TYPE_GRAY, 1, PNG_INTERLACE_NONE, 0, 0);
    failures += write_png(folder, "grey4-interlaced.png", PNG_COLOR_TYPE_GRAY, 4, PNG_INTERLACE_ADAM7, 1, 0);
    failures += write_png(folder, "grey-alpha16.png", PNG_COLOR_TYPE_GRAY_ALPHA, 16, PNG_INTERLACE_NONE, 0, 0);
    failures += write_png(folder, "palette2.png", PNG_COLOR_TYPE_PALETTE, 2, PNG_INTERLACE_NONE, 0, 0);
    failures += write_png(folder, "palette8-trns.png", PNG_COLOR_TYPE_PALETTE, 8, PNG_INTERLACE_ADAM7, 1, 0);
    failures += write_png(folder, "rgb8-gamma.png", PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, 0, 1);
    failures += write_png(folder, "grey8-gamma.png", PNG_COLOR_TYPE_GRAY, 8, PNG_INTERLACE_NONE, 0, 1);
    return failures;
}

/// APP1 payloads as the EXIF parser sees them: big- and little-endian, orientation 6.
static int write_exif(const char *folder) {
    static const uint8_t big[] = {'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8, 0, 2,
                                  0x01, 0x0F, 0, 2, 0, 0, 0, 4, 'A', 'B', 'C', 0,
                                  0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0};
    static const uint8_t little[] = {'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0,
                                     0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};
    return write_file(folder, "exif-big-endian.bin", big, sizeof big)
         + write_file(folder, "exif-little-endian.bin", little, sizeof little);
}

static void put_le(uint8_t *p, uint32_t value, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(value >> (8 * i));
}

/// A two-frame animation (RIFF, VP8X, ANIM, two ANMF) around the VP8L bitstream of
/// `simple`, a 24x16 lossless WebP in the simple format, per the container specification.
static int write_animated_webp(const char *folder, const uint8_t *simple, size_t length) {
    if (length < 20) return 1;
    size_t frame = length - 12;                       // the VP8L chunk, header included
    size_t anmf = 8 + 16 + frame, total = 4 + 18 + 14 + 2 * anmf;
    uint8_t *file = calloc(1, 8 + total);
    uint8_t *p = file;
    memcpy(p, "RIFF", 4);
    put_le(p + 4, (uint32_t)total, 4);
    memcpy(p + 8, "WEBP", 4);
    p += 12;
    memcpy(p, "VP8X", 4);
    put_le(p + 4, 10, 4);
    p[8] = 0x12;                                      // animation, alpha
    put_le(p + 12, 23, 3);                            // canvas 24x16, each less one
    put_le(p + 15, 15, 3);
    p += 18;
    memcpy(p, "ANIM", 4);
    put_le(p + 4, 6, 4);                              // background and loop count: zeros
    p += 14;
    for (int i = 0; i < 2; i++) {
        memcpy(p, "ANMF", 4);
        put_le(p + 4, (uint32_t)(16 + frame), 4);     // offset 0, 0 (zeros), then size less one
        put_le(p + 14, 23, 3);
        put_le(p + 17, 15, 3);
        put_le(p + 20, 100, 3);                       // 100 ms
        p[23] = i == 0 ? 0x02 : 0x00;                 // the first does not blend, the second does
        memcpy(p + 24, simple + 12, frame);
        p += anmf;
    }
    int failed = write_file(folder, "animated.webp", file, 8 + total);
    free(file);
    return failed;
}

static int write_webps(const char *folder) {
    uint8_t *rgba = make_rgba(24, 16);
    int failures = 0;
    const int qualities[] = {-1, 60};
    const char *names[] = {"lossless.webp", "lossy-alpha.webp"};
    for (int i = 0; i < 2; i++) {
        uint8_t *bytes = NULL;
        size_t length = 0;
        char message[CIC_MESSAGE_CAPACITY];
        if (cic_webp_encode(rgba, 24, 16, qualities[i], 4, 70, &bytes, &length, message, sizeof message) != CIC_OK) {
            failures++;
            continue;
        }
        failures += write_file(folder, names[i], bytes, length);
        if (qualities[i] < 0) failures += write_animated_webp(folder, bytes, length);
        cic_free(bytes);
    }
    free(rgba);
    return failures;
}

/// One TIFF of the 24x16 picture: `samples` 1 or 2 (grey, with alpha; `bits` 8 or 16),
/// 3 or 4 (RGB, with alpha; alpha unassociated), stripped or tiled (16x16 tiles); or,
/// given a CMYK profile `icc`, 4 samples of CMYK inks (255 - R, 255 - G, 255 - B, no
/// black) with it.
static int write_tiff(const char *folder, const char *name, uint16_t samples, uint16_t bits, uint16_t compression,
                      uint16_t orientation, int tiled, const uint8_t *icc, size_t icc_length) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    TIFF *tiff = TIFFOpen(path, "w");
    if (tiff == NULL) return 1;
    const uint32_t width = 24, height = 16;
    uint8_t *rgba = make_rgba(width, height);
    TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, samples);
    TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC,
                 icc != NULL ? PHOTOMETRIC_SEPARATED : samples <= 2 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
    if (icc != NULL) TIFFSetField(tiff, TIFFTAG_ICCPROFILE, (uint32_t)icc_length, icc);
    TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tiff, TIFFTAG_COMPRESSION, compression);
    TIFFSetField(tiff, TIFFTAG_ORIENTATION, orientation);
    if (samples == 2 || (samples == 4 && icc == NULL)) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    size_t sample_bytes = bits / 8, row_bytes = width * samples * sample_bytes;
    uint8_t *image = calloc(height, row_bytes);
    for (uint32_t i = 0; i < width * height; i++) {
        for (uint16_t c = 0; c < samples; c++) {
            // Grey is the green channel; the last of 2 or 4 samples is alpha.
            int channel = samples <= 2 ? (c == 0 ? 1 : 3) : c;
            uint8_t value = icc == NULL ? rgba[i * 4 + channel] : c < 3 ? (uint8_t)(255 - rgba[i * 4 + c]) : 0;
            if (bits == 16) {
                uint16_t wide = (uint16_t)(value * 257);
                memcpy(image + (i * samples + c) * 2, &wide, 2);
            } else {
                image[i * samples + c] = value;
            }
        }
    }
    int failed = 0;
    if (tiled) {
        TIFFSetField(tiff, TIFFTAG_TILEWIDTH, 16);
        TIFFSetField(tiff, TIFFTAG_TILELENGTH, 16);
        uint8_t *tile = calloc(16 * 16, samples * sample_bytes);
        for (uint32_t x0 = 0; x0 < width; x0 += 16) {
            memset(tile, 0, 16 * 16 * samples * sample_bytes);
            for (uint32_t y = 0; y < height; y++) {
                for (uint32_t x = x0; x < width && x < x0 + 16; x++) {
                    memcpy(tile + (y * 16 + (x - x0)) * samples * sample_bytes,
                           image + y * row_bytes + x * samples * sample_bytes, samples * sample_bytes);
                }
            }
            failed |= TIFFWriteTile(tiff, tile, x0, 0, 0, 0) < 0;
        }
        free(tile);
    } else {
        TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, 4);
        for (uint32_t y = 0; y < height; y++) failed |= TIFFWriteScanline(tiff, image + y * row_bytes, y, 0) < 0;
    }
    TIFFClose(tiff);
    free(image);
    free(rgba);
    return failed;
}

static int write_tiffs(const char *folder) {
    size_t cmyk_length = 0;
    uint8_t *cmyk = cmyk_profile(&cmyk_length);
    int failures = write_tiff(folder, "rgb-lzw.tif", 3, 8, COMPRESSION_LZW, ORIENTATION_TOPLEFT, 0, NULL, 0)
        + write_tiff(folder, "rgb-deflate-tiled.tif", 3, 8, COMPRESSION_ADOBE_DEFLATE, ORIENTATION_TOPLEFT, 1, NULL, 0)
        + write_tiff(folder, "rgba-unassociated.tif", 4, 8, COMPRESSION_NONE, ORIENTATION_TOPLEFT, 0, NULL, 0)
        + write_tiff(folder, "grey16.tif", 1, 16, COMPRESSION_PACKBITS, ORIENTATION_TOPLEFT, 0, NULL, 0)
        + write_tiff(folder, "grey-alpha16-tiled.tif", 2, 16, COMPRESSION_NONE, ORIENTATION_TOPLEFT, 1, NULL, 0)
        + write_tiff(folder, "grey-alpha16.tif", 2, 16, COMPRESSION_NONE, ORIENTATION_TOPLEFT, 0, NULL, 0)
        + write_tiff(folder, "rgb-turned.tif", 3, 8, COMPRESSION_NONE, ORIENTATION_RIGHTTOP, 0, NULL, 0)
        + (cmyk == NULL ? 1 : write_tiff(folder, "cmyk-profile.tif", 4, 8, COMPRESSION_LZW, ORIENTATION_TOPLEFT, 0, cmyk,
                                         cmyk_length));
    free(cmyk);
    return failures;
}

/// One GIF of the 24x16 picture's red channel in 16 grey levels: `frames` 1 or 2, the
/// first interlaced with a transparent index when asked.
static int write_gif(const char *folder, const char *name, int frames, int interlaced) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    int error = 0;
    GifFileType *gif = EGifOpenFileName(path, 0, &error);
    if (gif == NULL) return 1;
    const int width = 24, height = 16;
    GifColorType colors[16];
    for (int i = 0; i < 16; i++) colors[i].Red = colors[i].Green = colors[i].Blue = (GifByteType)(i * 17);
    ColorMapObject *map = GifMakeMapObject(16, colors);
    uint8_t *rgba = make_rgba(width, height);
    int failed = map == NULL || EGifPutScreenDesc(gif, width, height, 8, 0, map) == GIF_ERROR;
    EGifSetGifVersion(gif, 1);
    for (int frame = 0; frame < frames && !failed; frame++) {
        if (interlaced || frames > 1) {
            GraphicsControlBlock control = {DISPOSAL_UNSPECIFIED, 0, 10, interlaced ? 0 : NO_TRANSPARENT_COLOR};
            GifByteType extension[4];
            size_t length = EGifGCBToExtension(&control, extension);
            failed |= EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, (int)length, extension) == GIF_ERROR;
        }
        failed |= EGifPutImageDesc(gif, 0, 0, width, height, interlaced, NULL) == GIF_ERROR;
        // giflib takes an interlaced frame's rows in the order they are stored.
        static const int first_row[4] = {0, 4, 2, 1}, row_step[4] = {8, 8, 4, 2};
        for (int pass = 0; pass < (interlaced ? 4 : 1) && !failed; pass++) {
            int start = interlaced ? first_row[pass] : 0, step = interlaced ? row_step[pass] : 1;
            for (int y = start; y < height && !failed; y += step) {
                GifPixelType line[24];
                for (int x = 0; x < width; x++) line[x] = (GifPixelType)(rgba[(y * width + x) * 4] >> 4) ^ (GifPixelType)frame;
                failed |= EGifPutLine(gif, line, width) == GIF_ERROR;
            }
        }
    }
    failed |= EGifCloseFile(gif, &error) == GIF_ERROR;
    GifFreeMapObject(map);
    free(rgba);
    return failed;
}

static int write_gifs(const char *folder) {
    return write_gif(folder, "still.gif", 1, 0) + write_gif(folder, "interlaced-transparent.gif", 1, 1)
         + write_gif(folder, "animated.gif", 2, 0);
}

/// One JPEG XL of the 24x16 picture with alpha: lossless, or lossy at distance 1 and
/// stored turned (orientation 6), through libjxl's encoder.
static int write_jxl(const char *folder, const char *name, int lossless) {
    const uint32_t width = 24, height = 16;
    uint8_t *rgba = make_rgba(width, height);
    JxlEncoder *encoder = JxlEncoderCreate(NULL);
    JxlBasicInfo info;
    JxlEncoderInitBasicInfo(&info);
    info.xsize = width;
    info.ysize = height;
    info.bits_per_sample = 8;
    info.num_color_channels = 3;
    info.num_extra_channels = 1;
    info.alpha_bits = 8;
    info.uses_original_profile = lossless ? JXL_TRUE : JXL_FALSE;
    info.orientation = lossless ? JXL_ORIENT_IDENTITY : JXL_ORIENT_ROTATE_90_CW;
    JxlColorEncoding srgb;
    JxlColorEncodingSetToSRGB(&srgb, JXL_FALSE);
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    JxlEncoderFrameSettings *settings = NULL;
    int failed = encoder == NULL || JxlEncoderSetBasicInfo(encoder, &info) != JXL_ENC_SUCCESS
        || JxlEncoderSetColorEncoding(encoder, &srgb) != JXL_ENC_SUCCESS
        || (settings = JxlEncoderFrameSettingsCreate(encoder, NULL)) == NULL
        || (lossless ? JxlEncoderSetFrameLossless(settings, JXL_TRUE) : JxlEncoderSetFrameDistance(settings, 1))
               != JXL_ENC_SUCCESS
        || JxlEncoderAddImageFrame(settings, &format, rgba, (size_t)width * height * 4) != JXL_ENC_SUCCESS;
    uint8_t bytes[1 << 16];
    size_t length = 0;
    if (!failed) {
        JxlEncoderCloseInput(encoder);
        uint8_t *next = bytes;
        size_t available = sizeof bytes;
        failed = JxlEncoderProcessOutput(encoder, &next, &available) != JXL_ENC_SUCCESS;
        length = sizeof bytes - available;
    }
    if (encoder != NULL) JxlEncoderDestroy(encoder);
    free(rgba);
    return failed ? 1 : write_file(folder, name, bytes, length);
}

static int write_jxls(const char *folder) {
    return write_jxl(folder, "lossless-alpha.jxl", 1) + write_jxl(folder, "lossy-turned.jxl", 0);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_seeds FOLDER\n");
        return 2;
    }
    int failures = write_jpegs(argv[1]) + write_pngs(argv[1]) + write_webps(argv[1]) + write_tiffs(argv[1])
                 + write_gifs(argv[1]) + write_jxls(argv[1]) + write_exif(argv[1]);
    return failures == 0 ? 0 : 1;
}
