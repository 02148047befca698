/// Refines the alpha of the band around a subject's boundary from the photo's colours and
/// removes the old background's colour from it.
///
/// Each band pixel is explained as a mix of a local foreground colour F and a local
/// background colour B (normalised box means of the confidently-inside and confidently-
/// outside pixels nearby, kept on a `LowResolutionGrid` since both vary slowly). Where F
/// and B differ enough, alpha is the projection of the pixel onto the line from B to F,
/// the maximum-likelihood alpha of Bayesian matting (Y.-Y. Chuang, B. Curless, D. Salesin,
/// R. Szeliski, "A Bayesian Approach to Digital Matting", CVPR 2001), which recovers soft,
/// defocused edges that a filtered binary mask cannot; it is blended with the guided-filter
/// alpha by that contrast. The colour is then F = (I - (1 - alpha) B) / alpha (the local F
/// where alpha is too small to divide by), so the sticker shows no halo on a new
/// background. O(N).
struct EdgeMatting {
    /// The pixels within `radius` of the binary mask's boundary, the only ones `refine` changes.
    let band: [Bool]
    private let foreground: LocalMeans
    private let background: LocalMeans

    /// `colors` holds RGBA bytes (alpha unused); `hard` the binary subject mask (0 or 1),
    /// both at output size.
    init(colors: [UInt8], hard: [UInt8], width: Int, height: Int, radius: Int, subsampling: Int) {
        let band = BoxFilter.holdsBoth(hard, width: width, height: height, radius: radius)
        let grid = LowResolutionGrid(width: width, height: height, subsampling: subsampling)
        // Per block: R, G, B sums and the count of the inside pixels and of the outside ones.
        var inside = [SIMD4<Float>](repeating: .zero, count: grid.count)
        var outside = inside
        colors.withUnsafeBufferPointer { colors in
            inside.withUnsafeMutableBufferPointer { inside in
                outside.withUnsafeMutableBufferPointer { outside in
                    band.withUnsafeBufferPointer { band in
                        hard.withUnsafeBufferPointer { hard in
                            for y in 0..<height {
                                grid.forEachPixel(inRow: y) { cell, x in
                                    let i = y * width + x
                                    guard !band[i] else { return }
                                    var sample = UInt8.four(colors, at: i * 4)
                                    sample[3] = 1
                                    if hard[i] != 0 { inside[cell] += sample } else { outside[cell] += sample }
                                }
                            }
                        }
                    }
                }
            }
        }
        let sizes = grid.blockSizes()
        foreground = LocalMeans(inside.indices.map { inside[$0] / sizes[$0] }, grid: grid, radius: 2 * radius)
        background = LocalMeans(outside.indices.map { outside[$0] / sizes[$0] }, grid: grid, radius: 2 * radius)
        self.band = band
    }

    /// Band pixel (x, y) of colour `pixel` with guided-filter alpha `alpha`: its matted
    /// alpha and decontaminated colour.
    func refine(pixel: SIMD3<Float>, alpha: Float, x: Int, y: Int) -> (alpha: Float, color: SIMD3<Float>) {
        guard let f = foreground.at(x, y), let b = background.at(x, y) else { return (alpha, pixel) }
        var alpha = alpha
        let d = f - b
        let contrast = (d * d).sum()
        if contrast > 100 {
            let projected = min(1, max(0, ((pixel - b) * d).sum() / contrast))
            let trust = min(1, (contrast.squareRoot() - 10) / 60)
            alpha = alpha * (1 - trust) + projected * trust
        }
        guard alpha > 0.01 && alpha < 0.99 else { return (alpha, pixel) }
        let color = alpha >= 0.25 ? (pixel - (1 - alpha) * b) / alpha : f
        let channel = { (value: Float) in min(255, max(0, value)) }   // SIMD's clamped is an outlined call
        return (alpha, SIMD3(channel(color.x), channel(color.y), channel(color.z)))
    }
}

/// Weighted mean colours over a window around each pixel, kept on a `LowResolutionGrid`
/// and read back with bilinear interpolation only where asked.
private struct LocalMeans {
    private let grid: LowResolutionGrid
    /// Weight x R, G, B, then the weight, box-averaged on the grid.
    private let planes: [SIMD4<Float>]

    /// `blocks` holds, per grid block, the means of weight x R, G, B and the mean weight.
    init(_ blocks: [SIMD4<Float>], grid: LowResolutionGrid, radius: Int) {
        self.grid = grid
        var planes = [SIMD4<Float>](repeating: .zero, count: blocks.count)
        for channel in 0..<4 {
            let mean = BoxFilter.mean(blocks.map { $0[channel] }, width: grid.lowWidth, height: grid.lowHeight,
                                      radius: max(1, radius / grid.subsampling))
            for i in 0..<grid.count { planes[i][channel] = mean[i] }
        }
        self.planes = planes
    }

    /// The mean colour around (x, y), or nil where the window holds no weight.
    func at(_ x: Int, _ y: Int) -> SIMD3<Float>? {
        let mean = grid.tap(x, y).sample(planes)
        guard mean[3] > 1e-3 else { return nil }
        return SIMD3(mean[0], mean[1], mean[2]) / mean[3]
    }
}
