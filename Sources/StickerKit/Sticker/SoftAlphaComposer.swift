/// Turns a working-size subject mask into the sticker's soft alpha at output size: the
/// mask is resampled over the crop and thresholded; in a band around its boundary, alpha
/// is snapped to the photo's edges with a `GuidedFilter`, then matted from the photo's
/// colours and decontaminated (`EdgeMatting`) before the RGBA pixels are assembled.
///
/// Everything that varies slowly lives on low-resolution grids, and the per-pixel work
/// (q = a I + b, matting) runs only in the band. Outside it alpha is the thresholded
/// mask: there the guided filter can only spread the mask over flat colour (q = a I + b
/// with a and b averaged over windows that reach the boundary), around a thin drawing's
/// strokes up to 0.3 two pixels out and 0.1 five pixels out, and dim the inside. Keeping
/// the mask there left every IoU as it was and took the validation sets' mean absolute
/// error from 0.0114 to 0.0112 (seeds 1-12, shipped and two perturbed copies; the dev set
/// 0.0222 -> 0.0219).
enum SoftAlphaComposer {
    /// How far the guided filter's window and the matting band reach from the mask's
    /// outline, in pixels of the mask (at least 2 output pixels, 3 for the band): the
    /// refined mask, scaled up and thresholded, lies within about a pixel of the photo's
    /// edge, so the filter only has to move it that far; a wider window fits q = a I + b
    /// over more of the background's texture and blurs the edge. Over the validation sets
    /// (seeds 1-4 / 5-12, shipped inputs and two perturbed copies), 1.5 (before version 42)
    /// scored 0.9200 / 0.9022 mIoU and MAE 0.0097 / 0.0124; 1, 0.75 and 0.5 all scored
    /// 0.9205-0.9206 / 0.9030, MAE 0.0094 / 0.0121-0.0122, as most photos then reach the
    /// 2-pixel floor. The dev set 0.913 / 0.906 / 0.917 -> 0.914 / 0.907 / 0.918, 11 -> 12
    /// passes (a race car cut by the frame 0.899 -> 0.901).
    static let reach: Double = 0.75

    /// The side, in output pixels, of the low-resolution grid's blocks for a filter that
    /// reaches `radius` output pixels: half the radius, rounded up (the fast guided filter's
    /// subsampling, He and Sun 2015; they take a quarter of it). Rounded down, as before
    /// version 44, a 3-pixel filter (a mask pixel spanning 2.7-4 output pixels: photos of
    /// 1,300-1,900 pixels, 12 MP photos whose crop is scaled down) ran on every pixel; on
    /// such a 12 MP photo the guided filter took 6-13 ms and the matting 4-6 ms, against
    /// 2-3 ms each on 2-pixel blocks (the bench's 12 MP stickers, 7 of 24 of them such,
    /// 13.4 -> 11.4 ms on average to compose). Validation seeds 1-12 as shipped and two
    /// perturbed copies: 0.9207 / 0.9032 -> 0.9207 / 0.9033 mIoU; seeds 1, 5 and 6 scaled up
    /// 2.6 times (where most filters reach 3 pixels) 0.9113 / 0.8783 / 0.8432 -> 0.9111 /
    /// 0.8783 / 0.8431, boundary F up by 0.0000-0.0001; the dev set the same to four places.
    static func subsampling(forRadius radius: Int) -> Int { max(1, (radius + 1) / 2) }

    /// `image` holds the photo from `origin` on (in the layout's pixels): the whole photo,
    /// or only the crop when it was decoded on its own (`FinerCropSource`).
    static func compose(_ image: RGBAImage, origin: (x: Int, y: Int) = (0, 0), mask: ForegroundMask,
                        maskScale: Double, layout: CropLayout) -> RGBAImage {
        let width = layout.outputWidth, height = layout.outputHeight
        var pixels = opaqueColors(of: image, origin: origin, layout: layout)
        let region = layout.region
        let maskRegion = Resampler.Region(x: region.x * maskScale, y: region.y * maskScale,
                                          width: region.width * maskScale, height: region.height * maskScale)
        let coarse = mask.values.map { Float($0) }.withUnsafeBufferPointer {
            Resampler.resample($0, width: mask.width, height: mask.height, channels: 1, region: maskRegion,
                               width: width, height: height)
        }
        // One mask pixel spans this many output pixels; the filter reaches `reach` of it.
        let span = layout.scale / maskScale
        let radius = max(2, Int((span * reach).rounded(.up)))
        let subsampling = SoftAlphaComposer.subsampling(forRadius: radius)
        let grid = LowResolutionGrid(width: width, height: height, subsampling: subsampling)
        // The guide: the luminance of each block's mean colour; with one pixel per block,
        // straight from the bytes (the same floats, without a float copy of the colours).
        let lowGuide = subsampling == 1 ? luminances(of: pixels)
            : grid.shrink(pixels, channels: 4).withUnsafeBufferPointer { low in (0..<grid.count).map { luminance(low, $0) } }
        let coefficients = GuidedFilter(radius: max(1, radius / subsampling), epsilon: 1e-3)
            .coefficients(mask: grid.shrink(coarse), guide: lowGuide, width: grid.lowWidth, height: grid.lowHeight)
        let hard = [UInt8](unsafeUninitializedCapacity: coarse.count) { hard, initialized in
            for i in coarse.indices { hard[i] = coarse[i] >= 0.5 ? 1 : 0 }
            initialized = coarse.count
        }
        let matting = EdgeMatting(colors: pixels, hard: hard, width: width, height: height,
                                  radius: max(3, radius), subsampling: subsampling * 2)

        applyAlpha(to: &pixels, coefficients: coefficients, hard: hard, matting: matting, grid: grid)
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The crop's colours at output size as RGBA bytes with alpha 255: the decoded bytes
    /// themselves when the crop is not scaled, else area-averaged and rounded.
    private static func opaqueColors(of image: RGBAImage, origin: (x: Int, y: Int), layout: CropLayout) -> [UInt8] {
        let width = layout.outputWidth, height = layout.outputHeight
        let crop = PixelRect(x: layout.crop.x - origin.x, y: layout.crop.y - origin.y,
                             width: layout.crop.width, height: layout.crop.height)
        var colors: [UInt8]
        if width == crop.width && height == crop.height {
            colors = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
                image.pixels.withUnsafeBufferPointer { source in
                    for y in 0..<height {
                        let start = ((crop.y + y) * image.width + crop.x) * 4
                        UnsafeMutableRawPointer(buffer.baseAddress! + y * width * 4)
                            .copyMemory(from: source.baseAddress! + start, byteCount: width * 4)
                    }
                }
                initialized = width * height * 4
            }
        } else {
            colors = image.pixels.withUnsafeBufferPointer {
                Resampler.resample($0, width: image.width, height: image.height, channels: 4,
                                   region: Resampler.Region(crop), width: width, height: height, as: UInt8.self)
            }
        }
        colors.withUnsafeMutableBytes { bytes in
            // Eight pixels at a time, as 32-bit words whose last byte in memory is alpha.
            let opaque = SIMD8<UInt32>(repeating: UInt32(littleEndian: 0xFF00_0000))
            var offset = 0
            while offset + 32 <= bytes.count {
                let block = bytes.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt32>.self)
                bytes.storeBytes(of: block | opaque, toByteOffset: offset, as: SIMD8<UInt32>.self)
                offset += 32
            }
            for alpha in stride(from: offset + 3, to: bytes.count, by: 4) { bytes[alpha] = 255 }
        }
        return colors
    }

    /// Turns the opaque crop into the sticker in place: in the matting band, q = a I + b
    /// (`coefficients` holds (a, b) per cell) refined by the matting; outside it, transparent
    /// black where `hard` is 0 and the pixel as it is where it is 1.
    private static func applyAlpha(to pixels: inout [UInt8], coefficients: [SIMD2<Float>], hard: [UInt8],
                                   matting: EdgeMatting, grid: LowResolutionGrid) {
        let width = grid.width
        pixels.withUnsafeMutableBufferPointer { pixels in
            matting.band.withUnsafeBufferPointer { band in
                hard.withUnsafeBufferPointer { hard in
                    let bytes = UnsafeMutableRawPointer(pixels.baseAddress!)
                    let bandBytes = UnsafeRawPointer(band.baseAddress!), hardBytes = UnsafeRawPointer(hard.baseAddress!)
                    for y in 0..<grid.height {
                        var x = 0
                        while x < width {
                            let i = y * width + x
                            // Most pixels are outside the band: eight of them at once where
                            // none is in it, each kept or made transparent black.
                            if x + 8 <= width, bandBytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) == 0 {
                                // `hard` is 0 or 1, so 0 - hard is no bits or all of them (a lane
                                // mask in integer arithmetic, where the standard library's mask
                                // types go lane by lane).
                                let kept = 0 &- SIMD8<UInt32>(truncatingIfNeeded: hardBytes.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
                                let eight = bytes.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
                                bytes.storeBytes(of: eight & kept, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
                                x += 8
                                continue
                            }
                            defer { x += 1 }
                            guard band[i] else {
                                if hard[i] == 0 { bytes.storeBytes(of: 0, toByteOffset: i * 4, as: UInt32.self) }
                                continue
                            }
                            let pixel = UInt8.four(UnsafeBufferPointer(pixels), at: i * 4)
                            let original = SIMD3(pixel.x, pixel.y, pixel.z)
                            let ab = grid.tap(x, y).sample(coefficients)
                            let guided = min(1, max(0, ab.y + ab.x * luminance(original)))
                            let (alpha, color) = matting.refine(pixel: original, alpha: guided, x: x, y: y)
                            let rgba = SoftAlphaComposer.bytes(SIMD4(color, alpha))
                            bytes.storeBytes(of: rgba.w > 0 ? rgba : .zero, toByteOffset: i * 4, as: SIMD4<UInt8>.self)
                        }
                    }
                }
            }
        }
    }

    /// Colour (0-255) and alpha (0-1) as rounded, clamped bytes.
    @inline(__always)
    private static func bytes(_ rgba: SIMD4<Float>) -> SIMD4<UInt8> {
        let scaled = rgba * SIMD4(1, 1, 1, 255)
        let byte = { (value: Float) in UInt8(min(255, max(0, value)) + 0.5) }
        return SIMD4(byte(scaled.x), byte(scaled.y), byte(scaled.z), byte(scaled.w))
    }

    /// The guide at full size: the luminance of every pixel of RGBA `bytes`.
    private static func luminances(of bytes: [UInt8]) -> [Float] {
        let count = bytes.count / 4
        return [Float](unsafeUninitializedCapacity: count) { guide, initialized in
            bytes.withUnsafeBufferPointer { bytes in
                for i in 0..<count {
                    let pixel = UInt8.four(bytes, at: i * 4)
                    guide[i] = luminance(SIMD3(pixel.x, pixel.y, pixel.z))
                }
            }
            initialized = count
        }
    }

    /// The guide: Rec. 601 luminance, 0-1, of pixel `i` of 4 interleaved channels.
    @inline(__always)
    private static func luminance(_ colors: UnsafeBufferPointer<Float>, _ i: Int) -> Float {
        luminance(SIMD3(colors[i * 4], colors[i * 4 + 1], colors[i * 4 + 2]))
    }

    /// The guide: Rec. 601 luminance, 0-1, of a colour in 0-255.
    @inline(__always)
    private static func luminance(_ color: SIMD3<Float>) -> Float {
        let red: Float = 0.299 * color.x, green: Float = 0.587 * color.y, blue: Float = 0.114 * color.z
        return (red + green + blue) / 255
    }
}
