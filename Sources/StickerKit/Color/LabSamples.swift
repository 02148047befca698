/// An image reduced to weighted CIELAB samples: area-averaged (premultiplied by alpha)
/// to a proxy whose long side is at most `longSide`, each sample weighted by its alpha.
/// The palette is computed on these; benchmarks measure palettes against them.
public struct LabSamples: Sendable {
    /// L*, a*, b* of each opaque-enough proxy pixel.
    public private(set) var colors: [SIMD3<Float>] = []
    /// Each sample's alpha (0-1).
    public private(set) var weights: [Float] = []
    public private(set) var totalWeight: Float = 0

    public init(_ image: RGBAImage, longSide: Int) {
        let factor = min(1, Double(longSide) / Double(max(image.width, image.height, 1)))
        let width = max(1, Int((Double(image.width) * factor).rounded()))
        let height = max(1, Int((Double(image.height) * factor).rounded()))
        let region = Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        var proxy: [Float]
        if image.hasTransparency {
            // Premultiplied, so colour hidden under transparent pixels does not bleed in.
            var premultiplied = [Float](repeating: 0, count: image.pixels.count)
            for i in 0..<image.pixelCount {
                let alpha = Float(image.pixels[i * 4 + 3]) / 255
                for c in 0..<3 { premultiplied[i * 4 + c] = Float(image.pixels[i * 4 + c]) * alpha }
                premultiplied[i * 4 + 3] = alpha
            }
            proxy = premultiplied.withUnsafeBufferPointer {
                Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: region,
                                   width: width, height: height)
            }
        } else {
            proxy = image.pixels.withUnsafeBufferPointer {
                Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: region,
                                   width: width, height: height)
            }
            for i in 0..<(width * height) { proxy[i * 4 + 3] = 1 }
        }
        colors.reserveCapacity(width * height)
        weights.reserveCapacity(width * height)
        for i in 0..<(width * height) {
            let alpha = proxy[i * 4 + 3]
            guard alpha > 1e-3 else { continue }
            let channel = { (c: Int) in UInt8(min(255, max(0, (proxy[i * 4 + c] / alpha).rounded()))) }
            colors.append(LabColor(red: channel(0), green: channel(1), blue: channel(2)).vector)
            weights.append(alpha)
            totalWeight += alpha
        }
    }
}
