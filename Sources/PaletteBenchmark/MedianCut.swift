import StickerKit

/// Modified median cut quantisation (MMCQ) as color-thief runs it (after Leptonica):
/// a 5-bit-per-channel RGB histogram, boxes split at the median of their longest side,
/// first by population until 75% of the colours, then by population x volume. Each box's
/// colour is its population-weighted mean. Samples are weighted by alpha.
public enum MedianCut {
    private static let bits = 5
    private static let side = 1 << bits

    private struct Box {
        var low: SIMD3<Int>
        var high: SIMD3<Int>   // inclusive
        var count: Double = 0

        var volume: Double { Double((high.x - low.x + 1) * (high.y - low.y + 1) * (high.z - low.z + 1)) }
    }

    public static func palette(_ samples: LabSamples, count: Int) -> [LabColor] {
        var histogram = [Double](repeating: 0, count: side * side * side)
        for (color, weight) in zip(samples.colors, samples.weights) {
            let rgb = LabColor(l: color.x, a: color.y, b: color.z).rgb
            histogram[index(Int(rgb.red) >> 3, Int(rgb.green) >> 3, Int(rgb.blue) >> 3)] += Double(weight)
        }
        let first = tightened(Box(low: .zero, high: SIMD3(side - 1, side - 1, side - 1)), histogram)
        guard first.count > 0 else { return [] }
        var boxes = [first]
        split(&boxes, histogram, until: Int((0.75 * Double(count)).rounded(.up))) { $0.count }
        split(&boxes, histogram, until: count) { $0.count * $0.volume }
        return boxes.compactMap { mean($0, histogram) }
    }

    private static func index(_ r: Int, _ g: Int, _ b: Int) -> Int { (r << (2 * bits)) + (g << bits) + b }

    private static func population(_ box: Box, _ histogram: [Double]) -> Double {
        var total = 0.0
        for r in box.low.x...box.high.x { for g in box.low.y...box.high.y { for b in box.low.z...box.high.z {
            total += histogram[index(r, g, b)]
        } } }
        return total
    }

    /// Splits the highest-priority splittable box until there are `target` boxes.
    private static func split(_ boxes: inout [Box], _ histogram: [Double], until target: Int, priority: (Box) -> Double) {
        var stuck = 0
        while boxes.count < target && stuck < boxes.count {
            boxes.sort { priority($0) > priority($1) }
            let box = boxes.removeFirst()
            if let (a, b) = cut(box, histogram) {
                boxes.append(a)
                boxes.append(b)
                stuck = 0
            } else {
                boxes.append(box)
                stuck += 1
            }
        }
    }

    /// Cuts a box at the population median of its longest side, leaving neither half empty.
    private static func cut(_ box: Box, _ histogram: [Double]) -> (Box, Box)? {
        let extent = box.high &- box.low
        guard extent.max() > 0, box.count > 0 else { return nil }
        let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
        var partial = [Double](repeating: 0, count: side)
        var total = 0.0
        for value in box.low[axis]...box.high[axis] {
            var slice = box
            slice.low[axis] = value
            slice.high[axis] = value
            total += population(slice, histogram)
            partial[value] = total
        }
        guard let median = (box.low[axis]...box.high[axis]).first(where: { partial[$0] > total / 2 }) else { return nil }
        let left = median - box.low[axis], right = box.high[axis] - median
        var cutAt = left <= right ? min(box.high[axis] - 1, median + right / 2) : max(box.low[axis], median - 1 - left / 2)
        cutAt = max(box.low[axis], min(box.high[axis] - 1, cutAt))
        var a = box, b = box
        a.high[axis] = cutAt
        b.low[axis] = cutAt + 1
        // Boxes are kept tight, so both end slices are populated and neither half is empty.
        return (tightened(a, histogram), tightened(b, histogram))
    }

    /// The smallest box holding every populated cell of `box`, with its population.
    private static func tightened(_ box: Box, _ histogram: [Double]) -> Box {
        var result = Box(low: box.high, high: box.low)
        for r in box.low.x...box.high.x { for g in box.low.y...box.high.y { for b in box.low.z...box.high.z
        where histogram[index(r, g, b)] > 0 {
            result.low = pointwiseMin(result.low, SIMD3(r, g, b))
            result.high = pointwiseMax(result.high, SIMD3(r, g, b))
            result.count += histogram[index(r, g, b)]
        } } }
        return result
    }

    private static func mean(_ box: Box, _ histogram: [Double]) -> LabColor? {
        var sum = SIMD3<Double>.zero
        var total = 0.0
        let scale = Double(1 << (8 - bits))
        for r in box.low.x...box.high.x { for g in box.low.y...box.high.y { for b in box.low.z...box.high.z {
            let weight = histogram[index(r, g, b)]
            sum += SIMD3(Double(r) + 0.5, Double(g) + 0.5, Double(b) + 0.5) * scale * weight
            total += weight
        } } }
        guard total > 0 else { return nil }
        let rgb = sum / total
        return LabColor(red: UInt8(min(255, rgb.x.rounded())), green: UInt8(min(255, rgb.y.rounded())),
                        blue: UInt8(min(255, rgb.z.rounded())))
    }
}
