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
        var pixels = opaqueColors(of: image, layout: layout)
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
        let lowColors = grid.shrink(pixels, channels: 4)
        let lowGuide = lowColors.withUnsafeBufferPointer { low in (0..<grid.count).map { luminance(low, $0) } }
        let (slope, offset) = GuidedFilter(radius: max(1, radius / subsampling), epsilon: 1e-3)
            .coefficients(mask: grid.shrink(coarse), guide: lowGuide, width: grid.lowWidth, height: grid.lowHeight)
        let coefficients = zip(slope, offset).map { SIMD2($0, $1) }
        let kinds = cellKinds(coefficients, grid: grid)
        let hard = [UInt8](unsafeUninitializedCapacity: coarse.count) { hard, initialized in
            for i in coarse.indices { hard[i] = coarse[i] >= 0.5 ? 1 : 0 }
            initialized = coarse.count
        }
        let matting = EdgeMatting(colors: pixels, hard: hard, width: width, height: height,
                                  radius: max(3, radius), subsampling: subsampling * 2)

        applyAlpha(to: &pixels, coefficients: coefficients, kinds: kinds, matting: matting, grid: grid)
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The crop's colours at output size as RGBA bytes with alpha 255: the decoded bytes
    /// themselves when the crop is not scaled, else area-averaged and rounded.
    private static func opaqueColors(of image: RGBAImage, layout: CropLayout) -> [UInt8] {
        let crop = layout.crop, width = layout.outputWidth, height = layout.outputHeight
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
                Resampler.resample($0, width: image.width, height: image.height, channels: 4, region: layout.region,
                                   width: width, height: height, as: UInt8.self)
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

    /// Turns the opaque crop into the sticker in place: q = a I + b and matting where they
    /// can change a pixel, transparent black where q is 0, and opaque pixels left as they
    /// are. `coefficients` holds (a, b) per cell.
    private static func applyAlpha(to pixels: inout [UInt8], coefficients: [SIMD2<Float>], kinds: [CellKind],
                                   matting: EdgeMatting, grid: LowResolutionGrid) {
        let width = grid.width
        let columns = (0..<width).map { grid.firstColumn(of: $0) }
        pixels.withUnsafeMutableBufferPointer { pixels in
            matting.band.withUnsafeBufferPointer { band in
                kinds.withUnsafeBufferPointer { kinds in
                    columns.withUnsafeBufferPointer { columns in
                        let bytes = UnsafeMutableRawPointer(pixels.baseAddress!)
                        for y in 0..<grid.height {
                            let rowKinds = kinds.baseAddress! + grid.firstCell(ofRow: y)
                            for x in 0..<width {
                                let i = y * width + x
                                let kind = rowKinds[columns[x]], inBand = band[i]
                                guard inBand || kind == .varying else {
                                    if kind == .transparent { bytes.storeBytes(of: 0, toByteOffset: i * 4, as: UInt32.self) }
                                    continue
                                }
                                let pixel = UInt8.four(UnsafeBufferPointer(pixels), at: i * 4)
                                var color = SIMD3(pixel.x, pixel.y, pixel.z)
                                let ab = grid.tap(x, y).sample(coefficients)
                                var alpha = min(1, max(0, ab.y + ab.x * luminance(color)))
                                if inBand {
                                    (alpha, color) = matting.refine(pixel: color, alpha: alpha, x: x, y: y)
                                }
                                let rgba = SoftAlphaComposer.bytes(SIMD4(color, alpha))
                                bytes.storeBytes(of: rgba.w > 0 ? rgba : .zero, toByteOffset: i * 4, as: SIMD4<UInt8>.self)
                            }
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

    /// What the guided filter gives a pixel outside the matting band, by the cell its
    /// bilinear tap starts at.
    private enum CellKind: UInt8 {
        /// q = a I + b rounds to alpha 0 in every cell the tap reads, whatever the guide I.
        case transparent
        /// q rounds to alpha 255 in every cell the tap reads, whatever the guide I.
        case opaque
        /// q must be evaluated per pixel.
        case varying
    }

    /// Per grid cell: the `CellKind` of the pixels whose bilinear tap starts there.
    ///
    /// The guide is 0-1 (a little over 1 after resampling's rounding), so a cell's q lies
    /// between b and a + b, and a bilinear blend of cells between their extremes. Filtering
    /// a resampled mask leaves slopes of 1e-7 in flat areas, so flatness is judged by the
    /// byte q rounds to, not by exact zeros.
    private static func cellKinds(_ coefficients: [SIMD2<Float>], grid: LowResolutionGrid) -> [CellKind] {
        let guideLimit: Float = 1.01, margin: Float = 1 / 1024   // alpha rounds to 0 below 1/510
        let ranges = coefficients.map { ab in
            (min(ab.y, ab.y + ab.x * guideLimit), max(ab.y, ab.y + ab.x * guideLimit))
        }
        let w = grid.lowWidth, h = grid.lowHeight
        var kinds = [CellKind]()
        kinds.reserveCapacity(grid.count)
        for y in 0..<h {
            let below = min(y + 1, h - 1)
            for x in 0..<w {
                let right = min(x + 1, w - 1)
                let (a, b, c, d) = (ranges[y * w + x], ranges[y * w + right], ranges[below * w + x], ranges[below * w + right])
                if max(a.1, b.1, c.1, d.1) < margin {
                    kinds.append(.transparent)
                } else {
                    kinds.append(min(a.0, b.0, c.0, d.0) > 1 - margin ? .opaque : .varying)
                }
            }
        }
        return kinds
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
