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
        let (width, height) = LabSamples.proxySize(image.width, image.height, longSide: longSide)
        let region = Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        var proxy: [Float]
        if image.hasTransparency {
            // Premultiplied, so colour hidden under transparent pixels does not bleed in.
            var premultiplied = image.pixels
            premultiplied.withUnsafeMutableBufferPointer { pixels in
                // Wrapping arithmetic: at most 255 x 255 + 127, which fits; checked
                // operations would keep the loop from vectorising.
                for pixel in 0..<(pixels.count / 4) {
                    let i = pixel &* 4, alpha = UInt16(pixels[i &+ 3])
                    for c in 0..<3 {
                        pixels[i &+ c] = UInt8(truncatingIfNeeded: (UInt16(pixels[i &+ c]) &* alpha &+ 127) / 255)
                    }
                }
            }
            proxy = premultiplied.withUnsafeBufferPointer {
                Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: region,
                                   width: width, height: height)
            }
            for i in 0..<(width * height) {
                let alpha = proxy[i * 4 + 3] / 255
                for c in 0..<3 { proxy[i * 4 + c] = alpha > 0 ? proxy[i * 4 + c] / alpha : 0 }
                proxy[i * 4 + 3] = alpha
            }
        } else {
            proxy = image.pixels.withUnsafeBufferPointer {
                Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: region,
                                   width: width, height: height)
            }
            for i in 0..<(width * height) { proxy[i * 4 + 3] = 1 }
        }
        self.init(proxy: proxy, count: width * height)
    }

    /// The samples of an opaque working image (a cheaper source than the full photo).
    init(_ image: WorkingImage, longSide: Int) {
        let (width, height) = LabSamples.proxySize(image.width, image.height, longSide: longSide)
        let region = Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        var proxy = image.colors.withUnsafeBufferPointer { colors in
            colors.withMemoryRebound(to: Float.self) { floats in
                Resampler.resample(floats, width: image.width, height: image.height, channels: 4, region: region,
                                   width: width, height: height)
            }
        }
        for i in 0..<(width * height) { proxy[i * 4 + 3] = 1 }
        self.init(proxy: proxy, count: width * height)
    }

    private static func proxySize(_ width: Int, _ height: Int, longSide: Int) -> (Int, Int) {
        let factor = min(1, Double(longSide) / Double(max(width, height, 1)))
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    /// From proxy pixels: straight (not premultiplied) R, G, B (0-255) and alpha (0-1).
    private init(proxy: [Float], count: Int) {
        colors.reserveCapacity(count)
        weights.reserveCapacity(count)
        for i in 0..<count {
            let alpha = proxy[i * 4 + 3]
            guard alpha > 1e-3 else { continue }
            let channel = { (c: Int) in UInt8(roundingClamped: proxy[i * 4 + c]) }
            colors.append(LabColor(red: channel(0), green: channel(1), blue: channel(2)).vector)
            weights.append(alpha)
            totalWeight += alpha
        }
    }
}
