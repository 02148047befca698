/// Turns a working-size subject mask into the sticker's soft alpha at output size: the
/// mask is resampled over the crop, snapped to the photo's edges with a `GuidedFilter`,
/// then the boundary band is matted from the photo's colours and decontaminated
/// (`EdgeMatting`) before the RGBA pixels are assembled.
enum SoftAlphaComposer {
    static func compose(_ image: RGBAImage, mask: ForegroundMask, maskScale: Double, layout: CropLayout) -> RGBAImage {
        let width = layout.outputWidth, height = layout.outputHeight
        var colors = image.pixels.withUnsafeBufferPointer {
            Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: layout.region,
                               width: width, height: height)
        }
        let maskPlane = mask.values.map { Float($0) }
        let region = layout.region
        let maskRegion = Resampler.Region(x: region.x * maskScale, y: region.y * maskScale,
                                          width: region.width * maskScale, height: region.height * maskScale)
        let coarse = maskPlane.withUnsafeBufferPointer {
            Resampler.resample($0, width: mask.width, height: mask.height, channels: 1, region: maskRegion,
                               width: width, height: height)
        }
        let guide = (0..<(width * height)).map { (i: Int) -> Float in
            let red: Float = 0.299 * colors[i * 4], green: Float = 0.587 * colors[i * 4 + 1]
            let blue: Float = 0.114 * colors[i * 4 + 2]
            return (red + green + blue) / 255
        }
        // One working pixel spans this many output pixels; the filter must reach across it.
        let span = layout.scale / maskScale
        let radius = max(2, Int((span * 1.5).rounded(.up)))
        let subsampling = max(1, radius / 2)
        var alpha = GuidedFilter(radius: radius, epsilon: 1e-3, subsampling: subsampling)
            .apply(mask: coarse, guide: guide, width: width, height: height)
        let hard = coarse.map { $0 >= 0.5 ? Float(1) : 0 }
        EdgeMatting.apply(colors: &colors, alpha: &alpha, hard: hard, width: width, height: height,
                          radius: max(3, radius), subsampling: subsampling * 2)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let a = UInt8((alpha[i] * 255).rounded())
            guard a > 0 else { continue }
            for c in 0..<3 { pixels[i * 4 + c] = UInt8(min(255, max(0, colors[i * 4 + c].rounded()))) }
            pixels[i * 4 + 3] = a
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
