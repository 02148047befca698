/// The square feature maps `SubjectPrior` passes between layers: channels interleaved per
/// pixel, pixels row-major, with the operations its network is made of.
struct FeatureMaps {
    var values: [Float]
    let channels: Int
    let side: Int

    init(_ values: [Float], channels: Int, side: Int) {
        self.values = values
        self.channels = channels
        self.side = side
    }

    /// A 'same' convolution (3x3 with `dilation`, or 1x1), plus bias, optionally rectified.
    /// The input is copied into a zero border first, so every tap of every pixel is
    /// valid; then, per block of eight output channels, four neighbouring pixels are summed
    /// at once (four independent vector sums, sharing each weight vector). The side must
    /// be a multiple of four, as the network's are.
    func convolved(_ layer: SubjectPriorWeights.Layer, dilation: Int = 1, relu: Bool) -> FeatureMaps {
        precondition(layer.inputs == channels && side % 4 == 0)
        let outputs = layer.outputs, blocks = layer.blocks, kernel = layer.kernel
        let border = kernel / 2 * dilation, padded = side + 2 * border
        var source = [Float](repeating: 0, count: padded * padded * channels)
        for y in 0..<side {
            let from = y * side * channels, to = ((y + border) * padded + border) * channels
            source[to..<(to + side * channels)] = values[from..<(from + side * channels)]
        }
        var output = [Float](repeating: 0, count: outputs * side * side)
        source.withUnsafeBufferPointer { input in
            layer.packed.withUnsafeBufferPointer { packed in
                output.withUnsafeMutableBufferPointer { output in
                    for block in 0..<blocks {
                        let lanes = min(8, outputs - block * 8)
                        for y in 0..<side {
                            for x in stride(from: 0, to: side, by: 4) {
                                var s0 = layer.packedBias[block], s1 = s0, s2 = s0, s3 = s0
                                for tap in 0..<(kernel * kernel) {
                                    let from = ((y + tap / kernel * dilation) * padded + x + tap % kernel * dilation) * channels
                                    var weight = tap * channels * blocks + block
                                    for i in 0..<channels {
                                        let w = packed[weight]
                                        s0 += SIMD8(repeating: input[from + i]) * w
                                        s1 += SIMD8(repeating: input[from + channels + i]) * w
                                        s2 += SIMD8(repeating: input[from + 2 * channels + i]) * w
                                        s3 += SIMD8(repeating: input[from + 3 * channels + i]) * w
                                        weight += blocks
                                    }
                                }
                                if relu {
                                    s0 = pointwiseMax(s0, .zero); s1 = pointwiseMax(s1, .zero)
                                    s2 = pointwiseMax(s2, .zero); s3 = pointwiseMax(s3, .zero)
                                }
                                let to = (y * side + x) * outputs + block * 8
                                for lane in 0..<lanes {
                                    output[to + lane] = s0[lane]
                                    output[to + outputs + lane] = s1[lane]
                                    output[to + 2 * outputs + lane] = s2[lane]
                                    output[to + 3 * outputs + lane] = s3[lane]
                                }
                            }
                        }
                    }
                }
            }
        }
        return FeatureMaps(output, channels: layer.outputs, side: side)
    }

    /// 2x2 max pooling.
    func pooled() -> FeatureMaps {
        let half = side / 2
        var output = [Float](repeating: 0, count: channels * half * half)
        for y in 0..<half {
            for x in 0..<half {
                let base = (2 * y * side + 2 * x) * channels, below = base + side * channels
                for c in 0..<channels {
                    output[(y * half + x) * channels + c] = max(max(values[base + c], values[base + channels + c]),
                                                                max(values[below + c], values[below + channels + c]))
                }
            }
        }
        return FeatureMaps(output, channels: channels, side: half)
    }

    /// Nearest-neighbour upsampling by 2, with `skip`'s channels appended to each pixel.
    func upsampled(joining skip: FeatureMaps) -> FeatureMaps {
        let double = side * 2, total = channels + skip.channels
        precondition(skip.side == double)
        var output = [Float](repeating: 0, count: total * double * double)
        for y in 0..<double {
            for x in 0..<double {
                let to = (y * double + x) * total, from = ((y / 2) * side + x / 2) * channels
                for c in 0..<channels { output[to + c] = values[from + c] }
                let skipFrom = (y * double + x) * skip.channels
                for c in 0..<skip.channels { output[to + channels + c] = skip.values[skipFrom + c] }
            }
        }
        return FeatureMaps(output, channels: total, side: double)
    }
}
