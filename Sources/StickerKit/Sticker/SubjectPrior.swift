import Foundation

/// A learned guess of where the subject is: a small fully convolutional network (a U-Net,
/// Ronneberger, Fischer, Brox 2015, shrunk to 50k weights) that reads the photo squashed
/// to 96x96, with two coordinate channels, and answers a subject probability on a 48x48
/// grid. Scripts/train-subject-prior trains it on composites of Tux Paint's stamps (none
/// of the dev set's or the validation sets'), a quarter of them framed close, and writes
/// the weights this reads. Too coarse to cut with, it arbitrates between segmentations
/// and, when it doubts them all, seeds one more (`SubjectSegmenter`).
struct SubjectPrior: Sendable {
    /// The side of the network's input.
    static let inputSide = 96
    /// The side of its output.
    static let outputSide = 48

    /// Logits on the output grid, row-major.
    let logits: [Float]

    init(_ image: WorkingImage) {
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
        let layer = SubjectPriorWeights.shipped.layers
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
        var result = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { result[y * width + x] = probability(x: x, y: y, width: width, height: height) }
        }
        return result
    }

    /// The probability at pixel (`x`, `y`) of a `width` x `height` grid (bilinear in the logits).
    @inline(__always)
    func probability(x: Int, y: Int, width: Int, height: Int) -> Float {
        let side = SubjectPrior.outputSide
        let v = min(max((Float(y) + 0.5) * Float(side) / Float(height) - 0.5, 0), Float(side - 1))
        let y0 = min(Int(v), side - 2), fy = v - Float(y0)
        let u = min(max((Float(x) + 0.5) * Float(side) / Float(width) - 0.5, 0), Float(side - 1))
        let x0 = min(Int(u), side - 2), fx = u - Float(x0)
        let top = logits[y0 * side + x0] * (1 - fx) + logits[y0 * side + x0 + 1] * fx
        let bottom = logits[(y0 + 1) * side + x0] * (1 - fx) + logits[(y0 + 1) * side + x0 + 1] * fx
        let logit = top * (1 - fy) + bottom * fy
        return 1 / (1 + exp(-logit))
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
