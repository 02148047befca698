/// Exact Euclidean distance transform of a binary image in linear time (Felzenszwalb and
/// Huttenlocher, "Distance Transforms of Sampled Functions", Theory of Computing 2012):
/// the 1-D squared-distance transform is the lower envelope of parabolas rooted at the
/// feature pixels, computed along columns and then along rows. Along the columns the input
/// is binary, so the envelope there is the squared distance to the column's nearest
/// feature pixel, found by one sweep down and one up the rows (the same values, in cache
/// order). Along the rows only parabolas whose roots are nearer than the `limit` the caller
/// needs are kept: no farther one can bring a pixel within it.
enum DistanceTransform {
    /// For each pixel, the distance in pixels to the nearest pixel where `isFeature` is
    /// true (0 on feature pixels), or `Float.infinity` when there is none nearer than `limit`.
    static func distances(width: Int, height: Int, within limit: Float = .infinity,
                          isFeature: (Int) -> Bool) -> [Float] {
        let infinity = Float(width * width + height * height + 1)
        let limitSquared = min(infinity, limit * limit)
        var squared = [Float](repeating: infinity, count: width * height)
        squared.withUnsafeMutableBufferPointer { squared in
            columnDistances(width: width, height: height, isFeature: isFeature, into: squared, infinity: infinity)
            let positions = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
            let values = UnsafeMutableBufferPointer<Float>.allocate(capacity: width)
            let roots = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
            let bounds = UnsafeMutableBufferPointer<Float>.allocate(capacity: width + 1)
            defer {
                positions.deallocate()
                values.deallocate()
                roots.deallocate()
                bounds.deallocate()
            }
            for y in 0..<height {
                let row = UnsafeMutableBufferPointer(rebasing: squared[(y * width)..<((y + 1) * width)])
                var count = 0
                for x in 0..<width where row[x] < limitSquared {
                    positions[count] = x
                    values[count] = row[x]
                    count += 1
                }
                guard count > 0 else { continue }
                transform(positions: positions, values: values, count: count, into: row, roots: roots, bounds: bounds)
            }
            for index in squared.indices {
                squared[index] = squared[index] >= limitSquared ? .infinity : squared[index].squareRoot()
            }
        }
        return squared
    }

    /// The squared distance from each pixel to the nearest feature pixel in its column
    /// (`infinity` when the column has none): the rows swept down, then up, keeping per
    /// column the last feature row seen.
    private static func columnDistances(width: Int, height: Int, isFeature: (Int) -> Bool,
                                        into squared: UnsafeMutableBufferPointer<Float>, infinity: Float) {
        let none = Int.min / 2
        var last = [Int](repeating: none, count: width)
        last.withUnsafeMutableBufferPointer { last in
            for y in 0..<height {
                for x in 0..<width {
                    let index = y * width + x
                    if isFeature(index) { last[x] = y }
                    if last[x] != none { squared[index] = Float((y - last[x]) * (y - last[x])) }
                }
            }
            last.update(repeating: none)
            for y in stride(from: height - 1, through: 0, by: -1) {
                for x in 0..<width {
                    let index = y * width + x
                    if squared[index] == 0 { last[x] = y }
                    if last[x] != none { squared[index] = min(squared[index], Float((last[x] - y) * (last[x] - y))) }
                }
            }
        }
    }

    /// One line: `result[x] = min over i of (x - positions[i])^2 + values[i]`, for the
    /// `count` parabolas given (positions ascending).
    private static func transform(positions: UnsafeMutableBufferPointer<Int>, values: UnsafeMutableBufferPointer<Float>,
                                  count: Int, into result: UnsafeMutableBufferPointer<Float>,
                                  roots: UnsafeMutableBufferPointer<Int>, bounds: UnsafeMutableBufferPointer<Float>) {
        var k = 0
        roots[0] = 0
        bounds[0] = -.infinity
        bounds[1] = .infinity
        for i in 1..<max(count, 1) {
            let q = positions[i]
            var s: Float
            repeat {
                let p = positions[roots[k]]
                s = ((values[i] + Float(q * q)) - (values[roots[k]] + Float(p * p))) / Float(2 * (q - p))
                if s <= bounds[k] { k -= 1 } else { break }
            } while k >= 0
            k += 1
            roots[k] = i
            bounds[k] = s
            bounds[k + 1] = .infinity
        }
        k = 0
        for x in 0..<result.count {
            while bounds[k + 1] < Float(x) { k += 1 }
            let p = positions[roots[k]]
            result[x] = Float((x - p) * (x - p)) + values[roots[k]]
        }
    }
}
