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
    /// window counts, O(N) whatever the radius; both passes walk rows in memory order.
    static func holdsBoth(_ labels: [UInt8], width: Int, height: Int, radius: Int) -> [Bool] {
        // Per pixel: the non-zero labels in its row's window (a prefix-sum difference).
        var rows = [Int32](repeating: 0, count: labels.count)
        var prefix = [Int32](repeating: 0, count: width + 1)
        labels.withUnsafeBufferPointer { labels in
            rows.withUnsafeMutableBufferPointer { rows in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    for y in 0..<height {
                        let line = y * width
                        for x in 0..<width { prefix[x + 1] = prefix[x] + (labels[line + x] != 0 ? 1 : 0) }
                        for x in 0..<width {
                            rows[line + x] = prefix[min(width, x + radius + 1)] - prefix[max(0, x - radius)]
                        }
                    }
                }
            }
        }
        // Down the columns: a running window sum per column, moved one row at a time.
        let across = (0..<width).map { Int32(min(width - 1, $0 + radius) - max(0, $0 - radius) + 1) }
        var columns = [Int32](repeating: 0, count: width)
        var result = [Bool](repeating: false, count: labels.count)
        rows.withUnsafeBufferPointer { rows in
            columns.withUnsafeMutableBufferPointer { columns in
                result.withUnsafeMutableBufferPointer { result in
                    for y in 0..<min(height, radius) {
                        for x in 0..<width { columns[x] += rows[y * width + x] }
                    }
                    for y in 0..<height {
                        if y + radius < height {
                            let entering = (y + radius) * width
                            for x in 0..<width { columns[x] += rows[entering + x] }
                        }
                        if y - radius - 1 >= 0 {
                            let leaving = (y - radius - 1) * width
                            for x in 0..<width { columns[x] -= rows[leaving + x] }
                        }
                        let down = Int32(min(height - 1, y + radius) - max(0, y - radius) + 1)
                        for x in 0..<width {
                            result[y * width + x] = columns[x] > 0 && columns[x] < across[x] * down
                        }
                    }
                }
            }
        }
        return result
    }
}
