#ifndef C_VECTOR_KERNELS_H
#define C_VECTOR_KERNELS_H

// Hot loops that need instructions Swift cannot ask for (FMA chains, gathers), each with
// a portable version that gives the same results.
#include "convolution.h"
#include "cielab.h"
#include "cpu_features.h"

#endif
