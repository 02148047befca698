// libFuzzer target over the decode entry points of CImageCodecs (PNG, JPEG, WebP, TIFF,
// GIF, JPEG XL), the code every input file reaches first. Built and run by `Scripts/fuzz`.
//
// Each input goes through every decoder (each refuses the others' signatures at once),
// the way `ImageDecoder` calls them: open with a pixel budget, then read into a buffer
// of the size the header promised. JPEGs are decoded three times: at full size and with DCT
// shrink-on-load, because the two take different paths through the orientation scatter,
// and a rectangle of their middle only (skipped rows, cropped columns).
// The input is also handed to the EXIF orientation parser as an APP1 payload: inside a
// JPEG, libjpeg keeps markers in its own memory pools, where AddressSanitizer cannot see
// an over-read; here the buffer is exactly the input's size. Last, the input's bytes are
// taken as RGBA pixels and written by the speed-first PNG writer, whose run-length deflate
// is our own: the file must decode to exactly those pixels.
#include "CImageCodecs.h"
#include "exif_orientation.h"

#include <stdlib.h>
#include <string.h>

/// Small enough that every input decodes in milliseconds, large enough for real images.
static const uint64_t fuzz_pixel_budget = 4u * 1024u * 1024u;

static void check_message(const char *message) {
    // Every message must be a terminated string inside its buffer.
    if (memchr(message, 0, CIC_MESSAGE_CAPACITY) == NULL) abort();
}

/// With `region` non-zero, only a rectangle inside the image is read (rows skipped above it,
/// columns cropped, rows below left), as a crop decoded again finer is.
static void decode_jpeg(const uint8_t *data, size_t size, uint32_t min_long_side, int region) {
    char message[CIC_MESSAGE_CAPACITY] = {0};
    cic_jpeg_decoder *decoder = NULL;
    cic_header header;
    memset(&header, 0, sizeof header);
    if (cic_jpeg_open(data, size, fuzz_pixel_budget, min_long_side, 1, &decoder, &header,
                      message, sizeof message) == CIC_OK) {
        if (header.orientation < 1 || header.orientation > 8) abort();
        if (region && cic_jpeg_set_region(decoder, header.width / 4, header.height / 3, header.width / 2 + 1,
                                          header.height / 3 + 1, &header) != CIC_OK) {
            abort();
        }
        uint8_t *pixels = malloc((size_t)header.width * header.height * 4);
        if (pixels != NULL) {
            cic_jpeg_read(decoder, pixels, message, sizeof message);
            free(pixels);
        }
    } else if (decoder != NULL) {
        abort();
    }
    cic_jpeg_close(decoder);
    check_message(message);
}

/// A decoder's open, read and close, for the formats whose open takes the bytes and the
/// pixel budget (and for TIFF whether to apply its orientation); JPEG, decoded at two
/// scales, has its own.
typedef struct {
    cic_status (*open)(const uint8_t *, size_t, void **, cic_header *, char *, size_t);
    cic_status (*read)(void *, uint8_t *, char *, size_t);
    void (*close)(void *);
} plain_decoder;

/// Opens, reads into a buffer of the promised size (and the scratch bytes the header asks
/// for after it), closes; a failed open must not hand out a decoder.
static void decode_plain(plain_decoder codec, const uint8_t *data, size_t size) {
    char message[CIC_MESSAGE_CAPACITY] = {0};
    void *decoder = NULL;
    cic_header header;
    memset(&header, 0, sizeof header);
    if (codec.open(data, size, &decoder, &header, message, sizeof message) == CIC_OK) {
        if ((uint64_t)header.width * header.height > fuzz_pixel_budget) abort();
        uint8_t *pixels = malloc((size_t)header.width * header.height * 4 + header.read_padding);
        if (pixels != NULL) {
            codec.read(decoder, pixels, message, sizeof message);
            free(pixels);
        }
    } else if (decoder != NULL) {
        abort();
    }
    codec.close(decoder);
    check_message(message);
}

/// The three `plain_decoder` functions over cic_KIND_open, _read and _close; the rest is
/// what KIND's open takes between the pixel budget and the decoder (TIFF: apply the
/// orientation; JPEG XL: that and the library to load), empty for the others.
#define PLAIN_DECODER(kind, ...)                                                                   \
    static cic_status open_##kind(const uint8_t *data, size_t size, void **decoder, cic_header *header, \
                                  char *message, size_t capacity) {                                    \
        return cic_##kind##_open(data, size, fuzz_pixel_budget, __VA_ARGS__(cic_##kind##_decoder **)decoder, \
                                 header, message, capacity);                                           \
    }                                                                                                  \
    static cic_status read_##kind(void *decoder, uint8_t *rgba, char *message, size_t capacity) {      \
        return cic_##kind##_read(decoder, rgba, message, capacity);                                   \
    }                                                                                                  \
    static void close_##kind(void *decoder) { cic_##kind##_close(decoder); }

PLAIN_DECODER(png, )
PLAIN_DECODER(webp, )
PLAIN_DECODER(tiff, 1, )
PLAIN_DECODER(gif, )
PLAIN_DECODER(jxl, 1, "libjxl.so.0.7", )

static void encode_round_trip(const uint8_t *data, size_t size) {
    if (size < 5) return;
    uint32_t width = 1 + data[0] % 64, height = (uint32_t)((size - 1) / (4 * (size_t)width));
    if (height == 0) return;
    const uint8_t *pixels = data + 1;
    char message[CIC_MESSAGE_CAPACITY] = {0};
    uint8_t *png = NULL;
    size_t length = 0;
    if (cic_png_encode(pixels, width, height, 4, 0, 1, &png, &length, message, sizeof message) != CIC_OK) abort();
    cic_png_decoder *decoder = NULL;
    cic_header header;
    memset(&header, 0, sizeof header);
    if (cic_png_open(png, length, fuzz_pixel_budget, &decoder, &header, message, sizeof message) != CIC_OK) abort();
    if (header.width != width || header.height != height) abort();
    size_t bytes = (size_t)width * height * 4;
    uint8_t *decoded = malloc(bytes + header.read_padding);
    if (decoded == NULL) abort();
    if (cic_png_read(decoder, decoded, message, sizeof message) != CIC_OK || memcmp(decoded, pixels, bytes) != 0) abort();
    free(decoded);
    cic_png_close(decoder);
    cic_free(png);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint32_t orientation = cic_exif_orientation(data, size);
    if (orientation < 1 || orientation > 8) abort();
    decode_plain((plain_decoder){open_png, read_png, close_png}, data, size);
    decode_jpeg(data, size, 0, 0);
    decode_jpeg(data, size, 16, 0);
    decode_jpeg(data, size, 0, 1);
    decode_plain((plain_decoder){open_webp, read_webp, close_webp}, data, size);
    decode_plain((plain_decoder){open_tiff, read_tiff, close_tiff}, data, size);
    decode_plain((plain_decoder){open_gif, read_gif, close_gif}, data, size);
    decode_plain((plain_decoder){open_jxl, read_jxl, close_jxl}, data, size);
    encode_round_trip(data, size);
    return 0;
}
