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
        pixels.withUnsafeMutableBufferPointer { pixels in
            sticker.pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    let t = height > 1 ? Float(y) / Float(height - 1) : 0
                    let background = top + (bottom - top) * t
                    let red = UInt8(roundingClamped: background.x), green = UInt8(roundingClamped: background.y)
                    let blue = UInt8(roundingClamped: background.z)
                    let sy = y - border
                    let inside = sy >= 0 && sy < sticker.height
                    for x in 0..<width {
                        let index = (y * width + x) * 4, sx = x - border
                        guard inside, sx >= 0, sx < sticker.width else {
                            (pixels[index], pixels[index + 1], pixels[index + 2]) = (red, green, blue)
                            continue
                        }
                        let from = (sy * sticker.width + sx) * 4
                        let alpha = Float(source[from + 3]) / 255
                        let front = SIMD3<Float>(Float(source[from]), Float(source[from + 1]), Float(source[from + 2]))
                        let color = front * alpha + background * (1 - alpha)
                        for c in 0..<3 { pixels[index + c] = UInt8(roundingClamped: color[c]) }
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
