// TIFF decode over libtiff's RGBA interface (TIFFRGBAImage: every photometric, bit depth
// up to 16, compression and layout libtiff knows, to RGBA8). libtiff reports errors
// through handlers, not longjmp; the handlers here are the decoder's own (libtiff 4.5's
// per-file TIFFOpenOptions), so nothing reaches stderr and two decodes at once never
// share one. The first image of a multi-page file is read.
#include "CImageCodecs.h"
#include "color_profile.h"
#include "exif_orientation.h"
#include "shim_message.h"

#include <stdlib.h>
#include <tiffio.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "TIFFRGBAImage packs R in the low byte: RGBA8 in memory on little-endian machines only"
#endif

struct cic_tiff_decoder {
    const uint8_t *data;
    size_t length;
    size_t offset;
    TIFF *tiff;
    TIFFRGBAImage image;
    int image_begun;
    int premultiplied;         ///< the pixels libtiff hands out have their colour premultiplied
    uint32_t orientation;      ///< applied on read; 1 when not asked to
    const uint8_t *icc;        ///< the ICC profile tag, owned by `tiff`; NULL when none
    uint32_t icc_length;
    cic_cmyk_transform *cmyk_profile;  ///< a CMYK file's profile, made a transform; its inks are read raw
    char error[CIC_MESSAGE_CAPACITY];  ///< libtiff's first error message
};

// ------------------------------------------------------------------ the file, in memory

static tmsize_t tiff_read(thandle_t handle, void *buffer, tmsize_t size) {
    struct cic_tiff_decoder *decoder = handle;
    if (size <= 0) return 0;
    return (tmsize_t)cic_read_memory(decoder->data, decoder->length, &decoder->offset, buffer, (size_t)size);
}

static tmsize_t tiff_write(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle;
    (void)buffer;
    (void)size;
    return 0;
}

static toff_t tiff_seek(thandle_t handle, toff_t offset, int whence) {
    struct cic_tiff_decoder *decoder = handle;
    uint64_t base = whence == SEEK_CUR ? decoder->offset : whence == SEEK_END ? decoder->length : 0;
    if (offset > UINT64_MAX - base || base + offset > SIZE_MAX) return (toff_t)-1;
    decoder->offset = (size_t)(base + offset);  // past the end is allowed; reads there get nothing
    return decoder->offset;
}

static int tiff_close_stream(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t tiff_size(thandle_t handle) { return ((struct cic_tiff_decoder *)handle)->length; }

static int tiff_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

// -------------------------------------------------------------------------- messages

/// Keeps libtiff's first error for the caller's message.
static int tiff_on_error(TIFF *tiff, void *user_data, const char *module, const char *format, va_list args) {
    (void)tiff;
    (void)module;
    struct cic_tiff_decoder *decoder = user_data;
    if (decoder->error[0] == 0) vsnprintf(decoder->error, sizeof decoder->error, format, args);
    return 1;  // handled: libtiff's global handler (stderr) is not called
}

static int tiff_on_warning(TIFF *tiff, void *user_data, const char *module, const char *format, va_list args) {
    (void)tiff;
    (void)user_data;
    (void)module;
    (void)format;
    (void)args;
    return 1;
}

static cic_status tiff_fail(struct cic_tiff_decoder *decoder, cic_status status, const char *fallback,
                            char *message, size_t message_capacity) {
    cic_set_message(message, message_capacity, "%s", decoder->error[0] != 0 ? decoder->error : fallback);
    return status;
}

void cic_tiff_close(cic_tiff_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->image_begun) TIFFRGBAImageEnd(&decoder->image);
    if (decoder->tiff != NULL) TIFFClose(decoder->tiff);
    cic_cmyk_transform_free(decoder->cmyk_profile);
    free(decoder);
}

// ------------------------------------------------------------------------------ decode

/// TIFFRGBAImage's put routine for 16-bit grey with alpha, which libtiff reads as opaque
/// grey (its own routine drops the alpha sample): grey and alpha rounded to 8 bits, grey
/// inverted for min-is-white. Follows libtiff's contiguous put routines' contract: `w` x
/// `h` pixels from `pp`, `fromskew` pixels to skip after each row of them, `toskew`
/// after each row of the raster.
static void put_grey_alpha16(TIFFRGBAImage *image, uint32_t *raster, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                             int32_t fromskew, int32_t toskew, unsigned char *pp) {
    (void)x;
    (void)y;
    const uint16_t *samples = (const uint16_t *)(const void *)pp;
    int white = image->photometric == PHOTOMETRIC_MINISWHITE;
    for (; h > 0; h--) {
        for (uint32_t i = 0; i < w; i++, samples += 2) {
            uint32_t grey = ((uint32_t)samples[0] * 255 + 32767) / 65535, alpha = ((uint32_t)samples[1] * 255 + 32767) / 65535;
            if (white) grey = 255 - grey;
            *raster++ = grey | grey << 8 | grey << 16 | alpha << 24;
        }
        raster += toskew;
        samples += fromskew * 2;
    }
}

/// TIFFRGBAImage's put routine for 8-bit CMYK when the file's profile converts its inks:
/// the four ink samples copied as they are (C, M, Y, K in memory, 0 = no ink), for
/// `cic_cmyk_transform_apply` once the image is read, where libtiff's own routine would
/// have made them RGB naively (R = (255 - C)(255 - K) / 255). Same contract as
/// `put_grey_alpha16`.
static void put_cmyk8(TIFFRGBAImage *image, uint32_t *raster, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                      int32_t fromskew, int32_t toskew, unsigned char *pp) {
    (void)x;
    (void)y;
    int samples = image->samplesperpixel;
    for (; h > 0; h--) {
        for (uint32_t i = 0; i < w; i++, pp += samples) {
            *raster++ = (uint32_t)pp[0] | (uint32_t)pp[1] << 8 | (uint32_t)pp[2] << 16 | (uint32_t)pp[3] << 24;
        }
        raster += toskew;
        pp += fromskew * samples;
    }
}

cic_status cic_tiff_open(const uint8_t *data, size_t length, uint64_t max_pixels, int apply_orientation,
                         cic_tiff_decoder **result, cic_header *header,
                         char *message, size_t message_capacity) {
    *result = NULL;
    struct cic_tiff_decoder *decoder = calloc(1, sizeof *decoder);
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (decoder == NULL || options == NULL) {
        free(decoder);
        TIFFOpenOptionsFree(options);
        return CIC_ERR_OUT_OF_MEMORY;
    }
    decoder->data = data;
    decoder->length = length;
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_on_error, decoder);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_on_warning, decoder);
    // No single allocation past what the largest image within the budget needs (four
    // 16-bit samples a pixel, a strip of it at most), so a header that lies about its
    // strips cannot ask for gigabytes.
    if (max_pixels > 0 && max_pixels < (uint64_t)TIFF_TMSIZE_T_MAX / 16) {
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)(max_pixels * 8 + (16u << 20)));
    }
    // "m": read through tiff_read, never by mapping a file.
    decoder->tiff = TIFFClientOpenExt("TIFF", "rm", decoder, tiff_read, tiff_write, tiff_seek, tiff_close_stream,
                                      tiff_size, tiff_map, tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (decoder->tiff == NULL) {
        cic_status status = tiff_fail(decoder, CIC_ERR_CORRUPT, "not a valid TIFF file", message, message_capacity);
        cic_tiff_close(decoder);
        return status;
    }
    uint32_t width = 0, height = 0;
    if (!TIFFGetField(decoder->tiff, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(decoder->tiff, TIFFTAG_IMAGELENGTH, &height)
        || width == 0 || height == 0) {
        cic_set_message(message, message_capacity, "TIFF has no image size");
        cic_tiff_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    header->source_width = width;
    header->source_height = height;
    if (cic_over_pixel_budget(width, height, max_pixels)) {
        cic_tiff_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    // TIFFRGBAImage premultiplies unassociated alpha as it reads; declared associated, the
    // samples are copied as they are. So unassociated alpha is declared associated here
    // (in memory only), and the colours come out exactly as stored.
    uint16_t extra_count = 0, *extra = NULL;
    int unassociated = TIFFGetField(decoder->tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra) && extra_count >= 1
        && extra != NULL && extra[0] == EXTRASAMPLE_UNASSALPHA;
    if (unassociated) {
        uint16_t kinds[16] = {0};
        uint16_t kept = extra_count < 16 ? extra_count : 16;
        memcpy(kinds, extra, kept * sizeof kinds[0]);
        kinds[0] = EXTRASAMPLE_ASSOCALPHA;
        TIFFSetField(decoder->tiff, TIFFTAG_EXTRASAMPLES, kept, kinds);
    }
    char reason[1024] = {0};
    if (!TIFFRGBAImageOK(decoder->tiff, reason)) {
        // libtiff says "Sorry, can not handle images with ...".
        const char *text = strncmp(reason, "Sorry, ", 7) == 0 ? reason + 7 : reason;
        cic_set_message(message, message_capacity, "TIFF: %s", text);
        cic_tiff_close(decoder);
        return CIC_ERR_UNSUPPORTED;
    }
    if (!TIFFRGBAImageBegin(&decoder->image, decoder->tiff, 1, reason)) {
        cic_set_message(message, message_capacity, "%s", reason[0] != 0 ? reason : "TIFF data is corrupt");
        cic_tiff_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    decoder->image_begun = 1;
    TIFFRGBAImage *image = &decoder->image;
    if ((image->photometric == PHOTOMETRIC_MINISBLACK || image->photometric == PHOTOMETRIC_MINISWHITE)
        && image->bitspersample == 16 && image->samplesperpixel == 2 && image->alpha != 0 && image->isContig) {
        image->put.contig = put_grey_alpha16;
    }
    decoder->premultiplied = !unassociated && decoder->image.alpha == EXTRASAMPLE_ASSOCALPHA;
    uint16_t orientation = decoder->image.orientation;
    decoder->orientation = apply_orientation && orientation >= 1 && orientation <= 8 ? orientation : 1;
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (TIFFGetField(decoder->tiff, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc != NULL) {
        decoder->icc = icc;
        decoder->icc_length = icc_length;
    }
    // Plain CMYK with a CMYK profile: its inks through the profile (the JPEG shim's
    // conversion). CMYK with alpha, or with planes apart, is converted naively by libtiff.
    if (image->photometric == PHOTOMETRIC_SEPARATED && image->bitspersample == 8 && image->samplesperpixel == 4
        && image->isContig && decoder->icc != NULL) {
        decoder->cmyk_profile = cic_cmyk_transform_create(decoder->icc, decoder->icc_length, 0);
        if (decoder->cmyk_profile != NULL) image->put.contig = put_cmyk8;
    }
    int swapped = decoder->orientation >= 5;
    header->width = swapped ? height : width;
    header->height = swapped ? width : height;
    header->scale_denom = 1;
    header->orientation = decoder->orientation;
    header->has_alpha = decoder->image.alpha != 0;
    header->bit_depth = decoder->image.bitspersample;
    header->read_padding = 0;
    *result = decoder;
    return CIC_OK;
}

/// Colour divided by alpha: a TIFF that stores associated (premultiplied) alpha; stickers
/// and the rest of the pipeline keep colour and alpha apart.
static void unpremultiply(uint8_t *rgba, size_t pixel_count) {
    for (size_t i = 0; i < pixel_count; i++) {
        uint8_t *p = rgba + i * 4;
        unsigned a = p[3];
        if (a == 0 || a == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned value = (p[c] * 255u + a / 2) / a;
            p[c] = (uint8_t)(value > 255 ? 255 : value);
        }
    }
}

cic_status cic_tiff_read(cic_tiff_decoder *decoder, uint8_t *rgba, char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL) return CIC_ERR_ARGUMENT;
    uint32_t width = decoder->image.width, height = decoder->image.height;
    size_t count = (size_t)width * height;
    uint8_t *stored = decoder->orientation == 1 ? rgba : malloc(count * 4);
    if (stored == NULL) return CIC_ERR_OUT_OF_MEMORY;
    // Asking for the file's own orientation makes libtiff flip nothing: rows as stored.
    decoder->image.req_orientation = decoder->image.orientation;
    decoder->error[0] = 0;
    if (!TIFFRGBAImageGet(&decoder->image, (uint32_t *)(void *)stored, width, height)) {
        if (stored != rgba) free(stored);
        return tiff_fail(decoder, CIC_ERR_CORRUPT, "TIFF data is corrupt or truncated", message, message_capacity);
    }
    if (decoder->premultiplied) unpremultiply(stored, count);
    if (stored != rgba) {
        cic_place_oriented_rows(decoder->orientation, stored, width, 0, width, height, 0, height, rgba);
        free(stored);
    }
    if (decoder->cmyk_profile != NULL) {
        cic_cmyk_transform_apply(decoder->cmyk_profile, rgba, count);
    } else if (decoder->icc != NULL) {
        uint16_t photometric = decoder->image.photometric;
        int grey = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE;
        cic_convert_to_srgb(decoder->icc, decoder->icc_length, grey ? CIC_COLOR_MODEL_GREY : CIC_COLOR_MODEL_RGB, rgba,
                            count);
    }
    return CIC_OK;
}
