/// Refines the alpha of the band around a subject's boundary from the photo's colours and
/// removes the old background's colour from it.
///
/// Each band pixel is explained as a mix of a local foreground colour F and a local
/// background colour B (normalised box means of the confidently-inside and confidently-
/// outside pixels nearby, computed on planes shrunk by `subsampling` since both vary
/// slowly). Where F and B differ enough, alpha is the projection of the pixel onto the
/// line from B to F, the maximum-likelihood alpha of Bayesian matting (Y.-Y. Chuang,
/// B. Curless, D. Salesin, R. Szeliski, "A Bayesian Approach to Digital Matting", CVPR
/// 2001), which recovers soft, defocused edges that a filtered binary mask cannot; it is
/// blended with the guided-filter alpha by that contrast. The colour is then
/// F = (I - (1 - alpha) B) / alpha (the local F where alpha is too small to divide by),
/// so the sticker shows no halo on a new background. O(N).
enum EdgeMatting {
    /// `colors` holds 4 interleaved channels (R, G, B, unused), 0-255; `alpha` is the
    /// guided-filter alpha; `hard` the binary subject mask, both at output size.
    static func apply(colors: inout [Float], alpha: inout [Float], hard: [Float], width: Int, height: Int,
                      radius: Int, subsampling: Int) {
        let count = alpha.count
        let near = BoxFilter.mean(hard, width: width, height: height, radius: radius)
        let band = near.map { $0 > 1e-4 && $0 < 1 - 1e-4 }
        guard band.contains(true) else { return }
        var inside = [Float](repeating: 0, count: count), outside = [Float](repeating: 0, count: count)
        for i in 0..<count where !band[i] {
            if hard[i] > 0.5 { inside[i] = 1 } else { outside[i] = 1 }
        }
        let foreground = LocalMeans(colors, weights: inside, width: width, height: height, radius: 2 * radius,
                                    subsampling: subsampling)
        let background = LocalMeans(colors, weights: outside, width: width, height: height, radius: 2 * radius,
                                    subsampling: subsampling)
        for i in 0..<count where band[i] {
            let pixel = SIMD3(colors[i * 4], colors[i * 4 + 1], colors[i * 4 + 2])
            guard let f = foreground.at(i % width, i / width), let b = background.at(i % width, i / width) else { continue }
            let d = f - b
            let contrast = (d * d).sum()
            if contrast > 100 {
                let projected = min(1, max(0, ((pixel - b) * d).sum() / contrast))
                let trust = min(1, (contrast.squareRoot() - 10) / 60)
                alpha[i] = alpha[i] * (1 - trust) + projected * trust
            }
            let a = alpha[i]
            guard a > 0.01 && a < 0.99 else { continue }
            let color = a >= 0.25 ? (pixel - (1 - a) * b) / a : f
            for c in 0..<3 { colors[i * 4 + c] = min(255, max(0, color[c])) }
        }
    }

}

/// Weighted mean colours over a window around each pixel, kept at reduced resolution
/// (box means of planes shrunk by `subsampling`) and read back with bilinear
/// interpolation only where asked, so no full-size plane outlives the constructor.
private struct LocalMeans {
    private let width: Int
    private let height: Int
    private let lowWidth: Int
    private let lowHeight: Int
    /// Weight, then weight x R, G, B, at low resolution.
    private let planes: [[Float]]

    init(_ colors: [Float], weights: [Float], width: Int, height: Int, radius: Int, subsampling: Int) {
        let s = max(1, subsampling)
        self.width = width
        self.height = height
        lowWidth = max(1, (width + s - 1) / s)
        lowHeight = max(1, (height + s - 1) / s)
        var planes: [[Float]] = []
        for channel in -1..<3 {
            let plane = channel < 0 ? weights : (0..<weights.count).map { weights[$0] * colors[$0 * 4 + channel] }
            let low = Resampler.scalePlane(plane, width: width, height: height, toWidth: lowWidth, toHeight: lowHeight)
            planes.append(BoxFilter.mean(low, width: lowWidth, height: lowHeight, radius: max(1, radius / s)))
        }
        self.planes = planes
    }

    /// The mean colour around (x, y), or nil where the window holds no weight.
    func at(_ x: Int, _ y: Int) -> SIMD3<Float>? {
        // Pixel centres map as in `Resampler`'s linear enlargement.
        let lx = max(0, min(Float(lowWidth - 1), (Float(x) + 0.5) * Float(lowWidth) / Float(width) - 0.5))
        let ly = max(0, min(Float(lowHeight - 1), (Float(y) + 0.5) * Float(lowHeight) / Float(height) - 0.5))
        let x0 = Int(lx), y0 = Int(ly)
        let x1 = min(x0 + 1, lowWidth - 1), y1 = min(y0 + 1, lowHeight - 1)
        let fx = lx - Float(x0), fy = ly - Float(y0)
        func sample(_ plane: [Float]) -> Float {
            let top = plane[y0 * lowWidth + x0] * (1 - fx) + plane[y0 * lowWidth + x1] * fx
            let bottom = plane[y1 * lowWidth + x0] * (1 - fx) + plane[y1 * lowWidth + x1] * fx
            return top * (1 - fy) + bottom * fy
        }
        let weight = sample(planes[0])
        guard weight > 1e-3 else { return nil }
        return SIMD3(sample(planes[1]), sample(planes[2]), sample(planes[3])) / weight
    }
}
