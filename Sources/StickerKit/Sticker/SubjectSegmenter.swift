import FoundationEssentials

/// Separates the main subject from the background at working size, with no user input.
///
/// GrabCut (Rother, Kolmogorov, Blake 2004) seeded from the image border instead of a
/// user's rectangle: the frame is usually background, so a colour mixture fitted to a band
/// along it scores every pixel; pixels that band explains badly seed the subject's model.
/// Then a few rounds alternate re-fitting both mixtures, over colour and local texture
/// (`FeatureMixtureModel`, `LocalTexture`), and an exact minimum cut (`GridMaxFlow`) of
/// the energy: per-pixel feature costs plus a contrast-sensitive Potts term on the
/// 8-connected grid. Models and contrast see the colours in CIELAB (`inCIELAB`), where
/// hues RGB puts close together (a tawny lion, an orange sky) are set apart. The seed
/// looks at colour alone: a frame model with texture flags every smooth region of a
/// textured background (it lost a car against concrete on the dev set), while the rounds
/// learn from the labels which textures go with which side.
/// The frame is a soft prior, not a hard constraint, so a subject cut by the frame keeps
/// its border pixels. In the rounds the subject's model is a trimmed estimate: subject
/// pixels as typical of the background as most of the background's own are left out of
/// it, so background a cut took in does not teach the subject its colours (see `cut`).
/// O(iterations x pixels) in practice.
///
/// The rounds run at half the working size, where they are cheap and see the whole
/// picture; their labels, scaled up, then seed two more rounds over the whole image at
/// the refinement size, 1.2x the working size by default (the coarse-to-fine scheme of
/// multilevel graph cuts, H. Lombaert, Y. Sun, L. Grady, C. Xu, ICCV 2005, without their
/// band restriction, which kept thin parts lost at the coarse level from coming back).
/// The models are fitted over the whole image, but the cuts run within a window around
/// the coarse subject, everything outside held as background (`refinementMargin`), unless
/// the subject then reaches the window's side. Their smoothness is lower, so parts one or
/// two pixels wide (legs, stems, spokes) survive them; the second re-fits the models to
/// the first's finer labels, which brings back ragged outlines the coarse level rounded
/// off. In them the background's model may also explain a pixel as background in shadow
/// (`refinementShadow`), so a soft drop shadow hugging the subject is cut away, and the
/// subject's model also learns the colours of the small holes the subject encloses
/// (`refinementHoleShare`), so dark parts the search lost to the backdrop's shadows come
/// back; and the background's model weighs its components near each pixel by their share of
/// the background around it, as the subject prior places it (`LocalComponentWeights`), so a
/// subject colour the background shows only elsewhere is not explained by it (unless the
/// guess is that the subject fills the picture, where there is too little background to
/// place). They refine the subjects the rounds found and add none: a region they label
/// subject that touches none of theirs (a strip of the subject's colour along the frame)
/// goes back to background. Refining at 480 pixels instead of the 400 the subject is found
/// at gave the validation sets 0.890 -> 0.893 mIoU (177 -> 186 passes, every seed up) for
/// about a fifth more segmentation time; 512 and 600 gained no more on every seed, and the
/// whole search at 512 changed which subjects were found (seeds up and down).
///
/// Colour seeding fails when the subject's colours also occur along the frame, or when
/// something small and bright in the background (a glint, a cloud) is what the frame
/// explains worst. So unless a learned guess of where the subject is (`SubjectPrior`)
/// already agrees well with the seeded result, the rounds also run from GrabCut's own
/// initialisation, the central rectangle as possible subject. That result counts only if
/// the cut carved the subject out of the rectangle (it ends smaller than it), else the
/// centre looks like the frame. While the learned guess still doubts both, the rounds run
/// a third time, seeded with the guess itself (p > 0.5): a subject cut by the frame,
/// whose colours then sit in the frame's model, is often found only that way. A
/// `SegmentationRanker` then picks one of the results or the guess itself, by how well
/// the guess agrees with each, how much of the frame each takes, whether its outline
/// follows the photo's edges and how many pieces it is in (before version 28 the result
/// the guess agreed with best was kept; the ranker took the validation sets' seeds 5-12,
/// shipped and perturbed, from 0.879 to 0.889 mIoU). The guess is held against each
/// result's silhouette, its holes filled: on a 48x48 grid it has no room for holes, so a
/// wheel or an outline drawing whose holes show
/// the background lost to a filled blob (an inukshuk's outline 0.23 -> 0.81 IoU; with
/// `settledAgreement` 0.8, validation sets 0.893 -> 0.897 mIoU, no seed down, and the dev
/// set 0.887 -> 0.898). Without a seeded result, only the rectangle's can give a subject,
/// unless the guess is near certain of one (`certainGuess`): then the rounds start from
/// it, and the ranker picks between their result and the guess itself (when even they
/// lose the subject, all its colours in the frame's model, the guess is the result), which
/// the refinement's untrimmed models then carve. When the rectangle's result is one, the
/// guess is asked as usual and the other candidates may replace it (a lake band carved
/// out of the centre gives way to the turkey beside it). The guess alone, as the only seed
/// or as a term of every cut, lost more than it gained; but where the guess is the fill
/// network's (the subject fills the picture, and the frame's colours are mostly its own),
/// it is a term of the refinement's cuts (`fillGuessWeight`). It has the last word on two things:
/// where it sees no subject at all (no pixel more likely subject than not), there is none,
/// whatever the colours found (a studio backdrop's lit centre, a patch of far shore); and a
/// subject region along the frame (within an eighth of the long side of it), other than
/// the largest, in which it sees almost no subject is dropped.
package struct SubjectSegmenter: Sendable {
    /// Most rounds from the frame's seed or the rectangle.
    var iterations = 3
    /// A round of the search (from any start) that changes at most this share of the
    /// subject's area ends its rounds, as `fineSettling` does at the refinement size. On
    /// the bench's 640x480 photos two thirds of the search's rounds changed no more than
    /// that (257 of 391; 18 changed nothing, where the rounds stopped before). Over the
    /// validation sets (seeds 1-4 / 5-12, as shipped and two perturbed copies) 0.01
    /// scored 0.9141 / 0.8927, 0.9099 / 0.8906 and 0.9063 / 0.8906 mIoU against
    /// 0.9141 / 0.8921, 0.9095 / 0.8911 and 0.9079 / 0.8903 for stopping only when
    /// nothing changed (two cases up by more than 0.1, none down; the dev set 0.900 -> 0.899,
    /// the subject-free sets unchanged), for 5% less of a small photo's time.
    var settling: Float = 0.01
    /// Most rounds from the prior's guess, a blurred blob that starts farther from where
    /// the rounds settle (validation sets, 3 -> 6: 0.875 -> 0.879 mIoU, an owl and a
    /// marmot found; 10 changed nothing more; 6 from the rectangle too lost on the dev set).
    var guessIterations = 6
    var components = 5
    /// Weight of the smoothness term (GrabCut's gamma) at the coarse level.
    var smoothness: Float = 50
    /// The same at the refinement size (dev set, at 400: 25-35 keep thin parts, 50 loses them;
    /// at 480, 42 changed nothing).
    var fineSmoothness: Float = 35
    /// Most rounds at the refinement size (1 -> 2, with `fineSettling`: dev set 0.867 -> 0.883
    /// mIoU, the tree in a storm 0.59 -> 0.84; validation sets 0.879 -> 0.880; 3 gained nothing,
    /// and with `refinementHoleShare`, 3 always run scored 0.9117 against 2's 0.9114, seeds
    /// up and down).
    var fineIterations = 2
    /// A round at the refinement size that changes fewer labels than this share of the
    /// subject's area ends them: the outline has settled. At a tenth, the second round
    /// gained nearly all its 0.53 IoU (summed) over the dev and validation sets on the 34
    /// of 253 photos whose first round changed that much. Once the first round learns the
    /// small holes' colours (`refinementHoleShare`), the second re-fits to what it filled:
    /// over the validation sets, a twentieth scored 0.9114 mIoU against a tenth's 0.9100,
    /// every seed up (a ladybird 0.65 -> 0.82); 0.02 and 0 (always) scored 0.9115 and
    /// 0.9114, running it on 52 and 60 of seed 1's 60 photos against a twentieth's 26.
    /// At a twentieth the bench's photos (640x480 and 12 MP) still settle in one round.
    var fineSettling: Float = 0.05
    /// Extra cost, in log-likelihood units, of calling a frame pixel subject.
    var framePrior: Float = 3
    /// In the rounds, subject pixels at least as typical of the background as this share
    /// of the background's own pixels are left out of the subject's model (see `cut`).
    var subjectTrim: Float = 0.9
    /// In the rounds at the refinement size, the background's model may also explain a
    /// pixel as background in shadow: its colour darkened to as little as 1 / 1.6 of its
    /// brightness, at a cost of 2 log-likelihood units
    /// (`FeatureMixtureModel.costs(_:allowingShadow:)`). A soft drop shadow hugging the
    /// subject is darker than any background the frame shows, so the models otherwise give
    /// it to the subject and the sticker carries a grey rim. Over the validation sets:
    /// 0.897 -> 0.903 mIoU, every seed up, the studio shots 0.93 -> 0.97 (a pelican
    /// 0.83 -> 0.93); down, subject parts that are a darker shade of the background behind
    /// them (a grey bin before grey water, 0.97 -> 0.83). Brightening up to 1.6, 2 and 2.5
    /// scored 0.9030, 0.9026 and 0.9022 (2 also took a town hall's dark blue pool for
    /// shadowed water, 0.87 -> 0.84); penalties 1.5, 2 and 3 (at 2) 0.9021, 0.9026 and
    /// 0.9020. Also allowed in the search at half size, it changed which subjects were
    /// found (0.899; on the dev set the gap under a cement mixer's drum was taken in).
    /// Since the models see CIELAB (version 34), the same shadow brightens by up to 1.41
    /// (`Shadow.backdropInCIELAB`); 1.25 and 1.6 scored the same, within the noise.
    var refinementShadow: FeatureMixtureModel.Shadow? = .backdropInCIELAB
    /// In the rounds at the refinement size, the subject's model also learns the colours of
    /// the background regions the subject encloses that are smaller than this share of its
    /// area (the labels stay as they are; the cut decides). The search's trimmed model
    /// leaves out subject colours the background also shows, so dark parts such as a
    /// ladybird's black spots come out of it as holes and, with no dark colour in the
    /// subject's model, stay holes. A hole that shows the background (a ring's inside, an
    /// outline drawing's interior) is usually larger. Over the validation sets, shares of
    /// 0.02, 0.05, 0.08, 0.11, 0.15 and 0.3 scored 0.9085, 0.9088, 0.9100, 0.9098, 0.9094
    /// and 0.9069 mIoU (0 scores 0.9085); at 0.08 every seed up, three ladybirds
    /// 0.67 -> 0.84, 0.78 -> 0.92 and 0.61 -> 0.65; down, a fishery whose small windows
    /// show the background 0.95 -> 0.89. Also in the search, it scored 0.9062.
    var refinementHoleShare: Double = 0.08

    /// A result the subject prior agrees with this well (soft IoU of its silhouette) ends
    /// the search for more: a seeded result (else the rectangle's) is only ranked against
    /// the guess itself (`ranksSettledResult`), without trying the rectangle, and a
    /// rectangle's result this good keeps the rounds from the prior's guess from starting
    /// (over the validation sets, starting from the guess only below 0.5 scored 0.874
    /// mIoU, 0.875 here; trying the rectangle on settled seeded results too gained 0.0006
    /// and cost its rounds on 60% of the photos).
    /// Silhouettes agree more than the results themselves; against them, 0.7, 0.75, 0.8
    /// and 0.85 scored 0.8949, 0.8962, 0.8970 and 0.8965 mIoU (0.8 against the results
    /// themselves: 0.8940; 0.7, version 20: 0.8931).
    var settledAgreement: Float = 0.8

    /// Whether a result that settles the prior's doubt is still ranked against the guess
    /// itself, which costs no rounds (since version 32: seeds 1-4 / 5-12 up by 0.0005 /
    /// 0.0013 over the shipped and two perturbed copies, no case down by more than 0.004).
    /// Off, it is kept as it is, which shows what one start alone finds.
    var ranksSettledResult = true

    /// When neither the frame's seed nor the rectangle gives a subject, a learned guess
    /// this sure of one somewhere (its highest probability) is trusted: the rounds start
    /// from it (p > 0.5), and the ranker picks between their result and the guess itself
    /// (the guess alone when the rounds lose the subject; before version 51 their result
    /// was kept unranked: on the frame-filling sets, seeds 1 and 2, a dreidel cut by the
    /// frame 0.58 -> 0.86 IoU and a volleyball 0.87 -> 1.00, where the rounds had carved a
    /// face or a rim the frame's colours also show, and on two perturbed copies of each
    /// 8 of 9 changed photos up, each copy up by 0.001-0.021 mIoU; on validation seeds 1-12
    /// a top hat 0.93 -> 0.87, the rounds' result kept on the four others; the dev set
    /// unchanged). Validation seeds 5-8, on which no earlier choice was made: 0.8623 -> 0.8757
    /// mIoU, as a bear and a tower cut by the frame, an emu before rocks and a ferret, all "no
    /// subject found" before, came out at 0.96, 0.87, 0.74 and 0.63 IoU; seeds 1-4 0.9114 ->
    /// 0.9120, the dev set unchanged. The subject-free sets report no subject for 35 and 29 of
    /// 60 photos instead of 39 and 34, still every studio sweep, gradient and flat colour. At
    /// 0.9: 33 and 29, for one more rescued case (0 -> 0.19 IoU).
    var certainGuess: Float = 0.99

    /// A subject region that touches the frame, other than the largest, is dropped when the
    /// subject prior's mean probability over it is below this: background the colour models
    /// took in because the frame never shows its colours (boats along the shore beside a
    /// turkey, a red leaf at the edge beside a wheel). Over the validation sets, 0.1 and 0.2
    /// dropped the same regions (0.887 -> 0.890 mIoU, three cases up, none down); the
    /// largest region is kept whatever the prior says (allowed to go too, at 0.2 it took
    /// the dev set's lion, whose outline the prior misses).
    var frameRegionDoubt: Float = 0.1

    /// How near the frame a secondary region must come, as a share of the long side, for
    /// `frameRegionDoubt` to judge it: background the cut took in lies near the frame more
    /// often than a second subject does, and a strip of reeds or a dark patch of rock that
    /// stops a few pixels short of the edge is that background as much as one that reaches
    /// it (an owl over a lake 0.64 -> 0.98 IoU, a sheep on rocks 0.89 -> 0.96). Over
    /// validation seeds 1-9, fill seeds 1-3, close-up seeds 1-2 and the dev set (856
    /// photos), 0.03-0.125 moved those two and nothing else; 0.25 also dropped a railroad
    /// crossing's second lamp (0.30 -> 0.15), and every region, wherever it is, lost 13
    /// photos for 1 in an earlier version (docs/measurements.md).
    var frameRegionReach: Double = 0.125

    /// The refinement cuts within the search's subject bounds grown by this share of the
    /// long side, everything outside held as background, unless its subject reaches the
    /// window's side; then it cuts the whole picture again, on the same graph, from the
    /// flow the window's cuts found (the dev set's two photos that fall back, a lark on
    /// bark and a tree in a storm, segment in 14% less time than from a fresh graph, with
    /// the same masks). The models are still fitted over the whole picture and the contrast term's
    /// beta is the whole picture's, so the cut is the whole picture's with the outside
    /// fixed; it differs only where the whole picture's first round labelled a region far
    /// outside subject (dropped at the end, as it touches no coarse subject), which taught
    /// the second round's subject model its colours. Since version 43: the bench's 640x480
    /// photos 6% faster and stickers byte for byte the same on all 120 and on its 24 of
    /// 12 MP; 3 of the dev set's 16 changed (a wildebeest 0.956 -> 0.981 IoU). Validation
    /// seeds 1-4 / 5-12 (as shipped and two perturbed copies) 0.9205 / 0.9030 -> 0.9207 /
    /// 0.9032 mIoU, the dev set 0.914 -> 0.916 with boundary F 0.899 -> 0.904. Margins of
    /// 0.04, 0.0625 and 0.25 were timed: the smaller ones no faster, 0.25 a third of the gain.
    var refinementMargin = 0.125

    /// Where the subject prior's guess is the fill network's, the refinement's cuts weigh it
    /// too: each pixel's preference for the subject moves by this times the guess's log-odds
    /// there (the probability held within 0.01-0.99, so by at most 2.3 log-likelihood units),
    /// a location prior as an extra unary term, as shape priors join graph-cut segmentation
    /// (D. Freedman, T. Zhang, "Interactive graph cut based segmentation with shape priors",
    /// CVPR 2005). Such a subject fills most of the frame, so the background's model is fitted
    /// to what little the frame shows besides it and the colour models alone cut the subject
    /// across its narrowest part or leave parts of it out. Fill seeds 1 / 2, 0.811 / 0.840
    /// mIoU: 0.821 / 0.858 at 0.25, 0.822 / 0.862 at 0.5, 0.820 / 0.865 at 1. At 0.5, fill
    /// seeds 3 / 4, which no choice looked at, 0.735 / 0.755 -> 0.750 / 0.773, and perturbed
    /// copies of seeds 1 / 2 0.808 / 0.824 -> 0.818 / 0.842; over those six sets passes
    /// 182 -> 199, 96 photos up and 26 down (a ladybird 0.63 -> 0.91, a penguin 0.55 -> 0.93;
    /// a marmot 0.99 -> 0.89), drawings 0.819 -> 0.850 and photographs 0.778 -> 0.782.
    /// Close-ups 0.895 / 0.915 -> 0.896 / 0.915. Where the fill network's guess is rarely
    /// used: on validation seeds 1-4 five stickers changed, two by more than 0.002 IoU (a
    /// marmot 0.20 -> 0.22, a flamingo 0.25 -> 0.21); of the dev set only the race car's
    /// (0.9016 -> 0.9015); the bench's are the same bytes; a subject-free set still has 34
    /// of 60 photos with no subject found.
    var fillGuessWeight: Float = 0.5

    /// Below this short side the coarse level is skipped.
    static let minimumCoarseSide = 48

    /// The subject of `working` (the photo at working size), searched for at half that
    /// size and refined at the size of `image` (the same photo, by default larger); the
    /// mask is at `image`'s size. A `working` too narrow for the coarse level is segmented
    /// as it is, and the mask is at its size. Also returns the subject prior that judged
    /// the search's results, nil when none was a subject to judge.
    func segment(_ working: WorkingImage, refinedAt image: WorkingImage) throws -> (mask: ForegroundMask, prior: SubjectPrior?) {
        guard min(working.width, working.height) >= 2 * SubjectSegmenter.minimumCoarseSide else {
            let (labels, prior) = try grabCut(working)
            return (droppingUnlikelyFrameRegions(ForegroundMask(width: working.width, height: working.height, values: labels),
                                                 prior), prior)
        }
        let coarse = working.halved()
        let (coarseLabels, prior) = try grabCut(coarse)
        // Each refinement pixel takes the label of the coarse pixel its centre falls in
        // (a coarse pixel covers two working pixels; `halved` drops an odd last one).
        let toCoarse = SIMD2(Double(working.width) / Double(2 * image.width), Double(working.height) / Double(2 * image.height))
        func coarseRow(_ y: Int) -> Int { min(Int((Double(y) + 0.5) * toCoarse.y), coarse.height - 1) }
        func coarseColumn(_ x: Int) -> Int { min(Int((Double(x) + 0.5) * toCoarse.x), coarse.width - 1) }
        var labels = [UInt8](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            let row = coarseRow(y) * coarse.width
            for x in 0..<image.width { labels[y * image.width + x] = coarseLabels[row + coarseColumn(x)] }
        }
        // The local weights count a pixel as background as far as the prior's guess at the
        // coarse level does not call it subject; there are none when the guess is that the
        // subject fills the picture (see `LocalComponentWeights`).
        let local = prior.flatMap { prior in
            prior.isFillNetworkGuess ? nil : LocalComponentWeights(width: image.width, height: image.height) { index in
                1 - prior.probability(x: coarseColumn(index % image.width), y: coarseRow(index / image.width),
                                      width: coarse.width, height: coarse.height)
            }
        }
        let guessBias = prior.flatMap { prior in
            prior.isFillNetworkGuess ? prior.logOdds(width: image.width, height: image.height, scaledBy: fillGuessWeight) : nil
        }
        try Task.checkCancellation()
        let lab = image.inCIELAB()
        let edges = ContrastEdges(lab, weight: fineSmoothness * SubjectSegmenter.unit)
        let features = SubjectSegmenter.features(of: image, lab: lab), inBand = frameBand(image)
        // One graph for the window's rounds and the whole picture's after them, so a
        // fallback starts from the flow the window's cuts found (see `refinementMargin`).
        let graph = GridMaxFlow(edges)
        func refine(within window: PixelWindow?) throws -> [UInt8] {
            try rounds(features, from: labels, inBand: inBand, graph: graph,
                       atMost: fineIterations, settlingWithin: fineSettling, trimmingSubject: false,
                       learningHolesBelow: refinementHoleShare, shadow: refinementShadow,
                       backgroundWeightedBy: local, favouring: guessBias, within: window)
        }
        let window = refinementWindow(labels, width: image.width, height: image.height)
        var refined = try refine(within: window)
        if let window, window.reachesItsInnerSides(refined) {
            refined = try refine(within: nil)
        }
        let kept = ForegroundMask(width: image.width, height: image.height, values: refined).keepingRegions(overlapping: labels)
        return (droppingUnlikelyFrameRegions(kept, prior), prior)
    }

    /// Every candidate the default search would rank for `photo` (decoded as the pipeline
    /// decodes it), the prior's agreement notwithstanding, with its features and its IoU with
    /// `truth` (the photo's true alpha as grey levels, at its size; subject from 0.5 up) at
    /// the search's size: the samples Scripts/train-segmentation-ranker fits the
    /// `SegmentationRanker`'s weights to. Empty when the search ends before ranking (no
    /// subject found, or none the prior sees), and for a photo too small for the coarse level.
    package static func rankingSamples(_ photo: RGBAImage, workingSize: Int, truth: RGBAImage) throws -> [RankingSample] {
        let working = WorkingImage(photo, longSide: workingSize)
        guard min(working.width, working.height) >= 2 * SubjectSegmenter.minimumCoarseSide else { return [] }
        let coarse = working.halved()
        let region = Resampler.Region(x: 0, y: 0, width: Double(truth.width), height: Double(truth.height))
        let subject = truth.pixels.withUnsafeBufferPointer {
            Resampler.resample($0, width: truth.width, height: truth.height, channels: 4, region: region,
                               width: coarse.width, height: coarse.height)
        }
        // As 0/1 probabilities, the prior's soft IoU is the plain IoU with the truth.
        let truthInside = (0..<(coarse.width * coarse.height)).map { subject[$0 * 4] >= 127.5 ? Float(1) : 0 }
        var samples: [RankingSample] = []
        _ = try SubjectSegmenter().grabCut(coarse) { ranker, candidates in
            samples = candidates.map {
                RankingSample(start: $0.start.name, features: ranker.features($0),
                              iou: Double(SubjectPrior.agreement($0.labels, truthInside)))
            }
        }
        return samples
    }

    /// `mask` without the secondary regions along the frame that `prior` finds no subject
    /// in (see `frameRegionDoubt` and `frameRegionReach`).
    private func droppingUnlikelyFrameRegions(_ mask: ForegroundMask, _ prior: SubjectPrior?) -> ForegroundMask {
        guard let prior else { return mask }
        let margin = Int(frameRegionReach * Double(max(mask.width, mask.height)))
        return mask.droppingFrameRegions(below: frameRegionDoubt, within: margin) {
            prior.probabilities(width: mask.width, height: mask.height)
        }
    }

    /// Pixels along the frame, where the background is expected.
    private func frameBand(_ image: WorkingImage) -> [Bool] {
        let band = max(1, min(image.width, image.height) / 40)
        var inBand = [Bool](repeating: false, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width
            where x < band || y < band || x >= image.width - band || y >= image.height - band {
                inBand[y * image.width + x] = true
            }
        }
        return inBand
    }

    /// GrabCut's rounds on one image from the frame's seed and, while the subject prior
    /// doubts every result so far (`settledAgreement`), from the central rectangle and
    /// then from the prior's own guess; the `SegmentationRanker` picks among the results
    /// and the guess itself (only between the two when the first settles the prior's
    /// doubt, or when only the guess's rounds found a subject: `certainGuess`). Returns the
    /// pick with the prior, which is nil when no result was a subject to judge. With
    /// `collecting`, every candidate is made and handed to it, the prior's agreement
    /// notwithstanding (the ranker's training samples).
    private func grabCut(_ image: WorkingImage,
                         collecting: ((SegmentationRanker, [SegmentationRanker.Candidate]) -> Void)? = nil)
        throws -> (labels: [UInt8], prior: SubjectPrior?) {
        let inBand = frameBand(image)
        let nothing = [UInt8](repeating: 0, count: inBand.count)
        // A picture that is all frame (a single row or column) has no inside to hold a subject.
        guard inBand.contains(false) else { return (nothing, nil) }
        // One graph for every round of every start: each cut starts from the last one's flow.
        let lab = image.inCIELAB()
        let graph = GridMaxFlow(ContrastEdges(lab, weight: smoothness * SubjectSegmenter.unit))
        let features = SubjectSegmenter.features(of: image, lab: lab)
        let seed = try initialLabels(lab, inBand: inBand)
        func rounds(from labels: [UInt8], atMost iterations: Int = iterations) throws -> [UInt8] {
            try self.rounds(features, from: labels, inBand: inBand, graph: graph, atMost: iterations, settlingWithin: settling,
                            trimmingSubject: true, learningHolesBelow: 0, shadow: nil)
        }
        func carvedFromCentre() throws -> [UInt8]? {
            var rectangle = nothing
            markCentre(&rectangle, width: image.width, height: image.height)
            let carved = try rounds(from: rectangle)
            // A cut that spread past the rectangle found a centre that looks like the frame.
            return ForegroundMask.area(of: carved) < ForegroundMask.area(of: rectangle) ? carved : nil
        }
        let seeded = ForegroundMask.area(of: seed) * 500 >= seed.count ? try rounds(from: seed) : nothing
        let hasSeeded = ForegroundMask.holdsSubject(seeded)
        // Without a seeded subject the frame explains the picture: only the rectangle may
        // still carve one out (a speck is returned as it is, for the caller to reject), or
        // a guess near certain of one; the guess's own start may replace the rectangle's.
        let first = hasSeeded ? seeded : try carvedFromCentre() ?? nothing

        try Task.checkCancellation()
        let prior = SubjectPrior(image)
        let guess = prior.probabilities(width: image.width, height: image.height)
        let guessed = guess.map { $0 > 0.5 ? UInt8(1) : 0 }
        let guessIsLarge = ForegroundMask.area(of: guessed) * 200 >= guessed.count
        func roundsFromGuess() throws -> [UInt8] { try rounds(from: guessed, atMost: guessIterations) }
        func candidate(_ start: SegmentationRanker.Start, _ labels: [UInt8]) -> SegmentationRanker.Candidate {
            SegmentationRanker.Candidate(start, labels, width: image.width, height: image.height, guess: guess)
        }
        func ranked(_ candidates: [SegmentationRanker.Candidate]) -> [UInt8]? {
            let ranker = SegmentationRanker(image: image, guess: guess, inBand: inBand)
            collecting?(ranker, candidates)
            return ranker.best(of: candidates)?.labels
        }
        guard ForegroundMask.holdsSubject(first) else {
            // The colours found nothing; only a guess near certain of a subject seeds one,
            // and its rounds are ranked against the guess itself (see `certainGuess`).
            guard guessIsLarge, (guess.max() ?? 0) >= certainGuess else { return (first, nil) }
            let fromGuess = try roundsFromGuess()
            guard ForegroundMask.holdsSubject(fromGuess) else { return (guessed, prior) }
            return (ranked([candidate(.guessRounds, fromGuess), candidate(.guess, guessed)]) ?? fromGuess, prior)
        }
        // Over the dev and validation sets every photo with a subject has a pixel at 0.88 or
        // more; 18 of the 65 subject-free photos given a sticker had none above 0.43.
        guard guessed.contains(1) else { return (nothing, nil) }
        var candidates = [candidate(hasSeeded ? .frame : .rectangle, first)]
        // While the prior doubts every result so far, one more start (all, when collecting).
        func doubted() -> Bool { collecting != nil || candidates.allSatisfy { $0.agreement < settledAgreement } }
        guard doubted() || ranksSettledResult else { return (first, prior) }
        if doubted(), hasSeeded, let carved = try carvedFromCentre(), ForegroundMask.holdsSubject(carved) {
            candidates.append(candidate(.rectangle, carved))
        }
        if doubted(), guessIsLarge, case let fromGuess = try roundsFromGuess(), ForegroundMask.holdsSubject(fromGuess) {
            candidates.append(candidate(.guessRounds, fromGuess))
        }
        candidates.append(candidate(.guess, guessed))
        return (ranked(candidates) ?? first, prior)
    }

    /// Alternates re-fitting and cutting (`cut`) until a round changes at most `tolerance`
    /// x the subject's area of the labels (0: none), or `iterations` rounds have run.
    private func rounds(_ features: [SIMD4<Float>], from labels: [UInt8], inBand: [Bool], graph: GridMaxFlow,
                        atMost iterations: Int, settlingWithin tolerance: Float, trimmingSubject: Bool,
                        learningHolesBelow holeShare: Double, shadow: FeatureMixtureModel.Shadow?,
                        backgroundWeightedBy local: LocalComponentWeights? = nil, favouring bias: [Float]? = nil,
                        within window: PixelWindow? = nil) throws -> [UInt8] {
        var labels = labels
        for _ in 0..<iterations {
            try Task.checkCancellation()
            let next = cut(features, labels: labels, inBand: inBand, graph: graph, trimmingSubject: trimmingSubject,
                           learningHolesBelow: holeShare, shadow: shadow, backgroundWeightedBy: local, favouring: bias,
                           within: window)
            let changed = zip(labels, next).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
            labels = next
            if Float(changed) <= tolerance * Float(ForegroundMask.area(of: next)) { break }
        }
        return labels
    }

    /// Subject = pixels the frame's colour model explains worse than almost all of the frame
    /// (`lab`: the picture in CIELAB).
    private func initialLabels(_ lab: WorkingImage, inBand: [Bool]) throws -> [UInt8] {
        try Task.checkCancellation()
        let bandSamples = inBand.indices.filter { inBand[$0] }.map { Int32($0) }
        let colors = lab.colors.map { SIMD4($0, 0) }
        return colors.withUnsafeBufferPointer { colors in
            let background = FeatureMixtureModel(features: colors, samples: bandSamples, count: components)
            let costs = background.costs(colors)
            let threshold = OrderStatistic.kthSmallest(bandSamples.map { costs[Int($0)] }, bandSamples.count * 97 / 100) + 2
            var labels = [UInt8](repeating: 0, count: colors.count)
            for index in colors.indices where !inBand[index] && costs[index] > threshold {
                labels[index] = 1
            }
            return labels
        }
    }

    /// GrabCut's rectangle: the central 60% of each side.
    private func markCentre(_ labels: inout [UInt8], width: Int, height: Int) {
        for y in (height / 5)..<(height - height / 5) {
            for x in (width / 5)..<(width - width / 5) { labels[y * width + x] = 1 }
        }
    }

    /// Integer units per log-likelihood unit in the cut.
    static let unit: Float = 16

    /// Each pixel's colour in CIELAB (`lab`, the same pixels as `image`) with its local
    /// texture (of `image`'s brightness) as the fourth feature.
    static func features(of image: WorkingImage, lab: WorkingImage) -> [SIMD4<Float>] {
        let texture = LocalTexture.features(of: image), count = texture.count
        return [SIMD4<Float>](unsafeUninitializedCapacity: count) { features, initialized in
            lab.colors.withUnsafeBufferPointer { colors in
                texture.withUnsafeBufferPointer { texture in
                    for index in 0..<count { features[index] = SIMD4(colors[index], texture[index]) }
                }
            }
            initialized = count
        }
    }

    /// One GrabCut round: re-fit both feature models to `labels`, then cut `graph` (the
    /// smoothness term's edges; it keeps its flow for the next round's cut). With
    /// `trimmingSubject`, the subject's model is fitted only to the subject pixels that the
    /// background's model explains worse than `subjectTrim` of the background's own pixels
    /// (a trimmed estimate): background wrongly labelled subject (a hole, a strip of sky
    /// along the subject, highlights around it) would otherwise teach the subject's model
    /// its colours and hold itself in the subject round after round. When that would leave
    /// under a quarter of the subject, all of it is used. With a `holeShare` above 0, the
    /// subject's model also learns the enclosed background regions smaller than that share
    /// of the subject's area (see `refinementHoleShare`). With `shadow`, the background's
    /// model may explain a pixel as background in shadow; with `local`, it weighs its
    /// components by their shares near each pixel. With `bias`, each pixel's preference for
    /// the subject moves by its value (log-likelihood units, one per picture pixel).
    func cut(_ features: [SIMD4<Float>], labels: [UInt8], inBand: [Bool], graph: GridMaxFlow,
             trimmingSubject: Bool, learningHolesBelow holeShare: Double = 0,
             shadow: FeatureMixtureModel.Shadow? = nil, backgroundWeightedBy local: LocalComponentWeights? = nil,
             favouring bias: [Float]? = nil, within window: PixelWindow? = nil) -> [UInt8] {
        precondition(window == nil || !trimmingSubject, "a trimmed cut sees the whole picture")
        let area = ForegroundMask.area(of: labels)
        guard area > 0, area < labels.count else { return labels }
        let backgroundSamples = SubjectSegmenter.indices(of: labels, count: labels.count - area) { $0 != 1 }
        // The labels the subject's model learns from: with small holes filled, if asked.
        var (learnt, learntArea) = (labels, area)
        if holeShare > 0 {
            learnt = ForegroundMask(width: graph.width, height: graph.height, values: labels)
                .fillingHoles(smallerThan: holeShare * Double(area)).values
            learntArea = ForegroundMask.area(of: learnt)
        }
        var subjectSamples = SubjectSegmenter.indices(of: learnt, count: learntArea) { $0 == 1 }
        let preferences = features.withUnsafeBufferPointer { features in
            let background = FeatureMixtureModel(features: features, samples: backgroundSamples, count: components)
            let backgroundCosts = background.costs(features, allowingShadow: shadow, weightedBy: local,
                                                   within: window)
            if trimmingSubject {
                let threshold = OrderStatistic.kthSmallest(backgroundSamples.map { backgroundCosts[Int($0)] },
                                                           Int(Float(backgroundSamples.count) * subjectTrim))
                let atypical = subjectSamples.filter { backgroundCosts[Int($0)] > threshold }
                if atypical.count * 4 >= subjectSamples.count { subjectSamples = atypical }
            }
            let subject = FeatureMixtureModel(features: features, samples: subjectSamples, count: components)
            let subjectCosts = subject.costs(features, within: window)
            guard let window else {
                return features.indices.map { index in
                    SubjectSegmenter.preference(backgroundCosts[index],
                                                subjectCosts[index] + (inBand[index] ? framePrior : 0) - (bias?[index] ?? 0))
                }
            }
            let rect = window.rect
            var preferences = [Int32](repeating: SubjectSegmenter.heldAsBackground, count: features.count)
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let index = y * rect.width + x, pixel = window.pictureIndex(x: x, y: y)
                    preferences[pixel] = SubjectSegmenter.preference(backgroundCosts[index],
                                                                     subjectCosts[index] + (inBand[pixel] ? framePrior : 0)
                                                                         - (bias?[pixel] ?? 0))
                }
            }
            return preferences
        }
        graph.setPreferences(preferences)
        graph.maximumFlow()
        return graph.sourceSide()
    }

    /// The preference of a pixel outside a refinement's window, held as background: far
    /// beyond a subject pixel's (at most 10^4 log-likelihood units) and its eight edges'.
    /// Its pixels join the sink's tree as roots that no augmentation saturates, so the
    /// search works within the window; and when the whole picture is cut after all, their
    /// real preferences replace it and the flow found in the window is kept.
    static let heldAsBackground: Int32 = -(1 << 24)

    /// A pixel's preference for the subject in the cut's integer units: > 0 prefers it;
    /// only the difference of the two costs matters, kept finite.
    @inline(__always)
    private static func preference(_ backgroundCost: Float, _ subjectCost: Float) -> Int32 {
        Int32(min(max(backgroundCost - subjectCost, -1e4), 1e4) * SubjectSegmenter.unit)
    }

    /// The search's subject bounds (in `labels`) grown by `refinementMargin` of the long
    /// side, or nil when that leaves little of the picture out.
    private func refinementWindow(_ labels: [UInt8], width: Int, height: Int) -> PixelWindow? {
        guard let bounds = ForegroundMask(width: width, height: height, values: labels).bounds else { return nil }
        let margin = Int((refinementMargin * Double(max(width, height))).rounded(.up))
        let x0 = max(0, bounds.minX - margin), y0 = max(0, bounds.minY - margin)
        let x1 = min(width, bounds.maxX + 1 + margin), y1 = min(height, bounds.maxY + 1 + margin)
        guard (x1 - x0) * (y1 - y0) * 10 < width * height * 9 else { return nil }
        return PixelWindow(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                           pictureWidth: width, pictureHeight: height)
    }

    /// The indices, in order, of the `count` pixels whose label `isWanted` accepts.
    private static func indices(of labels: [UInt8], count: Int, where isWanted: (UInt8) -> Bool) -> [Int32] {
        // With no capacity, the initializer below writes the count into the standard
        // library's shared empty-array storage: a data race between segmentations running
        // at once (ThreadSanitizer caught two with no subject).
        guard count > 0 else { return [] }
        return [Int32](unsafeUninitializedCapacity: count) { indices, initialized in
            initialized = 0
            for index in labels.indices where isWanted(labels[index]) {
                indices[initialized] = Int32(truncatingIfNeeded: index)
                initialized &+= 1
            }
        }
    }
}
