import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// `SegmentationRanker`: what its features measure on a generated scene, which candidate
/// it picks, and the training samples `SubjectSegmenter.rankingSamples` makes.
@Suite struct SegmentationRankerTests {
    /// A disc on a textured background at the search's size, its true labels, and a soft
    /// blob where the prior would guess the subject.
    private func scene() -> (image: WorkingImage, truth: [UInt8], guess: [Float], inBand: [Bool]) {
        let width = 200, height = 150
        let rendered = Scene(width: width, height: height, background: .texture([120, 140, 90], amplitude: 25),
                             shapes: [(.disc(x: 100, y: 75, radius: 35), [200, 60, 50])]).render()
        let colors = (0..<(width * height)).map { i in
            SIMD3<Float>(Float(rendered.image.pixels[i * 4]), Float(rendered.image.pixels[i * 4 + 1]),
                         Float(rendered.image.pixels[i * 4 + 2]))
        }
        var guess = [Float](repeating: 0, count: width * height)
        var inBand = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let distance = (Float((x - 100) * (x - 100) + (y - 75) * (y - 75))).squareRoot()
                guess[y * width + x] = 1 / (1 + exp((distance - 38) / 5))
                inBand[y * width + x] = x < 3 || y < 3 || x >= width - 3 || y >= height - 3
            }
        }
        return (WorkingImage(width: width, height: height, colors: colors), rendered.mask.map { $0 >= 0.5 ? 1 : 0 },
                guess, inBand)
    }

    /// `labels` moved right by `dx` pixels.
    private func shifted(_ labels: [UInt8], width: Int, by dx: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: labels.count)
        for index in labels.indices where labels[index] == 1 && index % width + dx < width {
            result[index + dx] = 1
        }
        return result
    }

    @Test func picksTheCandidateOnThePhotosEdgesAndOffTheFrame() {
        let (image, truth, guess, inBand) = scene()
        let ranker = SegmentationRanker(image: image, guess: guess, inBand: inBand)
        let off = shifted(truth, width: image.width, by: 8)
        var framed = truth   // the disc and a strip along the bottom of the frame
        for index in (image.width * (image.height - 12))..<truth.count { framed[index] = 1 }
        var pieces = truth   // the disc and a scatter of specks
        for index in stride(from: image.width * 20 + 15, to: image.width * 130, by: 997) { pieces[index] = 1 }

        func candidate(_ labels: [UInt8]) -> SegmentationRanker.Candidate {
            SegmentationRanker.Candidate(.guessRounds, labels, width: image.width, height: image.height, guess: guess)
        }
        func features(_ labels: [UInt8]) -> [Float] { ranker.features(candidate(labels)) }
        let onEdges = features(truth), offEdges = features(off)
        let edgeContrast = SegmentationRanker.featureNames.firstIndex(of: "edgeContrast")!
        let frameShare = SegmentationRanker.featureNames.firstIndex(of: "frameShare")!
        let regions = SegmentationRanker.featureNames.firstIndex(of: "regions")!
        #expect(onEdges.count == SegmentationRanker.featureNames.count)
        #expect(onEdges[edgeContrast] > offEdges[edgeContrast] + 1)
        #expect(onEdges[frameShare] == 0 && features(framed)[frameShare] > 0.1)
        #expect(features(pieces)[regions] > onEdges[regions])
        // The disc's red against the green texture: its colours barely overlap the rest's,
        // and the shifted disc's take in both.
        let overlap = SegmentationRanker.featureNames.firstIndex(of: "colourOverlap")!
        let distance = SegmentationRanker.featureNames.firstIndex(of: "colourDistance")!
        #expect(onEdges[overlap] < 0.05 && offEdges[overlap] > onEdges[overlap] + 0.1)
        #expect(onEdges[distance] > 0.3 && offEdges[distance] < onEdges[distance])
        let offset = SegmentationRanker.featureNames.firstIndex(of: "centroidOffset")!
        let sides = SegmentationRanker.featureNames.firstIndex(of: "sidesTouched")!
        #expect(onEdges[offset] < 0.01 && abs(offEdges[offset] - 8 / 125) < 0.01)
        #expect(onEdges[sides] == 0 && features(framed)[sides] == 3)

        let candidates = [off, framed, pieces, truth].map(candidate)
        #expect(ranker.best(of: candidates)?.labels == truth)
        #expect(ranker.best(of: []) == nil)
    }

    /// The weights fit the inputs the score builds (the features, then one per start), and
    /// the hidden layer is used: a score differs from the linear term alone.
    @Test func weightsMatchTheScoresInputs() {
        let inputs = SegmentationRanker.featureNames.count + SegmentationRanker.startNames.count
        #expect(SegmentationRanker.linearWeights.count == inputs)
        #expect(!SegmentationRanker.hiddenWeights.isEmpty)
        #expect(SegmentationRanker.hiddenWeights.allSatisfy { $0.count == inputs })
        #expect(SegmentationRanker.hiddenBiases.count == SegmentationRanker.hiddenWeights.count)
        #expect(SegmentationRanker.outputWeights.count == SegmentationRanker.hiddenWeights.count)

        let (image, truth, guess, inBand) = scene()
        let ranker = SegmentationRanker(image: image, guess: guess, inBand: inBand)
        let candidate = SegmentationRanker.Candidate(.frame, truth, width: image.width, height: image.height, guess: guess)
        let linear = zip(ranker.features(candidate) + [1, 0, 0, 0], SegmentationRanker.linearWeights)
            .reduce(SegmentationRanker.bias) { $0 + $1.0 * $1.1 }
        #expect(abs(ranker.score(candidate) - linear) > 1e-3)
    }

    /// Every candidate of a photo comes with its features and its IoU with the truth, and
    /// the search's rounds find the disc.
    @Test func rankingSamplesScoreEveryCandidateAgainstTheTruth() throws {
        let samples = try rankingSamples(Scene(width: 400, height: 300, background: .texture([120, 140, 90], amplitude: 25),
                                               shapes: [(.disc(x: 200, y: 150, radius: 70), [200, 60, 50])]))
        #expect(samples.map(\.start).contains("frame") && samples.last?.start == "guess")
        #expect(samples.allSatisfy { $0.features.count == SegmentationRanker.featureNames.count })
        #expect(samples.allSatisfy { (0...1).contains($0.iou) })
        #expect((samples.map(\.iou).max() ?? 0) > 0.95)
    }

    /// When only the prior's guess finds a subject (a disc cut by the frame, in noise that
    /// gives the frame's model its colours: SubjectSegmenterTests'
    /// `aCertainGuessStartsTheSubjectTheColoursMissed`), the rounds from the guess are
    /// ranked against the guess itself, as every other search's results are.
    @Test func aSubjectOnlyTheGuessFindsIsRankedAgainstTheGuess() throws {
        var scene = Scene(width: 480, height: 360, background: .plain([130, 120, 110]),
                          shapes: [(.disc(x: 430, y: 190, radius: 100), [190, 70, 60])])
        scene.noise = 60
        let samples = try rankingSamples(scene)
        #expect(samples.map(\.start) == ["guessRounds", "guess"])
        #expect((samples.map(\.iou).max() ?? 0) > 0.9, "IoUs \(samples.map(\.iou))")
    }

    /// The ranker's training samples for `scene`'s photo, against its own mask.
    private func rankingSamples(_ scene: Scene) throws -> [RankingSample] {
        let rendered = scene.render()
        var truth = RGBAImage(width: scene.width, height: scene.height,
                              pixels: [UInt8](repeating: 255, count: scene.width * scene.height * 4))
        for (index, alpha) in rendered.mask.enumerated() {
            for channel in 0..<3 { truth.pixels[index * 4 + channel] = UInt8((alpha * 255).rounded()) }
        }
        return try SubjectSegmenter.rankingSamples(rendered.image, workingSize: 400, truth: truth)
    }
}
