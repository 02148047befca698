// Internal to CImageCodecs (not exported): the EXIF orientation parser, in its own file
// so that the fuzzer can call it on exact-size buffers.
#ifndef CIC_EXIF_ORIENTATION_H
#define CIC_EXIF_ORIENTATION_H

#include <stddef.h>
#include <stdint.h>

/// The Orientation tag (0x0112) of IFD0 in an APP1 "Exif" payload: 1-8, or 1 when the
/// payload is not EXIF, has no such tag, or is malformed. Never reads past `length`.
uint32_t cic_exif_orientation(const uint8_t *data, size_t length);

#endif
