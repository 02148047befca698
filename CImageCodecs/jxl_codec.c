// JPEG XL decode through libjxl's decoder API (jxl/decode.h): the header (basic info and
// colour encoding) on open, the first frame on read, from the file in memory. libjxl
// reports failure by status, never by longjmp or abort on bad input, and keeps no global
// state, so two decodes at once share nothing. Its own thread pool is not used: the
// pipeline already runs one photo per core. libjxl is loaded at run time, the first time a
// JPEG XL file is met (shim_library.h says why); the build uses its header for the
// declarations, and the name it loads is the ABI that header describes (libjxl 0.7).
//
// Colours: a lossy file is stored in XYB, which libjxl turns into whatever space it is
// asked for, here sRGB; a lossless one keeps the space it was made in, which its profile
// (libjxl gives it as ICC) converts to sRGB like any other format's.
#include "CImageCodecs.h"
#include "color_profile.h"
#include "shim_library.h"
#include "shim_message.h"

#include <jxl/decode.h>
#include <stdlib.h>

/// The libjxl functions this shim calls, declared as jxl/decode.h declares them.
static struct {
    __typeof__(JxlDecoderCreate) *create;
    __typeof__(JxlDecoderDestroy) *destroy;
    __typeof__(JxlDecoderSubscribeEvents) *subscribe_events;
    __typeof__(JxlDecoderSetKeepOrientation) *set_keep_orientation;
    __typeof__(JxlDecoderSetUnpremultiplyAlpha) *set_unpremultiply_alpha;
    __typeof__(JxlDecoderSetInput) *set_input;
    __typeof__(JxlDecoderCloseInput) *close_input;
    __typeof__(JxlDecoderProcessInput) *process_input;
    __typeof__(JxlDecoderGetBasicInfo) *get_basic_info;
    __typeof__(JxlDecoderSetPreferredColorProfile) *set_preferred_color_profile;
    __typeof__(JxlDecoderGetICCProfileSize) *get_icc_profile_size;
    __typeof__(JxlDecoderGetColorAsICCProfile) *get_color_as_icc_profile;
    __typeof__(JxlDecoderImageOutBufferSize) *image_out_buffer_size;
    __typeof__(JxlDecoderSetImageOutBuffer) *set_image_out_buffer;
} jxl;

static cic_library jxl_library = CIC_LIBRARY_INIT;

static int jxl_load(const char *library) {
    const cic_symbol symbols[] = {
        {"JxlDecoderCreate", (void **)&jxl.create, 0},
        {"JxlDecoderDestroy", (void **)&jxl.destroy, 0},
        {"JxlDecoderSubscribeEvents", (void **)&jxl.subscribe_events, 0},
        {"JxlDecoderSetKeepOrientation", (void **)&jxl.set_keep_orientation, 0},
        {"JxlDecoderSetUnpremultiplyAlpha", (void **)&jxl.set_unpremultiply_alpha, 0},
        {"JxlDecoderSetInput", (void **)&jxl.set_input, 0},
        {"JxlDecoderCloseInput", (void **)&jxl.close_input, 0},
        {"JxlDecoderProcessInput", (void **)&jxl.process_input, 0},
        {"JxlDecoderGetBasicInfo", (void **)&jxl.get_basic_info, 0},
        {"JxlDecoderSetPreferredColorProfile", (void **)&jxl.set_preferred_color_profile, 0},
        {"JxlDecoderGetICCProfileSize", (void **)&jxl.get_icc_profile_size, 0},
        {"JxlDecoderGetColorAsICCProfile", (void **)&jxl.get_color_as_icc_profile, 0},
        {"JxlDecoderImageOutBufferSize", (void **)&jxl.image_out_buffer_size, 0},
        {"JxlDecoderSetImageOutBuffer", (void **)&jxl.set_image_out_buffer, 0},
    };
    return cic_library_load(&jxl_library, library, symbols, sizeof symbols / sizeof symbols[0]);
}

struct cic_jxl_decoder {
    JxlDecoder *jxl;
    uint32_t width, height;   ///< as decoded (upright when the orientation is applied)
    int grey;                 ///< one colour channel
    uint8_t *icc;             ///< the decoded pixels' ICC profile; NULL when libjxl has none
    size_t icc_length;
};

/// RGBA8, what every shim hands back.
static const JxlPixelFormat rgba_format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};

void cic_jxl_close(cic_jxl_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->jxl != NULL) jxl.destroy(decoder->jxl);
    free(decoder->icc);
    free(decoder);
}

/// The message and status when libjxl answers other than with the event waited for (with
/// the whole file given, a truncated one is an error too).
static cic_status jxl_fail(char *message, size_t message_capacity) {
    cic_set_message(message, message_capacity, "JPEG XL data is corrupt or truncated");
    return CIC_ERR_CORRUPT;
}

/// sRGB as libjxl names colour spaces (grey with sRGB's curve for a grey image): what a
/// lossy (XYB) file is asked to decode to.
static JxlColorEncoding srgb_encoding(int grey) {
    JxlColorEncoding encoding = {0};
    encoding.color_space = grey ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
    encoding.white_point = JXL_WHITE_POINT_D65;
    encoding.primaries = JXL_PRIMARIES_SRGB;
    encoding.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
    encoding.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
    return encoding;
}

/// Keeps the ICC profile of the pixels libjxl will decode (after the sRGB preference).
static void keep_data_profile(cic_jxl_decoder *decoder) {
    size_t size = 0;
    if (jxl.get_icc_profile_size(decoder->jxl, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) != JXL_DEC_SUCCESS
        || size == 0) {
        return;
    }
    decoder->icc = malloc(size);
    if (decoder->icc == NULL) return;
    if (jxl.get_color_as_icc_profile(decoder->jxl, NULL, JXL_COLOR_PROFILE_TARGET_DATA, decoder->icc, size)
        != JXL_DEC_SUCCESS) {
        free(decoder->icc);
        decoder->icc = NULL;
        return;
    }
    decoder->icc_length = size;
}

cic_status cic_jxl_open(const uint8_t *data, size_t length, uint64_t max_pixels, int apply_orientation,
                        const char *library, cic_jxl_decoder **result, cic_header *header, char *message,
                        size_t message_capacity) {
    *result = NULL;
    if (!jxl_load(library)) {
        cic_set_message(message, message_capacity, "JPEG XL needs libjxl, which is not installed (apt-get install libjxl0.7)");
        return CIC_ERR_UNSUPPORTED;
    }
    struct cic_jxl_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_ERR_OUT_OF_MEMORY;
    decoder->jxl = jxl.create(NULL);
    if (decoder->jxl == NULL
        || jxl.subscribe_events(decoder->jxl, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE)
               != JXL_DEC_SUCCESS
        || jxl.set_keep_orientation(decoder->jxl, apply_orientation ? JXL_FALSE : JXL_TRUE) != JXL_DEC_SUCCESS
        || jxl.set_unpremultiply_alpha(decoder->jxl, JXL_TRUE) != JXL_DEC_SUCCESS
        || jxl.set_input(decoder->jxl, data, length) != JXL_DEC_SUCCESS) {
        cic_jxl_close(decoder);
        return CIC_ERR_OUT_OF_MEMORY;
    }
    jxl.close_input(decoder->jxl);
    JxlBasicInfo info;
    JxlDecoderStatus status = jxl.process_input(decoder->jxl);
    if (status != JXL_DEC_BASIC_INFO || jxl.get_basic_info(decoder->jxl, &info) != JXL_DEC_SUCCESS) {
        cic_status failure = jxl_fail(message, message_capacity);
        cic_jxl_close(decoder);
        return failure;
    }
    header->source_width = info.xsize;
    header->source_height = info.ysize;
    if (cic_over_pixel_budget(info.xsize, info.ysize, max_pixels)) {
        cic_jxl_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    if (cic_rgba_bytes(info.xsize, info.ysize) == 0) {
        cic_set_message(message, message_capacity, "image size is not addressable");
        cic_jxl_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    status = jxl.process_input(decoder->jxl);
    if (status != JXL_DEC_COLOR_ENCODING) {
        cic_status failure = jxl_fail(message, message_capacity);
        cic_jxl_close(decoder);
        return failure;
    }
    decoder->grey = info.num_color_channels == 1;
    if (!info.uses_original_profile) {
        JxlColorEncoding srgb = srgb_encoding(decoder->grey);
        jxl.set_preferred_color_profile(decoder->jxl, &srgb);
    }
    keep_data_profile(decoder);
    uint32_t orientation = apply_orientation && info.orientation >= 1 && info.orientation <= 8 ? info.orientation : 1;
    int swapped = orientation >= 5;
    decoder->width = swapped ? info.ysize : info.xsize;
    decoder->height = swapped ? info.xsize : info.ysize;
    header->width = decoder->width;
    header->height = decoder->height;
    header->scale_denom = 1;
    header->orientation = orientation;
    header->has_alpha = info.alpha_bits != 0;
    header->bit_depth = (int32_t)info.bits_per_sample;
    header->read_padding = 0;
    *result = decoder;
    return CIC_OK;
}

cic_status cic_jxl_read(cic_jxl_decoder *decoder, uint8_t *rgba, char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL) return CIC_ERR_ARGUMENT;
    size_t expected = (size_t)decoder->width * decoder->height * 4;
    for (;;) {
        JxlDecoderStatus status = jxl.process_input(decoder->jxl);
        if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t size = 0;
            if (jxl.image_out_buffer_size(decoder->jxl, &rgba_format, &size) != JXL_DEC_SUCCESS || size != expected
                || jxl.set_image_out_buffer(decoder->jxl, &rgba_format, rgba, size) != JXL_DEC_SUCCESS) {
                cic_set_message(message, message_capacity, "JPEG XL image has an unexpected size or layout");
                return CIC_ERR_CORRUPT;
            }
        } else if (status == JXL_DEC_FULL_IMAGE) {
            break;  // the first frame (an animation's too), composed as shown
        } else {
            return jxl_fail(message, message_capacity);
        }
    }
    if (decoder->icc != NULL) {
        cic_convert_to_srgb(decoder->icc, decoder->icc_length, decoder->grey ? CIC_COLOR_MODEL_GREY : CIC_COLOR_MODEL_RGB,
                            rgba, (size_t)decoder->width * decoder->height);
    }
    return CIC_OK;
}
