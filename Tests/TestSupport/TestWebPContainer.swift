import Foundation
import StickerKit

/// WebP files in the extended format, assembled around `WebPEncoder`'s lossless (VP8L)
/// bitstreams per the WebP container specification: RIFF, a VP8X header with its flags,
/// then ICCP, or ANIM and one ANMF chunk per frame.
public enum TestWebPContainer {
    /// `image` tagged with an ICC profile.
    public static func tagged(_ image: RGBAImage, iccProfile: [UInt8]) throws -> Data {
        let icc = chunk("ICCP", iccProfile)
        return file(header(flags: 0x20, width: image.width, height: image.height) + icc + (try bitstream(image)))
    }

    /// An animation of `frames`, each covering the whole canvas (the first one's size),
    /// with no blending.
    public static func animated(_ frames: [RGBAImage]) throws -> Data {
        let width = frames[0].width, height = frames[0].height
        var chunks = header(flags: 0x12, width: width, height: height)   // animation, alpha
        chunks += chunk("ANIM", [0, 0, 0, 0, 0, 0])                       // background, loop forever
        for frame in frames {
            // Offset (x/2, y/2), size - 1, duration 100 ms, flags: do not blend.
            let placement = littleEndian(0, 3) + littleEndian(0, 3) + littleEndian(frame.width - 1, 3)
                + littleEndian(frame.height - 1, 3) + littleEndian(100, 3) + [0x02]
            chunks += chunk("ANMF", placement + (try bitstream(frame)))
        }
        return file(chunks)
    }

    /// The VP8L chunk of `image`'s simple-format file (RIFF, size, WEBP, then that chunk).
    private static func bitstream(_ image: RGBAImage) throws -> [UInt8] {
        Array([UInt8](try WebPEncoder().encode(image))[12...])
    }

    private static func header(flags: UInt8, width: Int, height: Int) -> [UInt8] {
        chunk("VP8X", [flags, 0, 0, 0] + littleEndian(width - 1, 3) + littleEndian(height - 1, 3))
    }

    private static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + littleEndian(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    private static func file(_ chunks: [UInt8]) -> Data {
        Data(Array("RIFF".utf8) + littleEndian(4 + chunks.count, 4) + Array("WEBP".utf8) + chunks)
    }

    private static func littleEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
