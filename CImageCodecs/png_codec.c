// PNG decode and encode over libpng, with every libpng error caught here (setjmp); the image
// data of 8-bit RGB and RGBA PNGs that are not interlaced is read by png_fast_reader.c.
#include "CImageCodecs.h"
#include "color_profile.h"
#include "png_fast_reader.h"
#include "png_fast_writer.h"
#include "shim_message.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <zlib.h>

struct cic_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t length;
    size_t offset;
    uint32_t width;
    uint32_t height;
    png_bytep *rows;
    /// Palette images are read as indices and expanded here, so that an index past the
    /// palette is an error rather than the black libpng would silently substitute.
    int palette_entries;       ///< 0 when the image is not a palette image
    int fast_channels;         ///< 3 or 4 when `cic_png_read_fast` reads the pixels, else 0
    int excess_data;           ///< set when compressed data continues past the image
    int grey;                  ///< the file is grey (read as RGBA: libpng's colour type then says so)
    uint8_t palette[256][4];   ///< RGBA, alpha from tRNS
    char error[CIC_MESSAGE_CAPACITY];
};

static void png_error_handler(png_structp png, png_const_charp text) {
    struct cic_png_decoder *decoder = png_get_error_ptr(png);
    if (decoder != NULL) cic_set_message(decoder->error, sizeof decoder->error, "%s", text);
    png_longjmp(png, 1);
}

static void png_warning_handler(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

/// Decode warnings are silent, except those saying the image data goes on past what the
/// header declares: that is a decompression bomb (or a broken encoder), and is refused.
static void png_decode_warning_handler(png_structp png, png_const_charp text) {
    struct cic_png_decoder *decoder = png_get_error_ptr(png);
    if (decoder != NULL && (strstr(text, "xtra compress") != NULL || strstr(text, "Too much image data") != NULL
                            || strstr(text, "Too many IDATs") != NULL)) {
        decoder->excess_data = 1;
    }
}

static void png_read_from_memory(png_structp png, png_bytep out, size_t count) {
    struct cic_png_decoder *decoder = png_get_io_ptr(png);
    if (count > decoder->length - decoder->offset) png_error(png, "file is truncated");
    memcpy(out, decoder->data + decoder->offset, count);
    decoder->offset += count;
}

cic_status cic_png_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                        cic_png_decoder **result, cic_header *header,
                        char *message, size_t message_capacity) {
    *result = NULL;
    if (length < 8 || png_sig_cmp(data, 0, 8) != 0) {
        cic_set_message(message, message_capacity, "not a PNG file");
        return CIC_ERR_CORRUPT;
    }
    struct cic_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_ERR_OUT_OF_MEMORY;
    decoder->data = data;
    decoder->length = length;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder,
                                          png_error_handler, png_decode_warning_handler);
    if (decoder->png != NULL) decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        cic_png_close(decoder);
        return CIC_ERR_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        cic_set_message(message, message_capacity, "%s", decoder->error);
        cic_png_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    png_set_read_fn(decoder->png, decoder, png_read_from_memory);
    png_set_user_limits(decoder->png, 0x7fffffff, 0x7fffffff);
    png_set_chunk_malloc_max(decoder->png, 64u * 1024u * 1024u);
    png_read_info(decoder->png, decoder->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace_method = 0;
    png_get_IHDR(decoder->png, decoder->info, &width, &height, &bit_depth, &color_type,
                 &interlace_method, NULL, NULL);
    header->source_width = width;
    header->source_height = height;
    if (cic_over_pixel_budget(width, height, max_pixels)) {
        cic_png_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    if (cic_rgba_bytes(width, height) == 0) {
        cic_set_message(message, message_capacity, "image size %ux%u is not addressable",
                        width, height);
        cic_png_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    int has_trns = png_get_valid(decoder->png, decoder->info, PNG_INFO_tRNS) != 0;
    decoder->grey = (color_type & PNG_COLOR_MASK_COLOR) == 0;
    header->has_alpha = has_trns || (color_type & PNG_COLOR_MASK_ALPHA) != 0;
    header->bit_depth = bit_depth;
    decoder->fast_channels = cic_png_fast_channels(bit_depth, color_type, interlace_method, has_trns);
    header->read_padding = decoder->fast_channels != 0 ? (uint32_t)cic_png_fast_padding(height) : 0;

    // Every colour type and depth becomes RGBA8: low-bit grey -> 8 bits, tRNS -> alpha,
    // 16 -> 8 bits (rounded), grey -> RGB, opaque alpha added when absent. Palette images
    // become one index byte per pixel, expanded by `cic_png_read`.
    size_t expected_row_bytes = (size_t)width * 4;
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_colorp entries = NULL;
        int count = 0;
        if (png_get_PLTE(decoder->png, decoder->info, &entries, &count) == 0 || count <= 0) {
            png_error(decoder->png, "palette image without a palette");
        }
        png_bytep alphas = NULL;
        int alpha_count = 0;
        if (has_trns) png_get_tRNS(decoder->png, decoder->info, &alphas, &alpha_count, NULL);
        decoder->palette_entries = count;
        for (int i = 0; i < count; i++) {
            decoder->palette[i][0] = entries[i].red;
            decoder->palette[i][1] = entries[i].green;
            decoder->palette[i][2] = entries[i].blue;
            decoder->palette[i][3] = (alphas != NULL && i < alpha_count) ? alphas[i] : 0xFF;
        }
        png_set_packing(decoder->png);
        expected_row_bytes = width;
    } else {
        png_set_expand(decoder->png);
        png_set_scale_16(decoder->png);
        if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(decoder->png);
        if (!header->has_alpha) png_set_add_alpha(decoder->png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(decoder->png);
    png_read_update_info(decoder->png, decoder->info);
    if (png_get_rowbytes(decoder->png, decoder->info) != expected_row_bytes) {
        cic_set_message(message, message_capacity, "unsupported PNG pixel layout");
        cic_png_close(decoder);
        return CIC_ERR_UNSUPPORTED;
    }
    decoder->width = width;
    decoder->height = height;
    header->width = header->source_width = width;
    header->height = header->source_height = height;
    header->scale_denom = 1;
    header->orientation = 1;
    *result = decoder;
    return CIC_OK;
}

/// Decodes the pixels as RGBA8, as they are stored.
static cic_status read_pixels(cic_png_decoder *decoder, uint8_t *rgba, char *message, size_t message_capacity) {
    if (decoder->fast_channels != 0) {
        return cic_png_read_fast(decoder->data, decoder->length, decoder->width, decoder->height,
                                 decoder->fast_channels, rgba, message, message_capacity);
    }
    decoder->rows = malloc(sizeof(png_bytep) * (size_t)decoder->height);
    if (decoder->rows == NULL) return CIC_ERR_OUT_OF_MEMORY;
    size_t pixels = (size_t)decoder->width * decoder->height;
    // Palette indices are read into the last quarter of the RGBA buffer and expanded
    // forwards in place: pixel i's RGBA (bytes 4i...4i+3) never reaches the index of a
    // later pixel (byte 3 * pixels + j, j > i).
    uint8_t *indices = rgba + 3 * pixels;
    for (uint32_t y = 0; y < decoder->height; y++) {
        decoder->rows[y] = decoder->palette_entries > 0 ? indices + (size_t)y * decoder->width
                                                       : rgba + (size_t)y * decoder->width * 4;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        cic_set_message(message, message_capacity, "%s", decoder->error);
        return CIC_ERR_CORRUPT;
    }
    png_read_image(decoder->png, decoder->rows);
    // Reading to IEND checks that the image data ends where the header says it does
    // (libpng stops inflating at the first extra byte) and that the file is complete.
    png_read_end(decoder->png, NULL);
    if (decoder->excess_data) {
        cic_set_message(message, message_capacity,
                        "the compressed image data goes on past the %ux%u pixels the header declares",
                        decoder->width, decoder->height);
        return CIC_ERR_CORRUPT;
    }
    if (decoder->palette_entries == 0) return CIC_OK;
    for (size_t i = 0; i < pixels; i++) {
        uint8_t index = indices[i];
        if (index >= decoder->palette_entries) {
            cic_set_message(message, message_capacity,
                            "palette index %u is out of range (the palette has %d entries)",
                            index, decoder->palette_entries);
            return CIC_ERR_CORRUPT;
        }
        memcpy(rgba + 4 * i, decoder->palette[index], 4);
    }
    return CIC_OK;
}

/// The file's colours to sRGB, as PNG 1.2 section 10.5 orders its colour chunks: an iCCP
/// profile (libpng has read and inflated it with the header: an RGB one for a colour or
/// palette image, a grey one for a grey image); else nothing with an sRGB chunk; else gAMA
/// (with cHRM's chromaticities when there are), which browsers apply too.
static void convert_colours(cic_png_decoder *decoder, uint8_t *rgba) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    cic_color_model model = decoder->grey ? CIC_COLOR_MODEL_GREY : CIC_COLOR_MODEL_RGB;
    size_t count = (size_t)decoder->width * decoder->height;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_length = 0;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &profile_length) != 0) {
        cic_convert_to_srgb(profile, profile_length, model, rgba, count);
        return;
    }
    double gamma = 0, xy[8];
    if (png_get_valid(png, info, PNG_INFO_sRGB) || !png_get_gAMA(png, info, &gamma)) return;
    int chromaticities = png_get_cHRM(png, info, &xy[6], &xy[7], &xy[0], &xy[1], &xy[2], &xy[3], &xy[4], &xy[5]) != 0;
    cic_convert_png_gamma_to_srgb(gamma, chromaticities ? xy : NULL, model, rgba, count);
}

cic_status cic_png_read(cic_png_decoder *decoder, uint8_t *rgba,
                        char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL) return CIC_ERR_ARGUMENT;
    cic_status status = read_pixels(decoder, rgba, message, message_capacity);
    if (status == CIC_OK) convert_colours(decoder, rgba);
    return status;
}

void cic_png_close(cic_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->png != NULL) {
        png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    }
    free(decoder->rows);
    free(decoder);
}

// ------------------------------------------------------------------------ encoding

struct png_output {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    char error[CIC_MESSAGE_CAPACITY];
};

static void png_write_to_memory(png_structp png, png_bytep data, size_t count) {
    struct png_output *output = png_get_io_ptr(png);
    if (count > SIZE_MAX - output->length) png_error(png, "output too large");
    if (output->length + count > output->capacity) {
        size_t capacity = output->capacity ? output->capacity : 65536;
        while (capacity < output->length + count) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(output->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->length, data, count);
    output->length += count;
}

static void png_flush_nothing(png_structp png) { (void)png; }

static void png_encode_error_handler(png_structp png, png_const_charp text) {
    struct png_output *output = png_get_error_ptr(png);
    cic_set_message(output->error, sizeof output->error, "%s", text);
    png_longjmp(png, 1);
}

cic_status cic_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                          int compression_level, int fast_filters,
                          uint8_t **out, size_t *out_length,
                          char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (width == 0 || height == 0 || cic_rgba_bytes(width, height) == 0 || (channels != 1 && channels != 4)) {
        cic_set_message(message, message_capacity, "cannot encode a %ux%u image with %d channels",
                        width, height, channels);
        return CIC_ERR_ARGUMENT;
    }
    if (fast_filters) {
        return cic_png_write_fast(pixels, width, height, channels, out, out_length, message, message_capacity);
    }
    struct png_output *output = calloc(1, sizeof *output);
    if (output == NULL) return CIC_ERR_OUT_OF_MEMORY;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, output,
                                              png_encode_error_handler, png_warning_handler);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(output);
        return CIC_ERR_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        cic_set_message(message, message_capacity, "%s", output->error);
        png_destroy_write_struct(&png, &info);
        free(output->bytes);
        free(output);
        return CIC_ERR_CORRUPT;
    }
    png_set_write_fn(png, output, png_write_to_memory, png_flush_nothing);
    png_set_IHDR(png, info, width, height, 8, channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, compression_level);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, pixels + (size_t)y * width * (size_t)channels);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = output->bytes;
    *out_length = output->length;
    free(output);
    return CIC_OK;
}
