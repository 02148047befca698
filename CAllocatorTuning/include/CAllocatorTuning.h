// Process-wide allocator settings for the stickerize command (not the library, which
// must not change its host's allocator).
#ifndef C_ALLOCATOR_TUNING_H
#define C_ALLOCATOR_TUNING_H

/// Keeps large buffers in glibc's heap instead of fresh `mmap`s: raises M_MMAP_THRESHOLD
/// to `mmap_threshold` and M_TRIM_THRESHOLD to `trim_threshold` bytes (mallopt(3)).
/// Returns 1 when both were accepted (0 with another allocator, such as a sanitizer's).
int cat_keep_large_buffers_in_heap(int mmap_threshold, int trim_threshold);

#endif
