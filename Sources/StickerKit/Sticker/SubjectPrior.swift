import FoundationEssentials
import Glibc

/// A learned guess of where the subject is: a small fully convolutional network (a U-Net,
/// Ronneberger, Fischer, Brox 2015, shrunk to 50k weights) that reads the photo squashed
/// to 96x96, with two coordinate channels, and answers a subject probability on a 48x48
/// grid. Scripts/train-subject-prior trains it on composites of Tux Paint's stamps (none
/// of the dev set's or the validation sets'), a quarter of them framed close, and of
/// synthetic objects (a quarter; Scripts/synthetic_subjects.py), and writes the weights
/// this reads. Too coarse to cut with, it arbitrates between segmentations
/// and, when it doubts them all, seeds one more (`SubjectSegmenter`).
///
/// That network has seen subjects up to 60% of the picture, and one that fills it
/// (cut by two or more edges, most of the frame on it) it calls small or misses: the
/// segmenter then keeps the background the frame leaves visible. A second network of the
/// same shape, the fill network, trained with 7% of its composites framed to fill the
/// picture, finds those, but is less sure of a small subject at an edge and takes
/// foliage for subject more often. So both run, and the fill network's guess is the one
/// used when it covers at least `fillGate` of the grid, or at least `fillFloor` and twice
/// what the shipped network's covers (see each for what it measured); the refinement's
/// cuts then weigh it too (`SubjectSegmenter.fillGuessWeight`).
struct SubjectPrior: Sendable {
    /// The side of the network's input.
    static let inputSide = 96
    /// The side of its output.
    static let outputSide = 48

    /// The share of the output grid the fill network's guess (p > 0.5) must cover for it
    /// to be used. Over the validation sets the fill network's guess covered half the grid
    /// on 6 of 720 photos (seeds 1-12), 9 of 240 close-ups and 81 of the 120 whose subject
    /// fills the picture (`make-validation-set --fill`, seeds 1-2). Used there (algorithm
    /// version 39 against 38): frame-filling subjects 0.552 / 0.575 -> 0.743 / 0.761 mIoU,
    /// seeds 1-4 0.9166 -> 0.9164, seeds 5-12 0.9000 -> 0.8980 (two photos before foliage,
    /// the foliage taken with them), close-ups 0.886 -> 0.886, the dev set 0.905 -> 0.910
    /// (a race car cut by the frame 0.90 -> 0.97). At 0.45: fill 0.749 / 0.785, seeds
    /// 0.9154 / 0.8980; of that run's gain on the fill sets, the photos 0.55 and 0.6 would
    /// still switch hold about three quarters and two fifths. With the ranker refitted on
    /// the gated guesses, fill sets among its training (version 40): fill 0.753 / 0.792,
    /// seeds 0.9175 / 0.8999, close-ups 0.887, the dev set 0.912. Below the gate, the two
    /// networks may still disagree (`fillFloor`).
    static let fillGate: Float = 0.5

    /// Below `fillGate`, the fill network's guess is still used when it covers at least
    /// this share of the grid and `fillOverShipped` times the shipped network's: the two
    /// disagree about the subject's size in the way the shipped network fails on a
    /// subject that fills the picture (calling it small). Since version 52; before it, a
    /// banana, a golden pig and an eye filling the picture scored 0.20, 0.10 and 0.17 IoU
    /// (fill sets, seeds 1 and 2: their fill networks covered 0.44-0.46 of the grid, the
    /// shipped ones 0.09-0.20), 0.90, 0.98 and 0.89 with it. Over fill seeds 1-2, as
    /// generated and two perturbed copies of each, 0.789 / 0.787 -> 0.801 / 0.813 mIoU and
    /// every changed photo up (11); on fill seeds 3-4, which no choice here looked at,
    /// 0.694 / 0.680 -> 0.705 / 0.728 (a sheep, an owl, a bear and Uranus 0.00-0.32 ->
    /// 0.99-1.00, nothing down); close-ups (seeds 1-2), the dev set and the subject-free
    /// sets (seeds 1-2: 34 and 34 of 60 "no subject found") unchanged; on
    /// validation seeds 1-12 a marmot small among foliage 0.99 -> 0.22 (the fill network
    /// took the foliage, 0.45 of the grid against 0.11), a cherimoya up 0.005, nothing
    /// else changed. At the gate alone lowered to 0.45 instead, fill seed 1 lost a mermaid
    /// and a fortress (0.64 -> 0.45, 0.96 -> 0.40), networks within a third of each other.
    static let fillFloor: Float = 0.4
    /// See `fillFloor`.
    static let fillOverShipped: Float = 2

    /// Logits on the output grid, row-major.
    let logits: [Float]
    /// Whether they are the fill network's: the guess is that the subject fills the picture.
    let isFillNetworkGuess: Bool

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
        let fill = SubjectPrior.logits(of: .fillNetwork, input)
        let fillArea = SubjectPrior.area(fill)
        guard fillArea < SubjectPrior.fillGate else {
            (logits, isFillNetworkGuess) = (fill, true)
            return
        }
        let shipped = SubjectPrior.logits(of: .shipped, input)
        let trustsFill = SubjectPrior.trustsFillNetwork(fillArea: fillArea, shippedArea: SubjectPrior.area(shipped))
        (logits, isFillNetworkGuess) = trustsFill ? (fill, true) : (shipped, false)
    }

    /// Whether the fill network's guess is the one used, given the shares of the grid that
    /// each network's guess calls subject (`fillGate`, `fillFloor`).
    static func trustsFillNetwork(fillArea: Float, shippedArea: Float) -> Bool {
        fillArea >= fillGate || (fillArea >= fillFloor && fillArea >= fillOverShipped * shippedArea)
    }

    /// The share of `logits` that calls its cell subject (p > 0.5).
    private static func area(_ logits: [Float]) -> Float {
        Float(logits.reduce(0) { $1 > 0 ? $0 + 1 : $0 }) / Float(logits.count)
    }

    /// The network with `weights` applied to `input` (96x96, five channels interleaved).
    private static func logits(of weights: SubjectPriorWeights, _ input: [Float]) -> [Float] {
        let layer = weights.layers
        let a = FeatureMaps(input, channels: 5, side: inputSide).convolved(layer[0], relu: true)
        let b = a.pooled().convolved(layer[1], relu: true).convolved(layer[2], relu: true)
        let c = b.pooled().convolved(layer[3], relu: true).convolved(layer[4], relu: true)
        let e = c.pooled().convolved(layer[5], relu: true).convolved(layer[6], dilation: 2, relu: true)
        let f = e.upsampled(joining: c).convolved(layer[7], relu: true)
        let g = f.upsampled(joining: b).convolved(layer[8], relu: true)
        return g.convolved(layer[9], relu: false).values
    }

    /// The probability at each pixel of a `width` x `height` grid (bilinear).
    func probabilities(width: Int, height: Int) -> [Float] {
        grid(width: width, height: height) { x, y in probability(x: x, y: y, width: width, height: height) }
    }

    /// `scale` times the log-odds at each pixel of a `width` x `height` grid (bilinear), held
    /// within those of 0.01 and 0.99 (a term for a cut's preferences).
    func logOdds(width: Int, height: Int, scaledBy scale: Float) -> [Float] {
        let bound = log(Float(99))
        return grid(width: width, height: height) { x, y in
            scale * min(max(logit(x: x, y: y, width: width, height: height), -bound), bound)
        }
    }

    /// `value` at each pixel of a `width` x `height` grid, row-major.
    private func grid(width: Int, height: Int, _ value: (_ x: Int, _ y: Int) -> Float) -> [Float] {
        var result = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { result[y * width + x] = value(x, y) }
        }
        return result
    }

    /// The probability at pixel (`x`, `y`) of a `width` x `height` grid (bilinear in the logits).
    @inline(__always)
    func probability(x: Int, y: Int, width: Int, height: Int) -> Float {
        1 / (1 + exp(-logit(x: x, y: y, width: width, height: height)))
    }

    /// The logit at pixel (`x`, `y`) of a `width` x `height` grid, bilinear between the cells'.
    @inline(__always)
    private func logit(x: Int, y: Int, width: Int, height: Int) -> Float {
        let side = SubjectPrior.outputSide
        let v = min(max((Float(y) + 0.5) * Float(side) / Float(height) - 0.5, 0), Float(side - 1))
        let y0 = min(Int(v), side - 2), fy = v - Float(y0)
        let u = min(max((Float(x) + 0.5) * Float(side) / Float(width) - 0.5, 0), Float(side - 1))
        let x0 = min(Int(u), side - 2), fx = u - Float(x0)
        let top = logits[y0 * side + x0] * (1 - fx) + logits[y0 * side + x0 + 1] * fx
        let bottom = logits[(y0 + 1) * side + x0] * (1 - fx) + logits[(y0 + 1) * side + x0 + 1] * fx
        return top * (1 - fy) + bottom * fy
    }

    /// How well `mask` agrees with the guess: the soft IoU of its silhouette (holes filled:
    /// the guess has no room for them) with the probabilities, over every `step`-th pixel
    /// each way so that about 96 x 96 are read. A sticker's `confidence`: over the
    /// validation and dev sets (1,088 stickers, version 48), it tells the stickers under
    /// 0.5 IoU from the rest with an area under the ROC curve of 0.89 (0.76 for under 0.9).
    func agreement(with mask: ForegroundMask) -> Float {
        let silhouette = mask.silhouette.values
        let step = max(1, max(mask.width, mask.height) / 96)
        var labels: [UInt8] = [], probabilities: [Float] = []
        for y in stride(from: step / 2, to: mask.height, by: step) {
            for x in stride(from: step / 2, to: mask.width, by: step) {
                labels.append(silhouette[y * mask.width + x])
                probabilities.append(probability(x: x, y: y, width: mask.width, height: mask.height))
            }
        }
        return SubjectPrior.agreement(labels, probabilities)
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
