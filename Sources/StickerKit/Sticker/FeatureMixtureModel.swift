import Foundation

/// A Gaussian mixture over 3-channel colours with full covariances: the colour model of
/// GrabCut (C. Rother, V. Kolmogorov, A. Blake, "GrabCut: interactive foreground
/// extraction using iterated graph cuts", SIGGRAPH 2004).
///
/// Fitting is deterministic: k-means++ seeding from a fixed-seed generator, a few Lloyd
/// steps on at most `sampleLimit` points, then one hard-assignment estimate over all points.
struct ColorMixtureModel: Sendable {
    struct Component: Sendable {
        var weight: Float
        var mean: SIMD3<Float>
        /// Rows of the inverse covariance.
        var inverse: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
        /// log(weight) - log(sqrt((2 pi)^3 det)).
        var logNormalizer: Float
    }

    private(set) var components: [Component]
    private static let sampleLimit = 6000
    private static let regularization: Double = 8   // variance floor, in (0-255 units)^2

    /// Fits `count` components to the colours `samples` selects from `colors`.
    init(colors: UnsafeBufferPointer<SIMD3<Float>>, samples: [Int32], count: Int) {
        let centers = ColorMixtureModel.seedCenters(colors, samples, count)
        // Sums in Double: a flat background sums ~1e5 equal values, and Float's rounding
        // would swamp the small variance that is left after subtracting the mean.
        var sums = [SIMD3<Double>](repeating: .zero, count: centers.count)
        var squares = [SIMD3<Double>](repeating: .zero, count: centers.count)   // xx, yy, zz
        var crosses = [SIMD3<Double>](repeating: .zero, count: centers.count)   // xy, xz, yz
        var counts = [Double](repeating: 0, count: centers.count)
        samples.withUnsafeBufferPointer { samples in
            for start in stride(from: 0, to: samples.count, by: 8) {
                let nearest = ColorLanes(colors, samples: samples, from: start).nearest(centers).0
                for lane in 0..<min(8, samples.count - start) {
                    let color = colors[Int(samples[start + lane])], k = Int(nearest[lane])
                    let c = SIMD3<Double>(Double(color.x), Double(color.y), Double(color.z))
                    sums[k] += c
                    counts[k] += 1
                    squares[k] += c * c
                    crosses[k] += SIMD3(c.x, c.x, c.y) * SIMD3(c.y, c.z, c.z)
                }
            }
        }
        let total = Double(max(samples.count, 1))
        components = []
        for k in 0..<centers.count where counts[k] > 0 {
            let n = counts[k]
            let m = sums[k] / n
            let r = ColorMixtureModel.regularization
            let variance = squares[k] / n - m * m + r
            let covariance = crosses[k] / n - SIMD3(m.x, m.x, m.y) * SIMD3(m.y, m.z, m.z)
            components.append(ColorMixtureModel.component(weight: n / total, mean: m,
                                                          [variance.x, covariance.x, covariance.y,
                                                           variance.y, covariance.z, variance.z]))
        }
    }

    /// Negative log-likelihoods of `colors` under the mixture (a log-sum-exp over
    /// components), eight colours per step with `VectorMath`'s exp and log. Components
    /// more than 12 log units below the best add under 1e-5 to the sum and are left out.
    func costs(_ colors: UnsafeBufferPointer<SIMD3<Float>>) -> [Float] {
        var costs = [Float](repeating: .infinity, count: colors.count)
        guard !components.isEmpty, !colors.isEmpty else { return costs }
        let parameters = components.map(ComponentLanes.init)
        costs.withUnsafeMutableBufferPointer { costs in
            withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: parameters.count) { densities in
                for start in stride(from: 0, to: colors.count, by: 8) {
                    let eight = ColorLanes(colors, from: start)
                    var best = SIMD8<Float>(repeating: -.infinity)
                    for k in parameters.indices {
                        densities[k] = parameters[k].logDensity(eight)
                        best = best.replacing(with: densities[k], where: densities[k] .> best)
                    }
                    var sum = SIMD8<Float>()   // of exp(density - best): 1 for the best
                    for k in parameters.indices {
                        let x = densities[k] - best
                        let near = x .> -12
                        sum += VectorMath.exp(x.replacing(with: -12, where: .!near)).replacing(with: 0, where: .!near)
                    }
                    let others = sum - 1   // log(1 + t) is t to within t^2 / 2 for small t
                    let cost = -(best + VectorMath.log(sum).replacing(with: others, where: others .< 1e-3))
                    for lane in 0..<min(8, colors.count - start) { costs[start + lane] = cost[lane] }
                }
            }
        }
        return costs
    }

    /// One component's parameters repeated across eight lanes.
    private struct ComponentLanes {
        let mean: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
        /// Inverse covariance: the diagonal, then twice the off-diagonal (xy, xz, yz).
        let diagonal: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
        let twiceOff: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
        let logNormalizer: SIMD8<Float>

        init(_ component: Component) {
            let m = component.mean, inverse = component.inverse
            mean = (SIMD8(repeating: m.x), SIMD8(repeating: m.y), SIMD8(repeating: m.z))
            diagonal = (SIMD8(repeating: inverse.0.x), SIMD8(repeating: inverse.1.y), SIMD8(repeating: inverse.2.z))
            twiceOff = (SIMD8(repeating: 2 * inverse.0.y), SIMD8(repeating: 2 * inverse.0.z),
                        SIMD8(repeating: 2 * inverse.1.z))
            logNormalizer = SIMD8(repeating: component.logNormalizer)
        }

        @inline(__always)
        func logDensity(_ colors: ColorLanes) -> SIMD8<Float> {
            let dx = colors.x - mean.0, dy = colors.y - mean.1, dz = colors.z - mean.2
            let q = diagonal.0 * dx * dx + diagonal.1 * dy * dy + diagonal.2 * dz * dz
                + twiceOff.0 * dx * dy + twiceOff.1 * dx * dz + twiceOff.2 * dy * dz
            return logNormalizer - 0.5 * q
        }
    }

    /// A component from its weight, mean and covariance (xx, xy, xz, yy, yz, zz).
    private static func component(weight: Double, mean: SIMD3<Double>, _ covariance: [Double]) -> Component {
        let (xx, xy, xz, yy, yz, zz) = (covariance[0], covariance[1], covariance[2],
                                        covariance[3], covariance[4], covariance[5])
        let c00 = yy * zz - yz * yz, c01 = xz * yz - xy * zz, c02 = xy * yz - xz * yy
        let c11 = xx * zz - xz * xz, c12 = xy * xz - xx * yz, c22 = xx * yy - xy * xy
        let determinant = max(xx * c00 + xy * c01 + xz * c02, 1e-6)
        let row = { (a: Double, b: Double, c: Double) in SIMD3<Float>(Float(a / determinant), Float(b / determinant), Float(c / determinant)) }
        let logNormalizer = log(weight) - 0.5 * (3 * log(2 * Double.pi) + log(determinant))
        return Component(weight: Float(weight), mean: SIMD3<Float>(Float(mean.x), Float(mean.y), Float(mean.z)),
                         inverse: (row(c00, c01, c02), row(c01, c11, c12), row(c02, c12, c22)),
                         logNormalizer: Float(logNormalizer))
    }

    /// k-means++ seeds refined by a few Lloyd iterations on an evenly strided subsample.
    private static func seedCenters(_ colors: UnsafeBufferPointer<SIMD3<Float>>, _ samples: [Int32],
                                     _ count: Int) -> [SIMD3<Float>] {
        guard !samples.isEmpty else { return [] }
        let stride = max(1, samples.count / sampleLimit)
        var points: [SIMD3<Float>] = []
        points.reserveCapacity(samples.count / stride + 1)
        for index in Swift.stride(from: 0, to: samples.count, by: stride) {
            points.append(colors[Int(samples[index])])
        }
        var generator = SplitMix64(seed: 0x5EED)
        var centers = KMeansSeeding.plusPlus(points, count: count, using: &generator)
        let lanes = ColorLanes.blocks(of: points)
        for _ in 0..<4 {
            var sums = [SIMD3<Float>](repeating: .zero, count: centers.count)
            var counts = [Float](repeating: 0, count: centers.count)
            for block in lanes.indices {
                let nearest = lanes[block].nearest(centers).0
                for lane in 0..<min(8, points.count - block * 8) {
                    let k = Int(nearest[lane])
                    sums[k] += points[block * 8 + lane]
                    counts[k] += 1
                }
            }
            for k in centers.indices where counts[k] > 0 { centers[k] = sums[k] / counts[k] }
        }
        return centers
    }
}
