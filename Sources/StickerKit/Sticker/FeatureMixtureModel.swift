import FoundationEssentials
import Glibc

/// A Gaussian mixture with full covariances over a pixel's features: its colour (CIELAB
/// scaled to RGB's 0-255, `WorkingImage.inCIELAB`) and its local texture (`LocalTexture`,
/// zero where only colour is modelled).
/// GrabCut's colour model (C. Rother, V. Kolmogorov, A. Blake, "GrabCut: interactive
/// foreground extraction using iterated graph cuts", SIGGRAPH 2004) with texture as a
/// fourth dimension, so a component learns which textures go with its colours.
///
/// Fitting is deterministic: k-means++ seeding from a fixed-seed generator, a few Lloyd
/// steps on about `sampleLimit` points, then one hard-assignment estimate over about
/// `estimateLimit` (all of a half-size working image's pixels; every second or third at
/// full working size, which left the validation sets' mIoU unchanged at 0.880).
struct FeatureMixtureModel: Sendable {
    struct Component: Sendable {
        var mean: SIMD4<Float>
        /// Rows of the inverse covariance.
        var inverse: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
        /// log(weight) - log(sqrt((2 pi)^4 det)).
        var logNormalizer: Float
        /// The share of the fitted samples the component took.
        var weight: Float
    }

    /// How the background may be seen in shadow (see `costs(_:allowingShadow:)`).
    struct Shadow: Sendable {
        /// The most a shadow divides the brightness by (2: down to half).
        var deepest: Float
        /// The cost, in log-likelihood units, of explaining a pixel as shadowed.
        var penalty: Float

        /// The soft shadow a backdrop shows around a subject, in sRGB, as the edge matting
        /// allows for it (and the segmenter's refinement did before it saw CIELAB).
        static let backdrop = Shadow(deepest: 1.6, penalty: 2)

        /// The same shadow as the segmenter sees it, in CIELAB (`WorkingImage.inCIELAB`):
        /// 1.6 in sRGB is about 1.6^2.2 = 2.8 in linear light, whose cube root is 1.41.
        static let backdropInCIELAB = Shadow(deepest: 1.41, penalty: 2)
    }

    private(set) var components: [Component]
    private static let sampleLimit = 6000
    private static let estimateLimit = 30000
    private static let regularization: Double = 8   // variance floor, in feature units^2

    /// Fits `count` components to the features `samples` selects from `features`.
    init(features: UnsafeBufferPointer<SIMD4<Float>>, samples: [Int32], count: Int) {
        let centers = FeatureMixtureModel.seedCenters(features, samples, count)
        let samples = FeatureMixtureModel.strided(samples, toAbout: FeatureMixtureModel.estimateLimit)
        // Sums in Double: a flat background sums ~1e5 equal values, and Float's rounding
        // would swamp the small variance that is left after subtracting the mean.
        var sums = [SIMD4<Double>](repeating: .zero, count: centers.count)
        var products = [SIMD4<Double>](repeating: .zero, count: centers.count * 4)   // rows of sum f f^T
        var counts = [Double](repeating: 0, count: centers.count)
        samples.withUnsafeBufferPointer { samples in
            sums.withUnsafeMutableBufferPointer { sums in
                products.withUnsafeMutableBufferPointer { products in
                    counts.withUnsafeMutableBufferPointer { counts in
                        // The current component's sums stay in registers while consecutive
                        // samples fall in it (neighbouring pixels mostly do), instead of
                        // waiting on memory for every sample; each is still added in order.
                        var current = -1
                        var sum = SIMD4<Double>(), count: Double = 0
                        var rows = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())
                        func store() {
                            guard current >= 0 else { return }
                            sums[current] = sum
                            counts[current] = count
                            (products[4 * current], products[4 * current + 1]) = (rows.0, rows.1)
                            (products[4 * current + 2], products[4 * current + 3]) = (rows.2, rows.3)
                        }
                        for start in stride(from: 0, to: samples.count, by: 8) {
                            let nearest = ColorLanes(features, samples: samples, from: start).nearest(centers)
                            for lane in 0..<min(8, samples.count - start) {
                                let feature = features[Int(samples[start + lane])], k = Int(nearest[lane])
                                if k != current {
                                    store()
                                    current = k
                                    (sum, count) = (sums[k], counts[k])
                                    rows = (products[4 * k], products[4 * k + 1], products[4 * k + 2], products[4 * k + 3])
                                }
                                let f = SIMD4<Double>(Double(feature.x), Double(feature.y), Double(feature.z), Double(feature.w))
                                sum += f
                                count += 1
                                rows.0 += f * f.x
                                rows.1 += f * f.y
                                rows.2 += f * f.z
                                rows.3 += f * f.w
                            }
                        }
                        store()
                    }
                }
            }
        }
        let total = Double(max(samples.count, 1))
        components = []
        for k in 0..<centers.count where counts[k] > 0 {
            let n = counts[k], mean = sums[k] / n
            var covariance = (0..<4).map { row in products[4 * k + row] / n - mean * mean[row] }
            for d in 0..<4 { covariance[d][d] += FeatureMixtureModel.regularization }
            components.append(FeatureMixtureModel.component(weight: n / total, mean: mean, covariance))
        }
    }

    /// Negative log-likelihoods of `features` under the mixture (a log-sum-exp over
    /// components), eight pixels per step with `VectorMath`'s exp and log. Components
    /// more than 12 log units below the best add under 1e-5 to the sum and are left out.
    ///
    /// With `shadow`, each component may also explain a pixel as its colour darkened, at
    /// `shadow.penalty`: the brightness distortion of T. Horprasert, D. Harwood and
    /// L. S. Davis ("A statistical approach for real-time robust background subtraction and
    /// shadow detection", ICCV Frame-Rate Workshop 1999), where a shadowed pixel is the
    /// background's colour times a brightness factor below 1. Here the pixel's colour is
    /// brightened by the factor s in [1, `shadow.deepest`] that brings it closest to the
    /// component (in its Mahalanobis distance, which is quadratic in s, so s has a closed
    /// form); the texture feature is left as it is.
    ///
    /// With `local`, the features are a picture's pixels in row-major order, and each
    /// component's weight near a pixel is its local one (`LocalComponentWeights`).
    /// With `window`, the features are a picture's pixels and only the window's costs are
    /// returned (row-major in it): the same values as its part of the whole picture's.
    func costs(_ features: UnsafeBufferPointer<SIMD4<Float>>, allowingShadow shadow: Shadow? = nil,
               weightedBy local: LocalComponentWeights? = nil, within window: PixelWindow? = nil) -> [Float] {
        guard let shadow else { return costs(features, density: LitDensity(), local: local, window: window) }
        return costs(features, density: ShadowedDensity(deepest: SIMD8(repeating: shadow.deepest),
                                                        penalty: SIMD8(repeating: shadow.penalty)),
                     local: local, window: window)
    }

    /// The costs with `local`'s weights when given (and there are components to weigh
    /// against each other), else with the global ones.
    private func costs<Density: ComponentDensity>(_ features: UnsafeBufferPointer<SIMD4<Float>>, density: Density,
                                                  local: LocalComponentWeights?, window: PixelWindow?) -> [Float] {
        guard let local, components.count > 1 else { return costs(features, density: density, window: window) }
        return locallyWeightedCosts(features, density: density, local: local, window: window)
    }

    /// Calls `body` with each run of `features` the costs cover (the whole picture, or each
    /// of `window`'s rows), the run's first picture index and its first index in the costs.
    @inline(__always)
    private static func forEachRun(of features: UnsafeBufferPointer<SIMD4<Float>>, within window: PixelWindow?,
                                   _ body: (UnsafeBufferPointer<SIMD4<Float>>, Int, Int) -> Void) {
        guard let window else { return body(features, 0, 0) }
        for y in 0..<window.rect.height {
            let first = window.pictureIndex(x: 0, y: y)
            body(UnsafeBufferPointer(rebasing: features[first..<(first + window.rect.width)]), first, y * window.rect.width)
        }
    }

    /// The mixture's costs with each component's log-density given by `density` (a
    /// generic, so each kind of density gets a loop of its own with the density inlined).
    private func costs<Density: ComponentDensity>(_ features: UnsafeBufferPointer<SIMD4<Float>>,
                                                  density: Density, window: PixelWindow?) -> [Float] {
        var costs = [Float](repeating: .infinity, count: window?.count ?? features.count)
        guard !components.isEmpty, !features.isEmpty else { return costs }
        let parameters = components.map(ComponentLanes.init)
        costs.withUnsafeMutableBufferPointer { costs in
            withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: parameters.count) { densities in
                FeatureMixtureModel.forEachRun(of: features, within: window) { run, _, first in
                    let target = UnsafeMutableBufferPointer(rebasing: costs[first..<(first + run.count)])
                    for start in stride(from: 0, to: run.count, by: 8) {
                        let eight = ColorLanes(run, from: start)
                        for k in parameters.indices { densities[k] = density.of(eight, parameters[k]) }
                        FeatureMixtureModel.store(FeatureMixtureModel.negativeLogSum(UnsafeBufferPointer(densities)),
                                                  into: target, at: start)
                    }
                }
            }
        }
        return costs
    }

    /// The mixture's costs with spatially varying weights: which component explains each
    /// of `local`'s samples best gives every cell its components' local weights, and each
    /// pixel's log-densities get its log-weight offsets (interpolated between the cells')
    /// before they are summed.
    private func locallyWeightedCosts<Density: ComponentDensity>(_ features: UnsafeBufferPointer<SIMD4<Float>>,
                                                                 density: Density, local: LocalComponentWeights,
                                                                 window: PixelWindow?) -> [Float] {
        precondition(features.count == local.width * local.height)
        let parameters = components.map(ComponentLanes.init)
        let count = parameters.count
        var nearest = [UInt8](repeating: 0, count: local.samples.count)
        local.samples.withUnsafeBufferPointer { samples in
            for start in stride(from: 0, to: samples.count, by: 8) {
                let eight = ColorLanes(features, samples: samples, from: start)
                var best = SIMD8<Float>(repeating: -.infinity), bestIndex = SIMD8<Float>()
                for k in 0..<count {
                    let d = density.of(eight, parameters[k])
                    bestIndex = bestIndex.replacing(with: Float(k), where: d .> best)
                    best = best.replacing(with: d, where: d .> best)
                }
                for lane in 0..<min(8, samples.count - start) { nearest[start + lane] = UInt8(bestIndex[lane]) }
            }
        }
        let offsets = local.pixelOffsets(local.logWeightOffsets(nearest: nearest, globalWeights: components.map(\.weight)),
                                         components: count)
        let plane = local.planeStride
        var costs = [Float](repeating: 0, count: window?.count ?? features.count)
        costs.withUnsafeMutableBufferPointer { costs in
            offsets.withUnsafeBufferPointer { offsets in
                withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: count) { densities in
                    FeatureMixtureModel.forEachRun(of: features, within: window) { run, pixel, first in
                        let target = UnsafeMutableBufferPointer(rebasing: costs[first..<(first + run.count)])
                        for start in stride(from: 0, to: run.count, by: 8) {
                            let eight = ColorLanes(run, from: start)
                            for k in 0..<count {
                                let offset = FeatureMixtureModel.eight(offsets, at: k * plane + pixel + start,
                                                                       valid: run.count - start)
                                densities[k] = density.of(eight, parameters[k]) + offset
                            }
                            FeatureMixtureModel.store(FeatureMixtureModel.negativeLogSum(UnsafeBufferPointer(densities)),
                                                      into: target, at: start)
                        }
                    }
                }
            }
        }
        return costs
    }

    /// Eight values from `index` on, of which the first `valid` are read (the rest repeat the
    /// last one read), so a short run's last block never reads past its plane.
    @inline(__always)
    private static func eight(_ values: UnsafeBufferPointer<Float>, at index: Int, valid: Int) -> SIMD8<Float> {
        guard valid < 8 else { return UnsafeRawPointer(values.baseAddress! + index).loadUnaligned(as: SIMD8<Float>.self) }
        var lanes = SIMD8<Float>()
        for lane in 0..<8 { lanes[lane] = values[index + min(lane, valid - 1)] }
        return lanes
    }

    /// -log of the sum over components of exp(`densities`), eight pixels at a time, with
    /// `VectorMath`'s exp and log. Components more than 12 log units below the best add
    /// under 1e-5 to the sum and are left out.
    @inline(__always)
    private static func negativeLogSum(_ densities: UnsafeBufferPointer<SIMD8<Float>>) -> SIMD8<Float> {
        var best = SIMD8<Float>(repeating: -.infinity)
        for d in densities { best = best.replacing(with: d, where: d .> best) }
        var sum = SIMD8<Float>()   // of exp(density - best): 1 for the best
        for d in densities {
            let x = d - best
            let near = x .> -12
            sum += VectorMath.exp(x.replacing(with: -12, where: .!near)).replacing(with: 0, where: .!near)
        }
        let others = sum - 1   // log(1 + t) is t to within t^2 / 2 for small t
        return -(best + VectorMath.log(sum).replacing(with: others, where: others .< 1e-3))
    }

    /// Stores eight costs from `start` on, as many as `costs` holds.
    @inline(__always)
    private static func store(_ cost: SIMD8<Float>, into costs: UnsafeMutableBufferPointer<Float>, at start: Int) {
        if start + 8 <= costs.count {
            UnsafeMutableRawPointer(costs.baseAddress! + start).storeBytes(of: cost, as: SIMD8<Float>.self)
        } else {
            for lane in 0..<(costs.count - start) { costs[start + lane] = cost[lane] }
        }
    }

    /// How a component's log-density of eight pixels is computed.
    private protocol ComponentDensity {
        func of(_ f: ColorLanes, _ component: ComponentLanes) -> SIMD8<Float>
    }

    private struct LitDensity: ComponentDensity {
        @inline(__always)
        func of(_ f: ColorLanes, _ component: ComponentLanes) -> SIMD8<Float> { component.logDensity(f) }
    }

    private struct ShadowedDensity: ComponentDensity {
        let deepest: SIMD8<Float>
        let penalty: SIMD8<Float>

        @inline(__always)
        func of(_ f: ColorLanes, _ component: ComponentLanes) -> SIMD8<Float> {
            component.logDensity(f, brightenedUpTo: deepest, penalty: penalty)
        }
    }

    /// One component's parameters repeated across eight lanes. A class, so the densities
    /// read them in place: as a 672-byte struct, each call the optimizer left out of line
    /// (the shadowed density's) copied it first.
    private final class ComponentLanes {
        let mean: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
        /// Inverse covariance: the diagonal, then twice the off-diagonal (xy, xz, xw, yz, yw, zw).
        let diagonal: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
        let twiceOff: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
        let logNormalizer: SIMD8<Float>
        /// For the brightening: the colour rows of the inverse covariance applied to minus
        /// the mean's colour, and their texture column.
        let meanPull: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
        let textureColumn: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

        init(_ component: Component) {
            let m = component.mean, i = component.inverse
            mean = (SIMD8(repeating: m.x), SIMD8(repeating: m.y), SIMD8(repeating: m.z), SIMD8(repeating: m.w))
            diagonal = (SIMD8(repeating: i.0.x), SIMD8(repeating: i.1.y), SIMD8(repeating: i.2.z), SIMD8(repeating: i.3.w))
            twiceOff = (SIMD8(repeating: 2 * i.0.y), SIMD8(repeating: 2 * i.0.z), SIMD8(repeating: 2 * i.0.w),
                        SIMD8(repeating: 2 * i.1.z), SIMD8(repeating: 2 * i.1.w), SIMD8(repeating: 2 * i.2.w))
            logNormalizer = SIMD8(repeating: component.logNormalizer)
            let colour = SIMD4(m.x, m.y, m.z, 0)
            meanPull = (SIMD8(repeating: -(i.0 * colour).sum()), SIMD8(repeating: -(i.1 * colour).sum()),
                        SIMD8(repeating: -(i.2 * colour).sum()))
            textureColumn = (SIMD8(repeating: i.0.w), SIMD8(repeating: i.1.w), SIMD8(repeating: i.2.w))
        }

        @inline(__always)
        func logDensity(_ f: ColorLanes) -> SIMD8<Float> {
            logNormalizer - 0.5 * distance(f)
        }

        /// The squared Mahalanobis distance of `f` from the mean.
        @inline(__always)
        private func distance(_ f: ColorLanes) -> SIMD8<Float> {
            let dx = f.x - mean.0, dy = f.y - mean.1, dz = f.z - mean.2, dw = f.w - mean.3
            return dx * (diagonal.0 * dx + twiceOff.0 * dy + twiceOff.1 * dz + twiceOff.2 * dw)
                + dy * (diagonal.1 * dy + twiceOff.3 * dz + twiceOff.4 * dw)
                + dz * (diagonal.2 * dz + twiceOff.5 * dw)
                + diagonal.3 * dw * dw
        }

        /// The log-density of `f` or, `penalty` lower, of `f` with its colour brightened by
        /// the s in [1, `deepest`] that brings it nearest the mean, whichever is higher.
        /// With u = (colour, 0) and v = f - mean - u, the distance of s u + v is
        /// s^2 (u A u) + 2 s (u A v) + (v A v), least at s = -(u A v) / (u A u).
        @inline(__always)
        func logDensity(_ f: ColorLanes, brightenedUpTo deepest: SIMD8<Float>, penalty: SIMD8<Float>) -> SIMD8<Float> {
            let lit = distance(f)
            let uAu = f.x * (diagonal.0 * f.x + twiceOff.0 * f.y + twiceOff.1 * f.z)
                + f.y * (diagonal.1 * f.y + twiceOff.3 * f.z) + diagonal.2 * f.z * f.z
            // A v, rows x, y and z, with v = (-mean colour, texture - mean texture).
            let vw = f.w - mean.3
            let uAv = f.x * (meanPull.0 + textureColumn.0 * vw) + f.y * (meanPull.1 + textureColumn.1 * vw)
                + f.z * (meanPull.2 + textureColumn.2 * vw)
            let vAv = lit - uAu - 2 * uAv
            let s = VectorMath.minimum(VectorMath.maximum(-uAv / VectorMath.maximum(uAu, SIMD8(repeating: 1e-6)),
                                                          SIMD8(repeating: 1)), deepest)
            let shaded = s * (s * uAu + 2 * uAv) + vAv
            return logNormalizer - 0.5 * VectorMath.minimum(lit, shaded + 2 * penalty)
        }
    }

    /// A component from its weight, mean and covariance rows, inverted by Cholesky
    /// factorisation (the covariance is symmetric positive definite: the floor is added).
    private static func component(weight: Double, mean: SIMD4<Double>, _ covariance: [SIMD4<Double>]) -> Component {
        // covariance = L L^T, L lower triangular.
        var l = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for i in 0..<4 {
            for j in 0...i {
                var sum = covariance[i][j]
                for k in 0..<j { sum -= l[i][k] * l[j][k] }
                l[i][j] = i == j ? max(sum, 1e-6).squareRoot() : sum / l[j][j]
            }
        }
        // L^-1 by forward substitution, then inverse = L^-T L^-1.
        var lInverse = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for column in 0..<4 {
            for i in column..<4 {
                var sum: Double = i == column ? 1 : 0
                for k in column..<i { sum -= l[i][k] * lInverse[k][column] }
                lInverse[i][column] = sum / l[i][i]
            }
        }
        func inverse(_ i: Int, _ j: Int) -> Float {
            Float((max(i, j)..<4).reduce(0) { $0 + lInverse[$1][i] * lInverse[$1][j] })
        }
        let row = { (i: Int) in SIMD4<Float>(inverse(i, 0), inverse(i, 1), inverse(i, 2), inverse(i, 3)) }
        let logDeterminant = 2 * (0..<4).reduce(0) { $0 + log(l[$1][$1]) }
        let logNormalizer = log(weight) - 0.5 * (4 * log(2 * Double.pi) + logDeterminant)
        return Component(mean: SIMD4<Float>(Float(mean.x), Float(mean.y), Float(mean.z), Float(mean.w)),
                         inverse: (row(0), row(1), row(2), row(3)), logNormalizer: Float(logNormalizer),
                         weight: Float(weight))
    }

    /// Every k-th of `samples`, k = count / `limit` (at least 1): all of them up to twice
    /// `limit`, else between `limit` and twice as many.
    private static func strided(_ samples: [Int32], toAbout limit: Int) -> [Int32] {
        let stride = samples.count / limit
        return stride <= 1 ? samples : Swift.stride(from: 0, to: samples.count, by: stride).map { samples[$0] }
    }

    /// k-means++ seeds refined by a few Lloyd iterations on an evenly strided subsample.
    private static func seedCenters(_ features: UnsafeBufferPointer<SIMD4<Float>>, _ samples: [Int32],
                                    _ count: Int) -> [SIMD4<Float>] {
        guard !samples.isEmpty else { return [] }
        let points = strided(samples, toAbout: sampleLimit).map { features[Int($0)] }
        var generator = SplitMix64(seed: 0x5EED)
        var centers = KMeansSeeding.plusPlus(points, count: count, using: &generator)
        let lanes = ColorLanes.blocks(of: points)
        for _ in 0..<4 {
            var sums = [SIMD4<Float>](repeating: .zero, count: centers.count)
            var counts = [Float](repeating: 0, count: centers.count)
            for block in lanes.indices {
                let nearest = lanes[block].nearest(centers)
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
