#ifndef CPU_FEATURES_H
#define CPU_FEATURES_H

#include <stdbool.h>

/// Whether this CPU runs the `_avx2` kernels (AVX2 and FMA: Intel Haswell, AMD Excavator
/// and later).
bool vector_kernels_have_avx2(void);

#endif
