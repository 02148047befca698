import CImageCodecs
import Foundation

/// Encodes RGBA8 images as 8-bit RGBA PNG.
///
/// The default favours speed with honest size: the Up filter on every row and libdeflate
/// at level 1 cost a fraction of libpng's default (zlib level 6, adaptive filters) for
/// about 10% more bytes on photo-like stickers, most of whose area is transparent. With
/// `usesFastFilters` false, libpng encodes with adaptive filters at zlib's
/// `compressionLevel` (0-9); with it true, `compressionLevel` is libdeflate's (1-12).
public struct PNGEncoder: Sendable {
    public var compressionLevel: Int32
    public var usesFastFilters: Bool

    public init(compressionLevel: Int32 = 1, usesFastFilters: Bool = true) {
        self.compressionLevel = compressionLevel
        self.usesFastFilters = usesFastFilters
    }

    /// libpng's own defaults (zlib 6, adaptive filters): the size reference.
    public static let libpngDefault = PNGEncoder(compressionLevel: 6, usesFastFilters: false)

    public func encode(_ image: RGBAImage) throws(CodecError) -> Data {
        try encode(image.pixels, width: image.width, height: image.height, channels: 4)
    }

    /// Encodes one 8-bit grey plane (an alpha mask).
    public func encodeGrey(_ plane: [UInt8], width: Int, height: Int) throws(CodecError) -> Data {
        try encode(plane, width: width, height: height, channels: 1)
    }

    private func encode(_ pixels: [UInt8], width: Int, height: Int, channels: Int32) throws(CodecError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        defer { cic_free(output) }
        try CodecStatus.check { message, capacity in
            pixels.withUnsafeBufferPointer { pixels in
                cic_png_encode(pixels.baseAddress, UInt32(width), UInt32(height), channels,
                               compressionLevel, usesFastFilters ? 1 : 0, &output, &length, message, capacity)
            }
        }
        return Data(bytes: output!, count: length)
    }
}
