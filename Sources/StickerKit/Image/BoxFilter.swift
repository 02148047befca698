/// Mean over a (2r+1) x (2r+1) window, clipped at the edges, in O(N) whatever the radius
/// (running sums along rows, then columns).
enum BoxFilter {
    static func mean(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        guard !plane.isEmpty else { return plane }
        var rows = [Float](repeating: 0, count: plane.count)
        var output = [Float](repeating: 0, count: plane.count)
        let across = windowSizes(count: width, radius: radius)
        plane.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { rows in
                across.withUnsafeBufferPointer { across in
                    for y in 0..<height {
                        let row = rows.baseAddress! + y * width
                        slide(source.baseAddress! + y * width, count: width, radius: radius, into: row)
                        for x in 0..<width { row[x] /= across[x] }
                    }
                }
            }
        }
        output.withUnsafeMutableBufferPointer { output in
            slideDown(rows, width: width, height: height, radius: radius) { y, sums, rowsInWindow in
                let count = SIMD8<Float>(repeating: Float(rowsInWindow))
                VectorMath.combine(output.baseAddress! + y * width, with: sums.baseAddress!, count: width) { $1 / count }
            }
        }
        return output
    }

    /// Moves a (2r+1)-row window down all columns at once, row by row in memory order, and
    /// calls `body(y, sums, rowsInWindow)` with `sums[x]` the total of column x over the
    /// window's rows (clipped at the edges). Each column's running sum takes its additions
    /// and subtractions in the order a walk down that column would.
    private static func slideDown(_ rows: [Float], width: Int, height: Int, radius: Int,
                                  _ body: (_ y: Int, _ sums: UnsafeBufferPointer<Float>, _ rowsInWindow: Int) -> Void) {
        var sums = [Float](repeating: 0, count: width)
        rows.withUnsafeBufferPointer { rows in
            sums.withUnsafeMutableBufferPointer { sums in
                var upper = -1, lower = 0   // rows in the current window
                for y in 0..<height {
                    while upper < min(height - 1, y + radius) {
                        upper += 1
                        VectorMath.combine(sums.baseAddress!, with: rows.baseAddress! + upper * width, count: width, +)
                    }
                    while lower < max(0, y - radius) {
                        VectorMath.combine(sums.baseAddress!, with: rows.baseAddress! + lower * width, count: width, -)
                        lower += 1
                    }
                    body(y, UnsafeBufferPointer(sums), upper - lower + 1)
                }
            }
        }
    }

    /// Samples in each position's window along a line of `count`, clipped at the ends.
    private static func windowSizes(count: Int, radius: Int) -> [Float] {
        (0..<count).map { Float(min(count - 1, $0 + radius) - max(0, $0 - radius) + 1) }
    }

    /// Window sums along one row of `count` samples: each step adds the sample entering the
    /// window, then subtracts the one leaving it (the caller divides by the window sizes in
    /// a separate, vectorised pass).
    private static func slide(_ source: UnsafePointer<Float>, count: Int, radius: Int,
                              into output: UnsafeMutablePointer<Float>) {
        guard count > 0 else { return }
        let last = count - 1
        var sum: Float = 0
        for i in 0...min(last, radius) { sum += source[i] }
        output[0] = sum
        for i in 1..<count {
            if i &+ radius <= last { sum += source[i &+ radius] }
            if i &- radius &- 1 >= 0 { sum -= source[i &- radius &- 1] }
            output[i] = sum
        }
    }

    /// Whether the (2r+1) x (2r+1) window around each pixel, clipped at the edges, holds
    /// both a zero and a non-zero label: the band within `radius` of a boundary. Window
    /// counts, O(N) whatever the radius; both passes walk rows in memory order. The counts
    /// are whole numbers far below 2^24, so float sums are exact and vectorise (Int32 ones
    /// pay an overflow check per addition).
    static func holdsBoth(_ labels: [UInt8], width: Int, height: Int, radius: Int) -> [Bool] {
        guard !labels.isEmpty else { return [] }
        // Per pixel: the non-zero labels in its row's window (a prefix-sum difference).
        var rows = [Float](repeating: 0, count: labels.count)
        var prefix = [Int32](repeating: 0, count: width + 1)
        labels.withUnsafeBufferPointer { labels in
            rows.withUnsafeMutableBufferPointer { rows in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    // Windows clipped by an edge, then the unclipped middle (which vectorises).
                    let middle = min(radius, width)..<max(min(radius, width), width - radius - 1)
                    for y in 0..<height {
                        let line = y * width
                        for x in 0..<width { prefix[x + 1] = prefix[x] &+ (labels[line + x] != 0 ? 1 : 0) }
                        let (counts, row) = (UnsafeBufferPointer(prefix), rows.baseAddress! + line)
                        let clipped = { (x: Int) in
                            row[x] = Float(counts[min(width, x + radius + 1)] &- counts[max(0, x - radius)])
                        }
                        for x in 0..<middle.lowerBound { clipped(x) }
                        let (ahead, behind) = (counts.baseAddress! + radius + 1, counts.baseAddress! - radius)
                        for x in middle { row[x] = Float(ahead[x] &- behind[x]) }
                        for x in middle.upperBound..<width { clipped(x) }
                    }
                }
            }
        }
        let across = windowSizes(count: width, radius: radius)
        var result = [Bool](repeating: false, count: labels.count)
        result.withUnsafeMutableBufferPointer { result in
            across.withUnsafeBufferPointer { across in
                slideDown(rows, width: width, height: height, radius: radius) { y, sums, rowsInWindow in
                    let down = Float(rowsInWindow), line = result.baseAddress! + y * width
                    for x in 0..<width { line[x] = sums[x] > 0 && sums[x] < across[x] * down }
                }
            }
        }
        return result
    }
}
