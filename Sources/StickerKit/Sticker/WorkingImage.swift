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
        let planes = image.pixels.withUnsafeBufferPointer {
            Resampler.resample($0, width: image.width, height: image.height, channels: 4,
                               region: region, width: width, height: height)
        }
        self.width = width
        self.height = height
        scale = Double(width) / Double(image.width)
        colors = (0..<(width * height)).map { i in
            SIMD3(planes[i * 4], planes[i * 4 + 1], planes[i * 4 + 2])
        }
    }
}
