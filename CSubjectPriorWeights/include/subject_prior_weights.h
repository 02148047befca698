#ifndef SUBJECT_PRIOR_WEIGHTS_H
#define SUBJECT_PRIOR_WEIGHTS_H

#include <stddef.h>

/// The subject prior's weights, as Scripts/train-subject-prior wrote them; `count` receives their number.
const float *subject_prior_weights(size_t *count);

#endif
