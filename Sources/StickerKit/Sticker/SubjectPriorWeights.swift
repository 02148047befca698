import CSubjectPriorWeights

/// The network's weights, layer by layer in the order `SubjectPrior` applies them.
struct SubjectPriorWeights: Sendable {
    /// One convolution (3x3 or 1x1) with its bias, packed for `FeatureMaps.convolved`.
    struct Layer: Sendable {
        let inputs: Int
        let outputs: Int
        let kernel: Int
        /// Output channels in vectors of eight, the last one padded.
        var blocks: Int { (outputs + 7) / 8 }
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
            let taps = kernel * kernel, blocks = (outputs + 7) / 8
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
            self.packed = packed
            self.packedBias = packedBias
        }
    }

    let layers: [Layer]

    /// (inputs, outputs, kernel) of each layer, as Scripts/train-subject-prior's `LAYERS`.
    static let shapes = [(5, 8, 3), (8, 16, 3), (16, 16, 3), (16, 32, 3), (32, 32, 3), (32, 32, 3), (32, 32, 3),
                         (64, 16, 3), (32, 16, 3), (16, 1, 1)]

    /// Layers from one flat array: per layer, its weights in PyTorch's order, then its bias.
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
    static let shipped = SubjectPriorWeights(subject_prior_weights)

    /// The fill network's weights (`Scripts/train-subject-prior --fill-network`), which
    /// `SubjectPrior` consults for subjects that fill the picture.
    static let fillNetwork = SubjectPriorWeights(fill_subject_prior_weights)

    /// The weights a C function of CSubjectPriorWeights returns.
    private init(_ weights: (UnsafeMutablePointer<Int>?) -> UnsafePointer<Float>?) {
        var count = 0
        let start = weights(&count)
        self.init(flat: Array(UnsafeBufferPointer(start: start, count: count)))
    }
}
