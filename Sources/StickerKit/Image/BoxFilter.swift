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
}
