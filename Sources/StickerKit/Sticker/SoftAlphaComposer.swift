/// Turns a working-size subject mask into the sticker's soft alpha at output size: the
/// mask is resampled over the crop, snapped to the photo's edges with a `GuidedFilter`,
/// then the boundary band is matted from the photo's colours and decontaminated
/// (`EdgeMatting`) before the RGBA pixels are assembled.
///
/// Everything that varies slowly lives on low-resolution grids, and the per-pixel work
/// (q = a I + b, matting) runs only where it can change a pixel: where the guided filter's
/// slope or offset is not flat, and in the matting band. Elsewhere alpha is the flat
/// offset (0 or 1) and the colour is the resampled photo.
enum SoftAlphaComposer {
    static func compose(_ image: RGBAImage, mask: ForegroundMask, maskScale: Double, layout: CropLayout) -> RGBAImage {
        let width = layout.outputWidth, height = layout.outputHeight
        let colors = image.pixels.withUnsafeBufferPointer {
            Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: layout.region,
                               width: width, height: height)
        }
        let region = layout.region
        let maskRegion = Resampler.Region(x: region.x * maskScale, y: region.y * maskScale,
                                          width: region.width * maskScale, height: region.height * maskScale)
        let coarse = mask.values.map { Float($0) }.withUnsafeBufferPointer {
            Resampler.resample($0, width: mask.width, height: mask.height, channels: 1, region: maskRegion,
                               width: width, height: height)
        }
        // One working pixel spans this many output pixels; the filter must reach across it.
        let span = layout.scale / maskScale
        let radius = max(2, Int((span * 1.5).rounded(.up)))
        let subsampling = max(1, radius / 2)
        let grid = LowResolutionGrid(width: width, height: height, subsampling: subsampling)
        let lowColors = grid.shrink(colors, channels: 4)
        let lowGuide = lowColors.withUnsafeBufferPointer { low in (0..<grid.count).map { luminance(low, $0) } }
        let (slope, offset) = GuidedFilter(radius: max(1, radius / subsampling), epsilon: 1e-3)
            .coefficients(mask: grid.shrink(coarse), guide: lowGuide, width: grid.lowWidth, height: grid.lowHeight)
        let coefficients = zip(slope, offset).map { SIMD2($0, $1) }
        let varies = readsVarying(coefficients, grid: grid)
        let hard = coarse.map { $0 >= 0.5 ? UInt8(1) : 0 }
        let matting = EdgeMatting(colors: colors, hard: hard, width: width, height: height,
                                  radius: max(3, radius), subsampling: subsampling * 2)

        let pixels = assemble(colors: colors, coefficients: coefficients, varies: varies, matting: matting, grid: grid)
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The sticker's RGBA bytes: q = a I + b and matting where they can change a pixel, the
    /// flat offset and the resampled colour elsewhere. `coefficients` holds (a, b) per cell.
    private static func assemble(colors: [Float], coefficients: [SIMD2<Float>], varies: [Bool],
                                 matting: EdgeMatting, grid: LowResolutionGrid) -> [UInt8] {
        let width = grid.width
        var pixels = [UInt8](repeating: 0, count: grid.width * grid.height * 4)
        let toBytes = SIMD4<Float>(1, 1, 1, 255)
        pixels.withUnsafeMutableBytes { out in
            colors.withUnsafeBufferPointer { colors in
                let colorBytes = UnsafeRawPointer(colors.baseAddress!)
                for y in 0..<grid.height {
                    for x in 0..<width {
                        let i = y * width + x
                        let cell = grid.topLeft(x, y)
                        let pixel = colorBytes.loadUnaligned(fromByteOffset: i * 16, as: SIMD4<Float>.self)
                        var rgba: SIMD4<Float>
                        if matting.band[i] || varies[cell] {
                            let ab = grid.tap(x, y).sample(coefficients)
                            var alpha = min(1, max(0, ab.y + ab.x * luminance(colors, i)))
                            var color = SIMD3(pixel.x, pixel.y, pixel.z)
                            if matting.band[i] {
                                (alpha, color) = matting.refine(pixel: color, alpha: alpha, x: x, y: y)
                            }
                            rgba = SIMD4(color, alpha)
                        } else {
                            guard coefficients[cell].y != 0 else { continue }   // flat: b is exactly 0 or 1
                            rgba = SIMD4(pixel.x, pixel.y, pixel.z, 1)
                        }
                        let scaled = pointwiseMin(pointwiseMax(rgba * toBytes, .zero), SIMD4(repeating: 255)) + 0.5
                        let bytes = SIMD4<UInt8>(UInt8(scaled.x), UInt8(scaled.y), UInt8(scaled.z), UInt8(scaled.w))
                        guard bytes.w > 0 else { continue }
                        out.storeBytes(of: bytes, toByteOffset: i * 4, as: SIMD4<UInt8>.self)
                    }
                }
            }
        }
        return pixels
    }

    /// Per grid cell: whether a pixel whose bilinear tap starts at that cell reads a cell where
    /// the guided filter is not flat (a slope, or an offset strictly between 0 and 1).
    private static func readsVarying(_ coefficients: [SIMD2<Float>], grid: LowResolutionGrid) -> [Bool] {
        let w = grid.lowWidth, h = grid.lowHeight
        let varies = coefficients.map { $0.x != 0 || ($0.y != 0 && $0.y != 1) }
        return (0..<grid.count).map { cell in
            let x = cell % w, y = cell / w
            let right = min(x + 1, w - 1), below = min(y + 1, h - 1)
            return varies[cell] || varies[y * w + right] || varies[below * w + x] || varies[below * w + right]
        }
    }

    /// The guide: Rec. 601 luminance, 0-1, of pixel `i` of 4 interleaved channels.
    @inline(__always)
    private static func luminance(_ colors: UnsafeBufferPointer<Float>, _ i: Int) -> Float {
        let red: Float = 0.299 * colors[i * 4], green: Float = 0.587 * colors[i * 4 + 1]
        let blue: Float = 0.114 * colors[i * 4 + 2]
        return (red + green + blue) / 255
    }
}
