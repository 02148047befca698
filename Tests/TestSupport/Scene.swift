import CImageCodecs
import Foundation
import StickerKit

/// Generated test photos with a known subject mask: a background (plain, gradient or
/// textured) and shapes with shading, plus sensor-like noise. Deterministic.
public struct Scene: Sendable {
    public enum Background: Sendable {
        case plain(SIMD3<Float>)
        case gradient(SIMD3<Float>, SIMD3<Float>)
        /// A base colour with blurred value noise of the given amplitude.
        case texture(SIMD3<Float>, amplitude: Float)
    }

    public enum Shape: Sendable {
        case disc(x: Double, y: Double, radius: Double)
        case ring(x: Double, y: Double, outer: Double, inner: Double)
        case rectangle(x: Double, y: Double, width: Double, height: Double)
        /// A line segment of the given thickness.
        case bar(x0: Double, y0: Double, x1: Double, y1: Double, thickness: Double)

        /// Coverage of the pixel centred at (px, py), ramping over `softness` pixels.
        public func coverage(_ px: Double, _ py: Double, softness: Double = 1) -> Double {
            let edge: Double
            switch self {
            case .disc(let x, let y, let r):
                edge = r - ((px - x) * (px - x) + (py - y) * (py - y)).squareRoot()
            case .ring(let x, let y, let outer, let inner):
                let d = ((px - x) * (px - x) + (py - y) * (py - y)).squareRoot()
                edge = min(outer - d, d - inner)
            case .rectangle(let x, let y, let w, let h):
                edge = min(px - x, x + w - px, py - y, y + h - py)
            case .bar(let x0, let y0, let x1, let y1, let thickness):
                let dx = x1 - x0, dy = y1 - y0
                let t = max(0, min(1, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy)))
                let cx = x0 + t * dx, cy = y0 + t * dy
                edge = thickness / 2 - ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
            }
            return max(0, min(1, edge / softness + 0.5))
        }
    }

    public var width: Int
    public var height: Int
    public var background: Background
    /// Shapes with their flat colour, drawn in order.
    public var shapes: [(Shape, SIMD3<Float>)]
    public var noise: Float = 2
    /// Width of the edge ramp in pixels (1: anti-aliased; more: a soft, defocused edge).
    public var softness: Double = 1
    /// Cast shadows on the background (not part of the subject): shape, darkening 0-1,
    /// and the width of their soft edge in pixels.
    public var castShadows: [(Scene.Shape, Float, Double)] = []
    public var seed: UInt64 = 1

    public init(width: Int, height: Int, background: Background, shapes: [(Shape, SIMD3<Float>)]) {
        self.width = width
        self.height = height
        self.background = background
        self.shapes = shapes
    }

    /// The photo (opaque) and the subject's true alpha (0-1).
    public func render() -> (image: RGBAImage, mask: [Float]) {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var mask = [Float](repeating: 0, count: width * height)
        let texture = valueNoise()
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                var color = backgroundColor(x, y, texture[index])
                for (shadow, darkening, edge) in castShadows {
                    color *= 1 - darkening * Float(shadow.coverage(Double(x) + 0.5, Double(y) + 0.5, softness: edge))
                }
                var alpha: Float = 0
                for (shape, shapeColor) in shapes {
                    let a = Float(shape.coverage(Double(x) + 0.5, Double(y) + 0.5, softness: softness))
                    guard a > 0 else { continue }
                    let light = 1.1 - 0.3 * Float(y) / Float(height)
                    color = color * (1 - a) + shapeColor * light * a
                    alpha = alpha + a * (1 - alpha)
                }
                mask[index] = alpha
                for c in 0..<3 {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let n = (Float(state >> 40) / Float(1 << 24) - 0.5) * 2 * noise
                    pixels[index * 4 + c] = UInt8(max(0, min(255, (color[c] + n).rounded())))
                }
            }
        }
        return (RGBAImage(width: width, height: height, pixels: pixels), mask)
    }

    private func backgroundColor(_ x: Int, _ y: Int, _ noise: Float) -> SIMD3<Float> {
        switch background {
        case .plain(let color): return color
        case .gradient(let top, let bottom):
            let t = Float(y) / Float(max(1, height - 1))
            return top * (1 - t) + bottom * t
        case .texture(let base, let amplitude): return base + SIMD3(repeating: noise * amplitude)
        }
    }

    /// Smooth noise in [-1, 1]: random values on a coarse grid, bilinearly interpolated.
    private func valueNoise() -> [Float] {
        let cell = 6
        let gw = width / cell + 2, gh = height / cell + 2
        var state = seed ^ 0xABCD
        let grid = (0..<(gw * gh)).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 23) - 1
        }
        return (0..<(width * height)).map { index in
            let x = Float(index % width) / Float(cell), y = Float(index / width) / Float(cell)
            let x0 = Int(x), y0 = Int(y)
            let fx = x - Float(x0), fy = y - Float(y0)
            let top = grid[y0 * gw + x0] * (1 - fx) + grid[y0 * gw + x0 + 1] * fx
            let bottom = grid[(y0 + 1) * gw + x0] * (1 - fx) + grid[(y0 + 1) * gw + x0 + 1] * fx
            return top * (1 - fy) + bottom * fy
        }
    }
}
