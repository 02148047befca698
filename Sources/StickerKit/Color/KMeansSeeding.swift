/// k-means++ seeding (D. Arthur, S. Vassilvitskii, "k-means++: the advantages of careful
/// seeding", SODA 2007): each next centre is drawn with probability proportional to its
/// squared distance from the nearest centre so far. Deterministic for a given generator.
/// O(k x points).
enum KMeansSeeding {
    static func plusPlus(_ points: [SIMD3<Float>], count: Int, using generator: inout SplitMix64) -> [SIMD3<Float>] {
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
        var bins: [SIMD3<Int32>: (sum: SIMD3<Float>, weight: Float)] = [:]
        for (point, weight) in zip(points, weights) {
            let bin = (point / binSize).rounded(.down)   // scalar conversions: SIMD's generic one is slow
            let key = SIMD3(Int32(bin.x), Int32(bin.y), Int32(bin.z))
            let entry = bins[key] ?? (.zero, 0)
            bins[key] = (entry.sum + point * weight, entry.weight + weight)
        }
        // Sorted so that ties resolve the same way on every run.
        let centers = bins.values.filter { $0.weight > 0 }.map { ($0.sum / $0.weight, $0.weight) }
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
