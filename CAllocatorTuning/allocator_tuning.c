#include "CAllocatorTuning.h"
#include <malloc.h>

int cat_keep_large_buffers_in_heap(int mmap_threshold, int trim_threshold) {
    int mmap_ok = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    int trim_ok = mallopt(M_TRIM_THRESHOLD, trim_threshold);
    return mmap_ok == 1 && trim_ok == 1;
}
