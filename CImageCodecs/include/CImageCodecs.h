// CImageCodecs: thin C shims over libpng, libjpeg(-turbo), libwebp, libtiff, giflib,
// libjxl and libheif (both loaded at run time) and libcrypto's SHA-256.
//
// Why this exists: libpng and libjpeg report fatal errors with longjmp. A longjmp that
// crossed a Swift frame would skip Swift's cleanup and corrupt the program, so every shim
// here calls setjmp itself, catches the library's error inside C, and returns a status
// code with the library's message copied into a caller-owned buffer. Library warnings are
// swallowed (never printed to stderr).
//
// Decoding is two-phase so that Swift owns the pixel buffer: `cic_*_open` reads the
// header (and checks the pixel budget before anything large is allocated), then
// `cic_*_read` decodes straight into a caller buffer of `width * height * 4` bytes
// (RGBA8, upright, and sRGB: a photo's embedded colour profile is applied, see
// color_profile.h), and `cic_*_close` frees the decoder.
#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes returned by every shim.
typedef enum {
    CIC_OK = 0,
    CIC_ERR_CORRUPT = 1,       ///< the library rejected the data; see the message
    CIC_ERR_TOO_MANY_PIXELS = 2, ///< over `max_pixels`; the header's source size says by how much (no message)
    CIC_ERR_UNSUPPORTED = 3,
    CIC_ERR_OUT_OF_MEMORY = 4,
    CIC_ERR_ARGUMENT = 5
} cic_status;

/// Size of the message buffers callers pass in.
#define CIC_MESSAGE_CAPACITY 200

/// What a header says, after orientation and shrink-on-load are applied.
typedef struct {
    uint32_t width;            ///< width of the decoded (upright, scaled) image
    uint32_t height;
    uint32_t source_width;     ///< width as stored in the file, before orientation/scale
    uint32_t source_height;
    uint32_t scale_denom;      ///< 1, 2, 4 or 8 (JPEG shrink-on-load); 1 for PNG
    uint32_t orientation;      ///< EXIF orientation 1-8 applied; 1 when none
    int32_t has_alpha;         ///< 1 when the file carries alpha (an alpha channel or tRNS)
    int32_t bit_depth;         ///< bits per sample as stored
    uint32_t read_padding;     ///< bytes the read needs past width * height * 4 in its buffer
} cic_header;

typedef struct cic_png_decoder cic_png_decoder;
typedef struct cic_jpeg_decoder cic_jpeg_decoder;

/// Reads a PNG header. `max_pixels` of 0 means no limit.
cic_status cic_png_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                        cic_png_decoder **decoder, cic_header *header,
                        char *message, size_t message_capacity);
/// Decodes every pixel as RGBA8 into `rgba` (header.width * header.height * 4 bytes, and
/// header.read_padding bytes of scratch after them, whose contents are then undefined).
cic_status cic_png_read(cic_png_decoder *decoder, uint8_t *rgba,
                        char *message, size_t message_capacity);
void cic_png_close(cic_png_decoder *decoder);

/// Reads a JPEG header. `min_long_side` > 0 asks for DCT shrink-on-load: the largest of
/// 1/2, 1/4, 1/8 whose result keeps the long side >= min_long_side. `apply_orientation`
/// non-zero applies the EXIF orientation (APP1) while decoding.
cic_status cic_jpeg_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                         uint32_t min_long_side, int apply_orientation,
                         cic_jpeg_decoder **decoder, cic_header *header,
                         char *message, size_t message_capacity);
/// Limits the next `cic_jpeg_read` to the upright rectangle (`x`, `y`, `width`, `height`)
/// of the image the header describes (at its scale) and makes the header's size the
/// rectangle's: rows above it are skipped (`jpeg_skip_scanlines`: entropy-decoded, not
/// transformed), rows below it are never read, and columns outside it are cropped as far
/// as libjpeg-turbo's iMCU alignment allows (`jpeg_crop_scanline`). CIC_ERR_ARGUMENT when
/// the rectangle is empty or not inside the image.
cic_status cic_jpeg_set_region(cic_jpeg_decoder *decoder, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
                               cic_header *header);
cic_status cic_jpeg_read(cic_jpeg_decoder *decoder, uint8_t *rgba,
                         char *message, size_t message_capacity);
void cic_jpeg_close(cic_jpeg_decoder *decoder);

/// Encodes 8-bit pixels as PNG: `channels` 4 (RGBA) or 1 (grey). `fast_filters` non-zero
/// selects the speed-first writer (Up filter on every row, run-length deflate; no level);
/// zero selects libpng (adaptive filters, zlib at `compression_level` 0-9). On success
/// `*out` is a malloc'd buffer the caller frees with `cic_free`.
cic_status cic_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                          int compression_level, int fast_filters,
                          uint8_t **out, size_t *out_length,
                          char *message, size_t message_capacity);

/// Colour encodings `cic_jpeg_encode` can write.
typedef enum {
    CIC_JPEG_YCBCR = 0,
    CIC_JPEG_GRAY = 1,
    CIC_JPEG_CMYK_ADOBE = 2  ///< CMYK with an Adobe marker (inverted inks), K = 0
} cic_jpeg_color;

/// How `cic_jpeg_encode` writes a file.
typedef struct {
    int quality;               ///< 1-100
    cic_jpeg_color color;
    int progressive;           ///< non-zero for a progressive scan script
    uint32_t exif_orientation; ///< 1-8 writes an EXIF APP1 with that orientation; 0 none
    const uint8_t *icc_profile;  ///< an ICC profile to embed (APP2), or NULL
    size_t icc_profile_length;
} cic_jpeg_options;

/// Encodes RGBA8 (alpha dropped) as JPEG. Used to make samples and test inputs of every
/// kind the decoder reads. `*out` is malloc'd; free it with `cic_free`.
cic_status cic_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                           const cic_jpeg_options *options,
                           uint8_t **out, size_t *out_length,
                           char *message, size_t message_capacity);

typedef struct cic_webp_decoder cic_webp_decoder;

/// Reads a WebP header; the read decodes the image, or an animation's first frame.
cic_status cic_webp_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                         cic_webp_decoder **decoder, cic_header *header,
                         char *message, size_t message_capacity);
cic_status cic_webp_read(cic_webp_decoder *decoder, uint8_t *rgba,
                         char *message, size_t message_capacity);
void cic_webp_close(cic_webp_decoder *decoder);

typedef struct cic_tiff_decoder cic_tiff_decoder;

/// Reads a TIFF header (the first image of the file) through libtiff. `apply_orientation`
/// non-zero applies its Orientation tag (the same eight values as EXIF's). Every layout
/// libtiff's RGBA interface reads is read (8- and 16-bit, grey, palette, RGB, CMYK,
/// YCbCr, with or without alpha); others (floating-point samples, say) are
/// CIC_ERR_UNSUPPORTED naming the reason.
cic_status cic_tiff_open(const uint8_t *data, size_t length, uint64_t max_pixels, int apply_orientation,
                         cic_tiff_decoder **decoder, cic_header *header,
                         char *message, size_t message_capacity);
cic_status cic_tiff_read(cic_tiff_decoder *decoder, uint8_t *rgba,
                         char *message, size_t message_capacity);
void cic_tiff_close(cic_tiff_decoder *decoder);

typedef struct cic_gif_decoder cic_gif_decoder;

/// Reads a GIF's header through giflib; the read decodes its first frame (an animation's
/// too), placed on the logical screen (uncovered pixels and the transparent index
/// transparent).
cic_status cic_gif_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                        cic_gif_decoder **decoder, cic_header *header,
                        char *message, size_t message_capacity);
cic_status cic_gif_read(cic_gif_decoder *decoder, uint8_t *rgba,
                        char *message, size_t message_capacity);
void cic_gif_close(cic_gif_decoder *decoder);

typedef struct cic_jxl_decoder cic_jxl_decoder;

/// Reads a JPEG XL header (codestream or container) through libjxl, loaded with dlopen from
/// `library` (e.g. "libjxl.so.0.7") on first use, CIC_ERR_UNSUPPORTED naming the package
/// when absent; the read decodes its first frame (an animation's too). `apply_orientation`
/// turns it upright as its header says.
cic_status cic_jxl_open(const uint8_t *data, size_t length, uint64_t max_pixels, int apply_orientation,
                        const char *library, cic_jxl_decoder **decoder, cic_header *header,
                        char *message, size_t message_capacity);
cic_status cic_jxl_read(cic_jxl_decoder *decoder, uint8_t *rgba,
                        char *message, size_t message_capacity);
void cic_jxl_close(cic_jxl_decoder *decoder);

typedef struct cic_heif_decoder cic_heif_decoder;

/// Reads a HEIC/HEIF header through libheif, loaded with dlopen from `library` (e.g.
/// "libheif.so.1") on first use; CIC_ERR_UNSUPPORTED naming the package when absent.
/// Rotation and mirroring in the file are applied by libheif.
cic_status cic_heif_open(const uint8_t *data, size_t length, uint64_t max_pixels, const char *library,
                         cic_heif_decoder **decoder, cic_header *header,
                         char *message, size_t message_capacity);
cic_status cic_heif_read(cic_heif_decoder *decoder, uint8_t *rgba,
                         char *message, size_t message_capacity);
void cic_heif_close(cic_heif_decoder *decoder);

/// Encodes RGBA8 as WebP: lossless when `quality` < 0, else lossy at quality 0-100 (alpha
/// kept), with libwebp's `method` 0-6 (0 fastest, 6 smallest; its simple API uses 4).
/// Lossless takes `lossless_effort` 0-100 (libwebp's lossless `quality`: how hard it
/// searches for matches; its simple API uses 70). `*out` is malloc'd; free it with `cic_free`.
cic_status cic_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, int method,
                           int lossless_effort, uint8_t **out, size_t *out_length,
                           char *message, size_t message_capacity);

void cic_free(void *pointer);

/// SHA-256 of `length` bytes into `digest` (32 bytes), through libcrypto.
void cic_sha256(const uint8_t *data, size_t length, uint8_t digest[32]);

/// CRC-32 (zlib's and PNG's) of `length` bytes, through libdeflate.
uint32_t cic_crc32(const uint8_t *data, size_t length);

#ifdef __cplusplus
}
#endif

#endif
