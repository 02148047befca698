// The EXIF Orientation tag, read from a JPEG's APP1 payload (EXIF 2.3, section 4.6.4;
// TIFF 6.0 for the IFD layout; only IFD0 is read: that is where cameras put it), and the
// decoded rows moved to their upright place under it.
#include "exif_orientation.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static uint32_t exif_read(const uint8_t *p, int little_endian, int bytes) {
    uint32_t value = 0;
    for (int i = 0; i < bytes; i++) {
        int index = little_endian ? bytes - 1 - i : i;
        value = (value << 8) | p[index];
    }
    return value;
}

uint32_t cic_exif_orientation(const uint8_t *data, size_t length) {
    if (length < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = data + 6;
    size_t size = length - 6;
    int little_endian;
    if (tiff[0] == 'I' && tiff[1] == 'I') little_endian = 1;
    else if (tiff[0] == 'M' && tiff[1] == 'M') little_endian = 0;
    else return 1;
    uint32_t ifd = exif_read(tiff + 4, little_endian, 4);
    if (ifd > size || size - ifd < 2) return 1;
    uint32_t count = exif_read(tiff + ifd, little_endian, 2);
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > size) return 1;
        if (exif_read(tiff + entry, little_endian, 2) == 0x0112) {
            uint32_t value = exif_read(tiff + entry + 8, little_endian, 2);
            return (value >= 1 && value <= 8) ? value : 1;
        }
    }
    return 1;
}

cic_orientation_steps cic_orientation_steps_for(uint32_t orientation, uint32_t width, uint32_t height) {
    ptrdiff_t w = width, h = height;
    switch (orientation) {
    case 2: return (cic_orientation_steps){w - 1, -1, w};
    case 3: return (cic_orientation_steps){(h - 1) * w + w - 1, -1, -w};
    case 4: return (cic_orientation_steps){(h - 1) * w, 1, -w};
    case 5: return (cic_orientation_steps){0, h, 1};
    case 6: return (cic_orientation_steps){h - 1, h, -1};
    case 7: return (cic_orientation_steps){(w - 1) * h + h - 1, -h, -1};
    case 8: return (cic_orientation_steps){(w - 1) * h, -h, 1};
    default: return (cic_orientation_steps){0, 1, w};
    }
}

void cic_place_oriented_rows(uint32_t orientation, const uint8_t *rows, size_t stride, size_t column,
                             uint32_t width, uint32_t height, uint32_t first, uint32_t count, uint8_t *rgba) {
    ptrdiff_t w = width;
    cic_orientation_steps steps = cic_orientation_steps_for(orientation, width, height);
    // Pixel i of the batch's row `row`, and where stored pixel (i, first + row) goes.
#define CIC_SOURCE(row, i) (rows + ((size_t)(row) * stride + column + (size_t)(i)) * 4)
#define CIC_TARGET(row, i) (rgba + (steps.origin + (ptrdiff_t)(i) * steps.step_x \
                                    + (ptrdiff_t)(first + (row)) * steps.step_y) * 4)
    if (steps.step_x == 1 || steps.step_x == -1) {
        // Rows stay rows (upright, mirrored or turned half way): each is one run of the
        // result, forwards or backwards.
        for (uint32_t r = 0; r < count; r++) {
            if (steps.step_x == 1) {
                memcpy(CIC_TARGET(r, 0), CIC_SOURCE(r, 0), (size_t)w * 4);
            } else {
                for (ptrdiff_t x = 0; x < w; x++) memcpy(CIC_TARGET(r, x), CIC_SOURCE(r, x), 4);
            }
        }
        return;
    }
    // Rows become columns (a quarter turn, or a transpose): 4 x 4 blocks of pixels are
    // transposed in registers, so each of the block's four rows reads 16 bytes of a decoded
    // row and writes 16 bytes of the result's, where a pixel at a time touched a line of
    // the result per pixel (a turned 12 MP JPEG took 69-73 ms to decode that way, 56-57
    // this way; an upright one 51-53).
    // Step_y is 1 or -1: a column's pixels from consecutive rows are adjacent in the result.
    uint32_t r = 0;
#if defined(__SSE2__)
    for (; r + 4 <= count; r += 4) {
        ptrdiff_t x = 0;
        for (; x + 4 <= w; x += 4) {
            __m128i a = _mm_loadu_si128((const __m128i *)CIC_SOURCE(r, x));
            __m128i b = _mm_loadu_si128((const __m128i *)CIC_SOURCE(r + 1, x));
            __m128i c = _mm_loadu_si128((const __m128i *)CIC_SOURCE(r + 2, x));
            __m128i d = _mm_loadu_si128((const __m128i *)CIC_SOURCE(r + 3, x));
            __m128i ab0 = _mm_unpacklo_epi32(a, b), ab1 = _mm_unpackhi_epi32(a, b);
            __m128i cd0 = _mm_unpacklo_epi32(c, d), cd1 = _mm_unpackhi_epi32(c, d);
            // Column x + i: its pixels of rows r...r + 3, in order.
            __m128i columns[4] = {_mm_unpacklo_epi64(ab0, cd0), _mm_unpackhi_epi64(ab0, cd0),
                                  _mm_unpacklo_epi64(ab1, cd1), _mm_unpackhi_epi64(ab1, cd1)};
            for (int i = 0; i < 4; i++) {
                if (steps.step_y == 1) {
                    _mm_storeu_si128((__m128i *)CIC_TARGET(r, x + i), columns[i]);
                } else {
                    _mm_storeu_si128((__m128i *)CIC_TARGET(r + 3, x + i), _mm_shuffle_epi32(columns[i], _MM_SHUFFLE(0, 1, 2, 3)));
                }
            }
        }
        for (; x < w; x++) {
            for (uint32_t k = 0; k < 4; k++) memcpy(CIC_TARGET(r + k, x), CIC_SOURCE(r + k, x), 4);
        }
    }
#endif
    for (; r < count; r++) {
        for (ptrdiff_t x = 0; x < w; x++) memcpy(CIC_TARGET(r, x), CIC_SOURCE(r, x), 4);
    }
#undef CIC_SOURCE
#undef CIC_TARGET
}
