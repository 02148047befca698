import CSubjectPriorWeights
import Foundation

/// A learned guess of where the subject is: a small fully convolutional network (a U-Net,
/// Ronneberger, Fischer, Brox 2015, shrunk to 50k weights) that reads the photo squashed
/// to 96x96, with two coordinate channels, and answers a subject probability on a 48x48
/// grid. Scripts/train-subject-prior trains it on composites of Tux Paint's stamps (none
/// of the dev set's or the validation sets') and writes the weights this reads. Too
/// coarse to cut with, it arbitrates between segmentations (`SubjectSegmenter`).
struct SubjectPrior: Sendable {
    /// The side of the network's input.
    static let inputSide = 96
    /// The side of its output.
    static let outputSide = 48

    /// Logits on the output grid, row-major.
    let logits: [Float]

    init(_ image: WorkingImage, weights: SubjectPriorWeights = .shipped) {
        let side = SubjectPrior.inputSide
        var rgb = [Float](repeating: 0, count: image.colors.count * 3)
        for (index, color) in image.colors.enumerated() {
            rgb[index * 3] = color.x
            rgb[index * 3 + 1] = color.y
            rgb[index * 3 + 2] = color.z
        }
        let colors = rgb.withUnsafeBufferPointer {
            Resampler.resample($0, width: image.width, height: image.height, channels: 3,
                               region: Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                               width: side, height: side)
        }
        var input = [Float](repeating: 0, count: 5 * side * side)
        for index in 0..<(side * side) {
            for channel in 0..<3 { input[index * 5 + channel] = colors[index * 3 + channel] / 255 - 0.5 }
            input[index * 5 + 3] = -1 + 2 * Float(index % side) / Float(side - 1)
            input[index * 5 + 4] = -1 + 2 * Float(index / side) / Float(side - 1)
        }
        let layer = weights.layers
        let a = FeatureMaps(input, channels: 5, side: side).convolved(layer[0], relu: true)
        let b = a.pooled().convolved(layer[1], relu: true).convolved(layer[2], relu: true)
        let c = b.pooled().convolved(layer[3], relu: true).convolved(layer[4], relu: true)
        let e = c.pooled().convolved(layer[5], relu: true).convolved(layer[6], dilation: 2, relu: true)
        let f = e.upsampled(joining: c).convolved(layer[7], relu: true)
        let g = f.upsampled(joining: b).convolved(layer[8], relu: true)
        logits = g.convolved(layer[9], relu: false).values
    }

    /// The probability at each pixel of a `width` x `height` grid (bilinear).
    func probabilities(width: Int, height: Int) -> [Float] {
        let side = SubjectPrior.outputSide
        var result = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            let v = min(max((Float(y) + 0.5) * Float(side) / Float(height) - 0.5, 0), Float(side - 1))
            let y0 = min(Int(v), side - 2), fy = v - Float(y0)
            for x in 0..<width {
                let u = min(max((Float(x) + 0.5) * Float(side) / Float(width) - 0.5, 0), Float(side - 1))
                let x0 = min(Int(u), side - 2), fx = u - Float(x0)
                let top = logits[y0 * side + x0] * (1 - fx) + logits[y0 * side + x0 + 1] * fx
                let bottom = logits[(y0 + 1) * side + x0] * (1 - fx) + logits[(y0 + 1) * side + x0 + 1] * fx
                let logit = top * (1 - fy) + bottom * fy
                result[y * width + x] = 1 / (1 + exp(-logit))
            }
        }
        return result
    }

    /// Soft IoU of 0/1 `labels` with `probabilities` of the same grid.
    static func agreement(_ labels: [UInt8], _ probabilities: [Float]) -> Float {
        var intersection: Float = 0, union: Float = 0
        for (label, p) in zip(labels, probabilities) {
            if label != 0 { intersection += p; union += 1 } else { union += p }
        }
        return union > 0 ? intersection / union : 0
    }
}

/// Square feature maps, channels interleaved per pixel (row-major pixels).
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

/// The network's weights, layer by layer in the order `SubjectPrior` applies them.
struct SubjectPriorWeights: Sendable {
    struct Layer: Sendable {
        let inputs: Int
        let outputs: Int
        let kernel: Int
        /// Output channels in vectors of eight: 1, 2 or 4.
        let blocks: Int
        /// Weights as [tap][input][block], zero past the last output.
        let packed: [SIMD8<Float>]
        /// The bias in blocks of eight (zero past the last output).
        let packedBias: [SIMD8<Float>]

        /// `weights` in PyTorch's order: [output][input][tap].
        init(inputs: Int, outputs: Int, kernel: Int, weights: ArraySlice<Float>, bias: ArraySlice<Float>) {
            precondition(outputs <= 32)
            self.inputs = inputs
            self.outputs = outputs
            self.kernel = kernel
            let taps = kernel * kernel, blocks = outputs <= 8 ? 1 : outputs <= 16 ? 2 : 4
            var packed = [SIMD8<Float>](repeating: .zero, count: taps * inputs * blocks)
            var packedBias = [SIMD8<Float>](repeating: .zero, count: blocks)
            for o in 0..<outputs {
                packedBias[o / 8][o % 8] = bias[bias.startIndex + o]
                for i in 0..<inputs {
                    for tap in 0..<taps {
                        packed[(tap * inputs + i) * blocks + o / 8][o % 8] = weights[weights.startIndex + (o * inputs + i) * taps + tap]
                    }
                }
            }
            self.blocks = blocks
            self.packed = packed
            self.packedBias = packedBias
        }
    }

    let layers: [Layer]

    /// (inputs, outputs, kernel) of each layer.
    static let shapes = [(5, 8, 3), (8, 16, 3), (16, 16, 3), (16, 32, 3), (32, 32, 3), (32, 32, 3), (32, 32, 3),
                         (64, 16, 3), (32, 16, 3), (16, 1, 1)]

    init(flat: [Float]) {
        var offset = 0
        var layers: [Layer] = []
        for (inputs, outputs, kernel) in SubjectPriorWeights.shapes {
            let count = inputs * outputs * kernel * kernel
            let weights = flat[offset..<(offset + count)]
            offset += count
            let bias = flat[offset..<(offset + outputs)]
            offset += outputs
            layers.append(Layer(inputs: inputs, outputs: outputs, kernel: kernel, weights: weights, bias: bias))
        }
        precondition(offset == flat.count, "weights do not match the network's shape")
        self.layers = layers
    }

    /// The weights Scripts/train-subject-prior wrote into CSubjectPriorWeights.
    static let shipped: SubjectPriorWeights = {
        var count = 0
        let start = subject_prior_weights(&count)
        return SubjectPriorWeights(flat: Array(UnsafeBufferPointer(start: start, count: count)))
    }()
}
