// JPEG decode and encode over libjpeg(-turbo), with every libjpeg error caught here.
#include "CImageCodecs.h"
#include "color_profile.h"
#include "exif_orientation.h"
#include "shim_message.h"

#include <jerror.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>

struct jpeg_error_trap {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[CIC_MESSAGE_CAPACITY];
};

/// Fatal errors: keep the library's message, jump back into the shim that set the trap.
static void jpeg_error_exit(j_common_ptr cinfo) {
    struct jpeg_error_trap *trap = (struct jpeg_error_trap *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    cinfo->err->format_message(cinfo, text);
    cic_set_message(trap->message, sizeof trap->message, "%s", text);
    longjmp(trap->jump, 1);
}

/// Warnings are silent, except a premature end of data: a truncated file is an error,
/// not a picture whose lower part libjpeg filled with grey.
static void jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
        jpeg_error_exit(cinfo);
    }
}

static void jpeg_output_nothing(j_common_ptr cinfo) { (void)cinfo; }

static void jpeg_install_trap(struct jpeg_error_trap *trap) {
    jpeg_std_error(&trap->manager);
    trap->manager.error_exit = jpeg_error_exit;
    trap->manager.emit_message = jpeg_emit_message;
    trap->manager.output_message = jpeg_output_nothing;
}

struct cic_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_trap trap;
    uint32_t orientation;
    int cmyk_inverted;  // Adobe CMYK/YCCK stores inverted ink values
    JSAMPLE *rows;      // a batch of decoded rows on their way to their upright place
    JOCTET *icc;        // the embedded ICC profile (APP2), if any, for `cic_convert_to_srgb`
    unsigned int icc_length;
    cic_cmyk_transform *cmyk_profile;  // a CMYK photo's embedded profile, made a transform
    int has_region;     // `cic_jpeg_set_region` limited the read to `region` (upright pixels)
    uint32_t region_x, region_y, region_width, region_height;
};

/// Rows decoded per batch when they must be moved (an orientation, or CMYK): when the
/// orientation turns rows into columns, a column's 16 pixels from one batch are 64 bytes
/// in a row of the result, one cache line, instead of 16 lines touched a pixel each.
#define CIC_JPEG_BATCH 16

// ---------------------------------------------------------------------- EXIF orientation

static uint32_t jpeg_orientation(j_decompress_ptr cinfo) {
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1) {
            uint32_t value = cic_exif_orientation(marker->data, marker->data_length);
            if (value != 1) return value;
        }
    }
    return 1;
}

// ---------------------------------------------------------------------------- decoding

cic_status cic_jpeg_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                         uint32_t min_long_side, int apply_orientation,
                         cic_jpeg_decoder **result, cic_header *header,
                         char *message, size_t message_capacity) {
    *result = NULL;
    if (length < 3 || data[0] != 0xFF || data[1] != 0xD8) {
        cic_set_message(message, message_capacity, "not a JPEG file");
        return CIC_ERR_CORRUPT;
    }
    struct cic_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_ERR_OUT_OF_MEMORY;
    decoder->cinfo.err = &decoder->trap.manager;
    jpeg_install_trap(&decoder->trap);
    if (setjmp(decoder->trap.jump)) {
        // libjpeg-turbo 2.x refuses 12- and 16-bit files in the header: valid files this
        // build cannot read, not corrupt ones.
        int precision = decoder->trap.manager.msg_code == JERR_BAD_PRECISION;
        if (precision) {
            cic_set_message(message, message_capacity, "%d-bit JPEG is not supported (only 8-bit)",
                            decoder->cinfo.data_precision);
        } else {
            cic_set_message(message, message_capacity, "%s", decoder->trap.message);
        }
        cic_jpeg_close(decoder);
        return precision ? CIC_ERR_UNSUPPORTED : CIC_ERR_CORRUPT;
    }
    jpeg_create_decompress(&decoder->cinfo);
    j_decompress_ptr cinfo = &decoder->cinfo;
    jpeg_mem_src(cinfo, data, (unsigned long)length);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(cinfo, TRUE);

    if (cinfo->data_precision != 8) {
        cic_set_message(message, message_capacity,
                        "%d-bit JPEG is not supported (only 8-bit)", cinfo->data_precision);
        cic_jpeg_close(decoder);
        return CIC_ERR_UNSUPPORTED;
    }
    uint32_t width = cinfo->image_width, height = cinfo->image_height;
    header->source_width = width;
    header->source_height = height;
    if (cic_over_pixel_budget(width, height, max_pixels)) {
        cic_jpeg_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    switch (cinfo->jpeg_color_space) {
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        decoder->cmyk_inverted = cinfo->saw_Adobe_marker;
        break;
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo->out_color_space = JCS_EXT_RGBA;
        break;
    default:
        cic_set_message(message, message_capacity, "unsupported JPEG colour space %d",
                        (int)cinfo->jpeg_color_space);
        cic_jpeg_close(decoder);
        return CIC_ERR_UNSUPPORTED;
    }
    uint32_t long_side = width > height ? width : height;
    uint32_t denom = 1;
    if (min_long_side > 0) {
        for (uint32_t candidate = 8; candidate >= 2; candidate /= 2) {
            if ((long_side + candidate - 1) / candidate >= min_long_side) {
                denom = candidate;
                break;
            }
        }
    }
    cinfo->scale_num = 1;
    cinfo->scale_denom = denom;
    cinfo->dct_method = JDCT_ISLOW;
    jpeg_calc_output_dimensions(cinfo);
    if (cic_rgba_bytes(cinfo->output_width, cinfo->output_height) == 0) {
        cic_set_message(message, message_capacity, "image size is not addressable");
        cic_jpeg_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    decoder->orientation = apply_orientation ? jpeg_orientation(cinfo) : 1;
    // Read now: the saved markers are freed when decompression finishes. A colour or grey
    // photo's profile converts its pixels once decoded; a CMYK photo's converts its inks as
    // each batch of rows is decoded (without one, they are converted naively, in store_rows).
    if (cinfo->jpeg_color_space == JCS_YCbCr || cinfo->jpeg_color_space == JCS_RGB
        || cinfo->jpeg_color_space == JCS_GRAYSCALE) {
        jpeg_read_icc_profile(cinfo, &decoder->icc, &decoder->icc_length);
    } else if (cinfo->out_color_space == JCS_CMYK) {
        JOCTET *icc = NULL;
        unsigned int icc_length = 0;
        if (jpeg_read_icc_profile(cinfo, &icc, &icc_length)) {
            decoder->cmyk_profile = cic_cmyk_transform_create(icc, icc_length, decoder->cmyk_inverted);
            free(icc);
        }
    }
    int swapped = decoder->orientation >= 5;
    header->source_width = width;
    header->source_height = height;
    header->width = swapped ? cinfo->output_height : cinfo->output_width;
    header->height = swapped ? cinfo->output_width : cinfo->output_height;
    header->scale_denom = denom;
    header->orientation = decoder->orientation;
    header->has_alpha = 0;
    header->bit_depth = 8;
    *result = decoder;
    return CIC_OK;
}

/// The part of the stored image an upright rectangle of the oriented image comes from:
/// each orientation is an axis-aligned isometry, so the rectangle's two corners, moved back,
/// span it. `width` x `height` is the stored (scaled) size.
static void stored_rect(uint32_t orientation, uint32_t width, uint32_t height,
                        uint32_t x, uint32_t y, uint32_t region_width, uint32_t region_height,
                        uint32_t *stored_x, uint32_t *stored_y, uint32_t *stored_width, uint32_t *stored_height) {
    uint32_t x0 = x, y0 = y, x1 = x + region_width - 1, y1 = y + region_height - 1;  // upright corners
    uint32_t sx0, sy0, sx1, sy1;
    switch (orientation) {
    case 2: sx0 = width - 1 - x0; sx1 = width - 1 - x1; sy0 = y0; sy1 = y1; break;
    case 3: sx0 = width - 1 - x0; sx1 = width - 1 - x1; sy0 = height - 1 - y0; sy1 = height - 1 - y1; break;
    case 4: sx0 = x0; sx1 = x1; sy0 = height - 1 - y0; sy1 = height - 1 - y1; break;
    case 5: sx0 = y0; sx1 = y1; sy0 = x0; sy1 = x1; break;
    case 6: sx0 = y0; sx1 = y1; sy0 = height - 1 - x0; sy1 = height - 1 - x1; break;
    case 7: sx0 = width - 1 - y0; sx1 = width - 1 - y1; sy0 = height - 1 - x0; sy1 = height - 1 - x1; break;
    case 8: sx0 = width - 1 - y0; sx1 = width - 1 - y1; sy0 = x0; sy1 = x1; break;
    default: sx0 = x0; sx1 = x1; sy0 = y0; sy1 = y1; break;
    }
    *stored_x = sx0 < sx1 ? sx0 : sx1;
    *stored_y = sy0 < sy1 ? sy0 : sy1;
    *stored_width = (sx0 < sx1 ? sx1 - sx0 : sx0 - sx1) + 1;
    *stored_height = (sy0 < sy1 ? sy1 - sy0 : sy0 - sy1) + 1;
}

/// Moves `count` decoded rows (RGBA, or CMYK converted naively; `stride` pixels apart,
/// starting `column` pixels in) that are rows `first`... of a stored `width` x `height`
/// image to their upright place in `rgba`, per EXIF.
static void store_rows(struct cic_jpeg_decoder *decoder, const JSAMPLE *rows, size_t stride, size_t column,
                       uint32_t width, uint32_t height, uint32_t first, uint32_t count, uint8_t *rgba) {
    if (decoder->cinfo.out_color_space == JCS_CMYK && decoder->cmyk_profile == NULL) {
        ptrdiff_t w = width;
        cic_orientation_steps steps = cic_orientation_steps_for(decoder->orientation, width, height);
        for (ptrdiff_t x = 0; x < w; x++) {
            for (uint32_t r = 0; r < count; r++) {
                const JSAMPLE *s = rows + ((size_t)r * stride + column + (size_t)x) * 4;
                uint8_t *d = rgba + (steps.origin + x * steps.step_x + (ptrdiff_t)(first + r) * steps.step_y) * 4;
                unsigned c = s[0], m = s[1], ye = s[2], k = s[3];
                if (!decoder->cmyk_inverted) {
                    c = 255 - c; m = 255 - m; ye = 255 - ye; k = 255 - k;
                }
                d[0] = (uint8_t)((c * k + 127) / 255);
                d[1] = (uint8_t)((m * k + 127) / 255);
                d[2] = (uint8_t)((ye * k + 127) / 255);
                d[3] = 255;
            }
        }
        return;
    }
    cic_place_oriented_rows(decoder->orientation, rows, stride, column, width, height, first, count, rgba);
}

cic_status cic_jpeg_set_region(cic_jpeg_decoder *decoder, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
                               cic_header *header) {
    if (decoder == NULL || header == NULL || width == 0 || height == 0) return CIC_ERR_ARGUMENT;
    if (x >= header->width || y >= header->height || width > header->width - x || height > header->height - y) {
        return CIC_ERR_ARGUMENT;
    }
    decoder->has_region = 1;
    decoder->region_x = x;
    decoder->region_y = y;
    decoder->region_width = width;
    decoder->region_height = height;
    header->width = width;
    header->height = height;
    return CIC_OK;
}

cic_status cic_jpeg_read(cic_jpeg_decoder *decoder, uint8_t *rgba,
                         char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL) return CIC_ERR_ARGUMENT;
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (setjmp(decoder->trap.jump)) {
        cic_set_message(message, message_capacity, "%s", decoder->trap.message);
        return CIC_ERR_CORRUPT;
    }
    jpeg_start_decompress(cinfo);
    // The stored rows and columns to read: all of them, or those a region comes from.
    uint32_t stored_width = cinfo->output_width, stored_height = cinfo->output_height;
    uint32_t x = 0, y = 0, width = stored_width, height = stored_height;
    if (decoder->has_region) {
        stored_rect(decoder->orientation, stored_width, stored_height, decoder->region_x, decoder->region_y,
                    decoder->region_width, decoder->region_height, &x, &y, &width, &height);
    }
    // libjpeg-turbo decodes whole iMCU columns: the cropped rows start at or before x.
    JDIMENSION first_column = x, columns = width;
    if (width < stored_width) jpeg_crop_scanline(cinfo, &first_column, &columns);
    if (y > 0 && jpeg_skip_scanlines(cinfo, y) != y) {
        cic_set_message(message, message_capacity, "JPEG data ended early");
        return CIC_ERR_CORRUPT;
    }
    int direct = !decoder->has_region && decoder->orientation == 1 && cinfo->out_color_space == JCS_EXT_RGBA;
    size_t row_bytes = (size_t)cinfo->output_width * 4;
    if (!direct && decoder->rows == NULL) {
        decoder->rows = malloc(row_bytes * CIC_JPEG_BATCH);
        if (decoder->rows == NULL) return CIC_ERR_OUT_OF_MEMORY;
    }
    uint32_t batched = 0;   // rows waiting in decoder->rows to be moved
    for (uint32_t row = 0; row < height; row++) {
        JSAMPROW target = direct ? rgba + (size_t)row * row_bytes : decoder->rows + batched * row_bytes;
        if (jpeg_read_scanlines(cinfo, &target, 1) != 1) {
            cic_set_message(message, message_capacity, "JPEG data ended early");
            return CIC_ERR_CORRUPT;
        }
        if (direct) continue;
        batched += 1;
        if (batched == CIC_JPEG_BATCH || row + 1 == height) {
            if (decoder->cmyk_profile != NULL) {
                cic_cmyk_transform_apply(decoder->cmyk_profile, decoder->rows, (size_t)batched * cinfo->output_width);
            }
            store_rows(decoder, decoder->rows, cinfo->output_width, x - first_column, width, height,
                       row + 1 - batched, batched, rgba);
            batched = 0;
        }
    }
    // Rows below a region are never decoded.
    if (height < stored_height) {
        jpeg_abort_decompress(cinfo);
    } else {
        jpeg_finish_decompress(cinfo);
    }
    if (decoder->icc != NULL) {
        cic_color_model model = cinfo->jpeg_color_space == JCS_GRAYSCALE ? CIC_COLOR_MODEL_GREY : CIC_COLOR_MODEL_RGB;
        cic_convert_to_srgb(decoder->icc, decoder->icc_length, model, rgba, (size_t)width * height);
    }
    return CIC_OK;
}

void cic_jpeg_close(cic_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->rows);
    free(decoder->icc);
    cic_cmyk_transform_free(decoder->cmyk_profile);
    free(decoder);
}

// ---------------------------------------------------------------------------- encoding

cic_status cic_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                           const cic_jpeg_options *options,
                           uint8_t **out, size_t *out_length,
                           char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (width == 0 || height == 0 || cic_rgba_bytes(width, height) == 0) {
        cic_set_message(message, message_capacity, "cannot encode a %ux%u image", width, height);
        return CIC_ERR_ARGUMENT;
    }
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_trap trap;
    // Locals read after a longjmp must be volatile; these are set before setjmp and the
    // buffers are owned by libjpeg (out) or by this frame (row).
    unsigned char *volatile bytes = NULL;
    unsigned long volatile size = 0;
    JSAMPLE *volatile row = NULL;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = &trap.manager;
    jpeg_install_trap(&trap);
    if (setjmp(trap.jump)) {
        cic_set_message(message, message_capacity, "%s", trap.message);
        jpeg_destroy_compress(&cinfo);
        free(bytes);
        free(row);
        return CIC_ERR_CORRUPT;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&bytes, (unsigned long *)&size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    int cmyk = options->color == CIC_JPEG_CMYK_ADOBE;
    cinfo.input_components = 4;
    cinfo.in_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    if (options->color == CIC_JPEG_GRAY) jpeg_set_colorspace(&cinfo, JCS_GRAYSCALE);
    jpeg_set_quality(&cinfo, options->quality, TRUE);
    if (options->progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (options->exif_orientation >= 1 && options->exif_orientation <= 8) {
        // A minimal big-endian TIFF with one IFD0 entry: Orientation (0x0112), SHORT.
        uint8_t exif[] = {'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8,
                          0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                          0, (uint8_t)options->exif_orientation, 0, 0, 0, 0, 0, 0};
        jpeg_write_marker(&cinfo, JPEG_APP0 + 1, exif, sizeof exif);
    }
    if (options->icc_profile != NULL && options->icc_profile_length > 0) {
        jpeg_write_icc_profile(&cinfo, options->icc_profile, (unsigned int)options->icc_profile_length);
    }
    if (cmyk) {
        row = malloc((size_t)width * 4);
        if (row == NULL) longjmp(trap.jump, 1);
    }
    while (cinfo.next_scanline < height) {
        const uint8_t *source = rgba + (size_t)cinfo.next_scanline * width * 4;
        JSAMPROW target = (JSAMPROW)source;
        if (cmyk) {
            // Adobe stores inverted inks; with no black ink the stored values are R, G, B.
            for (uint32_t x = 0; x < width; x++) {
                memcpy(row + x * 4, source + x * 4, 3);
                row[x * 4 + 3] = 255;
            }
            target = row;
        }
        jpeg_write_scanlines(&cinfo, &target, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(row);
    *out = bytes;
    *out_length = size;
    return CIC_OK;
}
