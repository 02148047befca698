/// What shapes a sticker: its size limit, its framing and margin, and the segmentation size.
public struct StickerOptions: Sendable, Hashable, Codable {
    /// Longest side of the sticker in pixels; nil keeps the source resolution.
    public var maxSize: Int?
    /// Transparent margin around the subject, in output pixels (clipped at the photo's edge).
    public var margin: Int
    /// Cut the sticker to the subject plus `margin`; when false, the sticker is the whole
    /// photo with its background transparent (`--no-crop`, as rembg writes it).
    public var cropsToSubject: Bool
    /// Long side of the image the subject is found at (the search runs at half of it).
    public var workingSize: Int
    /// Long side of the image the subject's outline is refined at (`SubjectSegmenter`).
    public var refinementSize: Int

    public init(maxSize: Int? = 1024, margin: Int = 8, cropsToSubject: Bool = true, workingSize: Int = 400,
                refinementSize: Int = 480) {
        self.maxSize = maxSize
        self.margin = margin
        self.cropsToSubject = cropsToSubject
        self.workingSize = workingSize
        self.refinementSize = refinementSize
    }

    /// The long side a photo is decoded to at least (a JPEG shrinks on load no further): the
    /// sticker's, but never under the sizes the subject is found and refined at, so a small
    /// `maxSize` (`--max-size 128` for icons) does not shrink the picture the segmentation
    /// sees; nil, the source's size, when `maxSize` is nil.
    public var minimumDecodedLongSide: Int? { maxSize.map { max($0, workingSize, refinementSize) } }

    /// Reads manifests written before `cropsToSubject` existed as cropping.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxSize = try container.decodeIfPresent(Int.self, forKey: .maxSize)
        margin = try container.decode(Int.self, forKey: .margin)
        cropsToSubject = try container.decodeIfPresent(Bool.self, forKey: .cropsToSubject) ?? true
        workingSize = try container.decode(Int.self, forKey: .workingSize)
        refinementSize = try container.decode(Int.self, forKey: .refinementSize)
    }
}
