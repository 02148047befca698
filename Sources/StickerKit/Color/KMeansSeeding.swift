/// k-means++ seeding (D. Arthur, S. Vassilvitskii, "k-means++: the advantages of careful
/// seeding", SODA 2007): each next centre is drawn with probability proportional to its
/// weighted squared distance from the nearest centre so far. Deterministic for a given
/// generator. O(k x points).
enum KMeansSeeding {
    /// `weights` nil means every point weighs 1.
    static func plusPlus(_ points: [SIMD3<Float>], weights: [Float]? = nil, count: Int,
                         using generator: inout SplitMix64) -> [SIMD3<Float>] {
        guard !points.isEmpty, count > 0 else { return [] }
        let weight = { (index: Int) in weights?[index] ?? 1 }
        let first = points[Int(generator.next() % UInt64(points.count))]
        var centers = [first]
        var distances = points.indices.map { i in ((points[i] - first) * (points[i] - first)).sum() * weight(i) }
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
                distances[index] = min(distances[index], (d * d).sum() * weight(index))
            }
        }
        return centers
    }
}
