import Foundation

/// Separates the main subject from the background at working size, with no user input.
///
/// GrabCut (Rother, Kolmogorov, Blake 2004) seeded from the image border instead of a
/// user's rectangle: the frame is usually background, so a colour mixture fitted to a band
/// along it scores every pixel; pixels that band explains badly seed the subject's model.
/// Then a few rounds alternate re-fitting both mixtures and an exact minimum cut
/// (`MaxFlowGraph`) of the energy: per-pixel colour costs plus a contrast-sensitive Potts
/// term on the 8-connected grid. The frame is a soft prior, not a hard constraint, so a
/// subject cut by the frame keeps its border pixels. O(iterations x pixels) in practice.
///
/// The rounds run at half the working size; the result is then refined by one cut at full
/// working size restricted to a band around the coarse boundary (multilevel banded graph
/// cuts: H. Lombaert, Y. Sun, L. Grady, C. Xu, ICCV 2005), which keeps the coarse level's
/// global decisions and the fine level's edges at a fraction of the cost.
struct SubjectSegmenter: Sendable {
    var iterations = 3
    var components = 5
    /// Weight of the smoothness term (GrabCut's gamma).
    var smoothness: Float = 50
    /// Extra cost, in log-likelihood units, of calling a frame pixel subject.
    var framePrior: Float = 3

    /// Half-width of the refinement band, in working pixels.
    var refinementRadius = 3
    /// Below this short side the coarse level is skipped.
    static let minimumCoarseSide = 48

    func segment(_ image: WorkingImage) throws -> ForegroundMask {
        guard min(image.width, image.height) >= 2 * SubjectSegmenter.minimumCoarseSide else {
            return ForegroundMask(width: image.width, height: image.height, values: try grabCut(image))
        }
        let coarse = image.halved()
        let coarseLabels = try grabCut(coarse)
        var labels = [UInt8](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            let cy = min(y / 2, coarse.height - 1)
            for x in 0..<image.width {
                labels[y * image.width + x] = coarseLabels[cy * coarse.width + min(x / 2, coarse.width - 1)]
            }
        }
        try Task.checkCancellation()
        let band = BoxFilter.holdsBoth(labels, width: image.width, height: image.height, radius: refinementRadius)
        let edges = ContrastEdges(image, weight: smoothness * SubjectSegmenter.unit)
        labels = try cut(image, labels: labels, inBand: frameBand(image).inBand, edges: edges, free: band)
        return ForegroundMask(width: image.width, height: image.height, values: labels)
    }

    /// Pixels along the frame, where the background is expected.
    private func frameBand(_ image: WorkingImage) -> (inBand: [Bool], samples: [Int32]) {
        let count = image.width * image.height
        let band = max(1, min(image.width, image.height) / 40)
        var inBand = [Bool](repeating: false, count: count)
        var bandSamples: [Int32] = []
        for y in 0..<image.height {
            for x in 0..<image.width
            where x < band || y < band || x >= image.width - band || y >= image.height - band {
                inBand[y * image.width + x] = true
                bandSamples.append(Int32(y * image.width + x))
            }
        }
        return (inBand, bandSamples)
    }

    /// GrabCut's rounds on one image: seed from the frame, then re-fit and cut.
    private func grabCut(_ image: WorkingImage) throws -> [UInt8] {
        let (inBand, bandSamples) = frameBand(image)
        var labels = try initialLabels(image, inBand: inBand, bandSamples: bandSamples)
        let edges = ContrastEdges(image, weight: smoothness * SubjectSegmenter.unit)
        for _ in 0..<iterations {
            try Task.checkCancellation()
            let next = try cut(image, labels: labels, inBand: inBand, edges: edges, free: nil)
            if next == labels { break }
            labels = next
        }
        return labels
    }

    /// Subject = pixels the frame's colour model explains worse than almost all of the frame.
    private func initialLabels(_ image: WorkingImage, inBand: [Bool], bandSamples: [Int32]) throws -> [UInt8] {
        try Task.checkCancellation()
        return image.colors.withUnsafeBufferPointer { colors in
            let background = ColorMixtureModel(colors: colors, samples: bandSamples, count: components)
            let bandCosts = bandSamples.map { background.cost(colors[Int($0)]) }.sorted()
            let threshold = bandCosts[min(bandCosts.count - 1, bandCosts.count * 97 / 100)] + 2
            var labels = [UInt8](repeating: 0, count: colors.count)
            for index in colors.indices where !inBand[index] && background.cost(colors[index]) > threshold {
                labels[index] = 1
            }
            if labels.reduce(0, { $0 + Int($1) }) < colors.count / 500 {
                markCentre(&labels, width: image.width, height: image.height)
            }
            return labels
        }
    }

    /// GrabCut's fallback seed: the central region, when colour alone finds nothing.
    private func markCentre(_ labels: inout [UInt8], width: Int, height: Int) {
        for y in (height / 5)..<(height - height / 5) {
            for x in (width / 5)..<(width - width / 5) { labels[y * width + x] = 1 }
        }
    }

    /// Integer units per log-likelihood unit in the cut.
    private static let unit: Float = 16

    /// One GrabCut round: re-fit both colour models to `labels`, then cut.
    /// `free`, when given, limits the cut to those pixels; the others keep their label.
    private func cut(_ image: WorkingImage, labels: [UInt8], inBand: [Bool], edges: ContrastEdges,
                     free: [Bool]?) throws -> [UInt8] {
        var subjectSamples: [Int32] = []
        var backgroundSamples: [Int32] = []
        for index in labels.indices {
            if labels[index] == 1 { subjectSamples.append(Int32(index)) } else { backgroundSamples.append(Int32(index)) }
        }
        guard !subjectSamples.isEmpty, !backgroundSamples.isEmpty else { return labels }
        let preferences = image.colors.withUnsafeBufferPointer { colors in
            let subject = ColorMixtureModel(colors: colors, samples: subjectSamples, count: components)
            let background = ColorMixtureModel(colors: colors, samples: backgroundSamples, count: components)
            return colors.indices.map { index in
                if let free, !free[index] { return Int32(0) }
                let subjectCost = subject.cost(colors[index]) + (inBand[index] ? framePrior : 0)
                // > 0 prefers subject; only the difference of the two costs matters, kept finite.
                return Int32(min(max(background.cost(colors[index]) - subjectCost, -1e4), 1e4) * SubjectSegmenter.unit)
            }
        }
        return SubjectSegmenter.minimumCut(preferences: preferences, edges: edges, labels: labels, free: free)
    }

    /// Labels minimising the preferences plus the edge costs, exactly (one max-flow), over
    /// the `free` pixels (all when nil); the others keep `labels` and enter the cut only
    /// through the edges to their free neighbours, which become terminal capacities.
    static func minimumCut(preferences: [Int32], edges: ContrastEdges, labels: [UInt8], free: [Bool]?) -> [UInt8] {
        var result = labels
        var node = [Int32](repeating: -1, count: preferences.count)
        var pixels: [Int32] = []
        for index in preferences.indices where free?[index] ?? true {
            node[index] = Int32(pixels.count)
            pixels.append(Int32(index))
        }
        guard !pixels.isEmpty else { return result }
        var source = pixels.map { max(preferences[Int($0)], 0) }
        var sink = pixels.map { max(-preferences[Int($0)], 0) }
        let graph = MaxFlowGraph(nodeCount: pixels.count, edgeCapacity: pixels.count * 4)
        edges.forEachEdge { p, q, capacity in
            let a = Int(node[p]), b = Int(node[q])
            if a >= 0 && b >= 0 {
                graph.addEdge(a, b, capacity: capacity, reverseCapacity: capacity)
            } else if a >= 0 {
                if labels[q] == 1 { source[a] += capacity } else { sink[a] += capacity }
            } else if b >= 0 {
                if labels[p] == 1 { source[b] += capacity } else { sink[b] += capacity }
            }
        }
        for index in pixels.indices { graph.setTerminalCapacities(index, source: source[index], sink: sink[index]) }
        graph.maximumFlow()
        for (index, pixel) in pixels.enumerated() { result[Int(pixel)] = graph.isSourceSide(index) ? 1 : 0 }
        return result
    }
}
