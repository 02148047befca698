/// Mean over a (2r+1) x (2r+1) window, clipped at the edges, in O(N) whatever the radius
/// (running sums along rows, then columns).
enum BoxFilter {
    static func mean(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        var rows = [Float](repeating: 0, count: plane.count)
        var output = [Float](repeating: 0, count: plane.count)
        plane.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { rows in
                for y in 0..<height {
                    slide(source, start: y * width, stride: 1, count: width, radius: radius, into: rows)
                }
            }
        }
        rows.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { out in
                for x in 0..<width {
                    slide(source, start: x, stride: width, count: height, radius: radius, into: out)
                }
            }
        }
        return output
    }

    /// Window means along one line of `count` samples spaced `stride` apart.
    private static func slide(_ source: UnsafeBufferPointer<Float>, start: Int, stride: Int, count: Int,
                              radius: Int, into output: UnsafeMutableBufferPointer<Float>) {
        var sum: Float = 0
        var lower = 0, upper = -1   // current window [lower, upper]
        for i in 0..<count {
            let wantedUpper = min(count - 1, i + radius)
            while upper < wantedUpper {
                upper += 1
                sum += source[start + upper * stride]
            }
            let wantedLower = max(0, i - radius)
            while lower < wantedLower {
                sum -= source[start + lower * stride]
                lower += 1
            }
            output[start + i * stride] = sum / Float(upper - lower + 1)
        }
    }

    /// Whether the (2r+1) x (2r+1) window around each pixel, clipped at the edges, holds
    /// both a zero and a non-zero label: the band within `radius` of a boundary. Integer
    /// window counts, O(N) whatever the radius.
    static func holdsBoth(_ labels: [UInt8], width: Int, height: Int, radius: Int) -> [Bool] {
        var rows = [Int32](repeating: 0, count: labels.count)
        for y in 0..<height {
            var count: Int32 = 0
            for x in 0..<min(width, radius) where labels[y * width + x] != 0 { count += 1 }
            for x in 0..<width {
                if x + radius < width && labels[y * width + x + radius] != 0 { count += 1 }
                if x - radius - 1 >= 0 && labels[y * width + x - radius - 1] != 0 { count -= 1 }
                rows[y * width + x] = count
            }
        }
        var result = [Bool](repeating: false, count: labels.count)
        for x in 0..<width {
            let across = Int32(min(width - 1, x + radius) - max(0, x - radius) + 1)
            var count: Int32 = 0
            for y in 0..<min(height, radius) { count += rows[y * width + x] }
            for y in 0..<height {
                if y + radius < height { count += rows[(y + radius) * width + x] }
                if y - radius - 1 >= 0 { count -= rows[(y - radius - 1) * width + x] }
                let area = across * Int32(min(height - 1, y + radius) - max(0, y - radius) + 1)
                result[y * width + x] = count > 0 && count < area
            }
        }
        return result
    }
}
