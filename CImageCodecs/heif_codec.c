// HEIC/HEIF decode through libheif, loaded at run time with dlopen: the build needs no
// libheif headers or package, and a machine without libheif gets a clear per-file error
// naming the package to install instead of a binary that will not start.
//
// The declarations below are the part of libheif's stable C API (libheif/heif.h, 1.x)
// that this shim calls; the enum values are those the header fixes.
#include "CImageCodecs.h"
#include "color_profile.h"
#include "shim_library.h"
#include "shim_message.h"

#include <stdlib.h>

struct heif_context;
struct heif_image_handle;
struct heif_image;
struct heif_error {
    int code;       // 0 is heif_error_Ok
    int subcode;
    const char *message;
};
enum { heif_colorspace_RGB = 1, heif_chroma_interleaved_RGBA = 11, heif_channel_interleaved = 10 };
/// libheif's heif_color_profile_nclx, its version 1 fields (H.273 code points, and the
/// chromaticities libheif decodes from the primaries' code).
struct heif_color_profile_nclx {
    uint8_t version;
    int color_primaries;
    int transfer_characteristics;
    int matrix_coefficients;
    uint8_t full_range_flag;
    float chromaticities[8];   // red x, y, green x, y, blue x, y, white x, y
};
/// A colour profile type, as libheif's heif_color_profile_type spells it.
#define HEIF_FOURCC(a, b, c, d) ((uint32_t)(((a) << 24) | ((b) << 16) | ((c) << 8) | (d)))

static struct {
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    struct heif_error (*read_from_memory)(struct heif_context *, const void *, size_t, const void *);
    struct heif_error (*primary_handle)(struct heif_context *, struct heif_image_handle **);
    int (*handle_width)(const struct heif_image_handle *);
    int (*handle_height)(const struct heif_image_handle *);
    int (*handle_has_alpha)(const struct heif_image_handle *);
    void (*handle_release)(const struct heif_image_handle *);
    struct heif_error (*decode)(const struct heif_image_handle *, struct heif_image **, int, int, const void *);
    const uint8_t *(*plane)(const struct heif_image *, int, int *);
    void (*image_release)(const struct heif_image *);
    // The embedded colour profile (optional: a libheif without them decodes as before).
    uint32_t (*profile_type)(const struct heif_image_handle *);
    size_t (*profile_size)(const struct heif_image_handle *);
    struct heif_error (*profile)(const struct heif_image_handle *, void *);
    struct heif_error (*nclx)(const struct heif_image_handle *, struct heif_color_profile_nclx **);
    void (*nclx_free)(struct heif_color_profile_nclx *);
} heif;

static cic_library heif_library = CIC_LIBRARY_INIT;

/// Loads libheif from `library`; 1 when it loaded with every function it must have.
static int heif_load(const char *library) {
    const cic_symbol symbols[] = {
        {"heif_context_alloc", (void **)&heif.context_alloc, 0},
        {"heif_context_free", (void **)&heif.context_free, 0},
        {"heif_context_read_from_memory_without_copy", (void **)&heif.read_from_memory, 0},
        {"heif_context_get_primary_image_handle", (void **)&heif.primary_handle, 0},
        {"heif_image_handle_get_width", (void **)&heif.handle_width, 0},
        {"heif_image_handle_get_height", (void **)&heif.handle_height, 0},
        {"heif_image_handle_has_alpha_channel", (void **)&heif.handle_has_alpha, 0},
        {"heif_image_handle_release", (void **)&heif.handle_release, 0},
        {"heif_decode_image", (void **)&heif.decode, 0},
        {"heif_image_get_plane_readonly", (void **)&heif.plane, 0},
        {"heif_image_release", (void **)&heif.image_release, 0},
        {"heif_image_handle_get_color_profile_type", (void **)&heif.profile_type, 1},
        {"heif_image_handle_get_raw_color_profile_size", (void **)&heif.profile_size, 1},
        {"heif_image_handle_get_raw_color_profile", (void **)&heif.profile, 1},
        {"heif_image_handle_get_nclx_color_profile", (void **)&heif.nclx, 1},
        {"heif_nclx_color_profile_free", (void **)&heif.nclx_free, 1},
    };
    return cic_library_load(&heif_library, library, symbols, sizeof symbols / sizeof symbols[0]);
}

struct cic_heif_decoder {
    struct heif_context *context;
    struct heif_image_handle *handle;
    uint32_t width;
    uint32_t height;
};

void cic_heif_close(cic_heif_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->handle != NULL) heif.handle_release(decoder->handle);
    if (decoder->context != NULL) heif.context_free(decoder->context);
    free(decoder);
}

cic_status cic_heif_open(const uint8_t *data, size_t length, uint64_t max_pixels, const char *library,
                         cic_heif_decoder **result, cic_header *header,
                         char *message, size_t message_capacity) {
    *result = NULL;
    if (!heif_load(library)) {
        cic_set_message(message, message_capacity,
                        "HEIC, HEIF and AVIF need libheif, which is not installed (apt-get install libheif1)");
        return CIC_ERR_UNSUPPORTED;
    }
    struct cic_heif_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_ERR_OUT_OF_MEMORY;
    decoder->context = heif.context_alloc();
    if (decoder->context == NULL) {
        free(decoder);
        return CIC_ERR_OUT_OF_MEMORY;
    }
    struct heif_error error = heif.read_from_memory(decoder->context, data, length, NULL);
    if (error.code == 0) error = heif.primary_handle(decoder->context, &decoder->handle);
    if (error.code != 0) {
        cic_set_message(message, message_capacity, "%s", error.message ? error.message : "not a valid HEIF file");
        cic_heif_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    int width = heif.handle_width(decoder->handle), height = heif.handle_height(decoder->handle);
    header->source_width = header->width = (uint32_t)(width > 0 ? width : 0);
    header->source_height = header->height = (uint32_t)(height > 0 ? height : 0);
    if (width <= 0 || height <= 0) {
        cic_set_message(message, message_capacity, "image size %dx%d has no pixels", width, height);
        cic_heif_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    if (cic_over_pixel_budget((uint64_t)width, (uint64_t)height, max_pixels)) {
        cic_heif_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    decoder->width = (uint32_t)width;
    decoder->height = (uint32_t)height;
    header->scale_denom = 1;
    header->orientation = 1;  // libheif applies the file's rotation and mirroring itself
    header->has_alpha = heif.handle_has_alpha(decoder->handle) != 0;
    header->bit_depth = 8;
    *result = decoder;
    return CIC_OK;
}

/// The file's colour profile converts the pixels to sRGB: an ICC profile ('prof' or
/// 'rICC'), or the code points of an 'nclx' box (AVIF's usual way to say Display P3).
static void convert_profile(const cic_heif_decoder *decoder, uint8_t *rgba) {
    if (heif.profile_type == NULL || heif.profile_size == NULL || heif.profile == NULL) return;
    uint32_t type = heif.profile_type(decoder->handle);
    struct heif_color_profile_nclx *nclx = NULL;
    if (type == HEIF_FOURCC('n', 'c', 'l', 'x') && heif.nclx != NULL && heif.nclx_free != NULL
        && heif.nclx(decoder->handle, &nclx).code == 0 && nclx != NULL) {
        cic_convert_nclx_to_srgb(nclx->color_primaries, nclx->chromaticities, nclx->transfer_characteristics, rgba,
                                 (size_t)decoder->width * decoder->height);
        heif.nclx_free(nclx);
        return;
    }
    if (type != HEIF_FOURCC('p', 'r', 'o', 'f') && type != HEIF_FOURCC('r', 'I', 'C', 'C')) return;
    size_t size = heif.profile_size(decoder->handle);
    uint8_t *profile = size > 0 ? malloc(size) : NULL;
    if (profile == NULL) return;
    if (heif.profile(decoder->handle, profile).code == 0) {
        cic_convert_to_srgb(profile, size, CIC_COLOR_MODEL_RGB, rgba, (size_t)decoder->width * decoder->height);
    }
    free(profile);
}

cic_status cic_heif_read(cic_heif_decoder *decoder, uint8_t *rgba, char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL) return CIC_ERR_ARGUMENT;
    struct heif_image *image = NULL;
    struct heif_error error = heif.decode(decoder->handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
    if (error.code != 0 || image == NULL) {
        cic_set_message(message, message_capacity, "%s", error.message ? error.message : "HEIF decoding failed");
        return CIC_ERR_CORRUPT;
    }
    int stride = 0;
    const uint8_t *plane = heif.plane(image, heif_channel_interleaved, &stride);
    if (plane == NULL || stride < (int)decoder->width * 4) {
        heif.image_release(image);
        cic_set_message(message, message_capacity, "HEIF decoder returned no RGBA plane");
        return CIC_ERR_CORRUPT;
    }
    for (uint32_t y = 0; y < decoder->height; y++) {
        memcpy(rgba + (size_t)y * decoder->width * 4, plane + (size_t)y * (size_t)stride, (size_t)decoder->width * 4);
    }
    heif.image_release(image);
    convert_profile(decoder, rgba);
    return CIC_OK;
}
