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

    private init(width: Int, height: Int, forward: [SIMD4<Int32>]) {
        self.width = width
        self.height = height
        self.forward = forward
    }

    /// The edges between the pixels of `window` (beta stays the whole picture's), and per
    /// window pixel the summed capacities of its edges to picture pixels outside it: a cut
    /// with everything outside held as background pays them when the pixel is subject.
    func restricted(to window: PixelWindow) -> (edges: ContrastEdges, boundary: [Int32]) {
        precondition(window.pictureWidth == width && window.pictureHeight == height, "a window of this picture")
        let rect = window.rect
        var inner = window.crop(forward)
        var boundary = [Int32](repeating: 0, count: window.count)
        func inside(_ x: Int, _ y: Int) -> Bool {
            x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
        }
        func inPicture(_ x: Int, _ y: Int) -> Bool { x >= 0 && x < width && y >= 0 && y < height }
        // Forward edge d of a pixel goes to (x + dx[d], y + dy[d]): right, down, down-right, down-left.
        let dx = [1, 0, 1, -1], dy = [0, 1, 1, 1]
        for wy in 0..<rect.height {
            // Only the window's own frame has neighbours outside it.
            let onEdgeRow = wy == 0 || wy == rect.height - 1
            for wx in stride(from: 0, to: rect.width, by: onEdgeRow ? 1 : max(1, rect.width - 1)) {
                let x = rect.x + wx, y = rect.y + wy, index = wy * rect.width + wx
                for d in 0..<4 {
                    // The pixel's own forward edge, and the one a neighbour behind it has to it.
                    let (ax, ay) = (x + dx[d], y + dy[d]), (bx, by) = (x - dx[d], y - dy[d])
                    if inPicture(ax, ay) && !inside(ax, ay) {
                        boundary[index] += inner[index][d]
                        inner[index][d] = 0
                    }
                    if inPicture(bx, by) && !inside(bx, by) {
                        boundary[index] += forward[by * width + bx][d]
                    }
                }
            }
        }
        return (ContrastEdges(width: rect.width, height: rect.height, forward: inner), boundary)
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
