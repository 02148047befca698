/// Edge-preserving smoothing of a mask guided by the photo's luminance: the guided filter
/// of K. He, J. Sun, X. Tang, "Guided Image Filtering", ECCV 2010. The output is locally a
/// linear function of the guide, so a blocky upsampled mask takes on the photo's edges.
/// O(N) per call (box filters) whatever the radius.
struct GuidedFilter: Sendable {
    var radius: Int
    /// Regularisation: larger values smooth more and follow the guide less.
    var epsilon: Float

    func apply(mask: [Float], guide: [Float], width: Int, height: Int) -> [Float] {
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
        let meanSlope = BoxFilter.mean(slope, width: width, height: height, radius: radius)
        let meanOffset = BoxFilter.mean(offset, width: width, height: height, radius: radius)
        return (0..<count).map { i in min(1, max(0, meanSlope[i] * guide[i] + meanOffset[i])) }
    }
}
