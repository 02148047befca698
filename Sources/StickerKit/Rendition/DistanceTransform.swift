/// Exact Euclidean distance transform of a binary image in linear time (Felzenszwalb and
/// Huttenlocher, "Distance Transforms of Sampled Functions", Theory of Computing 2012):
/// the 1-D squared-distance transform is the lower envelope of parabolas rooted at the
/// feature pixels, computed along columns and then along rows.
enum DistanceTransform {
    /// For each pixel, the distance in pixels to the nearest pixel where `isFeature` is
    /// true (0 on feature pixels; `Float.infinity` when there is none).
    static func distances(width: Int, height: Int, isFeature: (Int) -> Bool) -> [Float] {
        let infinity = Float(width * width + height * height + 1)
        var squared = [Float](repeating: 0, count: width * height)
        for index in squared.indices where !isFeature(index) { squared[index] = infinity }
        let longest = max(width, height)
        var line = [Float](repeating: 0, count: longest)
        var result = [Float](repeating: 0, count: longest)
        var roots = [Int](repeating: 0, count: longest)
        var bounds = [Float](repeating: 0, count: longest + 1)
        for x in 0..<width {
            for y in 0..<height { line[y] = squared[y * width + x] }
            transform(line, count: height, into: &result, roots: &roots, bounds: &bounds)
            for y in 0..<height { squared[y * width + x] = result[y] }
        }
        for y in 0..<height {
            for x in 0..<width { line[x] = squared[y * width + x] }
            transform(line, count: width, into: &result, roots: &roots, bounds: &bounds)
            for x in 0..<width { squared[y * width + x] = result[x] }
        }
        return squared.map { $0 >= infinity ? .infinity : $0.squareRoot() }
    }

    /// One line: `result[q] = min over p of (q - p)^2 + f[p]`.
    private static func transform(_ f: [Float], count: Int, into result: inout [Float], roots: inout [Int],
                                  bounds: inout [Float]) {
        guard count > 0 else { return }
        var k = 0
        roots[0] = 0
        bounds[0] = -.infinity
        bounds[1] = .infinity
        for q in 1..<max(count, 1) {
            var s: Float
            repeat {
                let p = roots[k]
                s = ((f[q] + Float(q * q)) - (f[p] + Float(p * p))) / Float(2 * (q - p))
                if s <= bounds[k] { k -= 1 } else { break }
            } while k >= 0
            k += 1
            roots[k] = q
            bounds[k] = s
            bounds[k + 1] = .infinity
        }
        k = 0
        for q in 0..<count {
            while bounds[k + 1] < Float(q) { k += 1 }
            let p = roots[k]
            result[q] = Float((q - p) * (q - p)) + f[p]
        }
    }
}
