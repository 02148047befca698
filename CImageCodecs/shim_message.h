// Internal helpers shared by the shims (not exported): messages, sizes, in-memory files.
#ifndef CIC_SHIM_MESSAGE_H
#define CIC_SHIM_MESSAGE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/// Copies a message into a caller buffer, always NUL-terminated, never overflowing.
static inline void cic_set_message(char *buffer, size_t capacity, const char *format, ...) {
    if (buffer == NULL || capacity == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, capacity, format, args);
    va_end(args);
}

/// width * height * 4 with overflow checks; 0 when it does not fit in size_t.
static inline size_t cic_rgba_bytes(uint32_t width, uint32_t height) {
    uint64_t pixels = (uint64_t)width * (uint64_t)height;
    if (pixels > SIZE_MAX / 4) return 0;
    return (size_t)(pixels * 4);
}

/// Whether a `width` x `height` image is over a budget of `max_pixels` (0: no budget). A
/// shim that finds it so returns CIC_ERR_TOO_MANY_PIXELS with the header's source size
/// filled in, from which the caller words the error.
static inline int cic_over_pixel_budget(uint64_t width, uint64_t height, uint64_t max_pixels) {
    return max_pixels > 0 && width * height > max_pixels;
}

/// The shims' in-memory files: copies up to `size` bytes at `*offset` of `data` (`length`
/// bytes) into `buffer` and moves `*offset` past them; returns how many (0 at the end).
static inline size_t cic_read_memory(const uint8_t *data, size_t length, size_t *offset, void *buffer, size_t size) {
    if (*offset >= length) return 0;
    size_t count = length - *offset < size ? length - *offset : size;
    memcpy(buffer, data + *offset, count);
    *offset += count;
    return count;
}

#endif
