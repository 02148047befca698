/// Edge-preserving smoothing of a mask guided by the photo's luminance: the guided filter
/// of K. He, J. Sun, X. Tang, "Guided Image Filtering", ECCV 2010. The output is locally a
/// linear function of the guide, so a blocky upsampled mask takes on the photo's edges.
///
/// With `subsampling` s > 1 it is the fast guided filter (K. He, J. Sun, "Fast Guided
/// Filter", 2015): the linear coefficients are computed on guide and mask shrunk by s and
/// scaled back up, and only the final q = a I + b runs at full size. O(N / s^2 + N).
struct GuidedFilter: Sendable {
    var radius: Int
    /// Regularisation: larger values smooth more and follow the guide less.
    var epsilon: Float
    var subsampling = 1

    func apply(mask: [Float], guide: [Float], width: Int, height: Int) -> [Float] {
        let s = max(1, subsampling)
        let lowWidth = max(1, (width + s - 1) / s), lowHeight = max(1, (height + s - 1) / s)
        let lowGuide = Resampler.scalePlane(guide, width: width, height: height, toWidth: lowWidth, toHeight: lowHeight)
        let lowMask = Resampler.scalePlane(mask, width: width, height: height, toWidth: lowWidth, toHeight: lowHeight)
        let (slope, offset) = coefficients(mask: lowMask, guide: lowGuide, width: lowWidth, height: lowHeight,
                                           radius: max(1, radius / s))
        let fullSlope = Resampler.scalePlane(slope, width: lowWidth, height: lowHeight, toWidth: width, toHeight: height)
        let fullOffset = Resampler.scalePlane(offset, width: lowWidth, height: lowHeight, toWidth: width, toHeight: height)
        return (0..<(width * height)).map { i in min(1, max(0, fullSlope[i] * guide[i] + fullOffset[i])) }
    }

    /// The window means of the per-window linear coefficients a and b.
    private func coefficients(mask: [Float], guide: [Float], width: Int, height: Int,
                              radius: Int) -> (slope: [Float], offset: [Float]) {
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
