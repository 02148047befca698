import CAllocatorTuning

/// Keeps glibc's allocator from serving each photo's large buffers (a decoded 12 MP photo
/// is 12 MB, the edge planes and the cut's graph several MB each) with `mmap` and
/// returning them with `munmap`: each would then be faulted in as fresh zeroed pages and
/// unmapped again, which costs kernel time and, with two workers, cross-core TLB
/// shootdowns. With both thresholds raised the buffers are reused from the heap. Measured
/// with the same settings through glibc's environment variables: 24 x 12 MP at -j2 1.72 ->
/// 1.60 s (system time 0.20 -> 0.05 s, peak RSS 128 -> 117 MB); 120 photos of 640x480 at
/// -j2 4.35 -> 3.95 s (system time 0.8 -> 0.05 s).
enum AllocatorTuning {
    static func apply() {
        _ = cat_keep_large_buffers_in_heap(64 << 20, 256 << 20)
    }
}
