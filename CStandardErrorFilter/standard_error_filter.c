#define _GNU_SOURCE
#include "CStandardErrorFilter.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/// Whether `text` (one write of an unbuffered stream: a whole formatted message) is a
/// libjxl trace: its first field, up to the first ':', is a source path under lib/jxl/.
static int is_libjxl_trace(const char *text, size_t size) {
    const char *colon = memchr(text, ':', size < 256 ? size : 256);
    if (colon == NULL) return 0;
    size_t span = (size_t)(colon - text);
    for (size_t i = 0; i + 8 <= span; i++) {
        if (memcmp(text + i, "lib/jxl/", 8) == 0) return 1;
    }
    return 0;
}

static ssize_t write_unless_trace(void *cookie, const char *buffer, size_t size) {
    (void)cookie;
    if (is_libjxl_trace(buffer, size)) return (ssize_t)size;
    size_t done = 0;
    while (done < size) {
        ssize_t written = write(STDERR_FILENO, buffer + done, size - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return done > 0 ? (ssize_t)done : -1;
        done += (size_t)written;
    }
    return (ssize_t)size;
}

int csef_drop_library_traces(void) {
    cookie_io_functions_t functions = {.read = NULL, .write = write_unless_trace, .seek = NULL, .close = NULL};
    FILE *filtered = fopencookie(NULL, "w", functions);
    if (filtered == NULL) return 0;
    // Unbuffered, as stderr is: glibc then formats each fprintf whole and writes it once,
    // so a message is never held back or split.
    setvbuf(filtered, NULL, _IONBF, 0);
    stderr = filtered;
    return 1;
}
