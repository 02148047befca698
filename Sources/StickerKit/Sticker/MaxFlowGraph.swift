/// A minimum s-t cut solver for the sparse graphs of image segmentation.
///
/// Boykov-Kolmogorov max-flow: Y. Boykov and V. Kolmogorov, "An Experimental Comparison
/// of Min-Cut/Max-Flow Algorithms for Energy Minimization in Vision", PAMI 2004. Two
/// search trees grow from the source and the sink, meet on an augmenting path, and are
/// repaired by adopting orphans instead of being rebuilt; on grid graphs it runs in near
/// linear time in practice (worst case O(V E^2 |C|)). Capacities are integers, so a
/// saturated arc is exactly zero. Storage is flat buffers owned by the graph (no copy-on-
/// write checks in the inner loops); a graph is built, solved and dropped by one caller.
///
///     let graph = MaxFlowGraph(nodeCount: 2, edgeCapacity: 1)
///     graph.setTerminalCapacities(0, source: 5, sink: 0)
///     graph.addEdge(0, 1, capacity: 3, reverseCapacity: 0)
///     graph.setTerminalCapacities(1, source: 0, sink: 4)
///     graph.maximumFlow()      // 3
///     graph.isSourceSide(0)    // true
final class MaxFlowGraph {
    private static let none: Int32 = -1
    private static let terminal: Int32 = -2
    private static let orphan: Int32 = -3
    private static let infiniteDistance = Int32.max

    private let nodeCount: Int
    private let arcCapacity: Int
    private var arcCount = 0
    // Arcs: arc `a` and its sister `a ^ 1` are the two directions of one edge.
    private let arcHead: UnsafeMutablePointer<Int32>
    private let arcNext: UnsafeMutablePointer<Int32>
    private let arcResidual: UnsafeMutablePointer<Int32>
    // Nodes.
    private let firstArc: UnsafeMutablePointer<Int32>
    private let parent: UnsafeMutablePointer<Int32>
    private let inSinkTree: UnsafeMutablePointer<Bool>
    private let terminalResidual: UnsafeMutablePointer<Int32>   // > 0: from the source, < 0: to the sink
    private let timestamp: UnsafeMutablePointer<Int32>
    private let distance: UnsafeMutablePointer<Int32>
    private let isActive: UnsafeMutablePointer<Bool>
    // Active nodes, first in first out: a ring of `nodeCount` slots, as a node is queued
    // at most once at a time (`isActive`).
    private let active: UnsafeMutablePointer<Int32>
    private var activeHead = 0
    private var activeCount = 0
    private var orphans: [Int32] = []
    private var time: Int32 = 0
    private(set) var flow: Int = 0

    /// A graph of `nodeCount` nodes with room for `edgeCapacity` edges.
    init(nodeCount: Int, edgeCapacity: Int) {
        self.nodeCount = nodeCount
        arcCapacity = edgeCapacity * 2
        arcHead = .allocate(capacity: arcCapacity)
        arcNext = .allocate(capacity: arcCapacity)
        arcResidual = .allocate(capacity: arcCapacity)
        firstArc = .allocate(capacity: nodeCount)
        firstArc.initialize(repeating: MaxFlowGraph.none, count: nodeCount)
        parent = .allocate(capacity: nodeCount)
        parent.initialize(repeating: MaxFlowGraph.none, count: nodeCount)
        inSinkTree = .allocate(capacity: nodeCount)
        inSinkTree.initialize(repeating: false, count: nodeCount)
        terminalResidual = .allocate(capacity: nodeCount)
        terminalResidual.initialize(repeating: 0, count: nodeCount)
        timestamp = .allocate(capacity: nodeCount)
        timestamp.initialize(repeating: 0, count: nodeCount)
        distance = .allocate(capacity: nodeCount)
        distance.initialize(repeating: 0, count: nodeCount)
        isActive = .allocate(capacity: nodeCount)
        isActive.initialize(repeating: false, count: nodeCount)
        active = .allocate(capacity: max(1, nodeCount))
    }

    deinit {
        for pointer in [arcHead, arcNext, arcResidual, firstArc, parent, terminalResidual, timestamp, distance, active] {
            pointer.deallocate()
        }
        inSinkTree.deallocate()
        isActive.deallocate()
    }

    /// Adds the cost of cutting `node` from the source (it ends on the sink side) and from
    /// the sink (it ends on the source side). Only the difference matters to the cut.
    func setTerminalCapacities(_ node: Int, source: Int32, sink: Int32) {
        let common = min(source, sink)
        flow += Int(common)
        terminalResidual[node] += source - sink
    }

    /// An edge between two nodes with a capacity in each direction.
    func addEdge(_ from: Int, _ to: Int, capacity: Int32, reverseCapacity: Int32) {
        precondition(arcCount + 2 <= arcCapacity, "more edges than the graph was made for")
        let forward = arcCount
        arcHead[forward] = Int32(to)
        arcNext[forward] = firstArc[from]
        arcResidual[forward] = capacity
        firstArc[from] = Int32(forward)
        arcHead[forward + 1] = Int32(from)
        arcNext[forward + 1] = firstArc[to]
        arcResidual[forward + 1] = reverseCapacity
        firstArc[to] = Int32(forward + 1)
        arcCount += 2
    }

    /// True when `node` is on the source side of the minimum cut (after `maximumFlow`).
    func isSourceSide(_ node: Int) -> Bool {
        parent[node] != MaxFlowGraph.none && !inSinkTree[node]
    }

    /// Computes the maximum flow (= the minimum cut's cost).
    @discardableResult
    func maximumFlow() -> Int {
        initializeTrees()
        var current: Int32 = MaxFlowGraph.none
        while true {
            var node = current
            if node == MaxFlowGraph.none || parent[Int(node)] == MaxFlowGraph.none {
                node = nextActive()
                if node == MaxFlowGraph.none { break }
            }
            let meeting = grow(from: Int(node))
            time += 1
            if meeting != MaxFlowGraph.none {
                current = node
                augment(through: Int(meeting))
                adoptOrphans()
            } else {
                current = MaxFlowGraph.none
            }
        }
        return flow
    }

    private func initializeTrees() {
        for node in 0..<nodeCount {
            let residual = terminalResidual[node]
            if residual != 0 {
                inSinkTree[node] = residual < 0
                parent[node] = MaxFlowGraph.terminal
                distance[node] = 1
                markActive(Int32(node))
            } else {
                parent[node] = MaxFlowGraph.none
            }
        }
    }

    private func markActive(_ node: Int32) {
        if !isActive[Int(node)] {
            isActive[Int(node)] = true
            let slot = activeHead + activeCount
            active[slot < nodeCount ? slot : slot - nodeCount] = node
            activeCount += 1
        }
    }

    private func nextActive() -> Int32 {
        while activeCount > 0 {
            let node = active[activeHead]
            activeHead = activeHead + 1 < nodeCount ? activeHead + 1 : 0
            activeCount -= 1
            isActive[Int(node)] = false
            if parent[Int(node)] != MaxFlowGraph.none { return node }
        }
        return MaxFlowGraph.none
    }

    /// Grows the tree of `node` by one node's neighbourhood; returns the arc (oriented
    /// from the source tree to the sink tree) where the trees meet, or `none`.
    private func grow(from node: Int) -> Int32 {
        let sinkSide = inSinkTree[node]
        var arc = firstArc[node]
        while arc != MaxFlowGraph.none {
            let a = Int(arc)
            let residual = sinkSide ? arcResidual[a ^ 1] : arcResidual[a]
            if residual > 0 {
                let other = Int(arcHead[a])
                if parent[other] == MaxFlowGraph.none {
                    inSinkTree[other] = sinkSide
                    parent[other] = Int32(a ^ 1)
                    timestamp[other] = timestamp[node]
                    distance[other] = distance[node] + 1
                    markActive(Int32(other))
                } else if inSinkTree[other] != sinkSide {
                    return sinkSide ? Int32(a ^ 1) : arc
                } else if timestamp[other] <= timestamp[node] && distance[other] > distance[node] {
                    parent[other] = Int32(a ^ 1)
                    timestamp[other] = timestamp[node]
                    distance[other] = distance[node] + 1
                }
            }
            arc = arcNext[a]
        }
        return MaxFlowGraph.none
    }

    /// Pushes the bottleneck capacity along source -> middle arc -> sink.
    private func augment(through middle: Int) {
        var bottleneck = arcResidual[middle]
        var node = Int(arcHead[middle ^ 1])
        while parent[node] != MaxFlowGraph.terminal {
            let a = Int(parent[node])
            bottleneck = min(bottleneck, arcResidual[a ^ 1])
            node = Int(arcHead[a])
        }
        bottleneck = min(bottleneck, terminalResidual[node])
        node = Int(arcHead[middle])
        while parent[node] != MaxFlowGraph.terminal {
            let a = Int(parent[node])
            bottleneck = min(bottleneck, arcResidual[a])
            node = Int(arcHead[a])
        }
        bottleneck = min(bottleneck, -terminalResidual[node])

        arcResidual[middle ^ 1] += bottleneck
        arcResidual[middle] -= bottleneck
        node = Int(arcHead[middle ^ 1])
        while parent[node] != MaxFlowGraph.terminal {
            let a = Int(parent[node])
            arcResidual[a] += bottleneck
            arcResidual[a ^ 1] -= bottleneck
            if arcResidual[a ^ 1] == 0 { makeOrphan(node) }
            node = Int(arcHead[a])
        }
        terminalResidual[node] -= bottleneck
        if terminalResidual[node] == 0 { makeOrphan(node) }
        node = Int(arcHead[middle])
        while parent[node] != MaxFlowGraph.terminal {
            let a = Int(parent[node])
            arcResidual[a ^ 1] += bottleneck
            arcResidual[a] -= bottleneck
            if arcResidual[a] == 0 { makeOrphan(node) }
            node = Int(arcHead[a])
        }
        terminalResidual[node] += bottleneck
        if terminalResidual[node] == 0 { makeOrphan(node) }
        flow += Int(bottleneck)
    }

    private func makeOrphan(_ node: Int) {
        parent[node] = MaxFlowGraph.orphan
        orphans.append(Int32(node))
    }

    private func adoptOrphans() {
        var index = 0
        while index < orphans.count {
            let node = Int(orphans[index])
            index += 1
            adopt(node)
        }
        orphans.removeAll(keepingCapacity: true)
    }

    /// Finds `node` a new parent in its own tree whose path to the terminal is valid and
    /// shortest; failing that, frees it and turns its children into orphans.
    private func adopt(_ node: Int) {
        let sinkSide = inSinkTree[node]
        var bestArc = MaxFlowGraph.none
        var bestDistance = MaxFlowGraph.infiniteDistance
        var arc = firstArc[node]
        while arc != MaxFlowGraph.none {
            let a = Int(arc)
            let residual = sinkSide ? arcResidual[a] : arcResidual[a ^ 1]
            let neighbour = Int(arcHead[a])
            if residual > 0 && inSinkTree[neighbour] == sinkSide && parent[neighbour] != MaxFlowGraph.none {
                let depth = distanceToTerminal(from: neighbour)
                if depth < MaxFlowGraph.infiniteDistance {
                    if depth < bestDistance {
                        bestArc = arc
                        bestDistance = depth
                    }
                    stampPath(from: neighbour, depth: depth)
                }
            }
            arc = arcNext[a]
        }
        if bestArc != MaxFlowGraph.none {
            parent[node] = bestArc
            timestamp[node] = time
            distance[node] = bestDistance + 1
            return
        }
        arc = firstArc[node]
        while arc != MaxFlowGraph.none {
            let a = Int(arc)
            let neighbour = Int(arcHead[a])
            let neighbourParent = parent[neighbour]
            if inSinkTree[neighbour] == sinkSide && neighbourParent != MaxFlowGraph.none {
                let residual = sinkSide ? arcResidual[a] : arcResidual[a ^ 1]
                if residual > 0 { markActive(Int32(neighbour)) }
                if neighbourParent >= 0 && Int(arcHead[Int(neighbourParent)]) == node {
                    makeOrphan(neighbour)
                }
            }
            arc = arcNext[a]
        }
        parent[node] = MaxFlowGraph.none
    }

    /// Length of the path from `start` to its terminal, or infinity through an orphan.
    private func distanceToTerminal(from start: Int) -> Int32 {
        var node = start
        var depth: Int32 = 0
        while true {
            if timestamp[node] == time { return depth + distance[node] }
            let link = parent[node]
            depth += 1
            if link == MaxFlowGraph.terminal {
                timestamp[node] = time
                distance[node] = 1
                return depth
            }
            if link == MaxFlowGraph.orphan { return MaxFlowGraph.infiniteDistance }
            node = Int(arcHead[Int(link)])
        }
    }

    /// Caches distances along a path just measured, so later searches stop early.
    private func stampPath(from start: Int, depth: Int32) {
        var node = start
        var remaining = depth
        while timestamp[node] != time {
            timestamp[node] = time
            distance[node] = remaining
            remaining -= 1
            node = Int(arcHead[Int(parent[node])])
        }
    }
}
