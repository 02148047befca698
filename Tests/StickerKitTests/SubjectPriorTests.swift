import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// The subject prior's network: its layers against direct definitions, and the shipped
/// weights on generated scenes.
@Suite struct SubjectPriorTests {
    private func randomValues(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in Float(generator.nextUnit() * 2 - 1) }
    }

    /// The convolution as its definition: out[o](y, x) = bias[o] + sum over inputs and taps
    /// of w[o][i][tap] * in[i](y + dy, x + dx), zero outside the map.
    private func directConvolution(_ input: [Float], channels: Int, side: Int, weights: [Float], bias: [Float],
                                   outputs: Int, kernel: Int, dilation: Int) -> [Float] {
        var output = [Float](repeating: 0, count: outputs * side * side)
        let reach = kernel / 2
        for y in 0..<side {
            for x in 0..<side {
                for o in 0..<outputs {
                    var sum = bias[o]
                    for i in 0..<channels {
                        for ky in 0..<kernel {
                            for kx in 0..<kernel {
                                let sy = y + (ky - reach) * dilation, sx = x + (kx - reach) * dilation
                                guard sy >= 0, sy < side, sx >= 0, sx < side else { continue }
                                sum += weights[((o * channels + i) * kernel + ky) * kernel + kx] * input[(sy * side + sx) * channels + i]
                            }
                        }
                    }
                    output[(y * side + x) * outputs + o] = max(sum, 0)
                }
            }
        }
        return output
    }

    /// Every output width the network uses (1, 8, 16, 32 channels: one, two or four
    /// vectors, padded), both kernel sizes and both dilations, borders included (a side of
    /// 8: two groups of four pixels per row), for the portable and the AVX2 code.
    @Test(arguments: [(5, 8, 3, 1), (8, 16, 3, 1), (32, 32, 3, 2), (16, 1, 1, 1), (3, 12, 3, 2)],
          [VectorKernel.portable, .avx2])
    func convolutionMatchesItsDefinition(shape: (Int, Int, Int, Int), code: VectorKernel) {
        // A CPU without AVX2 never runs that kernel, and cannot.
        guard code == .portable || VectorKernel.fastest == .avx2 else { return }
        let (inputs, outputs, kernel, dilation) = shape
        let side = 8
        let input = randomValues(inputs * side * side, seed: 1)
        let weights = randomValues(outputs * inputs * kernel * kernel, seed: 2)
        let bias = randomValues(outputs, seed: 3)
        let layer = SubjectPriorWeights.Layer(inputs: inputs, outputs: outputs, kernel: kernel,
                                              weights: weights[...], bias: bias[...])
        let result = FeatureMaps(input, channels: inputs, side: side).convolved(layer, dilation: dilation, relu: true,
                                                                                kernel: code)
        let expected = directConvolution(input, channels: inputs, side: side, weights: weights, bias: bias,
                                         outputs: outputs, kernel: kernel, dilation: dilation)
        #expect(result.channels == outputs)
        #expect(zip(result.values, expected).allSatisfy { abs($0 - $1) < 1e-4 })
        #expect(expected.contains { $0 > 0 } && expected.contains { $0 == 0 }, "the test exercises the rectifier")
    }

    @Test func poolingTakesTheMaximumOfEachTwoByTwoBlock() {
        // Two channels over 4x4: channel 0 counts up, channel 1 counts down.
        let values = (0..<16).flatMap { [Float($0), Float(-$0)] }
        let pooled = FeatureMaps(values, channels: 2, side: 4).pooled()
        #expect(pooled.side == 2)
        #expect(pooled.values == [5, 0, 7, -2, 13, -8, 15, -10])
    }

    @Test func upsamplingRepeatsEachPixelAndAppendsTheSkipChannels() {
        let coarse = FeatureMaps([1, 2, 3, 4], channels: 1, side: 2)
        let skip = FeatureMaps((0..<16).map(Float.init), channels: 1, side: 4)
        let joined = coarse.upsampled(joining: skip)
        #expect(joined.channels == 2 && joined.side == 4)
        let first = stride(from: 0, to: 32, by: 2).map { joined.values[$0] }
        let second = stride(from: 1, to: 32, by: 2).map { joined.values[$0] }
        #expect(first == [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4])
        #expect(second == (0..<16).map(Float.init))
    }

    @Test func agreementIsTheSoftIntersectionOverUnion() {
        #expect(abs(SubjectPrior.agreement([1, 1, 0, 0], [1, 0.5, 0.5, 0]) - 1.5 / 2.5) < 1e-6)
        #expect(SubjectPrior.agreement([0, 0], [0, 0]) == 0)
    }

    /// A sticker's confidence: the guess's soft IoU with the mask's silhouette. A mask on
    /// the disc the prior sees agrees well, with or without a hole in it; one elsewhere
    /// does not; and reading every third pixel (a 320-pixel mask) changes it by little.
    @Test func agreementWithAMaskIsThatOfItsSilhouette() throws {
        let width = 320, height = 240
        let scene = Scene(width: width, height: height, background: .gradient([236, 232, 226], [200, 196, 190]),
                          shapes: [(.disc(x: 160, y: 120, radius: 60), [40, 90, 200])])
        let (photo, truth) = scene.render()
        let prior = SubjectPrior(WorkingImage(photo, longSide: width))
        func mask(_ shape: Scene.Shape) -> ForegroundMask {
            ForegroundMask(width: width, height: height, values: (0..<width * height).map {
                shape.coverage(Double($0 % width) + 0.5, Double($0 / width) + 0.5) >= 0.5 ? 1 : 0
            })
        }
        let disc = prior.agreement(with: mask(.disc(x: 160, y: 120, radius: 60)))
        let everyPixel = SubjectPrior.agreement(truth.map { $0 >= 0.5 ? 1 : 0 }, prior.probabilities(width: width, height: height))
        #expect(disc > 0.6, "on the disc: \(disc)")
        #expect(abs(disc - everyPixel) < 0.02, "sampled \(disc), every pixel \(everyPixel)")
        #expect(prior.agreement(with: mask(.ring(x: 160, y: 120, outer: 60, inner: 30))) == disc)
        let elsewhere = prior.agreement(with: mask(.disc(x: 40, y: 40, radius: 30)))
        #expect(elsewhere < 0.1, "off the disc: \(elsewhere)")
    }

    /// The prior of a `width` x `height` photo of a disc of `color` over a backdrop that
    /// shades with the row (`backdrop(y)`), each channel noisy by up to 3 levels, its
    /// probabilities at each pixel, and, per pixel, whether the disc covers it.
    private func prior(onDisc disc: (x: Int, y: Int, radius: Int), color: SIMD3<Float>, width: Int, height: Int,
                       seed: UInt64, backdrop: (Int) -> SIMD3<Float>)
        -> (prior: SubjectPrior, probabilities: [Float], inDisc: [Bool]) {
        var generator = SplitMix64(seed: seed)
        var inDisc = [Bool](repeating: false, count: width * height)
        var colors = [SIMD3<Float>](repeating: .zero, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                inDisc[index] = (x - disc.x) * (x - disc.x) + (y - disc.y) * (y - disc.y) < disc.radius * disc.radius
                colors[index] = (inDisc[index] ? color : backdrop(y))
                    + SIMD3((0..<3).map { _ in Float(generator.nextUnit() * 6 - 3) })
            }
        }
        let prior = SubjectPrior(WorkingImage(width: width, height: height, colors: colors))
        return (prior, prior.probabilities(width: width, height: height), inDisc)
    }

    /// The mean of `probabilities` over the pixels `selected` picks.
    private func mean(_ probabilities: [Float], where selected: (Int) -> Bool) -> Float {
        let values = probabilities.indices.filter(selected).map { probabilities[$0] }
        return values.reduce(0, +) / Float(values.count)
    }

    /// The shipped weights on a product shot: a disc on a studio gradient.
    @Test func shippedNetworkFindsADiscOnAGradient() {
        let width = 160, height = 120
        let (prior, probabilities, inDisc) = prior(onDisc: (80, 60, 30), color: [40, 90, 200], width: width,
                                                   height: height, seed: 11) { y in
            let shade = Float(235 - y / 3)
            return [shade, shade - 5, shade - 10]
        }
        func onFrame(_ index: Int) -> Bool {
            let x = index % width, y = index / width
            return x < 8 || y < 8 || x >= width - 8 || y >= height - 8
        }
        let insideMean = mean(probabilities) { inDisc[$0] }
        let frameMean = mean(probabilities) { !inDisc[$0] && onFrame($0) }
        #expect(insideMean > 0.8, "inside the disc: \(insideMean)")
        #expect(frameMean < 0.1, "along the frame: \(frameMean)")
        #expect(!prior.isFillNetworkGuess, "a subject a fifth of the picture wide is the shipped network's")
    }

    /// The guess as a cut's term: the scaled log-odds of each probability, held to those
    /// of 0.01 and 0.99, on the side of 0 the probability is of 0.5.
    @Test func logOddsFollowTheProbabilitiesWithinTheirBounds() {
        let (prior, probabilities, _) = prior(onDisc: (80, 60, 30), color: [40, 90, 200], width: 160, height: 120,
                                              seed: 11) { _ in [230, 225, 220] }
        let odds = prior.logOdds(width: 160, height: 120, scaledBy: 0.5)
        let bound = 0.5 * log(Float(0.99) / 0.01)
        #expect(odds.count == probabilities.count)
        #expect(odds.allSatisfy { abs($0) <= bound * 1.0001 })
        #expect(odds.contains { $0 > bound * 0.99 } && odds.contains { $0 < -bound * 0.99 }, "sure both ways somewhere")
        for (value, p) in zip(odds, probabilities) where abs(p - 0.5) > 1e-3 {
            #expect((value > 0) == (p > 0.5))
            if p > 0.01 && p < 0.99 { #expect(abs(value - 0.5 * log(p / (1 - p))) < 1e-3) }
        }
    }

    /// The fill network's guess is used from half the grid on, and from 0.4 on where the
    /// shipped network's guess covers less than half as much; else the shipped one's.
    @Test(arguments: [(0.5, 0.6, true), (0.9, 0, true), (0.45, 0.2, true), (0.4, 0.2, true),
                      (0.45, 0.3, false), (0.39, 0.1, false), (0.3, 0, false), (0.49, 0.49, false)])
    func theFillNetworkIsTrustedWhereItSeesABigSubjectTheOtherCallsSmall(fillArea: Float, shippedArea: Float,
                                                                        trusted: Bool) {
        #expect(SubjectPrior.trustsFillNetwork(fillArea: fillArea, shippedArea: shippedArea) == trusted)
    }

    /// A disc that fills four fifths of the picture, cut by three edges, on a studio
    /// gradient: the fill network's guess covers half the grid, so it is the one used (and
    /// says so), and it lies on the disc, not on the corner of backdrop left visible.
    @Test func fillNetworkFindsASubjectFillingThePicture() {
        let width = 240, height = 180
        let (prior, probabilities, inDisc) = prior(onDisc: (100, 120, 120), color: [200, 120, 40], width: width,
                                                   height: height, seed: 5) { y in
            let shade = Float(215 - y / 2)
            return [shade - 15, shade - 5, shade + 15]
        }
        #expect(inDisc.filter { $0 }.count * 4 > width * height * 3, "the disc fills the picture")
        let insideMean = mean(probabilities) { inDisc[$0] }
        let outsideMean = mean(probabilities) { !inDisc[$0] }
        #expect(insideMean > 0.7, "inside the disc: \(insideMean)")
        #expect(outsideMean < 0.3, "the backdrop left visible: \(outsideMean)")
        #expect(prior.isFillNetworkGuess)
    }
}
