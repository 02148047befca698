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
        for y in 0..<sticker.height {
            for x in 0..<sticker.width {
                let source = (y * sticker.width + x) * 4, target = (y + pad) * width + x + pad
                alpha[target] = Float(sticker.pixels[source + 3]) / 255
                color[target] = SIMD3(Float(sticker.pixels[source]), Float(sticker.pixels[source + 1]),
                                      Float(sticker.pixels[source + 2]))
            }
        }
        if style.outline > 0 {
            let distance = DistanceTransform.distances(width: width, height: height) { alpha[$0] >= 0.5 }
            let rim = Float(style.outline) + 1
            let outlineColor = SIMD3(style.outlineColor.map(Float.init))
            for index in alpha.indices {
                let coverage = min(1, max(0, rim - distance[index]))
                composite(under: index, alpha: &alpha, color: &color, coverage: coverage, rgb: outlineColor)
            }
        }
        if style.shadow {
            var silhouette = alpha
            for _ in 0..<3 { silhouette = BoxFilter.mean(silhouette, width: width, height: height, radius: blur) }
            for y in 0..<height {
                for x in 0..<width {
                    let shifted = y - drop >= 0 ? silhouette[(y - drop) * width + x] : 0
                    composite(under: y * width + x, alpha: &alpha, color: &color,
                              coverage: shifted * shadowOpacity, rgb: .zero)
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in alpha.indices where alpha[index] > 0 {
            for c in 0..<3 { pixels[index * 4 + c] = UInt8(min(255, max(0, color[index][c].rounded()))) }
            pixels[index * 4 + 3] = UInt8(min(255, (alpha[index] * 255).rounded()))
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Puts a layer of `rgb` at `coverage` under the pixel (straight alpha "over").
    private static func composite(under index: Int, alpha: inout [Float], color: inout [SIMD3<Float>],
                                  coverage: Float, rgb: SIMD3<Float>) {
        guard coverage > 0 else { return }
        let top = alpha[index]
        let total = top + coverage * (1 - top)
        color[index] = (color[index] * top + rgb * coverage * (1 - top)) / total
        alpha[index] = total
    }
}
