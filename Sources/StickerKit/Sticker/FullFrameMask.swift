import FoundationEssentials

/// The sticker's alpha placed back into the whole photo's frame, for compositing and
/// debugging: an 8-bit plane the size of the source photo times the sticker's scale (the
/// source size itself with `--max-size original`), zero outside the crop.
public enum FullFrameMask {
    /// Names what `png(of:)` makes, for the cache (`CacheKey(rendering:as:)`): bump its
    /// number when that changes.
    public static let fingerprint = "mask 1"

    /// The mask of `result`'s sticker as a grey PNG.
    public static func png(of result: CachedResult) throws(CodecError) -> Data {
        let mask = render(sticker: try ImageDecoder.decode(result.png).image, crop: result.crop, scale: result.scale,
                          sourceWidth: result.sourceWidth, sourceHeight: result.sourceHeight)
        return try PNGEncoder().encodeGrey(mask.plane, width: mask.width, height: mask.height)
    }

    public static func render(sticker image: RGBAImage, crop: PixelRect, scale: Double,
                              sourceWidth: Int, sourceHeight: Int) -> (plane: [UInt8], width: Int, height: Int) {
        let width = max(1, Int((Double(sourceWidth) * scale).rounded()))
        let height = max(1, Int((Double(sourceHeight) * scale).rounded()))
        var plane = [UInt8](repeating: 0, count: width * height)
        let left = Int((Double(crop.x) * scale).rounded()), top = Int((Double(crop.y) * scale).rounded())
        for y in 0..<image.height where top + y >= 0 && top + y < height {
            for x in 0..<image.width where left + x >= 0 && left + x < width {
                plane[(top + y) * width + left + x] = image.pixels[(y * image.width + x) * 4 + 3]
            }
        }
        return (plane, width, height)
    }
}
