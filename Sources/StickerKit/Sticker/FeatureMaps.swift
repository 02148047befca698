import CVectorKernels

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
    /// The input is copied into a zero border first (a 1x1 kernel needs none), so every
    /// tap of every pixel is valid; the C kernel then sums four neighbouring pixels at once
    /// per block of eight output channels. The side must be a multiple of four, as the
    /// network's are.
    func convolved(_ layer: SubjectPriorWeights.Layer, dilation: Int = 1, relu: Bool,
                   kernel code: VectorKernel = .fastest) -> FeatureMaps {
        precondition(layer.inputs == channels && side % 4 == 0)
        let kernel = layer.kernel, border = kernel / 2 * dilation, padded = side + 2 * border
        var source = values
        if border > 0 {
            source = [Float](repeating: 0, count: padded * padded * channels)
            for y in 0..<side {
                let from = y * side * channels, to = ((y + border) * padded + border) * channels
                source[to..<(to + side * channels)] = values[from..<(from + side * channels)]
            }
        }
        var output = [Float](repeating: 0, count: layer.outputs * side * side)
        let convolve = code == .avx2 ? convolution_avx2 : convolution_portable
        source.withUnsafeBufferPointer { input in
            layer.packed.withUnsafeBytes { packed in
                layer.packedBias.withUnsafeBytes { bias in
                    output.withUnsafeMutableBufferPointer { output in
                        convolve(input.baseAddress, Int32(padded), Int32(channels), Int32(side), Int32(kernel),
                                 Int32(dilation), packed.bindMemory(to: Float.self).baseAddress,
                                 bias.bindMemory(to: Float.self).baseAddress, Int32(layer.blocks), Int32(layer.outputs),
                                 relu, output.baseAddress)
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
