#ifndef CONVOLUTION_H
#define CONVOLUTION_H

#include <stdbool.h>

/// A 'same' convolution over square feature maps, channels interleaved per pixel, as
/// SubjectPrior's network uses it (see FeatureMaps.convolved):
/// - `input`: `padded` x `padded` pixels of `channels` values, the maps already framed by a
///   zero border as wide as the kernel reaches (`kernel` / 2 x `dilation`);
/// - `packed`: weights as [tap][input][block][8], `blocks` = output channels / 8 rounded up,
///   zero past the last output; `bias`: [block][8];
/// - `output`: `side` x `side` pixels of `outputs` values; `side` a multiple of 4.
/// Sums four neighbouring pixels at once per block of eight outputs, optionally rectified.
void convolution_portable(const float *input, int padded, int channels, int side, int kernel, int dilation,
                          const float *packed, const float *bias, int blocks, int outputs, bool relu, float *output);

/// The same with AVX2 and FMA (eight outputs per instruction, two blocks of them at once
/// where there are two); only where `vector_kernels_have_avx2` says so.
void convolution_avx2(const float *input, int padded, int channels, int side, int kernel, int dilation,
                      const float *packed, const float *bias, int blocks, int outputs, bool relu, float *output);

#endif
