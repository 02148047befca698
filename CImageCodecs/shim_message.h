// Internal helpers shared by the shims (not exported).
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

#endif
