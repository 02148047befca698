// Internal: the speed-first reader behind `cic_png_read` for the commonest layouts (not exported).
#ifndef CIC_PNG_FAST_READER_H
#define CIC_PNG_FAST_READER_H

#include "CImageCodecs.h"

/// The channels (3 or 4) `cic_png_read_fast` reads for a PNG with these IHDR fields and
/// tRNS presence, or 0 when libpng must read it: 8-bit RGB without tRNS and 8-bit RGBA,
/// not interlaced.
int cic_png_fast_channels(int bit_depth, int color_type, int interlace_method, int has_trns);

/// The scratch bytes `cic_png_read_fast` needs past the pixels in its buffer.
size_t cic_png_fast_padding(uint32_t height);

/// Reads the pixels of the PNG file `data` (whose header libpng has already read and
/// checked: `width` x `height`, `channels` as `cic_png_fast_channels` returned) into
/// `rgba` (width x height x 4 bytes, alpha 255 for RGB, then `cic_png_fast_padding`
/// bytes of scratch): the same bytes libpng would give.
cic_status cic_png_read_fast(const uint8_t *data, size_t length, uint32_t width, uint32_t height,
                             int channels, uint8_t *rgba, char *message, size_t message_capacity);

#endif
