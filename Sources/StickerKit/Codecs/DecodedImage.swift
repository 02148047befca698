/// A decoded image and how it relates to the file it came from.
public struct DecodedImage: Sendable {
    public var image: RGBAImage
    public var format: ImageFormat
    /// Size of the upright image at full resolution (before shrink-on-load).
    public var sourceWidth: Int
    public var sourceHeight: Int
    /// True when the file declares alpha (an alpha channel or a tRNS chunk).
    public var declaresAlpha: Bool

    /// Decoded pixels per source pixel (1 unless a JPEG was shrunk on load).
    public var scale: Double { Double(image.width) / Double(max(sourceWidth, 1)) }
}
