/// A minimum s-t cut solver for the 8-connected pixel grid of image segmentation.
///
/// Boykov-Kolmogorov max-flow: Y. Boykov and V. Kolmogorov, "An Experimental Comparison
/// of Min-Cut/Max-Flow Algorithms for Energy Minimization in Vision", PAMI 2004. Two
/// search trees grow from the source and the sink, meet on an augmenting path, and are
/// repaired by adopting orphans instead of being rebuilt; on grid graphs it runs in near
/// linear time in practice (worst case O(V E^2 |C|)). Capacities are integers, so a
/// saturated arc is exactly zero.
///
/// The arcs are implicit, as in grid-specialised solvers (O. Jamriska, D. Sykora,
/// A. Hornung, "Cache-efficient graph cuts on structured grids", CVPR 2012): node `n`'s
/// eight arcs are `8n + d`, one per direction, their residuals side by side, and an arc's
/// head and its sister (the reverse arc) are computed from the direction, so there is no
/// adjacency list to build or chase. The grid is padded by one node on every side that
/// no arc reaches (capacity 0), so the solver never checks bounds. The cut it reports is
/// the set of nodes the source still reaches, which is the same for every maximum flow.
///
/// The graph can be solved again with new preferences and the same edges (GrabCut's
/// rounds): the flow already found is kept, reparameterised to the new terminal
/// capacities, so the next search pushes only what changed (dynamic graph cuts, P. Kohli
/// and P. H. S. Torr, "Dynamic Graph Cuts for Efficient Inference in Markov Random
/// Fields", PAMI 2007). The cut is the same as a fresh graph's.
///
///     // Pixel 0 to its right neighbour, capacity 3 both ways.
///     let graph = GridMaxFlow(width: 2, height: 1, edges: [SIMD4(3, 0, 0, 0), .zero])
///     graph.setPreferences([5, -4])                  // pixel 0 leans to the source, 1 to the sink
///     graph.maximumFlow()
///     graph.sourceSide()       // [1, 0]
///     graph.setPreferences([-5, 4])
///     graph.maximumFlow()
///     graph.sourceSide()       // [0, 1]
final class GridMaxFlow {
    private static let none: Int32 = -1
    private static let terminal: Int32 = -2
    private static let orphan: Int32 = -3
    private static let infiniteDistance = Int32.max

    let width: Int
    let height: Int
    /// Nodes per padded row.
    private let stride: Int
    private let nodeCount: Int
    /// Node offset of each direction: right, left, down, up, down-right, up-left,
    /// down-left, up-right (direction d ^ 1 is the opposite of d).
    private let offsets: UnsafeMutablePointer<Int>
    // Arcs: residual capacity of arc 8n + d, from node n in direction d.
    private let arcResidual: UnsafeMutablePointer<Int32>
    // Nodes.
    private let parent: UnsafeMutablePointer<Int32>     // the arc to the parent, or a code above
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
    // Orphans waiting for a parent, first in first out: a ring of `nodeCount` slots too, as
    // a node waits at most once at a time (its parent is `orphan` meanwhile). Not an
    // array: appending to a class's array property is checked for exclusive access at
    // run time, 5% of a textured photo's segmentation.
    private let orphans: UnsafeMutablePointer<Int32>
    private var orphanHead = 0
    private var orphanCount = 0
    private var time: Int32 = 0
    /// The preferences the terminal residuals were last set from, per pixel (row-major).
    private var preferences: [Int32]

    /// A `width` x `height` grid with these edges and no terminal capacities yet. Each edge
    /// has the same capacity both ways: `forward[i]` holds pixel i's to its right, down,
    /// down-right and down-left neighbours; those outside the grid are ignored.
    init(width: Int, height: Int, edges forward: [SIMD4<Int32>]) {
        precondition(forward.count == width * height, "one entry per pixel")
        self.width = width
        self.height = height
        stride = width + 2
        nodeCount = (width + 2) * (height + 2)
        offsets = .allocate(capacity: 8)
        for (d, offset) in [1, -1, stride, -stride, stride + 1, -stride - 1, stride - 1, -stride + 1].enumerated() {
            offsets[d] = offset
        }
        arcResidual = .allocate(capacity: nodeCount * 8)
        // `initializeTrees` writes the trees' fields of every node before a search reads them.
        parent = .allocate(capacity: nodeCount)
        inSinkTree = .allocate(capacity: nodeCount)
        timestamp = .allocate(capacity: nodeCount)
        distance = .allocate(capacity: nodeCount)
        terminalResidual = .allocate(capacity: nodeCount)
        terminalResidual.initialize(repeating: 0, count: nodeCount)
        isActive = .allocate(capacity: nodeCount)
        isActive.initialize(repeating: false, count: nodeCount)
        active = .allocate(capacity: nodeCount)
        orphans = .allocate(capacity: nodeCount)
        preferences = [Int32](repeating: 0, count: width * height)
        forward.withUnsafeBufferPointer(writeArcs)
    }

    /// The grid of `edges`.
    convenience init(_ edges: ContrastEdges) {
        self.init(width: edges.width, height: edges.height, edges: edges.forward)
    }

    deinit {
        for pointer in [arcResidual, parent, terminalResidual, timestamp, distance, active, orphans] {
            pointer.deallocate()
        }
        offsets.deallocate()
        inSinkTree.deallocate()
        isActive.deallocate()
    }

    /// The node arc `a` points to.
    @inline(__always)
    private func head(_ a: Int) -> Int { a >> 3 &+ offsets[a & 7] }

    /// The reverse of arc `a`.
    @inline(__always)
    private func sister(_ a: Int) -> Int { head(a) << 3 | (a & 7 ^ 1) }

    /// Terminal capacities, one per pixel (row-major): a positive preference p costs p if
    /// the pixel ends on the sink side, a negative one costs -p if it ends on the source side.
    ///
    /// After a `maximumFlow`, each pixel's terminal residual moves by the change in its
    /// preference. With one net terminal capacity per pixel the flow through it stays
    /// valid (its source and sink capacities rise by the same amount where the new
    /// preference cannot carry it, which adds the same cost to every cut), so the flow
    /// found so far is kept and the cut is unchanged by it (Kohli and Torr 2007).
    func setPreferences(_ preferences: [Int32]) {
        precondition(preferences.count == width * height, "one preference per pixel")
        for y in 0..<height {
            let row = (y + 1) * stride + 1
            for x in 0..<width {
                let pixel = y * width + x
                terminalResidual[row + x] &+= preferences[pixel] &- self.preferences[pixel]
            }
        }
        self.preferences = preferences
    }

    /// Every node's eight arc capacities, node by node in one pass (a pixel's backward arcs
    /// are its neighbours' forward edges); arcs from or to the padding get 0.
    private func writeArcs(_ forward: UnsafeBufferPointer<SIMD4<Int32>>) {
        let arcs = UnsafeMutableRawPointer(arcResidual)
        func store(_ capacities: SIMD8<Int32>, row: Int, column: Int) {
            arcs.storeBytes(of: capacities, toByteOffset: (row * stride + column) * 32, as: SIMD8<Int32>.self)
        }
        /// A node on the padding or a pixel on the frame, whose neighbours may be missing.
        func edgeNode(row: Int, column: Int) {
            let x = column - 1, y = row - 1
            var capacities = SIMD8<Int32>()
            if x >= 0 && x < width && y >= 0 && y < height {
                let pixel = y * width + x
                let hasLeft = x > 0, hasRight = x + 1 < width, hasUp = y > 0, hasDown = y + 1 < height
                if hasRight { capacities[0] = forward[pixel].x }
                if hasLeft { capacities[1] = forward[pixel - 1].x }
                if hasDown { capacities[2] = forward[pixel].y }
                if hasUp { capacities[3] = forward[pixel - width].y }
                if hasRight && hasDown { capacities[4] = forward[pixel].z }
                if hasLeft && hasUp { capacities[5] = forward[pixel - width - 1].z }
                if hasLeft && hasDown { capacities[6] = forward[pixel].w }
                if hasRight && hasUp { capacities[7] = forward[pixel - width + 1].w }
            }
            store(capacities, row: row, column: column)
        }
        for row in 0..<(height + 2) {
            // Rows 2...height - 1 hold pixels with neighbours up and down: columns 2...width - 1
            // of them have all eight (the same capacities, without the tests).
            guard row >= 2, row < height, width > 2 else {
                for column in 0..<stride { edgeNode(row: row, column: column) }
                continue
            }
            for column in 0..<2 { edgeNode(row: row, column: column) }
            let y = row - 1
            for x in 1..<(width - 1) {
                let pixel = y * width + x, here = forward[pixel]
                let capacities = SIMD8(here.x, forward[pixel - 1].x, here.y, forward[pixel - width].y,
                                       here.z, forward[pixel - width - 1].z, here.w, forward[pixel - width + 1].w)
                store(capacities, row: row, column: x + 1)
            }
            for column in width..<stride { edgeNode(row: row, column: column) }
        }
    }

    /// 1 for every pixel on the source side of the minimum cut, 0 for the others
    /// (row-major; after `maximumFlow`).
    func sourceSide() -> [UInt8] {
        var labels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = (y + 1) * stride + 1
            for x in 0..<width where parent[row + x] != GridMaxFlow.none && !inSinkTree[row + x] {
                labels[y * width + x] = 1
            }
        }
        return labels
    }

    /// Computes a maximum flow, from the flow found so far, so `sourceSide` is the minimum cut.
    func maximumFlow() {
        initializeTrees()
        var current: Int32 = GridMaxFlow.none
        while true {
            var node = current
            if node == GridMaxFlow.none || parent[Int(node)] == GridMaxFlow.none {
                node = nextActive()
                if node == GridMaxFlow.none { break }
            }
            let meeting = grow(from: Int(node))
            time += 1
            if meeting != GridMaxFlow.none {
                current = node
                augment(through: Int(meeting))
                adoptOrphans()
            } else {
                current = GridMaxFlow.none
            }
        }
    }

    /// Every node with a terminal arc joins its terminal's tree. Only those on a
    /// tree's frontier start active, with an arc of residual capacity to a free node or
    /// to the other tree: growing from a node whose neighbours are all in its own tree
    /// finds nothing (they are as close to the terminal as it is), and a neighbour freed
    /// later marks them active then (`adopt`). The trees are built afresh on every search,
    /// from the residuals as they are.
    private func initializeTrees() {
        time = 0
        for node in 0..<nodeCount {
            let residual = terminalResidual[node]
            inSinkTree[node] = residual < 0
            parent[node] = residual != 0 ? GridMaxFlow.terminal : GridMaxFlow.none
            timestamp[node] = 0
            distance[node] = 1
            // A node's tree is the sign of its terminal residual (0: free). Most nodes lie
            // inside their tree, which one look at the eight neighbours' signs tells
            // (padding nodes, free, are never looked around).
            guard residual != 0, neighboursLeaveTree(of: node, sourceSide: residual > 0) else { continue }
            if residual > 0 {
                for a in (node << 3)..<(node << 3 + 8) where arcResidual[a] > 0 && terminalResidual[head(a)] <= 0 {
                    markActive(Int32(node))
                    break
                }
            } else {
                for a in (node << 3)..<(node << 3 + 8) where arcResidual[sister(a)] > 0 && terminalResidual[head(a)] >= 0 {
                    markActive(Int32(node))
                    break
                }
            }
        }
    }

    /// Whether any of `node`'s eight neighbours is free or in the other tree, going by the
    /// signs of their terminal residuals.
    @inline(__always)
    private func neighboursLeaveTree(of node: Int, sourceSide: Bool) -> Bool {
        let above = terminalResidual + (node - stride), here = terminalResidual + node, below = terminalResidual + (node + stride)
        if sourceSide {
            return min(min(min(above[-1], above[0]), min(above[1], here[-1])),
                       min(min(here[1], below[-1]), min(below[0], below[1]))) <= 0
        }
        return max(max(max(above[-1], above[0]), max(above[1], here[-1])),
                   max(max(here[1], below[-1]), max(below[0], below[1]))) >= 0
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
            if parent[Int(node)] != GridMaxFlow.none { return node }
        }
        return GridMaxFlow.none
    }

    /// Grows the tree of `node` by one node's neighbourhood; returns the arc (oriented
    /// from the source tree to the sink tree) where the trees meet, or `none`.
    private func grow(from node: Int) -> Int32 {
        let sinkSide = inSinkTree[node]
        for a in (node << 3)..<(node << 3 + 8) {
            let residual = sinkSide ? arcResidual[sister(a)] : arcResidual[a]
            if residual > 0 {
                let other = head(a)
                if parent[other] == GridMaxFlow.none {
                    inSinkTree[other] = sinkSide
                    parent[other] = Int32(sister(a))
                    timestamp[other] = timestamp[node]
                    distance[other] = distance[node] &+ 1
                    markActive(Int32(other))
                } else if inSinkTree[other] != sinkSide {
                    return Int32(sinkSide ? sister(a) : a)
                } else if timestamp[other] <= timestamp[node] && distance[other] > distance[node] {
                    parent[other] = Int32(sister(a))
                    timestamp[other] = timestamp[node]
                    distance[other] = distance[node] &+ 1
                }
            }
        }
        return GridMaxFlow.none
    }

    /// Pushes the bottleneck capacity along source -> middle arc -> sink. A residual is at
    /// most a preference plus a node's eight edges, and the segmenter's are under 2^25, far
    /// inside Int32, so the hot paths add without overflow checks (2% of a textured photo's
    /// segmentation).
    private func augment(through middle: Int) {
        var bottleneck = arcResidual[middle]
        var node = middle >> 3
        while parent[node] != GridMaxFlow.terminal {
            let a = Int(parent[node])
            bottleneck = min(bottleneck, arcResidual[sister(a)])
            node = head(a)
        }
        bottleneck = min(bottleneck, terminalResidual[node])
        node = head(middle)
        while parent[node] != GridMaxFlow.terminal {
            let a = Int(parent[node])
            bottleneck = min(bottleneck, arcResidual[a])
            node = head(a)
        }
        bottleneck = min(bottleneck, -terminalResidual[node])

        arcResidual[sister(middle)] &+= bottleneck
        arcResidual[middle] &-= bottleneck
        node = middle >> 3
        while parent[node] != GridMaxFlow.terminal {
            let a = Int(parent[node])
            arcResidual[a] &+= bottleneck
            arcResidual[sister(a)] &-= bottleneck
            if arcResidual[sister(a)] == 0 { makeOrphan(node) }
            node = head(a)
        }
        terminalResidual[node] &-= bottleneck
        if terminalResidual[node] == 0 { makeOrphan(node) }
        node = head(middle)
        while parent[node] != GridMaxFlow.terminal {
            let a = Int(parent[node])
            arcResidual[sister(a)] &+= bottleneck
            arcResidual[a] &-= bottleneck
            if arcResidual[a] == 0 { makeOrphan(node) }
            node = head(a)
        }
        terminalResidual[node] &+= bottleneck
        if terminalResidual[node] == 0 { makeOrphan(node) }
    }

    private func makeOrphan(_ node: Int) {
        parent[node] = GridMaxFlow.orphan
        let slot = orphanHead + orphanCount
        orphans[slot < nodeCount ? slot : slot - nodeCount] = Int32(node)
        orphanCount += 1
    }

    private func adoptOrphans() {
        while orphanCount > 0 {
            let node = Int(orphans[orphanHead])
            orphanHead = orphanHead + 1 < nodeCount ? orphanHead + 1 : 0
            orphanCount -= 1
            adopt(node)
        }
    }

    /// Finds `node` a new parent in its own tree whose path to the terminal is valid and
    /// shortest; failing that, frees it and turns its children into orphans.
    private func adopt(_ node: Int) {
        let sinkSide = inSinkTree[node]
        var bestArc = GridMaxFlow.none
        var bestDistance = GridMaxFlow.infiniteDistance
        for a in (node << 3)..<(node << 3 + 8) {
            let residual = sinkSide ? arcResidual[a] : arcResidual[sister(a)]
            let neighbour = head(a)
            if residual > 0 && inSinkTree[neighbour] == sinkSide && parent[neighbour] != GridMaxFlow.none {
                let depth = distanceToTerminal(from: neighbour)
                if depth < GridMaxFlow.infiniteDistance {
                    if depth < bestDistance {
                        bestArc = Int32(a)
                        bestDistance = depth
                    }
                    stampPath(from: neighbour, depth: depth)
                }
            }
        }
        if bestArc != GridMaxFlow.none {
            parent[node] = bestArc
            timestamp[node] = time
            distance[node] = bestDistance &+ 1
            return
        }
        for a in (node << 3)..<(node << 3 + 8) {
            let neighbour = head(a)
            let neighbourParent = parent[neighbour]
            if inSinkTree[neighbour] == sinkSide && neighbourParent != GridMaxFlow.none {
                let residual = sinkSide ? arcResidual[a] : arcResidual[sister(a)]
                if residual > 0 { markActive(Int32(neighbour)) }
                if neighbourParent >= 0 && head(Int(neighbourParent)) == node {
                    makeOrphan(neighbour)
                }
            }
        }
        parent[node] = GridMaxFlow.none
    }

    /// Length of the path from `start` to its terminal, or infinity through an orphan.
    private func distanceToTerminal(from start: Int) -> Int32 {
        var node = start
        var depth: Int32 = 0
        while true {
            if timestamp[node] == time { return depth &+ distance[node] }
            let link = parent[node]
            depth &+= 1
            if link == GridMaxFlow.terminal {
                timestamp[node] = time
                distance[node] = 1
                return depth
            }
            if link == GridMaxFlow.orphan { return GridMaxFlow.infiniteDistance }
            node = head(Int(link))
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
            node = head(Int(parent[node]))
        }
    }
}
