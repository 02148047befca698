/// A rectangle of a JPEG decoded on its own (`ImageDecoder.decodeJPEG(_:options:region:)`).
struct DecodedRegion: Sendable {
    /// The rectangle's pixels, upright.
    var image: RGBAImage
    /// Where the rectangle lies in the upright image at the decode's scale.
    var region: PixelRect
    /// The upright size of the whole image at that scale.
    var decodedWidth: Int
    var decodedHeight: Int
    /// The upright width at full resolution.
    var sourceWidth: Int

    /// Decoded pixels per source pixel.
    var scale: Double { Double(decodedWidth) / Double(max(sourceWidth, 1)) }
}
