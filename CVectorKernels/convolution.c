#include "convolution.h"

#include <immintrin.h>
#include <string.h>

void convolution_portable(const float *input, int padded, int channels, int side, int kernel, int dilation,
                          const float *packed, const float *bias, int blocks, int outputs, bool relu, float *output) {
    for (int block = 0; block < blocks; block++) {
        int lanes = outputs - block * 8 < 8 ? outputs - block * 8 : 8;
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x += 4) {
                float sums[4][8];
                for (int p = 0; p < 4; p++) memcpy(sums[p], bias + block * 8, sizeof sums[p]);
                for (int tap = 0; tap < kernel * kernel; tap++) {
                    const float *from = input + ((y + tap / kernel * dilation) * padded + x + tap % kernel * dilation) * channels;
                    const float *w = packed + ((long)tap * channels * blocks + block) * 8;
                    for (int i = 0; i < channels; i++, w += blocks * 8) {
                        for (int p = 0; p < 4; p++) {
                            float value = from[p * channels + i];
                            for (int l = 0; l < 8; l++) sums[p][l] += value * w[l];
                        }
                    }
                }
                for (int p = 0; p < 4; p++) {
                    float *to = output + (y * side + x + p) * outputs + block * 8;
                    for (int l = 0; l < lanes; l++) to[l] = relu && sums[p][l] < 0 ? 0 : sums[p][l];
                }
            }
        }
    }
}

/// Rectifies when asked and stores `count` pixels' sums of one block of eight outputs
/// (`lanes` of them real) from `sums` into `output` at pixel `index`.
__attribute__((target("avx2,fma")))
static inline void store_block(const __m256 *sums, int count, bool relu, int lanes, float *output, long index,
                               int outputs, int block) {
    const __m256 zero = _mm256_setzero_ps();
    for (int p = 0; p < count; p++) {
        float values[8];
        _mm256_storeu_ps(values, relu ? _mm256_max_ps(sums[p], zero) : sums[p]);
        memcpy(output + (index + p) * outputs + block * 8, values, (size_t)lanes * sizeof(float));
    }
}

/// An FMA's result is ready four or five cycles after it starts, and two can start each
/// cycle, so the sums of one block for four pixels (four chains) leave the units half idle.
/// Where there are two blocks, both are summed at once: eight independent chains, six
/// loads per eight FMAs. Each sum still adds its terms in the same order, so the result
/// is the same to the bit.
__attribute__((target("avx2,fma")))
void convolution_avx2(const float *input, int padded, int channels, int side, int kernel, int dilation,
                      const float *packed, const float *bias, int blocks, int outputs, bool relu, float *output) {
    int block = 0;
    for (; block + 1 < blocks; block += 2) {
        int second = outputs - (block + 1) * 8 < 8 ? outputs - (block + 1) * 8 : 8;
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x += 4) {
                __m256 a[4], b[4];
                a[0] = a[1] = a[2] = a[3] = _mm256_loadu_ps(bias + block * 8);
                b[0] = b[1] = b[2] = b[3] = _mm256_loadu_ps(bias + block * 8 + 8);
                for (int tap = 0; tap < kernel * kernel; tap++) {
                    const float *from = input + ((y + tap / kernel * dilation) * padded + x + tap % kernel * dilation) * channels;
                    const float *w = packed + ((long)tap * channels * blocks + block) * 8;
                    for (int i = 0; i < channels; i++, w += blocks * 8) {
                        __m256 wa = _mm256_loadu_ps(w), wb = _mm256_loadu_ps(w + 8);
                        for (int p = 0; p < 4; p++) {
                            __m256 value = _mm256_broadcast_ss(from + p * channels + i);
                            a[p] = _mm256_fmadd_ps(value, wa, a[p]);
                            b[p] = _mm256_fmadd_ps(value, wb, b[p]);
                        }
                    }
                }
                store_block(a, 4, relu, 8, output, (long)y * side + x, outputs, block);
                store_block(b, 4, relu, second, output, (long)y * side + x, outputs, block + 1);
            }
        }
    }
    for (; block < blocks; block++) {
        int lanes = outputs - block * 8 < 8 ? outputs - block * 8 : 8;
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x += 4) {
                __m256 a[4];
                a[0] = a[1] = a[2] = a[3] = _mm256_loadu_ps(bias + block * 8);
                for (int tap = 0; tap < kernel * kernel; tap++) {
                    const float *from = input + ((y + tap / kernel * dilation) * padded + x + tap % kernel * dilation) * channels;
                    const float *w = packed + ((long)tap * channels * blocks + block) * 8;
                    for (int i = 0; i < channels; i++, w += blocks * 8) {
                        __m256 weights = _mm256_loadu_ps(w);
                        for (int p = 0; p < 4; p++) {
                            a[p] = _mm256_fmadd_ps(_mm256_broadcast_ss(from + p * channels + i), weights, a[p]);
                        }
                    }
                }
                store_block(a, 4, relu, lanes, output, (long)y * side + x, outputs, block);
            }
        }
    }
}
