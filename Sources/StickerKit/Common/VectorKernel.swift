import CVectorKernels

/// Which code runs a loop that has a C kernel with AVX2 (`CVectorKernels`: the subject
/// prior's convolutions, the CIELAB conversion): that kernel where the CPU has AVX2 and
/// FMA, else the portable version. Both give the same results to the bit.
enum VectorKernel: Sendable {
    case portable, avx2

    static let fastest: VectorKernel = vector_kernels_have_avx2() ? .avx2 : .portable
}
