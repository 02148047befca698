#ifndef SUBJECT_PRIOR_WEIGHTS_H
#define SUBJECT_PRIOR_WEIGHTS_H

#include <stddef.h>

/// The subject prior's weights, as Scripts/train-subject-prior wrote them; `count` receives their number.
const float *subject_prior_weights(size_t *count);

/// The fill network's weights (the same layers, trained with a share of subjects framed to
/// fill the picture: Scripts/train-subject-prior --fill-network); `count` receives their number.
const float *fill_subject_prior_weights(size_t *count);

#endif
