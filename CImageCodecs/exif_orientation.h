// Internal to CImageCodecs (not exported): the EXIF orientation parser, in its own file
// so that the fuzzer can call it on exact-size buffers, where each orientation puts a
// stored pixel, and the mover that puts decoded rows there (JPEG's EXIF and TIFF's own
// Orientation tag mean the same eight values).
#ifndef CIC_EXIF_ORIENTATION_H
#define CIC_EXIF_ORIENTATION_H

#include <stddef.h>
#include <stdint.h>

/// The Orientation tag (0x0112) of IFD0 in an APP1 "Exif" payload: 1-8, or 1 when the
/// payload is not EXIF, has no such tag, or is malformed. Never reads past `length`.
uint32_t cic_exif_orientation(const uint8_t *data, size_t length);

/// Where an orientation puts the stored pixels of a `width` x `height` image: stored pixel
/// (x, y) goes to index origin + x * step_x + y * step_y of the upright image, so a loop
/// moving pixels needs no switch.
typedef struct {
    ptrdiff_t origin;
    ptrdiff_t step_x;
    ptrdiff_t step_y;
} cic_orientation_steps;

/// The steps of orientation 1-8 (1 for any other value), for a stored `width` x `height`.
cic_orientation_steps cic_orientation_steps_for(uint32_t orientation, uint32_t width, uint32_t height);

/// Moves `count` rows of RGBA pixels (`stride` pixels apart, each starting `column` pixels
/// in), which are rows `first`... of a stored `width` x `height` image, to their upright
/// place in `rgba` under `orientation`.
void cic_place_oriented_rows(uint32_t orientation, const uint8_t *rows, size_t stride, size_t column,
                             uint32_t width, uint32_t height, uint32_t first, uint32_t count, uint8_t *rgba);

#endif
