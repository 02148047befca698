// Internal: the speed-first PNG writer behind `cic_png_encode` (not exported).
#ifndef CIC_PNG_FAST_WRITER_H
#define CIC_PNG_FAST_WRITER_H

#include "CImageCodecs.h"

/// Up filter on every row, run-length deflate (`deflate_runs.h`), one IDAT chunk.
/// Arguments are already checked by the caller.
cic_status cic_png_write_fast(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                              uint8_t **out, size_t *out_length,
                              char *message, size_t message_capacity);

#endif
