/// Per-output-sample source taps along one axis: area averaging when shrinking (every
/// source pixel counts by the fraction of it the output pixel covers), linear
/// interpolation when enlarging. O(source + destination) to build.
struct ResampleWeights: Sendable {
    /// For output sample `i`, taps `offsets[i] ..< offsets[i + 1]` of `indices`/`weights`.
    var offsets: [Int32]
    var indices: [Int32]
    var weights: [Float]
    /// Whether the span is enlarged (or kept): then output `i` has exactly the two taps
    /// `2 i` and `2 i + 1`, the neighbours it interpolates between.
    let interpolates: Bool

    /// Maps the source span `start ..< start + span` (in source pixels, may be fractional)
    /// onto `count` output samples. Taps outside `0 ..< sourceLength` are clamped.
    init(sourceLength: Int, start: Double, span: Double, count: Int) {
        offsets = [0]
        indices = []
        weights = []
        offsets.reserveCapacity(count + 1)
        let step = span / Double(count)
        interpolates = step <= 1
        for i in 0..<count {
            if step > 1 {
                let lower = start + Double(i) * step
                let upper = lower + step
                var x = Int(lower.rounded(.down))
                while Double(x) < upper {
                    let coverage = min(upper, Double(x + 1)) - max(lower, Double(x))
                    if coverage > 1e-9 { append(x, Float(coverage / step), sourceLength) }
                    x += 1
                }
            } else {
                let center = start + (Double(i) + 0.5) * step - 0.5
                let left = Int(center.rounded(.down))
                let fraction = Float(center - Double(left))
                append(left, 1 - fraction, sourceLength)
                append(left + 1, fraction, sourceLength)
            }
            offsets.append(Int32(indices.count))
        }
    }

    private mutating func append(_ index: Int, _ weight: Float, _ length: Int) {
        indices.append(Int32(min(max(index, 0), length - 1)))
        weights.append(weight)
    }
}
