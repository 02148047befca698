// Internal (not exported): libraries a shim loads at run time with dlopen, the first time a
// file needs them, instead of linking them: libheif, which users may not have installed,
// and libjxl, whose C++ start-up (libjxl, libhwy, brotli) would add about 6 ms to every
// run of the command, JPEG XL inputs or not.
#ifndef CIC_SHIM_LIBRARY_H
#define CIC_SHIM_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

/// One function a shim calls: its name, where its address goes, and whether the shim can
/// do without it (an optional one is left NULL when the library lacks it).
typedef struct {
    const char *name;
    void **slot;
    int optional;
} cic_symbol;

/// A library's load state, one per shim: `CIC_LIBRARY_INIT` to start.
typedef struct {
    pthread_mutex_t lock;
    int loaded;
} cic_library;

#define CIC_LIBRARY_INIT {PTHREAD_MUTEX_INITIALIZER, 0}

/// Loads `file` (a name for dlopen) and fills every symbol's slot; 1 when it loaded with
/// every required symbol. Once loaded, the functions are kept for the process (a later
/// dlopen of the name is only a lookup that it is still there); a failed load is retried
/// at the next call.
int cic_library_load(cic_library *library, const char *file, const cic_symbol *symbols, size_t count);

#endif
