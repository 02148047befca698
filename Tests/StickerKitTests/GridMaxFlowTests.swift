@testable import StickerKit
import Testing

/// Boykov-Kolmogorov max-flow on the pixel grid against the definition, on small random
/// grids, and against a plain max-flow on larger and textured ones: the side it reports is
/// the smallest of the cheapest of all 2^n labellings (the pixels every cheapest labelling
/// puts on the source side), which is what makes cuts independent of the order of the
/// search, and of the flow a graph solved before starts from.
@Suite struct GridMaxFlowTests {
    struct Problem {
        let width: Int, height: Int
        let forward: [SIMD4<Int32>]

        /// Every edge inside the grid, once: a pixel, its forward neighbour and the capacity.
        let edges: [(pixel: Int, neighbour: Int, capacity: Int32)]

        init(width: Int, height: Int, forward: [SIMD4<Int32>]) {
            (self.width, self.height, self.forward) = (width, height, forward)
            var edges: [(pixel: Int, neighbour: Int, capacity: Int32)] = []
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = y * width + x, capacities = forward[pixel]
                    let neighbours = [(x + 1, y, capacities.x), (x, y + 1, capacities.y),
                                      (x + 1, y + 1, capacities.z), (x - 1, y + 1, capacities.w)]
                    for (nx, ny, capacity) in neighbours where nx >= 0 && nx < width && ny < height {
                        edges.append((pixel, ny * width + nx, capacity))
                    }
                }
            }
            self.edges = edges
        }

        /// The cost of a labelling (1 = source side): preferences on the wrong side plus
        /// every grid edge between differently labelled pixels.
        func cost(_ labels: [UInt8], _ preferences: [Int32]) -> Int {
            var cost = 0
            for (pixel, preference) in preferences.enumerated() {
                if labels[pixel] == 1 && preference < 0 { cost -= Int(preference) }
                if labels[pixel] == 0 && preference > 0 { cost += Int(preference) }
            }
            for edge in edges where labels[edge.pixel] != labels[edge.neighbour] { cost += Int(edge.capacity) }
            return cost
        }

        /// The pixels that every cheapest labelling puts on the source side.
        func smallestMinimumCut(_ preferences: [Int32]) -> [UInt8] {
            let count = width * height
            let labellings = (0..<(1 << count)).map { bits in (0..<count).map { UInt8(bits >> $0 & 1) } }
            let costs = labellings.map { cost($0, preferences) }
            let cheapest = costs.min()!
            var common = [UInt8](repeating: 1, count: count)
            for (labels, cost) in zip(labellings, costs) where cost == cheapest {
                common = zip(common, labels).map { $0 & $1 }
            }
            return common
        }
    }

    /// Three sets of preferences in turn on one graph: each cut is the smallest minimum
    /// cut of its own preferences, whatever flow the ones before left.
    @Test(arguments: 0..<40)
    func cutIsTheSmallestMinimumCut(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        let width = 1 + Int(generator.next() % 4), height = 1 + Int(generator.next() % 3)
        let count = width * height
        let random = { (limit: UInt64) in Int32(generator.next() % limit) }
        // Capacities towards pixels outside the grid too: the solver must ignore them.
        let problem = Problem(width: width, height: height,
                              forward: (0..<count).map { _ in SIMD4(random(9), random(9), random(9), random(9)) })
        let graph = GridMaxFlow(width: width, height: height, edges: problem.forward)
        for round in 0..<3 {
            let preferences = (0..<count).map { _ in random(25) - 12 }
            graph.setPreferences(preferences)
            graph.maximumFlow()
            #expect(graph.sourceSide() == problem.smallestMinimumCut(preferences), "round \(round)")
        }
    }

    /// On a long strip the source side ends at the cheapest edge, across many
    /// augmentations and orphan adoptions.
    @Test func aStripIsCutAtItsCheapestEdge() {
        let width = 64
        var forward = [SIMD4<Int32>](repeating: SIMD4(50, 0, 0, 0), count: width)
        forward[40].x = 3
        forward[55].x = 5
        var preferences = [Int32](repeating: 0, count: width)
        preferences[0] = 1000
        preferences[50] = -1000
        preferences[width - 1] = 1000
        let graph = GridMaxFlow(width: width, height: 1, edges: forward)
        graph.setPreferences(preferences)
        graph.maximumFlow()
        let cut = graph.sourceSide()
        #expect(cut == (0..<width).map { $0 <= 40 || $0 > 55 ? 1 : 0 })
        #expect(Problem(width: width, height: 1, forward: forward).cost(cut, preferences) == 8)
    }

    /// Edmonds-Karp (shortest augmenting paths by breadth-first search) on the same graph,
    /// written out as adjacency lists: the flow and the nodes the source still reaches,
    /// for grids too large to enumerate.
    private func referenceCut(_ problem: Problem, _ preferences: [Int32]) -> (flow: Int, sourceSide: [UInt8]) {
        let count = problem.width * problem.height, source = count, sink = count + 1
        // Arc 2k and 2k + 1 are each other's reverse.
        var heads: [Int] = [], residual: [Int] = []
        var arcs = [[Int]](repeating: [], count: count + 2)
        func connect(_ from: Int, _ to: Int, _ forward: Int, _ backward: Int) {
            arcs[from].append(heads.count)
            heads.append(to)
            residual.append(forward)
            arcs[to].append(heads.count)
            heads.append(from)
            residual.append(backward)
        }
        for edge in problem.edges { connect(edge.pixel, edge.neighbour, Int(edge.capacity), Int(edge.capacity)) }
        for (pixel, preference) in preferences.enumerated() {
            if preference > 0 { connect(source, pixel, Int(preference), 0) }
            if preference < 0 { connect(pixel, sink, -Int(preference), 0) }
        }
        /// The arc each node was reached through (-1: not reached; the source: -2).
        func reached() -> [Int] {
            var through = [Int](repeating: -1, count: count + 2)
            through[source] = -2
            var queue = [source], index = 0
            while index < queue.count {
                let node = queue[index]
                index += 1
                for arc in arcs[node] where through[heads[arc]] == -1 && residual[arc] > 0 {
                    through[heads[arc]] = arc
                    queue.append(heads[arc])
                }
            }
            return through
        }
        var flow = 0
        while case let through = reached(), through[sink] >= 0 {
            var bottleneck = Int.max, node = sink
            while node != source { bottleneck = min(bottleneck, residual[through[node]]); node = heads[through[node] ^ 1] }
            node = sink
            while node != source {
                residual[through[node]] -= bottleneck
                residual[through[node] ^ 1] += bottleneck
                node = heads[through[node] ^ 1]
            }
            flow += bottleneck
        }
        let through = reached()
        return (flow, (0..<count).map { through[$0] != -1 ? 1 : 0 })
    }

    /// Blobs of subject-leaning pixels on 20x12 grids with noisy edges: long augmenting
    /// paths, orphans and nodes that start free, checked against a plain max-flow. The
    /// blob then moves, as GrabCut's rounds move the subject, and the same graph is cut
    /// again from the flow it holds.
    @Test(arguments: 0..<8)
    func largerCutsMatchAPlainMaxFlow(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 3)
        let width = 20, height = 12
        let random = { (limit: UInt64) in Int32(generator.next() % limit) }
        let problem = Problem(width: width, height: height,
                              forward: (0..<(width * height)).map { _ in SIMD4(random(40), random(40), random(30), random(30)) })
        let graph = GridMaxFlow(width: width, height: height, edges: problem.forward)
        for round in 0..<2 {
            let (cx, cy) = (Int(random(UInt64(width))), Int(random(UInt64(height))))
            let preferences = (0..<(width * height)).map { pixel -> Int32 in
                let dx = pixel % width - cx, dy = pixel / width - cy
                let lean: Int32 = dx * dx + 2 * dy * dy < 36 ? 60 : -30
                let noisy = lean + random(81) - 40
                return random(5) == 0 ? 0 : noisy   // a fifth start free
            }
            graph.setPreferences(preferences)
            graph.maximumFlow()
            let reference = referenceCut(problem, preferences)
            let cut = graph.sourceSide()
            #expect(cut == reference.sourceSide, "round \(round)")
            #expect(problem.cost(cut, preferences) == reference.flow, "round \(round)")
            #expect(reference.sourceSide.contains(1) && reference.sourceSide.contains(0))
        }
    }

    /// Textured grids of 64x48, as a photo of bark or foliage makes them: edges from
    /// strong to nearly none at random, preferences a noisy blob over noise of the same
    /// size, so the search frees and re-adopts whole subtrees, for four rounds of a moving
    /// blob on one graph. A solver that loses an augmenting path while repairing its trees
    /// passes the small grids above and fails here.
    @Test(arguments: 0..<4)
    func texturedCutsMatchAPlainMaxFlow(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 15_485_863 &+ 11)
        let width = 64, height = 48
        let random = { (limit: UInt64) in Int32(generator.next() % limit) }
        let problem = Problem(width: width, height: height, forward: (0..<(width * height)).map { _ in
            random(4) == 0 ? SIMD4(random(3), random(3), random(3), random(3))
                           : SIMD4(random(60), random(60), random(45), random(45))
        })
        let graph = GridMaxFlow(width: width, height: height, edges: problem.forward)
        for round in 0..<4 {
            let (cx, cy) = (Int(random(UInt64(width))), Int(random(UInt64(height))))
            let preferences = (0..<(width * height)).map { pixel -> Int32 in
                let dx = pixel % width - cx, dy = pixel / width - cy
                return (dx * dx + dy * dy < 300 ? 40 : -40) + random(161) - 80
            }
            graph.setPreferences(preferences)
            graph.maximumFlow()
            let reference = referenceCut(problem, preferences)
            let cut = graph.sourceSide()
            // Counted, not compared whole: a failure would print 3,072 labels twice.
            let differing = zip(cut, reference.sourceSide).filter { $0 != $1 }.count
            #expect(differing == 0, "round \(round)")
            #expect(problem.cost(cut, preferences) == reference.flow, "round \(round)")
        }
    }
}
