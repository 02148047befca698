import Foundation

/// The contrast-sensitive smoothness term of GrabCut on an 8-connected grid:
/// w(p, q) = exp(-beta |I_p - I_q|^2) / dist(p, q), with beta = 1 / (2 <|I_p - I_q|^2>)
/// (Rother et al. 2004, after Boykov and Jolly 2001). Cutting between similar colours is
/// expensive; cutting along an edge in the photo is cheap.
struct ContrastEdges: Sendable {
    let width: Int
    let height: Int
    /// Per pixel: weights to its right, down, down-right and down-left neighbours.
    private var weights: [SIMD4<Float>]

    private static let offsets = [(1, 0), (0, 1), (1, 1), (-1, 1)]

    init(_ image: WorkingImage) {
        width = image.width
        height = image.height
        var squared = [SIMD4<Float>](repeating: .zero, count: width * height)
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
        weights = squared.map { s in
            let w = SIMD4<Float>(exp(-beta * s[0]), exp(-beta * s[1]),
                                 exp(-beta * s[2]) / Float(2).squareRoot(), exp(-beta * s[3]) / Float(2).squareRoot())
            return w
        }
    }

    /// Adds every grid edge to `graph`, scaled by `weight`.
    func addEdges(to graph: inout MaxFlowGraph, weight: Float) {
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                for (k, (dx, dy)) in ContrastEdges.offsets.enumerated() {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, nx < width, ny < height else { continue }
                    let capacity = Int32(weights[index][k] * weight)
                    if capacity > 0 {
                        graph.addEdge(index, ny * width + nx, capacity: capacity, reverseCapacity: capacity)
                    }
                }
            }
        }
    }
}
