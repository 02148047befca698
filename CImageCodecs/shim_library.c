// Run-time loading for the shims: see shim_library.h.
#include "shim_library.h"

#include <dlfcn.h>

int cic_library_load(cic_library *library, const char *file, const cic_symbol *symbols, size_t count) {
    pthread_mutex_lock(&library->lock);
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (handle != NULL && library->loaded) {
        dlclose(handle);  // the first load's reference keeps it mapped
    } else if (handle != NULL) {
        int complete = 1;
        for (size_t i = 0; i < count; i++) {
            *symbols[i].slot = dlsym(handle, symbols[i].name);
            if (*symbols[i].slot == NULL && !symbols[i].optional) complete = 0;
        }
        library->loaded = complete;
        if (!complete) dlclose(handle);
    }
    int loaded = handle != NULL && library->loaded;
    pthread_mutex_unlock(&library->lock);
    return loaded;
}
