@testable import StickerKit
import Testing

/// One GrabCut round of `SubjectSegmenter` with and without trimming the subject's model.
@Suite struct SubjectSegmenterTests {
    /// A red disc labelled subject together with a white patch beside it, while white also
    /// covers a strip of the background: the state GrabCut's rounds reach when a cut pulls
    /// background in beside the subject.
    private func scene() -> (image: WorkingImage, labels: [UInt8], patch: [Int], disc: [Int]) {
        let width = 120, height = 90
        var colors = [SIMD3<Float>](repeating: .zero, count: width * height)
        var labels = [UInt8](repeating: 0, count: width * height)
        var patch: [Int] = [], disc: [Int] = []
        var generator = SplitMix64(seed: 7)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                var color: SIMD3<Float> = [200, 150, 100]   // tan
                if (x - 45) * (x - 45) + (y - 40) * (y - 40) < 20 * 20 {
                    color = [200, 40, 40]
                    labels[index] = 1
                    disc.append(index)
                } else if x >= 66 && x < 86 && y >= 25 && y < 55 {
                    color = [235, 235, 235]
                    labels[index] = 1
                    patch.append(index)
                } else if y >= 62 {
                    color = [235, 235, 235]
                }
                let noise = SIMD3<Float>((0..<3).map { _ in Float(generator.nextUnit() * 8 - 4) })
                colors[index] = color + noise
            }
        }
        return (WorkingImage(width: width, height: height, colors: colors), labels, patch, disc)
    }

    /// Untrimmed, the patch is a third of the subject's pixels, so the subject's model
    /// explains white better than the background's and the patch holds itself in the
    /// subject; trimmed, white is typical of the background and never enters the
    /// subject's model, and the cut hands the patch back. The disc stays either way.
    @Test(arguments: [false, true])
    func trimmingHandsBackgroundTakenForSubjectBack(trimming: Bool) {
        let (image, labels, patch, disc) = scene()
        let segmenter = SubjectSegmenter()
        let next = segmenter.cut(SubjectSegmenter.features(of: image), labels: labels,
                                 inBand: [Bool](repeating: false, count: labels.count),
                                 edges: ContrastEdges(image, weight: segmenter.smoothness * SubjectSegmenter.unit),
                                 trimmingSubject: trimming)
        let patchKept = patch.filter { next[$0] == 1 }.count
        let discKept = disc.filter { next[$0] == 1 }.count
        #expect(discKept * 100 >= disc.count * 99, "disc kept: \(discKept) of \(disc.count)")
        if trimming {
            #expect(patchKept * 100 <= patch.count, "patch still subject: \(patchKept) of \(patch.count)")
        } else {
            #expect(patchKept * 100 >= patch.count * 99, "patch dropped: \(patch.count - patchKept) of \(patch.count)")
        }
    }
}
