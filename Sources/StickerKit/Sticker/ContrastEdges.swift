import FoundationEssentials

/// The contrast-sensitive smoothness term of GrabCut on an 8-connected grid:
/// w(p, q) = gamma exp(-beta |I_p - I_q|^2) / dist(p, q), with beta = 1 / (2 <|I_p - I_q|^2>)
/// (Rother et al. 2004, after Boykov and Jolly 2001). Cutting between similar colours is
/// expensive; cutting along an edge in the photo is cheap. Capacities are integers, as
/// `GridMaxFlow` takes them.
struct ContrastEdges: Sendable {
    let width: Int
    let height: Int
    /// Per pixel: capacities to its right, down, down-right and down-left neighbours (0
    /// where there is none).
    let forward: [SIMD4<Int32>]

    /// `weight` is gamma, already in the integer units of the cut.
    init(_ image: WorkingImage, weight: Float) {
        let width = image.width, height = image.height
        self.width = width
        self.height = height
        // Squared colour distances to the four forward neighbours; -1 where there is none.
        var squared = [SIMD4<Float>](repeating: SIMD4(repeating: -1), count: width * height)
        var total: Float = 0
        // Forward neighbours that exist: right, down and the two diagonals.
        let count = Float((width - 1) * height + width * (height - 1) + 2 * (width - 1) * (height - 1))
        image.colors.withUnsafeBufferPointer { colors in
            squared.withUnsafeMutableBufferPointer { squared in
                let colors = colors.baseAddress!, squared = squared.baseAddress!
                @inline(__always) func distance(_ a: Int, _ b: Int) -> Float {
                    let d = colors[a] - colors[b]
                    return (d * d).sum()
                }
                /// A pixel on the frame, whose neighbours may be missing.
                func frame(_ x: Int, _ y: Int) {
                    let index = y * width + x
                    let hasRight = x + 1 < width, hasDown = y + 1 < height, hasLeft = x > 0
                    let right = hasRight ? distance(index, index + 1) : -1
                    let down = hasDown ? distance(index, index + width) : -1
                    let downRight = hasRight && hasDown ? distance(index, index + width + 1) : -1
                    let downLeft = hasLeft && hasDown ? distance(index, index + width - 1) : -1
                    squared[index] = SIMD4(right, down, downRight, downLeft)
                    // In this order, so beta is the same to the last bit whatever the layout.
                    if right >= 0 { total += right }
                    if down >= 0 { total += down }
                    if downRight >= 0 { total += downRight }
                    if downLeft >= 0 { total += downLeft }
                }
                for y in 0..<height {
                    guard y + 1 < height, width > 2 else {
                        for x in 0..<width { frame(x, y) }
                        continue
                    }
                    frame(0, y)
                    // Inside the frame every neighbour exists: the same sums, without the tests.
                    for index in (y * width + 1)..<(y * width + width - 1) {
                        let distances = SIMD4(distance(index, index + 1), distance(index, index + width),
                                              distance(index, index + width + 1), distance(index, index + width - 1))
                        squared[index] = distances
                        total += distances[0]
                        total += distances[1]
                        total += distances[2]
                        total += distances[3]
                    }
                    frame(width - 1, y)
                }
            }
        }
        let beta = count > 0 && total > 0 ? count / (2 * total) : 0
        forward = ContrastEdges.capacities(squared, beta: beta, weight: weight)
    }

    /// gamma exp(-beta d^2) / dist, truncated, for each forward squared distance d^2 (0
    /// where there is no neighbour, d^2 < 0): two pixels' four neighbours per step. The
    /// exponent is floored at -87, inside `VectorMath.exp`'s range: an edge far stronger
    /// than the photo's mean (a sharp subject on a flat backdrop) then still gets 0.
    private static func capacities(_ squared: [SIMD4<Float>], beta: Float, weight: Float) -> [SIMD4<Int32>] {
        let diagonal = weight / Float(2).squareRoot()
        let scale = SIMD8<Float>(weight, weight, diagonal, diagonal, weight, weight, diagonal, diagonal)
        func eight(_ distances: SIMD8<Float>) -> SIMD8<Int32> {
            let exponent = VectorMath.maximum(-beta * distances, SIMD8(repeating: -87))
            return VectorMath.truncated(VectorMath.exp(exponent) * scale).replacing(with: 0, where: distances .< 0)
        }
        guard !squared.isEmpty else { return [] }
        var forward = [SIMD4<Int32>](repeating: .zero, count: squared.count)
        squared.withUnsafeBufferPointer { squared in
            forward.withUnsafeMutableBufferPointer { forward in
                let source = UnsafeRawPointer(squared.baseAddress!), target = UnsafeMutableRawPointer(forward.baseAddress!)
                var pixel = 0
                while pixel + 2 <= squared.count {
                    let capacities = eight(source.loadUnaligned(fromByteOffset: pixel * 16, as: SIMD8<Float>.self))
                    target.storeBytes(of: capacities, toByteOffset: pixel * 16, as: SIMD8<Int32>.self)
                    pixel += 2
                }
                if pixel < squared.count {
                    forward[pixel] = eight(SIMD8(lowHalf: squared[pixel], highHalf: squared[pixel])).lowHalf
                }
            }
        }
        return forward
    }
}
