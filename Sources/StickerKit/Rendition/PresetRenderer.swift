import FoundationEssentials

/// Fits a sticker to a `StickerPreset`: places it on the platform's canvas and encodes it
/// under the byte limit, trying the cheapest faithful encoding first.
///
/// PNG: the fast encoding, then zlib 9 with adaptive filters, then colour depth reduced
/// to 7, 6, 5, 4 and 3 bits per channel (alpha kept), which makes runs zlib can use. WebP:
/// lossless when it fits, else lossy at the highest quality that fits (see `losslessWebP`
/// and `bestLossyWebP`). When nothing fits, the sticker fails with the smallest size
/// reached.
public enum PresetRenderer {
    /// The encoded file and its pixel size. `byteLimit` overrides the preset's (for tests).
    public static func render(_ sticker: RGBAImage, preset: StickerPreset,
                              byteLimit: Int? = nil) throws -> (Data, (width: Int, height: Int)) {
        let placed = place(sticker, on: preset.canvas)
        let size = (placed.width, placed.height)
        let limit = byteLimit ?? preset.byteLimit
        var smallest = Int.max
        let fitting = preset.format == .webp
            ? try losslessWebP(placed, limit: limit, smallest: &smallest)
                ?? bestLossyWebP(placed, limit: limit, smallest: &smallest)
            : try firstFitting(placed, limit: limit, smallest: &smallest)
        if let fitting { return (fitting, size) }
        throw PresetError.overByteLimit(preset: preset, bytes: smallest, limit: limit)
    }

    /// The preset's tray icon made from `sticker` (a PNG under its limit), or nil when the
    /// platform has none.
    public static func trayIcon(_ sticker: RGBAImage, preset: StickerPreset) throws -> Data? {
        guard let tray = preset.trayIcon else { return nil }
        let placed = place(sticker, on: .square(tray.side, margin: 0))
        var smallest = Int.max
        if let data = try firstFitting(placed, limit: tray.byteLimit, smallest: &smallest) { return data }
        throw PresetError.overByteLimit(preset: preset, bytes: smallest, limit: tray.byteLimit)
    }

    /// The sticker scaled (premultiplied, area-averaged or interpolated) onto the canvas.
    static func place(_ sticker: RGBAImage, on canvas: StickerPreset.Canvas) -> RGBAImage {
        let longest = Double(max(sticker.width, sticker.height))
        let full = Resampler.Region(x: 0, y: 0, width: Double(sticker.width), height: Double(sticker.height))
        switch canvas {
        case .longSide(let side):
            let scale = Double(side) / longest
            let width = sticker.width >= sticker.height ? side : max(1, Int((Double(sticker.width) * scale).rounded()))
            let height = sticker.height >= sticker.width ? side : max(1, Int((Double(sticker.height) * scale).rounded()))
            return AlphaResampler.resample(sticker, region: full, width: width, height: height)
        case .square(let side, let margin):
            let room = Double(side - 2 * margin)
            let width = max(1, Int((Double(sticker.width) * room / longest).rounded()))
            let height = max(1, Int((Double(sticker.height) * room / longest).rounded()))
            let scaled = AlphaResampler.resample(sticker, region: full, width: width, height: height)
            var pixels = [UInt8](repeating: 0, count: side * side * 4)
            let left = (side - width) / 2, top = (side - height) / 2
            for y in 0..<height {
                let target = ((top + y) * side + left) * 4
                pixels.replaceSubrange(target..<target + width * 4, with: scaled.pixels[(y * width * 4)..<((y + 1) * width * 4)])
            }
            return RGBAImage(width: side, height: side, pixels: pixels)
        }
    }

    /// The WebP qualities a sticker over its limit when lossless may be encoded at.
    static let lossyQualities = 5...95

    /// The first of the PNG encodings (cheapest first) that fits `limit`, or nil;
    /// `smallest` keeps the fewest bytes any of them reached.
    private static func firstFitting(_ image: RGBAImage, limit: Int, smallest: inout Int) throws -> Data? {
        let best = PNGEncoder(encoding: .libpng(level: 9))
        let attempts: [(RGBAImage) throws -> Data] = [{ try PNGEncoder().encode($0) }, { try best.encode($0) }]
            + [7, 6, 5, 4, 3].map { bits in { try best.encode(reducingDepth($0, toBits: bits)) } }
        for attempt in attempts {
            let data = try attempt(image)
            if data.count <= limit { return data }
            smallest = min(smallest, data.count)
        }
        return nil
    }

    /// Lossless WebP at libwebp's default method 4, if it fits `limit`. It is not tried
    /// when the fastest lossless encoding (method 0, a tenth of its time) is over twice
    /// the limit: on the bench's 24 stickers of 12 MP photos placed at 512 x 512, method
    /// 4 wrote 0.58x to 0.84x of method 0's bytes (Pillow's libwebp), and the WhatsApp set
    /// made with this skip is the same bytes, in 1.6 s against 2.4 s.
    private static func losslessWebP(_ image: RGBAImage, limit: Int, smallest: inout Int) throws -> Data? {
        let fastest = try WebPEncoder(method: 0).encode(image)
        smallest = min(smallest, fastest.count)
        guard fastest.count <= 2 * limit else { return nil }
        let data = try WebPEncoder().encode(image)
        smallest = min(smallest, data.count)
        return data.count <= limit ? data : nil
    }

    /// Each colour channel rounded to `bits` significant bits (alpha untouched).
    static func reducingDepth(_ image: RGBAImage, toBits bits: Int) -> RGBAImage {
        let step = 1 << (8 - bits)
        var pixels = image.pixels
        for index in pixels.indices where index % 4 != 3 {
            let rounded = (Int(pixels[index]) + step / 2) / step * step
            pixels[index] = UInt8(min(255, rounded))
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// The highest quality in `lossyQualities` whose encoding fits `limit`: the top one
    /// when it fits (21 of the bench's 24 stickers do, at 16-39 KB of WhatsApp's 100; the
    /// set in 2.4 s against 5.6 s for a binary search from the middle, the same bytes),
    /// else a binary search below it.
    private static func bestLossyWebP(_ image: RGBAImage, limit: Int, smallest: inout Int) throws -> Data? {
        let top = try WebPEncoder(quality: lossyQualities.upperBound).encode(image)
        smallest = min(smallest, top.count)
        if top.count <= limit { return top }
        var low = lossyQualities.lowerBound, high = lossyQualities.upperBound - 1
        var best: Data?
        while low <= high {
            let quality = (low + high) / 2
            let data = try WebPEncoder(quality: quality).encode(image)
            smallest = min(smallest, data.count)
            if data.count <= limit {
                best = data
                low = quality + 1
            } else {
                high = quality - 1
            }
        }
        return best
    }
}

/// Why a sticker cannot meet its preset.
public enum PresetError: Error, Equatable, CustomStringConvertible {
    case overByteLimit(preset: StickerPreset, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .overByteLimit(let preset, let bytes, let limit):
            return "cannot meet the \(preset) limit of \(limit / 1024) KB: the smallest encoding was \(bytes) bytes"
        }
    }
}
