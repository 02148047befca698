/// The sticker shown as the original app showed it: centred on an opaque card filled
/// with its palette gradient (top to bottom, `ColorScheme.gradient`), for previews and
/// store listings.
public enum CardRenderer {
    public static func render(_ sticker: RGBAImage, gradient: [PaletteColor]) -> RGBAImage {
        let border = max(24, max(sticker.width, sticker.height) / 10)
        let width = sticker.width + 2 * border, height = sticker.height + 2 * border
        let rgb = { (color: PaletteColor) in SIMD3<Float>(Float(color.red), Float(color.green), Float(color.blue)) }
        let top = gradient.first.map(rgb) ?? SIMD3<Float>(240, 240, 240)
        let bottom = gradient.dropFirst().first.map(rgb) ?? top
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let t = height > 1 ? Float(y) / Float(height - 1) : 0
            let background = top + (bottom - top) * t
            for x in 0..<width {
                var color = background
                let sx = x - border, sy = y - border
                if sx >= 0, sy >= 0, sx < sticker.width, sy < sticker.height {
                    let source = (sy * sticker.width + sx) * 4
                    let alpha = Float(sticker.pixels[source + 3]) / 255
                    let front = SIMD3<Float>(Float(sticker.pixels[source]), Float(sticker.pixels[source + 1]),
                                             Float(sticker.pixels[source + 2]))
                    color = front * alpha + background * (1 - alpha)
                }
                let index = (y * width + x) * 4
                for c in 0..<3 { pixels[index + c] = UInt8(min(255, max(0, color[c].rounded()))) }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
