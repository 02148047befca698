import Foundation

/// The contrast-sensitive smoothness term of GrabCut on an 8-connected grid:
/// w(p, q) = gamma exp(-beta |I_p - I_q|^2) / dist(p, q), with beta = 1 / (2 <|I_p - I_q|^2>)
/// (Rother et al. 2004, after Boykov and Jolly 2001). Cutting between similar colours is
/// expensive; cutting along an edge in the photo is cheap. Capacities are integers, as
/// `MaxFlowGraph` takes them.
struct ContrastEdges: Sendable {
    let width: Int
    let height: Int
    /// Per pixel: capacities to its right, down, down-right and down-left neighbours.
    private var capacities: [SIMD4<Int32>]

    private static let offsets = [(1, 0), (0, 1), (1, 1), (-1, 1)]

    /// `weight` is gamma, already in the integer units of the cut.
    init(_ image: WorkingImage, weight: Float) {
        width = image.width
        height = image.height
        var squared = [SIMD4<Float>](repeating: SIMD4(repeating: -1), count: width * height)
        var total: Float = 0
        var count: Float = 0
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                for (k, (dx, dy)) in ContrastEdges.offsets.enumerated() {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, nx < width, ny < height else { continue }
                    let d = image.colors[index] - image.colors[ny * width + nx]
                    let distance = (d * d).sum()
                    squared[index][k] = distance
                    total += distance
                    count += 1
                }
            }
        }
        let beta = count > 0 && total > 0 ? count / (2 * total) : 0
        let diagonal = weight / Float(2).squareRoot()
        let scale = SIMD4<Float>(weight, weight, diagonal, diagonal)
        capacities = squared.map { s in
            var capacity = SIMD4<Int32>(repeating: 0)
            for k in 0..<4 where s[k] >= 0 { capacity[k] = Int32(exp(-beta * s[k]) * scale[k]) }
            return capacity
        }
    }

    /// Calls `body(p, q, capacity)` once for every grid edge with a positive capacity.
    @inline(__always)
    func forEachEdge(_ body: (Int, Int, Int32) -> Void) {
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                let capacity = capacities[index]
                for (k, (dx, dy)) in ContrastEdges.offsets.enumerated() where capacity[k] > 0 {
                    body(index, (y + dy) * width + x + dx, capacity[k])
                }
            }
        }
    }
}
