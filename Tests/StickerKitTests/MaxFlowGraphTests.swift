@testable import StickerKit
import Testing

/// Boykov-Kolmogorov max-flow against the definition: on small random graphs the flow
/// equals the cheapest of all 2^n cuts, and the side it reports is a cut of that cost.
@Suite struct MaxFlowGraphTests {
    struct Edge { let from: Int, to: Int, capacity: Int32, reverse: Int32 }

    /// The cost of putting the nodes with `sourceSide` bits on the source side.
    private func cutCost(_ sourceSide: (Int) -> Bool, terminals: [(Int32, Int32)], edges: [Edge]) -> Int {
        var cost = 0
        for (node, (source, sink)) in terminals.enumerated() {
            cost += Int(sourceSide(node) ? sink : source)
        }
        for edge in edges {
            if sourceSide(edge.from) && !sourceSide(edge.to) { cost += Int(edge.capacity) }
            if sourceSide(edge.to) && !sourceSide(edge.from) { cost += Int(edge.reverse) }
        }
        return cost
    }

    @Test(arguments: 0..<40)
    func flowEqualsTheMinimumCut(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        let nodeCount = 2 + Int(generator.next() % 9)
        let random = { (limit: UInt64) in Int32(generator.next() % limit) }
        let terminals = (0..<nodeCount).map { _ in (random(12), random(12)) }
        var edges: [Edge] = []
        for from in 0..<nodeCount {
            for to in (from + 1)..<nodeCount where generator.next() % 3 != 0 {
                edges.append(Edge(from: from, to: to, capacity: random(9), reverse: random(9)))
            }
        }
        let graph = MaxFlowGraph(nodeCount: nodeCount, edgeCapacity: max(1, edges.count))
        for (node, (source, sink)) in terminals.enumerated() {
            graph.setTerminalCapacities(node, source: source, sink: sink)
        }
        for edge in edges { graph.addEdge(edge.from, edge.to, capacity: edge.capacity, reverseCapacity: edge.reverse) }
        let flow = graph.maximumFlow()

        let cheapest = (0..<(1 << nodeCount)).map { bits in
            cutCost({ bits >> $0 & 1 == 1 }, terminals: terminals, edges: edges)
        }.min()!
        #expect(flow == cheapest)
        #expect(cutCost({ graph.isSourceSide($0) }, terminals: terminals, edges: edges) == cheapest)
    }
}
