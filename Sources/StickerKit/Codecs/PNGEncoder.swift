import CImageCodecs
import FoundationEssentials

/// Encodes RGBA8 images as 8-bit RGBA PNG.
///
/// The default favours speed with honest size: the Up filter on every row and a
/// run-length deflate of our own (literals and runs of a repeated byte, under a Huffman
/// code fitted to each block) cost a fraction of libpng's default (zlib level 6, adaptive
/// filters) for about 10% more bytes on photo-like stickers, most of whose area is
/// transparent. `.libpng(level:)` encodes through libpng with adaptive filters at a zlib
/// level (0-9), for when bytes matter more than time.
public struct PNGEncoder: Sendable {
    /// How rows are filtered and compressed.
    public enum Encoding: Sendable, Equatable {
        /// The Up filter and run-length deflate: the speed-first default.
        case fast
        /// libpng's adaptive filters and zlib at `level` (0-9).
        case libpng(level: Int32)
    }

    public var encoding: Encoding

    public init(encoding: Encoding = .fast) {
        self.encoding = encoding
    }

    /// libpng's own defaults (zlib 6, adaptive filters): the size reference.
    public static let libpngDefault = PNGEncoder(encoding: .libpng(level: 6))

    public func encode(_ image: RGBAImage) throws(CodecError) -> Data {
        try encode(image.pixels, width: image.width, height: image.height, channels: 4)
    }

    /// Encodes one 8-bit grey plane (an alpha mask).
    public func encodeGrey(_ plane: [UInt8], width: Int, height: Int) throws(CodecError) -> Data {
        try encode(plane, width: width, height: height, channels: 1)
    }

    private func encode(_ pixels: [UInt8], width: Int, height: Int, channels: Int32) throws(CodecError) -> Data {
        let (level, fast): (Int32, Int32) = switch encoding {
        case .fast: (0, 1)
        case .libpng(let level): (level, 0)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        defer { cic_free(output) }
        try CodecStatus.check { message, capacity in
            pixels.withUnsafeBufferPointer { pixels in
                cic_png_encode(pixels.baseAddress, UInt32(width), UInt32(height), channels, level, fast,
                               &output, &length, message, capacity)
            }
        }
        return Data(bytes: output!, count: length)
    }
}
