import StickerKit

/// How well a palette stands for an image: the alpha-weighted mean CIEDE2000 distance from
/// every proxy sample to its nearest palette colour (lower is better).
public enum PaletteFidelity {
    public static func meanDistance(_ samples: LabSamples, palette: [LabColor]) -> Double {
        guard !palette.isEmpty, samples.totalWeight > 0 else { return .infinity }
        var total = 0.0
        for (color, weight) in zip(samples.colors, samples.weights) {
            let lab = LabColor(l: color.x, a: color.y, b: color.z)
            let nearest = palette.map { Double(lab.difference(to: $0)) }.min()!
            total += nearest * Double(weight)
        }
        return total / Double(samples.totalWeight)
    }

    /// Mean CIEDE2000 between two palettes after matching each colour of the smaller one
    /// to its nearest in the other (for stability across sizes).
    public static func matchedDistance(_ a: [LabColor], _ b: [LabColor]) -> Double {
        let (small, large) = a.count <= b.count ? (a, b) : (b, a)
        guard !small.isEmpty, !large.isEmpty else { return .infinity }
        let distances = small.map { color in large.map { Double(color.difference(to: $0)) }.min()! }
        return distances.reduce(0, +) / Double(distances.count)
    }
}
