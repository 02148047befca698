@testable import StickerKit
import Testing

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
          [FeatureMaps.Kernel.portable, .avx2])
    func convolutionMatchesItsDefinition(shape: (Int, Int, Int, Int), code: FeatureMaps.Kernel) {
        // A CPU without AVX2 never runs that kernel, and cannot.
        guard code == .portable || FeatureMaps.Kernel.fastest == .avx2 else { return }
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

    /// The shipped weights on a product shot: a disc on a studio gradient.
    @Test func shippedNetworkFindsADiscOnAGradient() {
        let width = 160, height = 120
        var generator = SplitMix64(seed: 11)
        var inside: [Int] = [], frame: [Int] = []
        var colors = [SIMD3<Float>](repeating: .zero, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                let shade = Float(235 - y / 3)
                var color = SIMD3<Float>(shade, shade - 5, shade - 10)
                if (x - 80) * (x - 80) + (y - 60) * (y - 60) < 30 * 30 {
                    color = [40, 90, 200]
                    inside.append(index)
                } else if x < 8 || y < 8 || x >= width - 8 || y >= height - 8 {
                    frame.append(index)
                }
                colors[index] = color + SIMD3((0..<3).map { _ in Float(generator.nextUnit() * 6 - 3) })
            }
        }
        let probabilities = SubjectPrior(WorkingImage(width: width, height: height, colors: colors))
            .probabilities(width: width, height: height)
        let insideMean = inside.map { probabilities[$0] }.reduce(0, +) / Float(inside.count)
        let frameMean = frame.map { probabilities[$0] }.reduce(0, +) / Float(frame.count)
        #expect(insideMean > 0.8, "inside the disc: \(insideMean)")
        #expect(frameMean < 0.1, "along the frame: \(frameMean)")
    }

    /// A disc that fills four fifths of the picture, cut by three edges, on a studio
    /// gradient: the fill network's guess covers half the grid, so it is the one used, and
    /// it lies on the disc, not on the corner of backdrop left visible.
    @Test func fillNetworkFindsASubjectFillingThePicture() {
        let width = 240, height = 180
        var generator = SplitMix64(seed: 5)
        var inside: [Int] = [], outside: [Int] = []
        var colors = [SIMD3<Float>](repeating: .zero, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                let shade = Float(215 - y / 2)
                var color = SIMD3<Float>(shade - 15, shade - 5, shade + 15)
                if (x - 100) * (x - 100) + (y - 120) * (y - 120) < 120 * 120 {
                    color = [200, 120, 40]
                    inside.append(index)
                } else {
                    outside.append(index)
                }
                colors[index] = color + SIMD3((0..<3).map { _ in Float(generator.nextUnit() * 6 - 3) })
            }
        }
        #expect(inside.count * 4 > width * height * 3, "the disc fills the picture")
        let probabilities = SubjectPrior(WorkingImage(width: width, height: height, colors: colors))
            .probabilities(width: width, height: height)
        let insideMean = inside.map { probabilities[$0] }.reduce(0, +) / Float(inside.count)
        let outsideMean = outside.map { probabilities[$0] }.reduce(0, +) / Float(outside.count)
        #expect(insideMean > 0.7, "inside the disc: \(insideMean)")
        #expect(outsideMean < 0.3, "the backdrop left visible: \(outsideMean)")
    }
}
