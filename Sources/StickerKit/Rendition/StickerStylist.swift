/// Draws a `StickerStyle` around a sticker: the canvas grows so nothing is clipped, a
/// die-cut outline is grown from the alpha with an exact Euclidean distance transform
/// (`DistanceTransform`) so it is even all around and anti-aliased at its rim, and a drop
/// shadow is the blurred silhouette (three box passes, close to a Gaussian), offset down.
public enum StickerStylist {
    /// Opacity of the shadow's darkest part.
    static let shadowOpacity: Float = 0.45

    public static func apply(_ style: StickerStyle, to sticker: RGBAImage) -> RGBAImage {
        guard !style.isPlain, sticker.width > 0, sticker.height > 0 else { return sticker }
        let blur = max(2, max(sticker.width, sticker.height) / 80)
        let drop = style.shadow ? blur / 2 + 1 : 0
        let pad = style.outline + (style.shadow ? 3 * blur + drop : 0)
        let width = sticker.width + 2 * pad, height = sticker.height + 2 * pad
        var alpha = [Float](repeating: 0, count: width * height)
        var color = [SIMD3<Float>](repeating: .zero, count: width * height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        alpha.withUnsafeMutableBufferPointer { alpha in
            color.withUnsafeMutableBufferPointer { color in
                sticker.pixels.withUnsafeBufferPointer { source in
                    for y in 0..<sticker.height {
                        for x in 0..<sticker.width {
                            let from = (y * sticker.width + x) * 4, target = (y + pad) * width + x + pad
                            alpha[target] = Float(source[from + 3]) / 255
                            color[target] = SIMD3(Float(source[from]), Float(source[from + 1]), Float(source[from + 2]))
                        }
                    }
                }
                if style.outline > 0 {
                    let rim = Float(style.outline) + 1
                    let distance = DistanceTransform.distances(width: width, height: height, within: rim) { alpha[$0] >= 0.5 }
                    let outlineColor = SIMD3(style.outlineColor.map(Float.init))
                    distance.withUnsafeBufferPointer { distance in
                        for index in alpha.indices {
                            let coverage = min(1, max(0, rim - distance[index]))
                            composite(under: index, alpha: alpha, color: color, coverage: coverage, rgb: outlineColor)
                        }
                    }
                }
                if style.shadow {
                    var silhouette = Array(alpha)
                    for _ in 0..<3 { silhouette = BoxFilter.mean(silhouette, width: width, height: height, radius: blur) }
                    silhouette.withUnsafeBufferPointer { silhouette in
                        for y in 0..<height {
                            for x in 0..<width {
                                let shifted = y - drop >= 0 ? silhouette[(y - drop) * width + x] : 0
                                composite(under: y * width + x, alpha: alpha, color: color,
                                          coverage: shifted * shadowOpacity, rgb: .zero)
                            }
                        }
                    }
                }
                pixels.withUnsafeMutableBufferPointer { pixels in
                    for index in alpha.indices where alpha[index] > 0 {
                        for c in 0..<3 { pixels[index * 4 + c] = UInt8(roundingClamped: color[index][c]) }
                        pixels[index * 4 + 3] = UInt8(roundingClamped: alpha[index] * 255)
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Puts a layer of `rgb` at `coverage` under the pixel (straight alpha "over").
    @inline(__always)
    private static func composite(under index: Int, alpha: UnsafeMutableBufferPointer<Float>,
                                  color: UnsafeMutableBufferPointer<SIMD3<Float>>, coverage: Float, rgb: SIMD3<Float>) {
        guard coverage > 0 else { return }
        let top = alpha[index]
        let total = top + coverage * (1 - top)
        color[index] = (color[index] * top + rgb * coverage * (1 - top)) / total
        alpha[index] = total
    }
}
