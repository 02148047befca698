/// k-means++ seeding (D. Arthur, S. Vassilvitskii, "k-means++: the advantages of careful
/// seeding", SODA 2007): each next centre is drawn with probability proportional to its
/// squared distance from the nearest centre so far. Deterministic for a given generator.
/// O(k x points).
enum KMeansSeeding {
    static func plusPlus<Point: SIMD>(_ points: [Point], count: Int, using generator: inout SplitMix64) -> [Point]
    where Point.Scalar == Float {
        guard !points.isEmpty, count > 0 else { return [] }
        let first = points[Int(generator.next() % UInt64(points.count))]
        var centers = [first]
        var distances = points.map { ((($0 - first) * ($0 - first)).sum()) }
        while centers.count < count {
            let total = distances.reduce(0, +)
            guard total > 0 else { break }
            var target = Float(generator.nextUnit()) * total
            var chosen = points.count - 1
            for (index, distance) in distances.enumerated() {
                target -= distance
                if target <= 0 {
                    chosen = index
                    break
                }
            }
            let center = points[chosen]
            centers.append(center)
            for index in points.indices {
                let d = points[index] - center
                distances[index] = min(distances[index], (d * d).sum())
            }
        }
        return centers
    }
}

extension KMeansSeeding {
    /// Deterministic seeding that does not depend on sample order or on the exact proxy:
    /// samples are binned on a coarse CIELAB grid (`binSize` units), the heaviest bin seeds
    /// first, and each next seed is the bin maximising weight x squared distance to the
    /// nearest seed (a greedy, weighted k-means++). Stable when the same photo is seen at
    /// another size, since its bin weights barely change.
    static func greedyBinned(_ points: [SIMD3<Float>], weights: [Float], count: Int, binSize: Float = 8) -> [SIMD3<Float>] {
        // A flat grid over CIELAB's sRGB range (L 0-100, a and b within -128...127): bin
        // sums in lanes x-z, bin weight in lane w. Colours outside it go to the edge bins.
        let lightnessBins = Int(100 / binSize) + 1, chromaBins = Int((256 / binSize).rounded(.up))
        let chromaOffset = Float(chromaBins / 2)
        var bins = [SIMD4<Float>](repeating: .zero, count: lightnessBins * chromaBins * chromaBins)
        func index(_ value: Float, offset: Float, count: Int) -> Int {
            // Scalar conversion: SIMD's generic one is slow.
            min(max(Int((value / binSize).rounded(.down) + offset), 0), count - 1)
        }
        for (point, weight) in zip(points, weights) {
            let bin = (index(point.x, offset: 0, count: lightnessBins) * chromaBins
                       + index(point.y, offset: chromaOffset, count: chromaBins)) * chromaBins
                       + index(point.z, offset: chromaOffset, count: chromaBins)
            bins[bin] += SIMD4(point * weight, weight)
        }
        // Sorted so that ties resolve the same way on every run.
        let centers = bins.filter { $0.w > 0 }.map { (SIMD3($0.x, $0.y, $0.z) / $0.w, $0.w) }
            .sorted { ($0.1, $0.0.x, $0.0.y, $0.0.z) > ($1.1, $1.0.x, $1.0.y, $1.0.z) }
        guard let first = centers.first else { return [] }
        var seeds = [first.0]
        var distances = centers.map { ((($0.0 - first.0) * ($0.0 - first.0)).sum(), $0.1) }
        while seeds.count < count {
            guard let next = distances.indices.max(by: { distances[$0].0 * distances[$0].1 < distances[$1].0 * distances[$1].1 }),
                  distances[next].0 > 0 else { break }
            let seed = centers[next].0
            seeds.append(seed)
            for index in distances.indices {
                let d = centers[index].0 - seed
                distances[index].0 = min(distances[index].0, (d * d).sum())
            }
        }
        return seeds
    }
}
