import StickerKit

/// A deliberately plain, slow k-means in CIELAB to measure the production palette against:
/// k-means++ seeding, Lloyd to convergence (at most 300 iterations), 10 restarts, the
/// lowest weighted error wins. Doubles throughout; no merging, no shortcuts.
public enum ReferenceKMeans {
    public static func palette(_ samples: LabSamples, count: Int, restarts: Int = 10, seed: UInt64 = 42) -> [LabColor] {
        let points = samples.colors.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
        let weights = samples.weights.map(Double.init)
        guard !points.isEmpty, count > 0 else { return [] }
        var generator = ReferenceGenerator(state: seed)
        var best: [SIMD3<Double>] = []
        var bestError = Double.infinity
        for _ in 0..<restarts {
            var centers = seeds(points, weights, count, &generator)
            var error = 0.0
            for _ in 0..<300 {
                var sums = [SIMD3<Double>](repeating: .zero, count: centers.count)
                var totals = [Double](repeating: 0, count: centers.count)
                error = 0
                for (point, weight) in zip(points, weights) {
                    let (k, distance) = nearest(point, centers)
                    sums[k] += point * weight
                    totals[k] += weight
                    error += distance * weight
                }
                let moved = centers.indices.map { totals[$0] > 0 ? sums[$0] / totals[$0] : centers[$0] }
                if moved == centers { break }
                centers = moved
            }
            if error < bestError {
                bestError = error
                best = centers
            }
        }
        return best.map { LabColor(l: Float($0.x), a: Float($0.y), b: Float($0.z)) }
    }

    private static func nearest(_ point: SIMD3<Double>, _ centers: [SIMD3<Double>]) -> (Int, Double) {
        var best = (0, Double.infinity)
        for (k, center) in centers.enumerated() {
            let d = point - center
            let distance = (d * d).sum()
            if distance < best.1 { best = (k, distance) }
        }
        return best
    }

    private static func seeds(_ points: [SIMD3<Double>], _ weights: [Double], _ count: Int,
                              _ generator: inout ReferenceGenerator) -> [SIMD3<Double>] {
        var centers = [points[Int(generator.next() % UInt64(points.count))]]
        while centers.count < count {
            let distances = zip(points, weights).map { nearest($0, centers).1 * $1 }
            let total = distances.reduce(0, +)
            guard total > 0 else { break }
            var target = Double(generator.next() % 1_000_000) / 1_000_000 * total
            var chosen = points.count - 1
            for (index, distance) in distances.enumerated() {
                target -= distance
                if target <= 0 {
                    chosen = index
                    break
                }
            }
            centers.append(points[chosen])
        }
        return centers
    }
}

/// A linear congruential generator, independent of StickerKit's.
struct ReferenceGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 17
    }
}
