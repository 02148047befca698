import Foundation
@testable import StickerKit
import Testing

/// The colour-and-texture mixture: its costs are the Gaussian's negative log density, and
/// texture tells apart regions whose colours are the same.
@Suite struct FeatureMixtureModelTests {
    /// Correlated 4-D samples: mean (100, 120, 80, 30), each channel mixing shared factors.
    private func samples(_ count: Int) -> [SIMD4<Float>] {
        var generator = SplitMix64(seed: 5)
        return (0..<count).map { _ in
            let a = Float(generator.nextUnit() - 0.5) * 40, b = Float(generator.nextUnit() - 0.5) * 30
            let c = Float(generator.nextUnit() - 0.5) * 20, d = Float(generator.nextUnit() - 0.5) * 10
            return SIMD4(100 + a + 0.5 * b, 120 + a - c, 80 + b + c, 30 + 0.8 * a + d)
        }
    }

    /// One component: -log N(x; sample mean, sample covariance + the variance floor),
    /// computed here by Gauss-Jordan elimination in Double.
    @Test func oneComponentCostsAreTheGaussiansNegativeLogDensity() {
        let points = samples(4000)
        let model = points.withUnsafeBufferPointer {
            FeatureMixtureModel(features: $0, samples: (0..<Int32(points.count)).map { $0 }, count: 1)
        }
        let values = points.map { p in (0..<4).map { Double(p[$0]) } }
        let mean: [Double] = (0..<4).map { d in values.reduce(0) { $0 + $1[d] } / Double(values.count) }
        var covariance = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for value in values {
            for i in 0..<4 {
                for j in 0..<4 { covariance[i][j] += (value[i] - mean[i]) * (value[j] - mean[j]) / Double(values.count) }
            }
        }
        for d in 0..<4 { covariance[d][d] += 8 }
        // [covariance | identity] -> [identity | inverse], tracking the determinant.
        var rows = (0..<4).map { i in covariance[i] + (0..<4).map { $0 == i ? 1.0 : 0.0 } }
        var determinant = 1.0
        for column in 0..<4 {
            let pivot = rows[column][column]
            determinant *= pivot
            rows[column] = rows[column].map { $0 / pivot }
            for row in 0..<4 where row != column {
                let factor = rows[row][column]
                rows[row] = zip(rows[row], rows[column]).map { $0 - factor * $1 }
            }
        }
        let probes: [SIMD4<Float>] = [SIMD4(100, 120, 80, 30), SIMD4(130, 90, 100, 50), SIMD4(60, 150, 60, 10)]
        let costs = probes.withUnsafeBufferPointer { model.costs($0) }
        for (probe, cost) in zip(probes, costs) {
            let d = (0..<4).map { Double(probe[$0]) - mean[$0] }
            var quadratic = 0.0
            for i in 0..<4 { for j in 0..<4 { quadratic += d[i] * rows[i][4 + j] * d[j] } }
            let expected = 0.5 * (quadratic + 4 * log(2 * Double.pi) + log(determinant))
            #expect(abs(Double(cost) - expected) < 1e-3 * max(1, expected), "probe \(probe)")
        }
    }

    /// With shadows allowed, a pixel costs the least of its own cost and, `penalty` more,
    /// the cost of its colour brightened by any factor from 1 to `deepest` (found here by
    /// trying 1,001 factors): the mean darkened by 0.6 costs the mean's cost plus the
    /// penalty, a colour brighter than the mean is not helped, a near-black one only as
    /// far as doubling takes it.
    @Test func shadowCostIsTheCheapestBrightening() {
        let points = samples(4000)
        let model = points.withUnsafeBufferPointer {
            FeatureMixtureModel(features: $0, samples: (0..<Int32(points.count)).map { $0 }, count: 1)
        }
        let shadow = FeatureMixtureModel.Shadow(deepest: 2, penalty: 2)
        let probes: [SIMD4<Float>] = [SIMD4(60, 72, 48, 30), SIMD4(91, 63, 70, 50), SIMD4(150, 170, 120, 30),
                                      SIMD4(20, 20, 20, 30), SIMD4(100, 120, 80, 30)]
        let costs = probes.withUnsafeBufferPointer { model.costs($0, allowingShadow: shadow) }
        for (probe, cost) in zip(probes, costs) {
            let brightened = (0...1000).map { step -> SIMD4<Float> in
                let s = 1 + Float(step) / 1000
                return SIMD4(probe.x * s, probe.y * s, probe.z * s, probe.w)
            }
            let lit = brightened.withUnsafeBufferPointer { model.costs($0) }
            let expected = min(lit[0], lit.min()! + shadow.penalty)
            #expect(abs(cost - expected) < 1e-3 * max(1, expected), "probe \(probe)")
        }
        let mean = [SIMD4<Float>(100, 120, 80, 30)].withUnsafeBufferPointer { model.costs($0) }[0]
        #expect(abs(costs[0] - (mean + shadow.penalty)) < 1e-3 * mean)
        #expect(costs[2] == [probes[2]].withUnsafeBufferPointer { model.costs($0) }[0])
    }

    /// Left half grain, right half smooth, the same grey on average: models fitted to each
    /// half prefer the right one for almost every pixel away from the seam.
    @Test func textureSeparatesRegionsOfTheSameColour() {
        let width = 120, height = 60
        var generator = SplitMix64(seed: 9)
        let colors = (0..<(width * height)).map { index -> SIMD3<Float> in
            let amplitude: Float = index % width < width / 2 ? 70 : 4
            return SIMD3(repeating: 128 + Float(generator.nextUnit() - 0.5) * amplitude)
        }
        let image = WorkingImage(width: width, height: height, colors: colors)
        let features = zip(colors, LocalTexture.features(of: image)).map { SIMD4($0, $1) }
        let grainy = features.indices.filter { $0 % width < width / 2 }.map { Int32($0) }
        let smooth = features.indices.filter { $0 % width >= width / 2 }.map { Int32($0) }
        let (grainCosts, smoothCosts) = features.withUnsafeBufferPointer { features in
            (FeatureMixtureModel(features: features, samples: grainy, count: 5).costs(features),
             FeatureMixtureModel(features: features, samples: smooth, count: 5).costs(features))
        }
        let awayFromSeam = features.indices.filter { abs($0 % width - width / 2) > 4 }
        let right = awayFromSeam.filter { index in
            (index % width < width / 2) == (grainCosts[index] < smoothCosts[index])
        }
        #expect(right.count * 100 >= awayFromSeam.count * 99)
    }

    /// Local weights: tan on the left half and black on the right, one tan pixel in the
    /// black. Where no tan background is near, tan costs more than under the global
    /// weights (by about the log of how much rarer it is there: 0.5 against ~0.02); where
    /// it is all around, less; and where the prior sees no background at all, each
    /// component keeps its global weight.
    @Test func localWeightsFollowTheBackgroundNearby() {
        let width = 96, height = 48
        let tan = SIMD4<Float>(180, 140, 90, 0), black = SIMD4<Float>(30, 30, 30, 0)
        var generator = SplitMix64(seed: 9)
        var features = (0..<(width * height)).map { index -> SIMD4<Float> in
            let noise = Float(generator.nextUnit() - 0.5) * 6
            return (index % width < width / 2 ? tan : black) + SIMD4(noise, noise, noise, 0)
        }
        let lonely = 24 * width + 80, among = 24 * width + 10
        features[lonely] = tan
        let model = features.withUnsafeBufferPointer {
            FeatureMixtureModel(features: $0, samples: (0..<Int32(features.count)).map { $0 }, count: 2)
        }
        let everywhere = LocalComponentWeights(width: width, height: height) { _ in 1 }
        let nowhere = LocalComponentWeights(width: width, height: height) { _ in 0 }
        let (global, local, unweighted) = features.withUnsafeBufferPointer {
            (model.costs($0), model.costs($0, weightedBy: everywhere), model.costs($0, weightedBy: nowhere))
        }
        #expect(local[lonely] - global[lonely] > 2.5)
        #expect(local[among] < global[among] - 0.3)
        for index in features.indices { #expect(abs(unweighted[index] - global[index]) < 1e-3) }
    }

    /// Local weights change smoothly across the picture: where the tan half gives way to
    /// the black one, a black pixel's cost under them (against the global weights) falls
    /// off over several cells, by small steps from pixel to pixel, not by one step per cell.
    @Test func localWeightsChangeWithoutSteps() {
        let width = 96, height = 48
        let tan = SIMD4<Float>(180, 140, 90, 0), black = SIMD4<Float>(30, 30, 30, 0)
        let features = (0..<(width * height)).map { $0 % width < width / 2 ? tan : black }
        let model = features.withUnsafeBufferPointer {
            FeatureMixtureModel(features: $0, samples: (0..<Int32(features.count)).map { $0 }, count: 2)
        }
        let local = LocalComponentWeights(width: width, height: height) { _ in 1 }
        let (global, weighted) = features.withUnsafeBufferPointer { (model.costs($0), model.costs($0, weightedBy: local)) }
        let row = 24 * width
        let change = ((width / 2)..<width).map { weighted[row + $0] - global[row + $0] }
        let steps = zip(change, change.dropFirst()).map { abs($1 - $0) }
        let total = (change.max() ?? 0) - (change.min() ?? 0)
        #expect(total > 0.3)
        #expect(steps.max()! < total / 5)
    }

    /// Costs within a window are the window's part of the whole picture's, to the bit: lit,
    /// shadowed and locally weighted, with rows that end inside a block of eight.
    @Test func costsWithinAWindowAreTheWholePicturesThere() {
        let width = 37, height = 21
        var generator = SplitMix64(seed: 4)
        let features = (0..<(width * height)).map { index -> SIMD4<Float> in
            let base: SIMD4<Float> = index % width < 20 ? [170, 130, 90, 5] : [40, 60, 30, 20]
            return base + SIMD4(Float(generator.nextUnit()) * 30, Float(generator.nextUnit()) * 30,
                                Float(generator.nextUnit()) * 30, Float(generator.nextUnit()) * 8)
        }
        let model = features.withUnsafeBufferPointer {
            FeatureMixtureModel(features: $0, samples: (0..<Int32(features.count)).map { $0 }, count: 3)
        }
        let local = LocalComponentWeights(width: width, height: height) { Float($0 % width) / Float(width) }
        for rect in [PixelRect(x: 3, y: 2, width: 13, height: 9), PixelRect(x: 24, y: 12, width: 13, height: 9)] {
            let window = PixelWindow(rect, pictureWidth: width, pictureHeight: height)
            // The window's part of a picture's costs, row by row.
            let inside = (0..<rect.height).flatMap { y in (0..<rect.width).map { x in window.pictureIndex(x: x, y: y) } }
            func crop(_ costs: [Float]) -> [Float] { inside.map { costs[$0] } }
            features.withUnsafeBufferPointer { features in
                #expect(model.costs(features, within: window) == crop(model.costs(features)))
                #expect(model.costs(features, allowingShadow: .backdropInCIELAB, within: window)
                        == crop(model.costs(features, allowingShadow: .backdropInCIELAB)))
                #expect(model.costs(features, allowingShadow: .backdropInCIELAB, weightedBy: local, within: window)
                        == crop(model.costs(features, allowingShadow: .backdropInCIELAB, weightedBy: local)))
            }
        }
    }
}
