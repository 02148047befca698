// WebP decode and encode over libwebp. libwebp reports errors by return value (no
// longjmp), so these shims only translate them into statuses and messages. An animated
// WebP gives its first frame composed on its canvas (libwebpdemux's WebPAnimDecoder), as
// an APNG or an animated GIF does.
#include "CImageCodecs.h"
#include "color_profile.h"
#include "shim_message.h"

#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

struct cic_webp_decoder {
    const uint8_t *data;
    size_t length;
    uint32_t width;
    uint32_t height;
    int animated;
};

cic_status cic_webp_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                         cic_webp_decoder **result, cic_header *header,
                         char *message, size_t message_capacity) {
    *result = NULL;
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(data, length, &features);
    if (status != VP8_STATUS_OK) {
        cic_set_message(message, message_capacity,
                        status == VP8_STATUS_NOT_ENOUGH_DATA ? "WebP file is truncated" : "not a valid WebP file");
        return CIC_ERR_CORRUPT;
    }
    uint32_t width = (uint32_t)features.width, height = (uint32_t)features.height;
    header->source_width = header->width = width;
    header->source_height = header->height = height;
    if (cic_over_pixel_budget(width, height, max_pixels)) {
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    struct cic_webp_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_ERR_OUT_OF_MEMORY;
    decoder->data = data;
    decoder->length = length;
    decoder->width = width;
    decoder->height = height;
    decoder->animated = features.has_animation;
    header->scale_denom = 1;
    header->orientation = 1;
    // A frame need not cover the canvas; what it leaves is transparent.
    header->has_alpha = features.has_alpha || features.has_animation;
    header->bit_depth = 8;
    *result = decoder;
    return CIC_OK;
}

/// The first frame of an animation, composed on its canvas (`rgba`, the canvas's size).
static int webp_first_frame(const cic_webp_decoder *decoder, uint8_t *rgba) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return 0;
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData file = {decoder->data, decoder->length};
    WebPAnimDecoder *animation = WebPAnimDecoderNew(&file, &options);
    WebPAnimInfo info;
    uint8_t *canvas = NULL;
    int timestamp = 0;
    int ok = animation != NULL && WebPAnimDecoderGetInfo(animation, &info) && info.canvas_width == decoder->width
        && info.canvas_height == decoder->height && WebPAnimDecoderGetNext(animation, &canvas, &timestamp);
    if (ok) memcpy(rgba, canvas, (size_t)decoder->width * decoder->height * 4);
    WebPAnimDecoderDelete(animation);
    return ok;
}

cic_status cic_webp_read(cic_webp_decoder *decoder, uint8_t *rgba, char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL) return CIC_ERR_ARGUMENT;
    size_t stride = (size_t)decoder->width * 4;
    int decoded = decoder->animated
        ? webp_first_frame(decoder, rgba)
        : WebPDecodeRGBAInto(decoder->data, decoder->length, rgba, stride * decoder->height, (int)stride) != NULL;
    if (!decoded) {
        cic_set_message(message, message_capacity, "WebP data is corrupt or truncated");
        return CIC_ERR_CORRUPT;
    }
    // An ICCP chunk (extended format) converts the pixels to sRGB.
    WebPData file = {decoder->data, decoder->length};
    WebPDemuxer *demuxer = WebPDemux(&file);
    WebPChunkIterator chunk;
    if (demuxer != NULL && (WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG) != 0
        && WebPDemuxGetChunk(demuxer, "ICCP", 1, &chunk)) {
        cic_convert_to_srgb(chunk.chunk.bytes, chunk.chunk.size, CIC_COLOR_MODEL_RGB, rgba, (size_t)decoder->width * decoder->height);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demuxer);
    return CIC_OK;
}

void cic_webp_close(cic_webp_decoder *decoder) { free(decoder); }

cic_status cic_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, int method,
                           int lossless_effort, uint8_t **out, size_t *out_length, char *message,
                           size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        cic_set_message(message, message_capacity, "cannot encode a %ux%u image as WebP (at most %d pixels a side)", width, height,
                        WEBP_MAX_DIMENSION);
        return CIC_ERR_ARGUMENT;
    }
    // As libwebp's simple API (WebPEncodeRGBA, WebPEncodeLosslessRGBA, whose lossless
    // effort is 70), with the method and the lossless effort chosen.
    WebPConfig config;
    WebPPicture picture;
    int effort = lossless_effort < 0 ? 0 : lossless_effort > 100 ? 100 : lossless_effort;
    float preset_quality = (float)(quality < 0 ? effort : quality);
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, preset_quality) || !WebPPictureInit(&picture)) {
        cic_set_message(message, message_capacity, "libwebp does not match the headers it was built with");
        return CIC_ERR_UNSUPPORTED;
    }
    config.lossless = quality < 0;
    config.method = method < 0 ? 0 : method > 6 ? 6 : method;
    picture.use_argb = quality < 0;
    picture.width = (int)width;
    picture.height = (int)height;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int encoded = WebPPictureImportRGBA(&picture, rgba, (int)width * 4) && WebPEncode(&config, &picture);
    WebPPictureFree(&picture);
    // Hand back a malloc'd copy, so that `cic_free` frees every shim's output.
    *out = encoded && writer.size > 0 ? malloc(writer.size) : NULL;
    if (*out == NULL) {
        WebPMemoryWriterClear(&writer);
        cic_set_message(message, message_capacity, "WebP encoding failed");
        return CIC_ERR_OUT_OF_MEMORY;
    }
    memcpy(*out, writer.mem, writer.size);
    *out_length = writer.size;
    WebPMemoryWriterClear(&writer);
    return CIC_OK;
}
