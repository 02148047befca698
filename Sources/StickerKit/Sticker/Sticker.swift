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
}
