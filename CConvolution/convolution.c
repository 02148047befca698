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

__attribute__((target("avx2,fma")))
void convolution_avx2(const float *input, int padded, int channels, int side, int kernel, int dilation,
                      const float *packed, const float *bias, int blocks, int outputs, bool relu, float *output) {
    const __m256 zero = _mm256_setzero_ps();
    for (int block = 0; block < blocks; block++) {
        int lanes = outputs - block * 8 < 8 ? outputs - block * 8 : 8;
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x += 4) {
                __m256 s0 = _mm256_loadu_ps(bias + block * 8), s1 = s0, s2 = s0, s3 = s0;
                for (int tap = 0; tap < kernel * kernel; tap++) {
                    const float *from = input + ((y + tap / kernel * dilation) * padded + x + tap % kernel * dilation) * channels;
                    const float *w = packed + ((long)tap * channels * blocks + block) * 8;
                    for (int i = 0; i < channels; i++, w += blocks * 8) {
                        __m256 weights = _mm256_loadu_ps(w);
                        s0 = _mm256_fmadd_ps(_mm256_broadcast_ss(from + i), weights, s0);
                        s1 = _mm256_fmadd_ps(_mm256_broadcast_ss(from + channels + i), weights, s1);
                        s2 = _mm256_fmadd_ps(_mm256_broadcast_ss(from + 2 * channels + i), weights, s2);
                        s3 = _mm256_fmadd_ps(_mm256_broadcast_ss(from + 3 * channels + i), weights, s3);
                    }
                }
                if (relu) {
                    s0 = _mm256_max_ps(s0, zero); s1 = _mm256_max_ps(s1, zero);
                    s2 = _mm256_max_ps(s2, zero); s3 = _mm256_max_ps(s3, zero);
                }
                float sums[4][8];
                _mm256_storeu_ps(sums[0], s0); _mm256_storeu_ps(sums[1], s1);
                _mm256_storeu_ps(sums[2], s2); _mm256_storeu_ps(sums[3], s3);
                for (int p = 0; p < 4; p++) {
                    memcpy(output + (y * side + x + p) * outputs + block * 8, sums[p], (size_t)lanes * sizeof(float));
                }
            }
        }
    }
}

bool convolution_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
