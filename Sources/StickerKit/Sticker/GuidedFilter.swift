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

    /// The window means of the per-window linear coefficients a (`slope`) and b (`offset`).
    func coefficients(mask: [Float], guide: [Float], width: Int, height: Int) -> (slope: [Float], offset: [Float]) {
        let count = mask.count
        var guideSquared = [Float](repeating: 0, count: count)
        var product = [Float](repeating: 0, count: count)
        for i in 0..<count {
            guideSquared[i] = guide[i] * guide[i]
            product[i] = guide[i] * mask[i]
        }
        let meanGuide = BoxFilter.mean(guide, width: width, height: height, radius: radius)
        let meanMask = BoxFilter.mean(mask, width: width, height: height, radius: radius)
        let meanSquared = BoxFilter.mean(guideSquared, width: width, height: height, radius: radius)
        let meanProduct = BoxFilter.mean(product, width: width, height: height, radius: radius)
        var slope = [Float](repeating: 0, count: count)
        var offset = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let variance = meanSquared[i] - meanGuide[i] * meanGuide[i]
            let covariance = meanProduct[i] - meanGuide[i] * meanMask[i]
            slope[i] = covariance / (variance + epsilon)
            offset[i] = meanMask[i] - slope[i] * meanGuide[i]
        }
        return (BoxFilter.mean(slope, width: width, height: height, radius: radius),
                BoxFilter.mean(offset, width: width, height: height, radius: radius))
    }
}
