/// Crops and scales an image that already has alpha, keeping that alpha exact at full
/// size and resampling with premultiplied colour when shrinking (so colours hidden under
/// transparent pixels never bleed into the edge).
enum AlphaResampler {
    static func cropAndScale(_ image: RGBAImage, layout: CropLayout) throws -> RGBAImage {
        let crop = layout.crop
        var output = [UInt8](repeating: 0, count: layout.outputWidth * layout.outputHeight * 4)
        if layout.outputWidth == crop.width && layout.outputHeight == crop.height {
            for y in 0..<crop.height {
                let source = ((crop.y + y) * image.width + crop.x) * 4
                let target = y * crop.width * 4
                for x in 0..<crop.width where image.pixels[source + x * 4 + 3] > 0 {
                    for c in 0..<4 { output[target + x * 4 + c] = image.pixels[source + x * 4 + c] }
                }
            }
            return RGBAImage(width: crop.width, height: crop.height, pixels: output)
        }
        try Task.checkCancellation()
        return resample(image, region: layout.region, width: layout.outputWidth, height: layout.outputHeight)
    }

    /// `region` of `image` resampled to `width` x `height` with premultiplied colour.
    static func resample(_ image: RGBAImage, region: Resampler.Region, width: Int, height: Int) -> RGBAImage {
        var premultiplied = [Float](repeating: 0, count: image.pixels.count)
        for i in 0..<image.pixelCount {
            let a = Float(image.pixels[i * 4 + 3])
            for c in 0..<3 { premultiplied[i * 4 + c] = Float(image.pixels[i * 4 + c]) * a / 255 }
            premultiplied[i * 4 + 3] = a
        }
        let scaled = premultiplied.withUnsafeBufferPointer {
            Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: region,
                               width: width, height: height)
        }
        var output = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let a = scaled[i * 4 + 3]
            let alpha = UInt8(roundingClamped: a)
            guard alpha > 0 else { continue }
            for c in 0..<3 { output[i * 4 + c] = UInt8(roundingClamped: scaled[i * 4 + c] * 255 / a) }
            output[i * 4 + 3] = alpha
        }
        return RGBAImage(width: width, height: height, pixels: output)
    }
}
