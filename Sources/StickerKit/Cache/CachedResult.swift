import FoundationEssentials

/// What the cache keeps of a processed photo: the sticker's PNG and its metadata.
public struct CachedResult: Sendable, Codable, Equatable {
    public var width: Int
    public var height: Int
    public var crop: PixelRect
    public var scale: Double
    public var sourceWidth: Int
    public var sourceHeight: Int
    public var colors: ColorScheme
    /// `Sticker.confidence`.
    public var confidence: Double?
    /// Milliseconds each stage took when the result was computed.
    public var timings: StageTimings
    /// The sticker as PNG bytes (stored after the metadata, not inside the JSON).
    public var png: Data

    enum CodingKeys: String, CodingKey {
        case width, height, crop, scale, sourceWidth, sourceHeight, colors, confidence, timings
    }

    public init(_ photo: ProcessedPhoto) {
        width = photo.sticker.image.width
        height = photo.sticker.image.height
        crop = photo.sticker.crop
        scale = photo.sticker.scale
        sourceWidth = photo.sticker.sourceWidth
        sourceHeight = photo.sticker.sourceHeight
        colors = photo.colors
        confidence = photo.sticker.confidence
        timings = photo.timings
        png = photo.png
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
        crop = try container.decode(PixelRect.self, forKey: .crop)
        scale = try container.decode(Double.self, forKey: .scale)
        sourceWidth = try container.decode(Int.self, forKey: .sourceWidth)
        sourceHeight = try container.decode(Int.self, forKey: .sourceHeight)
        colors = try container.decode(ColorScheme.self, forKey: .colors)
        confidence = try container.decodeIfPresent(Double.self, forKey: .confidence)
        timings = try container.decode(StageTimings.self, forKey: .timings)
        png = Data()
        guard hasPlausibleGeometry else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "sizes no photo could have"))
        }
    }

    /// Whether the sizes are ones a processed photo can have: a source of at most
    /// `Int32.max` pixels (`--max-pixels`' ceiling), a scale in (0, 1], and a sticker and a
    /// crop of sizes under it. The entry's checksum covers only the PNG, so metadata edited
    /// by hand could otherwise ask the full-frame mask for exabytes or trap a conversion.
    private var hasPlausibleGeometry: Bool {
        let limit = Int(Int32.max)
        let sizes = [width, height, sourceWidth, sourceHeight, crop.width, crop.height]
        let area = sourceWidth.multipliedReportingOverflow(by: sourceHeight)
        return sizes.allSatisfy { (1...limit).contains($0) } && [crop.x, crop.y].allSatisfy { (0...limit).contains($0) }
            && !area.overflow && area.partialValue <= limit && scale.isFinite && scale > 0 && scale <= 1
    }
}
