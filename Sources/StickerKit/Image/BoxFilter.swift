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
        output.withUnsafeMutableBufferPointer { output in
            slideDown(rows, width: width, height: height, radius: radius) { y, sums, rowsInWindow in
                let count = Float(rowsInWindow)
                for x in 0..<width { output[y * width + x] = sums[x] / count }
            }
        }
        return output
    }

    /// Moves a (2r+1)-row window down all columns at once, row by row in memory order, and
    /// calls `body(y, sums, rowsInWindow)` with `sums[x]` the total of column x over the
    /// window's rows (clipped at the edges). Each column's running sum takes its additions
    /// and subtractions in the order a walk down that column would.
    private static func slideDown<Value: AdditiveArithmetic>(
        _ rows: [Value], width: Int, height: Int, radius: Int,
        _ body: (_ y: Int, _ sums: UnsafeBufferPointer<Value>, _ rowsInWindow: Int) -> Void
    ) {
        var sums = [Value](repeating: .zero, count: width)
        rows.withUnsafeBufferPointer { rows in
            sums.withUnsafeMutableBufferPointer { sums in
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
                    body(y, UnsafeBufferPointer(sums), upper - lower + 1)
                }
            }
        }
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
        let across = (0..<width).map { Int32(min(width - 1, $0 + radius) - max(0, $0 - radius) + 1) }
        var result = [Bool](repeating: false, count: labels.count)
        result.withUnsafeMutableBufferPointer { result in
            slideDown(rows, width: width, height: height, radius: radius) { y, sums, rowsInWindow in
                let down = Int32(rowsInWindow)
                for x in 0..<width { result[y * width + x] = sums[x] > 0 && sums[x] < across[x] * down }
            }
        }
        return result
    }
}
