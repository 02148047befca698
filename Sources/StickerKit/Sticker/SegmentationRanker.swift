import FoundationEssentials
import Glibc

/// Chooses among the segmenter's candidate results for one photo, by a score learned from
/// what makes a candidate the subject: how well the subject prior agrees with it, how
/// much of the frame it takes, whether its outline follows the photo's edges, how many
/// pieces it is in, how different its colours are from the rest of the picture.
///
/// Ranking figure-ground candidates by a regression on such mid-level features follows
/// J. Carreira and C. Sminchisescu ("CPMC: Automatic Object Segmentation Using Constrained
/// Parametric Min-Cuts", PAMI 2012). The score is a linear term plus one small hidden layer
/// (16 tanh units) over the features and a one-hot of how the candidate was found, fitted
/// as a pairwise ranker (RankNet: C. Burges et al., "Learning to Rank using Gradient
/// Descent", ICML 2005; each pair of one photo's candidates whose IoU with the truth
/// differs by more than 0.05 is a sample) by Scripts/train-segmentation-ranker on
/// validation-style composites the subject prior never saw (`SegmentationRankerWeights.swift`).
/// Only differences between one photo's candidates matter, so per-photo constants are not
/// features.
package struct SegmentationRanker {
    /// How a candidate was found (see `SubjectSegmenter`).
    enum Start: Int, Sendable {
        /// The rounds from the frame's seed.
        case frame
        /// The rounds from GrabCut's central rectangle.
        case rectangle
        /// The rounds from the prior's guess.
        case guessRounds
        /// The prior's guess itself (p > 0.5), left for the refinement to carve.
        case guess

        /// Its name in the training samples.
        var name: String { SegmentationRanker.startNames[rawValue] }
    }

    /// One candidate result at the search's size, with its agreement with the prior's guess
    /// (which decides whether the search goes on before any ranker is made).
    struct Candidate {
        let start: Start
        let labels: [UInt8]
        /// Soft IoU of its silhouette (holes filled) with the guess: on its coarse grid
        /// the prior has no room for holes (see `SubjectSegmenter`).
        let agreement: Float

        /// `labels` (`width` x `height`), found from `start`, held against `guess`
        /// (probabilities on the same grid).
        init(_ start: Start, _ labels: [UInt8], width: Int, height: Int, guess: [Float]) {
            self.start = start
            self.labels = labels
            let silhouette = ForegroundMask(width: width, height: height, values: labels).silhouette.values
            agreement = SubjectPrior.agreement(silhouette, guess)
        }
    }

    /// The feature names, in the order `features` returns them and the weights apply.
    package static let featureNames = ["agreement", "labelAgreement", "area", "frameShare", "priorInside",
                                       "priorCaptured", "edgeContrast", "regions", "largestShare", "outlineLength",
                                       "colourOverlap", "colourDistance", "centroidOffset", "sidesTouched"]

    /// The `Start`s' names, in their order (the score's last inputs, one-hot).
    static let startNames = ["frame", "rectangle", "guessRounds", "guess"]

    /// Colour histogram bins per channel (of 256 levels).
    private static let binsPerChannel = 8

    let width: Int
    let height: Int
    private let colors: [SIMD3<Float>]
    private let guess: [Float]
    private let inBand: [Bool]
    private let guessTotal: Float
    private let bandCount: Int
    /// Mean squared colour difference of 4-neighbours over the whole picture.
    private let meanContrast: Float
    /// Each pixel's colour histogram bin, and the whole picture's histogram and colour sum.
    private let colourBins: [Int32]
    private let pictureHistogram: [Float]
    private let pictureColourSum: SIMD3<Float>

    /// A ranker for candidates on `image`, given the prior's `guess` (probabilities on the
    /// same grid) and the frame band.
    init(image: WorkingImage, guess: [Float], inBand: [Bool]) {
        width = image.width
        height = image.height
        colors = image.colors
        self.guess = guess
        self.inBand = inBand
        guessTotal = guess.reduce(0, +)
        bandCount = inBand.reduce(0) { $0 + ($1 ? 1 : 0) }
        var sum: Float = 0, count = 0
        SegmentationRanker.forEachNeighbourPair(width: image.width, height: image.height) { i, j in
            let d = image.colors[i] - image.colors[j]
            sum += (d * d).sum()
            count += 1
        }
        meanContrast = sum / Float(max(1, count))
        // One flat pass for the bins, the histogram and the colour sum (a `map` over SIMD
        // conversions cost more than the rest of the ranking together).
        let bins = SegmentationRanker.binsPerChannel, binWidth = Float(256 / bins), lastBin = Float(bins - 1)
        var histogram = [Float](repeating: 0, count: bins * bins * bins)
        var colourSum = SIMD3<Float>()
        colourBins = [Int32](unsafeUninitializedCapacity: image.colors.count) { colourBins, initialized in
            image.colors.withUnsafeBufferPointer { colors in
                // Clamped, then truncated: the floor of the bin, within 0...bins - 1.
                func bin(_ value: Float) -> Int { Int(min(max(value / binWidth, 0), lastBin)) }
                for (index, colour) in colors.enumerated() {
                    let bin = (bin(colour.x) * bins + bin(colour.y)) * bins + bin(colour.z)
                    colourBins[index] = Int32(bin)
                    histogram[bin] += 1
                    colourSum += colour
                }
            }
            initialized = image.colors.count
        }
        pictureHistogram = histogram
        pictureColourSum = colourSum
    }

    /// The candidate's features, in `featureNames`' order: the silhouette's and the
    /// labels' agreement with the guess; its share of the picture and of the frame band;
    /// the guess's mean inside it and the share of the guess's mass it holds; the log
    /// ratio of the colour contrast across its outline to the picture's mean contrast;
    /// log(1 + its regions), the largest region's share of it, and its outline's length
    /// over the square root of its area; the overlap of its colours with the rest of the
    /// picture's (the Bhattacharyya coefficient of their 8x8x8-bin RGB histograms) and the
    /// distance between their mean colours (over 255); its centroid's distance from the
    /// picture's centre over half the diagonal; and how many of the frame's four sides it
    /// reaches.
    func features(_ candidate: Candidate) -> [Float] {
        let labels = candidate.labels
        var area = 0, inFrame = 0
        var guessInside: Float = 0
        var histogram = [Float](repeating: 0, count: pictureHistogram.count)
        var colourSum = SIMD3<Float>(), centroid = SIMD2<Float>()
        var reachesTop = false, reachesBottom = false, reachesLeft = false, reachesRight = false
        for i in labels.indices where labels[i] != 0 {
            area += 1
            if inBand[i] { inFrame += 1 }
            guessInside += guess[i]
            histogram[Int(colourBins[i])] += 1
            colourSum += colors[i]
            let x = i % width, y = i / width
            centroid += SIMD2(Float(x), Float(y))
            reachesTop = reachesTop || y == 0
            reachesBottom = reachesBottom || y == height - 1
            reachesLeft = reachesLeft || x == 0
            reachesRight = reachesRight || x == width - 1
        }
        var outlineContrast: Float = 0, outline = 0
        SegmentationRanker.forEachNeighbourPair(width: width, height: height) { i, j in
            guard labels[i] != labels[j] else { return }
            let d = colors[i] - colors[j]
            outlineContrast += (d * d).sum()
            outline += 1
        }
        let regions = ForegroundMask(width: width, height: height, values: labels).regions(of: 1).sizes
        let size = Float(max(1, area)), rest = Float(max(1, labels.count - area))
        var overlap: Float = 0
        for bin in histogram.indices where histogram[bin] > 0 {
            overlap += (histogram[bin] / size * (pictureHistogram[bin] - histogram[bin]) / rest).squareRoot()
        }
        let meanDifference = colourSum / size - (pictureColourSum - colourSum) / rest
        let offset = centroid / size - SIMD2(Float(width - 1), Float(height - 1)) / 2
        let halfDiagonal = Float(width * width + height * height).squareRoot() / 2
        let sides = [reachesTop, reachesBottom, reachesLeft, reachesRight].filter { $0 }.count
        return [candidate.agreement, SubjectPrior.agreement(labels, guess), Float(area) / Float(labels.count),
                Float(inFrame) / Float(max(1, bandCount)), guessInside / size, guessInside / max(1e-3, guessTotal),
                log((outlineContrast / Float(max(1, outline)) + 1) / (meanContrast + 1)),
                log(Float(regions.count + 1)), Float(regions.max() ?? 0) / size, Float(outline) / size.squareRoot(),
                overlap, (meanDifference * meanDifference).sum().squareRoot() / 255,
                (offset * offset).sum().squareRoot() / halfDiagonal, Float(sides)]
    }

    /// The candidate's score: higher is more likely the subject.
    func score(_ candidate: Candidate) -> Float {
        let inputs = features(candidate) + SegmentationRanker.startNames.indices.map { $0 == candidate.start.rawValue ? 1 : 0 }
        func dot(_ weights: [Float]) -> Float { zip(weights, inputs).reduce(0) { $0 + $1.0 * $1.1 } }
        var score = SegmentationRanker.bias + dot(SegmentationRanker.linearWeights)
        for unit in SegmentationRanker.hiddenWeights.indices {
            score += SegmentationRanker.outputWeights[unit]
                * tanh(SegmentationRanker.hiddenBiases[unit] + dot(SegmentationRanker.hiddenWeights[unit]))
        }
        return score
    }

    /// The best-scoring candidate (the first of equals).
    func best(of candidates: [Candidate]) -> Candidate? {
        let scores = candidates.map(score)
        let best = scores.indices.max { scores[$0] < scores[$1] || (scores[$0] == scores[$1] && $0 > $1) }
        return best.map { candidates[$0] }
    }

    /// Calls `body(i, j)` for every pixel i and its right and lower neighbour j.
    private static func forEachNeighbourPair(width: Int, height: Int, _ body: (Int, Int) -> Void) {
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                if x + 1 < width { body(i, i + 1) }
                if y + 1 < height { body(i, i + width) }
            }
        }
    }
}

/// One candidate of one photo, for fitting the ranker (`SubjectSegmenter.rankingSamples`).
package struct RankingSample: Sendable {
    /// How it was found (`SegmentationRanker.Start.name`).
    package var start: String
    /// `SegmentationRanker.features`, in `SegmentationRanker.featureNames`' order.
    package var features: [Float]
    /// Its IoU with the true subject at the search's size.
    package var iou: Double
}
