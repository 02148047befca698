/// Edge-preserving smoothing of a mask guided by the photo's luminance: the guided filter
/// of K. He, J. Sun, X. Tang, "Guided Image Filtering", ECCV 2010. The output is locally a
/// linear function of the guide, q = a I + b, so a blocky upsampled mask takes on the
/// photo's edges.
///
/// Used as the fast guided filter (K. He, J. Sun, "Fast Guided Filter", 2015): the
/// coefficients a and b are computed here on guide and mask shrunk onto a
/// `LowResolutionGrid`; the caller evaluates q = a I + b at full size, and only where a is
/// not zero. O(N / s^2).
struct GuidedFilter: Sendable {
    /// Window radius, in grid cells.
    var radius: Int
    /// Regularisation: larger values smooth more and follow the guide less.
    var epsilon: Float

    /// The window means of the per-window linear coefficients: a (the slope) in each
    /// result's x, b (the offset) in its y. The four window means the coefficients come
    /// from (of I, of the mask p, of I^2 and of I p) are taken in one pass, as the lanes of
    /// one plane, and so are the two means of a and b.
    func coefficients(mask: [Float], guide: [Float], width: Int, height: Int) -> [SIMD2<Float>] {
        let terms = [SIMD4<Float>](unsafeUninitializedCapacity: mask.count) { terms, initialized in
            guide.withUnsafeBufferPointer { guide in
                mask.withUnsafeBufferPointer { mask in
                    for i in 0..<mask.count { terms[i] = SIMD4(guide[i], mask[i], guide[i] * guide[i], guide[i] * mask[i]) }
                }
            }
            initialized = mask.count
        }
        let means = BoxFilter.mean(terms, width: width, height: height, radius: radius)
        let linear = means.map { mean in
            let (meanGuide, meanMask, meanSquared, meanProduct) = (mean.x, mean.y, mean.z, mean.w)
            let variance = meanSquared - meanGuide * meanGuide
            let covariance = meanProduct - meanGuide * meanMask
            let slope = covariance / (variance + epsilon)
            return SIMD2(slope, meanMask - slope * meanGuide)
        }
        return BoxFilter.mean(linear, width: width, height: height, radius: radius)
    }
}
