/// The photo at segmentation size: float RGB colours (0-255) in row-major order.
struct WorkingImage: Sendable {
    let width: Int
    let height: Int
    var colors: [SIMD3<Float>]
    /// Working pixels per decoded pixel.
    let scale: Double

    /// Area-averages `image` down so its long side is at most `longSide` pixels.
    init(_ image: RGBAImage, longSide: Int) {
        let factor = min(1, Double(longSide) / Double(max(image.width, image.height)))
        let width = max(1, Int((Double(image.width) * factor).rounded()))
        let height = max(1, Int((Double(image.height) * factor).rounded()))
        let region = Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        self.width = width
        self.height = height
        scale = Double(width) / Double(image.width)
        // A SIMD3<Float> takes the room of four floats, so the resampled RGBA pixels are
        // written straight into the colours (alpha lands in the lane no one reads).
        colors = [SIMD3<Float>](unsafeUninitializedCapacity: width * height) { colors, initialized in
            colors.withMemoryRebound(to: Float.self) { floats in
                image.pixels.withUnsafeBufferPointer {
                    Resampler.resample($0, width: image.width, height: image.height, channels: 4,
                                       region: region, width: width, height: height, into: floats)
                }
            }
            initialized = width * height
        }
    }

    init(width: Int, height: Int, colors: [SIMD3<Float>], scale: Double = 1) {
        self.width = width
        self.height = height
        self.colors = colors
        self.scale = scale
    }

    /// The image at half size (2x2 box average; a last odd row or column is dropped).
    func halved() -> WorkingImage {
        let w = width / 2, h = height / 2
        var colors = [SIMD3<Float>](repeating: .zero, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let top = (2 * y) * width + 2 * x, bottom = top + width
                colors[y * w + x] = (self.colors[top] + self.colors[top + 1] + self.colors[bottom] + self.colors[bottom + 1]) / 4
            }
        }
        return WorkingImage(width: w, height: h, colors: colors, scale: scale * Double(w) / Double(width))
    }
}
