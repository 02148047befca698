/// Where a sticker is cut from the decoded photo and how large it comes out: the subject's
/// box grown by the margin (clipped to the photo), or the whole photo when the sticker
/// keeps its frame, scaled so the long side fits `maxSize`.
struct CropLayout: Sendable {
    /// The crop in decoded pixels.
    let crop: PixelRect
    /// Output pixels per decoded pixel (at most 1).
    let scale: Double
    let outputWidth: Int
    let outputHeight: Int

    /// A box in pixels, its maximum exclusive.
    typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    /// `box` in pixels `factor` times as fine.
    static func scaled(_ box: Box, by factor: Double) -> Box {
        (box.minX * factor, box.minY * factor, box.maxX * factor, box.maxY * factor)
    }

    /// The subject's box (decoded pixels, maximum exclusive) grown by `options.margin`, or
    /// the whole photo when `options.cropsToSubject` is false.
    init(subject: Box,
         imageWidth: Int, imageHeight: Int, options: StickerOptions) {
        guard options.cropsToSubject else {
            let longSide = Double(max(imageWidth, imageHeight))
            let scale = options.maxSize.map { min(1, Double($0) / longSide) } ?? 1
            self.init(crop: PixelRect(x: 0, y: 0, width: imageWidth, height: imageHeight), scale: scale,
                      limit: options.maxSize)
            return
        }
        let longSide = max(subject.maxX - subject.minX, subject.maxY - subject.minY)
        var scale = 1.0
        if let maxSize = options.maxSize {
            let room = Double(max(1, maxSize - 2 * options.margin))
            scale = min(1, room / longSide)
        }
        let margin = Double(options.margin) / scale
        let minX = max(0, Int((subject.minX - margin).rounded(.down)))
        let minY = max(0, Int((subject.minY - margin).rounded(.down)))
        let maxX = min(imageWidth, Int((subject.maxX + margin).rounded(.up)))
        let maxY = min(imageHeight, Int((subject.maxY + margin).rounded(.up)))
        self.init(crop: PixelRect(x: minX, y: minY, width: max(1, maxX - minX), height: max(1, maxY - minY)),
                  scale: scale, limit: options.maxSize)
    }

    /// `crop` at `scale`, rounded to whole output pixels (`scale` then the exact ratio), and
    /// no longer than `limit`: the margin rounded out to whole pixels of a scaled-down crop
    /// would otherwise make a sticker a pixel or two over it.
    private init(crop: PixelRect, scale: Double, limit: Int?) {
        self.crop = crop
        var scale = scale
        if let limit, Double(max(crop.width, crop.height)) * scale > Double(limit) {
            scale = Double(limit) / Double(max(crop.width, crop.height))
        }
        outputWidth = max(1, Int((Double(crop.width) * scale).rounded()))
        outputHeight = max(1, Int((Double(crop.height) * scale).rounded()))
        self.scale = Double(outputWidth) / Double(crop.width)
    }

    var region: Resampler.Region {
        Resampler.Region(crop)
    }
}
