import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// `SubjectSegmenter`: one GrabCut round with and without trimming the subject's model or
/// learning its small holes' colours, and the subject prior's choice between the seeded
/// and the rectangle's results.
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

    /// The shares of `scene()`'s patch and disc labelled subject after one round at
    /// `smoothness`, trimming the subject's model or not; with `sure`, each pixel's
    /// preference for the subject moves by it on the disc and by minus it elsewhere.
    private func sceneAfterOneRound(smoothness: Float, trimming: Bool,
                                    favouringTheDiscBy sure: Float? = nil) -> (patch: Double, disc: Double) {
        let (image, labels, patch, disc) = scene()
        let lab = image.inCIELAB()
        let bias = sure.map { sure in
            var bias = [Float](repeating: -sure, count: labels.count)
            for index in disc { bias[index] = sure }
            return bias
        }
        let next = SubjectSegmenter().cut(SubjectSegmenter.features(of: image, lab: lab), labels: labels,
                                          inBand: [Bool](repeating: false, count: labels.count),
                                          graph: GridMaxFlow(ContrastEdges(lab, weight: smoothness * SubjectSegmenter.unit)),
                                          trimmingSubject: trimming, favouring: bias)
        func share(_ pixels: [Int]) -> Double { Double(pixels.filter { next[$0] == 1 }.count) / Double(pixels.count) }
        return (share(patch), share(disc))
    }

    /// A round with nothing labelled subject (or nothing background) has no model to fit
    /// and hands the labels back. Many at once, as a batch of subject-free photos runs
    /// them: under ThreadSanitizer this caught the empty index lists writing into the
    /// standard library's shared empty-array storage.
    @Test func roundsWithOneLabelRunAtOnceAndKeepTheirLabels() async {
        let (image, labels, _, _) = scene()
        let segmenter = SubjectSegmenter()
        let lab = image.inCIELAB()
        let features = SubjectSegmenter.features(of: image, lab: lab)
        let edges = ContrastEdges(lab, weight: segmenter.smoothness * SubjectSegmenter.unit)
        let inBand = [Bool](repeating: false, count: labels.count)
        let uniform: [[UInt8]] = [[UInt8](repeating: 0, count: labels.count), [UInt8](repeating: 1, count: labels.count)]
        let unchanged = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<4 {
                group.addTask {
                    let graph = GridMaxFlow(edges)
                    return (0..<500).allSatisfy { _ in
                        let start = uniform[task % 2]
                        return segmenter.cut(features, labels: start, inBand: inBand, graph: graph, trimmingSubject: true) == start
                    }
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(unchanged)
    }

    /// Untrimmed, the patch is a third of the subject's pixels, so the subject's model
    /// explains white better than the background's and the patch holds itself in the
    /// subject; trimmed, white is typical of the background and never enters the
    /// subject's model, and the cut hands the patch back. The disc stays either way.
    @Test(arguments: [false, true])
    func trimmingHandsBackgroundTakenForSubjectBack(trimming: Bool) {
        let segmenter = SubjectSegmenter()
        let kept = sceneAfterOneRound(smoothness: segmenter.smoothness, trimming: trimming)
        #expect(kept.disc >= 0.99, "disc kept: \(kept.disc)")
        if trimming {
            #expect(kept.patch <= 0.01, "patch still subject: \(kept.patch)")
        } else {
            #expect(kept.patch >= 0.99, "patch kept: \(kept.patch)")
        }
    }

    /// A red disc with a small black spot and a larger hole showing the tan backdrop, whose
    /// bottom is a dark grey strip, labelled as the search leaves such a subject: both
    /// enclosed regions background. Without learning holes, the subject's model knows only
    /// red, the backdrop's dark grey explains black better, and the spot stays a hole; with
    /// the refinement's share, the spot (4% of the subject) teaches the subject's model
    /// black and the cut fills it, while the hole (a fifth of the subject) stays open.
    @Test(arguments: [false, true])
    func smallHolesTeachTheSubjectsModelItsColours(learning: Bool) {
        let width = 120, height = 90
        var colors = [SIMD3<Float>](repeating: .zero, count: width * height)
        var labels = [UInt8](repeating: 0, count: width * height)
        var spot: [Int] = [], hole: [Int] = [], rest: [Int] = []
        var generator = SplitMix64(seed: 11)
        let spotShape = Scene.Shape.disc(x: 38, y: 34, radius: 4), holeShape = Scene.Shape.disc(x: 53, y: 46, radius: 9)
        let discShape = Scene.Shape.disc(x: 45, y: 40, radius: 22)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                var color: SIMD3<Float> = y >= 62 ? [60, 60, 60] : [200, 150, 100]
                // More than half covered: the pixel's centre lies inside the shape.
                if spotShape.coverage(Double(x), Double(y)) > 0.5 {
                    color = [10, 10, 10]
                    spot.append(index)
                } else if holeShape.coverage(Double(x), Double(y)) > 0.5 {
                    hole.append(index)
                } else if discShape.coverage(Double(x), Double(y)) > 0.5 {
                    color = [200, 40, 40]
                    labels[index] = 1
                    rest.append(index)
                }
                colors[index] = color + SIMD3<Float>((0..<3).map { _ in Float(generator.nextUnit() * 8 - 4) })
            }
        }
        let image = WorkingImage(width: width, height: height, colors: colors)
        let segmenter = SubjectSegmenter(), lab = image.inCIELAB()
        let next = segmenter.cut(SubjectSegmenter.features(of: image, lab: lab), labels: labels,
                                 inBand: [Bool](repeating: false, count: labels.count),
                                 graph: GridMaxFlow(ContrastEdges(lab, weight: segmenter.fineSmoothness * SubjectSegmenter.unit)),
                                 trimmingSubject: false, learningHolesBelow: learning ? segmenter.refinementHoleShare : 0)
        let spotFilled = spot.filter { next[$0] == 1 }.count
        let holeFilled = hole.filter { next[$0] == 1 }.count
        let restKept = rest.filter { next[$0] == 1 }.count
        #expect(Double(spot.count) < segmenter.refinementHoleShare * Double(rest.count))
        #expect(Double(hole.count) > segmenter.refinementHoleShare * Double(rest.count))
        #expect(restKept * 100 >= rest.count * 99, "disc kept: \(restKept) of \(rest.count)")
        #expect(holeFilled * 100 <= hole.count, "hole filled: \(holeFilled) of \(hole.count)")
        if learning {
            #expect(spotFilled * 100 >= spot.count * 99, "spot filled: \(spotFilled) of \(spot.count)")
        } else {
            #expect(spotFilled * 100 <= spot.count, "spot filled: \(spotFilled) of \(spot.count)")
        }
    }

    /// The scene's disc and white patch labelled subject, with white also along the
    /// backdrop's bottom: untrimmed, as the refinement fits them, the colour models hold
    /// the patch in the subject. Weighed as `segment` weighs the fill network's guess, a
    /// guess sure of the disc and of nothing else hands the patch back and keeps the disc.
    @Test(arguments: [false, true])
    func theFillNetworksGuessIsATermOfTheCut(favouring: Bool) {
        let segmenter = SubjectSegmenter()
        // The guess's log-odds where it is sure (p held at 0.99 and 0.01).
        let sure = segmenter.fillGuessWeight * log(Float(0.99) / 0.01)
        let kept = sceneAfterOneRound(smoothness: segmenter.fineSmoothness, trimming: false,
                                      favouringTheDiscBy: favouring ? sure : nil)
        #expect(kept.disc >= 0.99, "disc kept: \(kept.disc)")
        if favouring {
            #expect(kept.patch <= 0.01, "patch still subject: \(kept.patch)")
        } else {
            #expect(kept.patch >= 0.99, "patch kept: \(kept.patch)")
        }
    }

    /// A red disc in the middle of a two-tone backdrop whose frame also shows red (a patch
    /// in a corner), and a small white glint near another corner that no frame colour
    /// explains: colour seeding starts from the glint and keeps it (as the segmenter does
    /// when told to trust any seeded result and to judge only regions on the frame; the
    /// refinement's local weights, which find no red background near the disc, then take
    /// the disc in beside it). Judged within `frameRegionReach` of the frame, the glint,
    /// which the prior doubts, goes even then. The rectangle's rounds carve out the disc,
    /// and the subject prior picks that result.
    @Test func subjectPriorPrefersTheCentralSubjectToABackgroundGlint() throws {
        let (image, disc, glint, redPatch) = discAndGlint(
            backdrop: { x, _ in x < 120 ? [40, 100, 50] : [190, 170, 120] }, disc: (x: 120, y: 90, radius: 40),
            glint: (x: 190, y: 20), patch: { x, y in x < 30 && y >= 150 }, seed: 5)
        let seededOnly = try subjectPixels(SubjectSegmenter(settledAgreement: 0, ranksSettledResult: false,
                                                            frameRegionReach: 0), image)
        #expect(seededOnly.isSuperset(of: glint), "seeding alone: \(seededOnly.intersection(glint).count) glint pixels")
        let seededWithReach = try subjectPixels(SubjectSegmenter(settledAgreement: 0, ranksSettledResult: false), image)
        #expect(seededWithReach.intersection(glint).isEmpty)
        let chosen = try subjectPixels(SubjectSegmenter(), image)
        let found = chosen.intersection(disc).count, stray = chosen.subtracting(disc).subtracting(redPatch).count
        #expect(found * 100 >= disc.count * 98, "disc pixels found: \(found) of \(disc.count)")
        #expect(stray * 100 <= disc.count, "backdrop pixels in the subject: \(stray)")
        #expect(chosen.intersection(glint).isEmpty)
    }

    /// A red disc cut by the frame's right edge, over a two-tone backdrop, and a small
    /// white glint near the top-left corner. The frame's model holds the disc's red, so
    /// colour seeding starts from the glint and keeps it (asserted), and the central
    /// rectangle's rounds do not find the disc either (when written, the segmenter without
    /// the third start returned the glint alone). The subject prior doubts those results;
    /// the rounds seeded with its own guess find the disc. (Since version 37, whose prior
    /// has seen close-ups, the pick keeps the glint too, as a second small subject.)
    @Test func subjectCutByTheFrameIsFoundFromThePriorsGuess() throws {
        let (image, disc, glint, _) = discAndGlint(
            backdrop: { _, y in y < 90 ? [70, 110, 170] : [120, 150, 90] }, disc: (x: 215, y: 95, radius: 50),
            glint: (x: 36, y: 24), seed: 7)
        let seededOnly = try subjectPixels(SubjectSegmenter(settledAgreement: 0, ranksSettledResult: false), image)
        #expect(seededOnly.isSuperset(of: glint) && seededOnly.intersection(disc).isEmpty,
                "seeding alone: \(seededOnly.intersection(glint).count) glint and \(seededOnly.intersection(disc).count) disc pixels")
        let chosen = try subjectPixels(SubjectSegmenter(), image)
        let found = chosen.intersection(disc).count, stray = chosen.subtracting(disc).subtracting(glint).count
        #expect(found * 100 >= disc.count * 98, "disc pixels found: \(found) of \(disc.count)")
        #expect(stray * 100 <= disc.count, "backdrop pixels in the subject: \(stray)")
    }

    /// A red disc cut by the frame's right edge and a smooth grey square in the middle, on
    /// a grey backdrop with noise of +-60 per channel, whose frame model then explains every
    /// colour in the picture: colour seeding finds nothing, and only the central
    /// rectangle's rounds can give a subject. They carve out the square (asserted). The
    /// prior doubts it, and the rounds from its guess find the disc. (Until version 17 the
    /// rectangle's result was kept whenever seeding found nothing.)
    @Test func withoutASeededSubjectThePriorsGuessCorrectsTheRectangle() throws {
        let width = 240, height = 180
        var colors = [SIMD3<Float>](repeating: .zero, count: width * height)
        var disc = Set<Int>(), square = Set<Int>()
        var generator = SplitMix64(seed: 3)
        func noise(_ amplitude: Float) -> SIMD3<Float> {
            SIMD3((0..<3).map { _ in Float(generator.nextUnit()) * 2 * amplitude - amplitude })
        }
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                if (x - 215) * (x - 215) + (y - 95) * (y - 95) < 50 * 50 {
                    colors[index] = [190, 70, 60] + noise(4)
                    disc.insert(index)
                } else if abs(x - 100) < 15 && abs(y - 90) < 15 {
                    colors[index] = [130, 120, 110] + noise(4)
                    square.insert(index)
                } else {
                    colors[index] = [130, 120, 110] + noise(60)
                }
            }
        }
        let image = WorkingImage(width: width, height: height, colors: colors)
        let rectangleOnly = try subjectPixels(SubjectSegmenter(settledAgreement: 0, ranksSettledResult: false), image)
        #expect(rectangleOnly.intersection(square).count * 10 >= square.count * 9 && rectangleOnly.intersection(disc).isEmpty,
                "rectangle alone: \(rectangleOnly.intersection(square).count) square and \(rectangleOnly.intersection(disc).count) disc pixels")
        let chosen = try subjectPixels(SubjectSegmenter(), image)
        let found = chosen.intersection(disc).count, stray = chosen.subtracting(disc).count
        #expect(found * 100 >= disc.count * 98, "disc pixels found: \(found) of \(disc.count)")
        #expect(stray * 100 <= disc.count * 2, "backdrop pixels in the subject: \(stray)")
    }

    /// A red disc cut by the frame's right edge on a grey backdrop, with noise of +-60 per
    /// channel over both, at the sizes a 480x360 photo is searched and refined at: the
    /// frame's model explains every colour (its band crosses the disc), so colour seeding
    /// finds nothing, and the central rectangle's rounds spread past it. Only the subject
    /// prior, near certain of the disc, can start a subject: without that there is none
    /// (asserted); with it the rounds from its guess find the disc.
    @Test func aCertainGuessStartsTheSubjectTheColoursMissed() throws {
        var scene = Scene(width: 480, height: 360, background: .plain([130, 120, 110]),
                          shapes: [(.disc(x: 430, y: 190, radius: 100), [190, 70, 60])])
        scene.noise = 60
        let (photo, truth) = scene.render()
        let working = WorkingImage(photo, longSide: 400), refinement = WorkingImage(photo, longSide: 480)
        let colorsOnly = try SubjectSegmenter(certainGuess: 2).segment(working, refinedAt: refinement).mask
        #expect(!ForegroundMask.holdsSubject(colorsOnly.values), "colours alone: \(ForegroundMask.area(of: colorsOnly.values)) pixels")
        let mask = try SubjectSegmenter().segment(working, refinedAt: refinement).mask
        let iou = TestFiles.iou(mask.values.map(Float.init), truth)
        #expect(iou >= 0.97, "disc IoU \(iou)")
    }

    /// A 240x180 picture with noise of +-4 per channel: the `backdrop` colour at (x, y), a
    /// red disc, a red `patch` where it says so, and a white 14x14 glint from `glint`; with
    /// the pixels of the disc, the glint and the patch.
    private func discAndGlint(backdrop: (Int, Int) -> SIMD3<Float>, disc: (x: Int, y: Int, radius: Int),
                              glint: (x: Int, y: Int), patch: (Int, Int) -> Bool = { _, _ in false },
                              seed: UInt64) -> (image: WorkingImage, disc: Set<Int>, glint: Set<Int>, patch: Set<Int>) {
        let width = 240, height = 180
        var colors = [SIMD3<Float>](repeating: .zero, count: width * height)
        var discPixels = Set<Int>(), glintPixels = Set<Int>(), patchPixels = Set<Int>()
        var generator = SplitMix64(seed: seed)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                var color = backdrop(x, y)
                if (x - disc.x) * (x - disc.x) + (y - disc.y) * (y - disc.y) < disc.radius * disc.radius {
                    color = [200, 40, 40]
                    discPixels.insert(index)
                } else if patch(x, y) {
                    color = [200, 40, 40]
                    patchPixels.insert(index)
                } else if x >= glint.x && x < glint.x + 14 && y >= glint.y && y < glint.y + 14 {
                    color = [250, 250, 250]
                    glintPixels.insert(index)
                }
                colors[index] = color + SIMD3((0..<3).map { _ in Float(generator.nextUnit() * 8 - 4) })
            }
        }
        return (WorkingImage(width: width, height: height, colors: colors), discPixels, glintPixels, patchPixels)
    }

    /// The indices of the pixels `segmenter` labels subject in `image`.
    private func subjectPixels(_ segmenter: SubjectSegmenter, _ image: WorkingImage) throws -> Set<Int> {
        let mask = try segmenter.segment(image, refinedAt: image).mask
        return Set(mask.values.indices.filter { mask.values[$0] != 0 })
    }

    /// The subject is found at working size and its outline refined at a larger size: the
    /// mask comes back at the refinement's size, follows the truth there, and keeps a bar
    /// 2.5 refinement pixels wide.
    @Test func outlineIsRefinedAtTheRefinementSize() throws {
        let scene = Scene(width: 960, height: 720, background: .texture([120, 150, 110], amplitude: 25),
                          shapes: [(.disc(x: 480, y: 330, radius: 170), [200, 60, 50]),
                                   (.bar(x0: 480, y0: 500, x1: 480, y1: 640, thickness: 5), [200, 60, 50])])
        let (photo, truth) = scene.render()
        let mask = try SubjectSegmenter().segment(WorkingImage(photo, longSide: 400),
                                                  refinedAt: WorkingImage(photo, longSide: 480)).mask
        #expect(mask.width == 480 && mask.height == 360)
        // The truth at the refinement's size: 2x2 box averages.
        var expected = [Float](repeating: 0, count: 480 * 360), bar = 0, barFound = 0
        for y in 0..<360 {
            for x in 0..<480 {
                let top = 2 * y * 960 + 2 * x, bottom = top + 960
                expected[y * 480 + x] = (truth[top] + truth[top + 1] + truth[bottom] + truth[bottom + 1]) / 4
                if y >= 260 && y < 315 && expected[y * 480 + x] >= 0.5 {
                    bar += 1
                    barFound += Int(mask.values[y * 480 + x])
                }
            }
        }
        let iou = TestFiles.iou(mask.values.map(Float.init), expected)
        #expect(iou > 0.97, "IoU \(iou)")
        #expect(bar > 0 && barFound * 10 >= bar * 8, "bar pixels found: \(barFound) of \(bar)")
    }

    /// A refinement's cut with the pixels outside its window held as background
    /// (`SubjectSegmenter.heldAsBackground`) leaves them all background and is the cut a
    /// fresh graph makes; the same graph then cut with every pixel's own preference (the
    /// fallback to the whole picture, the flow found in the window kept) is a fresh graph's
    /// cut too, on random photos, windows and preferences.
    @Test(arguments: 0..<12)
    func aCutHeldToItsWindowThenTheWholePicturesIsAFreshCut(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 6151 &+ 5)
        let width = 18, height = 13
        let random = { (limit: UInt64) in Int(generator.next() % limit) }
        func inBlob(_ index: Int) -> Bool { abs(index % width - 9) + abs(index / width - 6) < 5 }
        let colors = (0..<(width * height)).map { SIMD3(repeating: Float(inBlob($0) ? 150 : 60) + Float(random(40))) }
        let edges = ContrastEdges(WorkingImage(width: width, height: height, colors: colors), weight: 400)
        let x = random(6), y = random(5)
        let window = PixelWindow(PixelRect(x: x, y: y, width: 6 + random(UInt64(width - 6 - x + 1)),
                                           height: 4 + random(UInt64(height - 4 - y + 1))),
                                 pictureWidth: width, pictureHeight: height)
        let preferences = (0..<(width * height)).map { Int32(inBlob($0) ? 300 : -200) + Int32(random(600)) - 300 }
        let rect = window.rect
        func isInside(_ index: Int) -> Bool {
            (rect.x..<(rect.x + rect.width)).contains(index % width) && (rect.y..<(rect.y + rect.height)).contains(index / width)
        }
        let held = preferences.indices.map { isInside($0) ? preferences[$0] : SubjectSegmenter.heldAsBackground }
        func freshCut(_ preferences: [Int32]) -> [UInt8] {
            let graph = GridMaxFlow(edges)
            graph.setPreferences(preferences)
            graph.maximumFlow()
            return graph.sourceSide()
        }
        let graph = GridMaxFlow(edges)
        graph.setPreferences(held)
        graph.maximumFlow()
        let windowed = graph.sourceSide()
        #expect(windowed == freshCut(held))
        #expect(windowed.indices.allSatisfy { isInside($0) || windowed[$0] == 0 })
        graph.setPreferences(preferences)
        graph.maximumFlow()
        let whole = freshCut(preferences)
        #expect(graph.sourceSide() == whole)
        #expect(whole.contains(1))
    }

    /// A red disc with a thin bar below it on a green texture, at the working and the
    /// refinement size, with the mask of a refinement that cuts the whole picture (a margin
    /// of 1: the window would hold the whole picture, so none is used).
    private func discAndBar() throws -> (working: WorkingImage, refinement: WorkingImage, whole: ForegroundMask) {
        let scene = Scene(width: 960, height: 720, background: .texture([120, 150, 110], amplitude: 25),
                          shapes: [(.disc(x: 420, y: 300, radius: 110), [200, 60, 50]),
                                   (.bar(x0: 420, y0: 400, x1: 420, y1: 520, thickness: 5), [200, 60, 50])])
        let (photo, _) = scene.render()
        let working = WorkingImage(photo, longSide: 400), refinement = WorkingImage(photo, longSide: 480)
        var whole = SubjectSegmenter()
        whole.refinementMargin = 1
        return (working, refinement, try whole.segment(working, refinedAt: refinement).mask)
    }

    /// On a compact subject the refinement cuts within a window around it (at 480x360 the
    /// disc and bar span about 110x165 pixels, the window with its margins two fifths of
    /// the picture): the same mask, to the pixel, as cutting the whole picture.
    @Test func refiningWithinAWindowGivesTheWholePicturesMask() throws {
        let (working, refinement, whole) = try discAndBar()
        let windowed = try SubjectSegmenter().segment(working, refinedAt: refinement).mask
        #expect(windowed.values == whole.values)
        #expect(ForegroundMask.area(of: windowed.values) > 9_000)
    }

    /// A window with no margin around the search's subject is outgrown by the finer cut
    /// (its outline reaches the window's sides), so the refinement cuts the whole picture
    /// again, from the flow found in the window: the same mask, to the pixel, as cutting
    /// the whole picture from the start.
    @Test func refiningPastItsWindowGivesTheWholePicturesMask() throws {
        let (working, refinement, whole) = try discAndBar()
        var tight = SubjectSegmenter()
        tight.refinementMargin = 0
        let refined = try tight.segment(working, refinedAt: refinement).mask
        #expect(refined.values == whole.values)
        #expect(ForegroundMask.area(of: refined.values) > 9_000)
    }

    /// The full-size cut may reshape a subject region but not add one: regions with no
    /// pixel in the coarse subject are dropped, regions that grew from it are kept whole.
    @Test func refinementKeepsOnlyRegionsTheCoarseSubjectTouches() {
        let refined = ForegroundMask(width: 6, height: 3, values: [1, 1, 0, 0, 0, 1,
                                                                   1, 1, 0, 0, 0, 1,
                                                                   0, 0, 0, 1, 0, 1])
        let coarse: [UInt8] = [0, 0, 0, 0, 0, 0,
                               0, 1, 0, 0, 0, 0,
                               0, 0, 1, 0, 0, 0]
        #expect(refined.keepingRegions(overlapping: coarse).values == [1, 1, 0, 0, 0, 0,
                                                                      1, 1, 0, 0, 0, 0,
                                                                      0, 0, 0, 0, 0, 0])
    }

    /// Of five subject regions, only those along the frame other than the largest, with a
    /// mean probability below the limit, go: the right-hand column (mean 0.05). The largest
    /// stays though it touches the frame and is unlikely (0.0), and so do a likely region
    /// on the frame (0.8) and an unlikely one inside (0.0). With no secondary region on the
    /// frame, the probabilities are never asked for.
    @Test func unlikelySecondaryRegionsAlongTheFrameAreDropped() {
        let mask = ForegroundMask(width: 8, height: 5, values: [1, 1, 1, 0, 0, 0, 0, 1,
                                                                1, 1, 1, 0, 0, 0, 0, 1,
                                                                1, 1, 1, 0, 1, 0, 0, 1,
                                                                0, 0, 0, 0, 0, 0, 0, 0,
                                                                0, 0, 0, 0, 0, 1, 1, 0])
        let probabilities: [Float] = [0, 0, 0, 0, 0, 0, 0, 0.1,
                                      0, 0, 0, 0, 0, 0, 0, 0.05,
                                      0, 0, 0, 0, 0, 0, 0, 0,
                                      0, 0, 0, 0, 0, 0, 0, 0,
                                      0, 0, 0, 0, 0, 0.8, 0.8, 0]
        let kept = mask.droppingFrameRegions(below: 0.1, within: 0) { probabilities }
        #expect(kept.values == [1, 1, 1, 0, 0, 0, 0, 0,
                                1, 1, 1, 0, 0, 0, 0, 0,
                                1, 1, 1, 0, 1, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 1, 1, 0])
        var asked = false
        let alone = ForegroundMask(width: 4, height: 3, values: [0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0])
        #expect(alone.droppingFrameRegions(below: 0.1, within: 0) { asked = true; return [] }.values == alone.values)
        #expect(!asked)
    }

    /// A region that stops a pixel short of the frame counts as along it within a margin
    /// of one pixel: the unlikely one at the right goes, while the one two pixels from the
    /// bottom stays, and so does the largest, which the margin also reaches. With no
    /// margin no region is along the frame, and the probabilities are never asked for.
    @Test func unlikelySecondaryRegionsNearTheFrameAreDroppedWithinTheMargin() {
        let mask = ForegroundMask(width: 10, height: 7, values: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                                 0, 1, 1, 1, 0, 0, 0, 0, 0, 0,
                                                                 0, 1, 1, 1, 0, 0, 0, 0, 1, 0,
                                                                 0, 1, 1, 1, 0, 0, 0, 0, 1, 0,
                                                                 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                                                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let unlikely = [Float](repeating: 0, count: 70)
        var expected = mask.values
        expected[2 * 10 + 8] = 0
        expected[3 * 10 + 8] = 0
        #expect(mask.droppingFrameRegions(below: 0.1, within: 1) { unlikely }.values == expected)
        var asked = false
        #expect(mask.droppingFrameRegions(below: 0.1, within: 0) { asked = true; return unlikely }.values == mask.values)
        #expect(!asked)
    }

    /// Edge capacities against the formula, on a flat grey backdrop with faint noise and
    /// one small black square: the square's edges are hundreds of times the mean squared
    /// difference, so exp(-beta d^2) underflows there and the capacity must be 0, never
    /// a wrapped value; elsewhere each is the truncated gamma exp(-beta d^2) / dist
    /// (within one unit for the vector exp's last bit), and absent neighbours get 0.
    @Test func edgeCapacitiesFollowTheFormulaAndUnderflowToZero() {
        let width = 100, height = 80
        var generator = SplitMix64(seed: 7)
        let colors = (0..<(width * height)).map { i -> SIMD3<Float> in
            let x = i % width, y = i / width
            if (40..<43).contains(x) && (30..<33).contains(y) { return .zero }
            return SIMD3(repeating: 200 + Float(generator.next() % 3))
        }
        let image = WorkingImage(width: width, height: height, colors: colors)
        let weight: Float = 800
        let edges = ContrastEdges(image, weight: weight)
        var total: Float = 0, count: Float = 0
        var squared = [SIMD4<Float>](repeating: SIMD4(repeating: -1), count: colors.count)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                func distance(_ j: Int) -> Float { let d = colors[i] - colors[j]; return (d * d).sum() }
                let neighbours = [(x + 1 < width, i + 1), (y + 1 < height, i + width),
                                  (x + 1 < width && y + 1 < height, i + width + 1), (x > 0 && y + 1 < height, i + width - 1)]
                for (lane, (exists, j)) in neighbours.enumerated() where exists {
                    squared[i][lane] = distance(j)
                    total += squared[i][lane]
                    count += 1
                }
            }
        }
        let beta = count / (2 * total)
        #expect(beta * 3 * 200 * 200 > 87, "the square's edges must underflow the exponent")
        var underflowed = 0
        for i in colors.indices {
            for lane in 0..<4 {
                let s = squared[i][lane], capacity = edges.forward[i][lane]
                guard s >= 0 else { #expect(capacity == 0); continue }
                let scale = lane < 2 ? weight : weight / Float(2).squareRoot()
                let expected = Float(Foundation.exp(-Double(beta) * Double(s))) * scale
                #expect(capacity >= 0 && Float(capacity) <= scale)
                #expect(abs(Float(capacity) - expected.rounded(.down)) <= 1, "pixel \(i) lane \(lane): \(capacity) vs \(expected)")
                if beta * s > 87 { underflowed += 1; #expect(capacity == 0) }
            }
        }
        #expect(underflowed > 0)
    }
}

