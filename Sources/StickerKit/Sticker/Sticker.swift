/// A subject lifted out of a photo: a transparent RGBA image cropped to the subject.
public struct Sticker: Sendable {
    /// The sticker pixels; fully transparent pixels are black (0, 0, 0, 0).
    public var image: RGBAImage
    /// Where the sticker sits in the upright source photo, in source pixels.
    public var crop: PixelRect
    /// Output pixels per source pixel (1 when nothing was downscaled).
    public var scale: Double
    /// Size of the upright source photo, in source pixels.
    public var sourceWidth: Int
    public var sourceHeight: Int
    /// How far the subject found agrees with the learned guess of where the subject is,
    /// 0-1 (`SubjectPrior.agreement(with:)`): a low value marks a sticker to look at. 1 for
    /// the photo's own alpha; nil when the search had no result for the guess to judge.
    public var confidence: Double?
}
