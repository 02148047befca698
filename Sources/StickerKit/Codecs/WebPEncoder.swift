import CImageCodecs
import FoundationEssentials

/// Encodes RGBA8 images as WebP through libwebp: lossless, or lossy at a quality 0-100
/// (alpha is kept either way).
public struct WebPEncoder: Sendable {
    /// nil for lossless.
    public var quality: Int?
    /// libwebp's speed/size trade-off, 0 (fastest) to 6 (smallest); 4 is its default.
    public var method: Int
    /// How hard lossless encoding searches for matches, 0-100 (libwebp's lossless quality);
    /// 70, its simple API's, by default.
    public var losslessEffort: Int

    public init(quality: Int? = nil, method: Int = 4, losslessEffort: Int = 70) {
        self.quality = quality
        self.method = method
        self.losslessEffort = losslessEffort
    }

    public func encode(_ image: RGBAImage) throws(CodecError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        defer { cic_free(output) }
        try CodecStatus.check { message, capacity in
            image.pixels.withUnsafeBufferPointer { pixels in
                cic_webp_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height), Int32(quality ?? -1),
                                Int32(method), Int32(losslessEffort), &output, &length, message, capacity)
            }
        }
        return Data(bytes: output!, count: length)
    }
}
