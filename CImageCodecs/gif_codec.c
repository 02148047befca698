// GIF decode over giflib's record-level reader (not DGifSlurp, which would decode every
// frame of an animation into memory). giflib reports errors by return value and an error
// code, never longjmp. Only the first frame is read, so an animation's sticker is its
// first frame, as an APNG's is. The frame is placed on the logical screen as browsers
// place it: pixels it does not cover are transparent, as is its transparent index
// (GIF89a, sections 20, 23 and appendix E).
#include "CImageCodecs.h"
#include "shim_message.h"

#include <gif_lib.h>
#include <stdlib.h>

struct cic_gif_decoder {
    const uint8_t *data;
    size_t length;
    size_t offset;
    GifFileType *gif;          ///< positioned at the first frame's image data after open
    uint32_t width;            ///< the canvas: the logical screen, grown to hold the frame
    uint32_t height;
    uint32_t left;             ///< the first frame's place on it
    uint32_t top;
    uint32_t frame_width;
    uint32_t frame_height;
    int interlaced;
    uint8_t palette[256][4];   ///< RGBA; the transparent index and those past the table included
};

static int gif_read(GifFileType *gif, GifByteType *buffer, int size) {
    struct cic_gif_decoder *decoder = gif->UserData;
    if (size <= 0) return 0;
    return (int)cic_read_memory(decoder->data, decoder->length, &decoder->offset, buffer, (size_t)size);
}

void cic_gif_close(cic_gif_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->gif != NULL) DGifCloseFile(decoder->gif, NULL);
    free(decoder);
}

/// giflib's words for `code`, for a message.
static const char *gif_reason(int code) {
    const char *reason = GifErrorString(code);
    return reason != NULL ? reason : "unreadable";
}

/// Reads extension records up to the first image descriptor, keeping the transparent
/// index of a graphics control extension among them. Returns 1 at an image descriptor, 0
/// at the trailer, -1 on an error.
static int gif_skip_to_image(GifFileType *gif, int *transparent) {
    for (;;) {
        GifRecordType record;
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) return -1;
        if (record == IMAGE_DESC_RECORD_TYPE) return 1;
        if (record == TERMINATE_RECORD_TYPE) return 0;
        if (record != EXTENSION_RECORD_TYPE) continue;
        int code = 0;
        GifByteType *block = NULL;
        if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return -1;
        if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL) {
            GraphicsControlBlock control;
            if (DGifExtensionToGCB(block[0], block + 1, &control) == GIF_OK) *transparent = control.TransparentColor;
        }
        while (block != NULL) {
            if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return -1;
        }
    }
}

cic_status cic_gif_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                        cic_gif_decoder **result, cic_header *header,
                        char *message, size_t message_capacity) {
    *result = NULL;
    struct cic_gif_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_ERR_OUT_OF_MEMORY;
    decoder->data = data;
    decoder->length = length;
    int error = 0;
    decoder->gif = DGifOpen(decoder, gif_read, &error);
    if (decoder->gif == NULL) {
        cic_set_message(message, message_capacity, "not a valid GIF file (%s)", gif_reason(error));
        cic_gif_close(decoder);
        return error == D_GIF_ERR_NOT_ENOUGH_MEM ? CIC_ERR_OUT_OF_MEMORY : CIC_ERR_CORRUPT;
    }
    GifFileType *gif = decoder->gif;
    int transparent = NO_TRANSPARENT_COLOR;
    int found = gif_skip_to_image(gif, &transparent);
    if (found <= 0 || DGifGetImageDesc(gif) == GIF_ERROR) {
        if (found == 0) cic_set_message(message, message_capacity, "GIF has no image");
        else cic_set_message(message, message_capacity, "GIF data is corrupt or truncated (%s)", gif_reason(gif->Error));
        cic_gif_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    const GifImageDesc *frame = &gif->Image;
    if (frame->Width <= 0 || frame->Height <= 0 || frame->Left < 0 || frame->Top < 0) {
        cic_set_message(message, message_capacity, "GIF frame has no pixels");
        cic_gif_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    decoder->left = (uint32_t)frame->Left;
    decoder->top = (uint32_t)frame->Top;
    decoder->frame_width = (uint32_t)frame->Width;
    decoder->frame_height = (uint32_t)frame->Height;
    decoder->interlaced = frame->Interlace;
    uint32_t right = decoder->left + decoder->frame_width, bottom = decoder->top + decoder->frame_height;
    decoder->width = gif->SWidth > 0 && (uint32_t)gif->SWidth > right ? (uint32_t)gif->SWidth : right;
    decoder->height = gif->SHeight > 0 && (uint32_t)gif->SHeight > bottom ? (uint32_t)gif->SHeight : bottom;
    header->source_width = decoder->width;
    header->source_height = decoder->height;
    if (cic_over_pixel_budget(decoder->width, decoder->height, max_pixels)) {
        cic_gif_close(decoder);
        return CIC_ERR_TOO_MANY_PIXELS;
    }
    const ColorMapObject *colors = frame->ColorMap != NULL ? frame->ColorMap : gif->SColorMap;
    if (colors == NULL || colors->Colors == NULL) {
        cic_set_message(message, message_capacity, "GIF has no colour table");
        cic_gif_close(decoder);
        return CIC_ERR_CORRUPT;
    }
    // Indices past the table are black, as browsers show them.
    for (int i = 0; i < 256; i++) {
        decoder->palette[i][3] = 255;
        if (i < colors->ColorCount) {
            decoder->palette[i][0] = colors->Colors[i].Red;
            decoder->palette[i][1] = colors->Colors[i].Green;
            decoder->palette[i][2] = colors->Colors[i].Blue;
        }
    }
    int has_transparent = transparent >= 0 && transparent < 256;
    if (has_transparent) decoder->palette[transparent][3] = 0;
    int covers = decoder->left == 0 && decoder->top == 0 && right == decoder->width && bottom == decoder->height;
    header->width = decoder->width;
    header->height = decoder->height;
    header->scale_denom = 1;
    header->orientation = 1;
    header->has_alpha = !covers || has_transparent;
    header->bit_depth = 8;
    header->read_padding = 0;
    *result = decoder;
    return CIC_OK;
}

cic_status cic_gif_read(cic_gif_decoder *decoder, uint8_t *rgba, char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL || decoder->gif == NULL) return CIC_ERR_ARGUMENT;
    uint8_t *indices = malloc(decoder->frame_width);
    if (indices == NULL) return CIC_ERR_OUT_OF_MEMORY;
    memset(rgba, 0, (size_t)decoder->width * decoder->height * 4);
    // An interlaced frame stores every 8th row from 0, every 8th from 4, every 4th from
    // 2, then every 2nd from 1; each goes to its display row.
    static const uint32_t first_row[4] = {0, 4, 2, 1}, row_step[4] = {8, 8, 4, 2};
    int passes = decoder->interlaced ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        uint32_t start = decoder->interlaced ? first_row[pass] : 0, step = decoder->interlaced ? row_step[pass] : 1;
        for (uint32_t y = start; y < decoder->frame_height; y += step) {
            if (DGifGetLine(decoder->gif, indices, (int)decoder->frame_width) == GIF_ERROR) {
                cic_set_message(message, message_capacity, "GIF data is corrupt or truncated (%s)",
                                gif_reason(decoder->gif->Error));
                free(indices);
                return CIC_ERR_CORRUPT;
            }
            uint8_t *out = rgba + ((size_t)(decoder->top + y) * decoder->width + decoder->left) * 4;
            for (uint32_t x = 0; x < decoder->frame_width; x++) memcpy(out + (size_t)x * 4, decoder->palette[indices[x]], 4);
        }
    }
    free(indices);
    return CIC_OK;
}
