/// Mean over a (2r+1) x (2r+1) window, clipped at the edges, in O(N) whatever the radius
/// (running sums along rows, then columns).
enum BoxFilter {
    static func mean(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        var rows = [Float](repeating: 0, count: plane.count)
        var output = [Float](repeating: 0, count: plane.count)
        plane.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { rows in
                for y in 0..<height {
                    slide(source, start: y * width, count: width, radius: radius, into: rows)
                }
            }
        }
        // Down the columns, all of them at once row by row (memory order): each column's
        // running sum takes the same additions and subtractions in the same order as a
        // walk down that column would, and a row's window height is the same for all.
        var sums = [Float](repeating: 0, count: width)
        rows.withUnsafeBufferPointer { rows in
            sums.withUnsafeMutableBufferPointer { sums in
                output.withUnsafeMutableBufferPointer { output in
                    var upper = -1, lower = 0   // rows in the current window
                    for y in 0..<height {
                        while upper < min(height - 1, y + radius) {
                            upper += 1
                            for x in 0..<width { sums[x] += rows[upper * width + x] }
                        }
                        while lower < max(0, y - radius) {
                            for x in 0..<width { sums[x] -= rows[lower * width + x] }
                            lower += 1
                        }
                        let count = Float(upper - lower + 1)
                        for x in 0..<width { output[y * width + x] = sums[x] / count }
                    }
                }
            }
        }
        return output
    }

    /// Window means along one row of `count` samples.
    private static func slide(_ source: UnsafeBufferPointer<Float>, start: Int, count: Int,
                              radius: Int, into output: UnsafeMutableBufferPointer<Float>) {
        var sum: Float = 0
        var lower = 0, upper = -1   // current window [lower, upper]
        for i in 0..<count {
            let wantedUpper = min(count - 1, i + radius)
            while upper < wantedUpper {
                upper += 1
                sum += source[start + upper]
            }
            let wantedLower = max(0, i - radius)
            while lower < wantedLower {
                sum -= source[start + lower]
                lower += 1
            }
            output[start + i] = sum / Float(upper - lower + 1)
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
