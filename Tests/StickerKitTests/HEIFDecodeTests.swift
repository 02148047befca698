import Foundation
import StickerKit
import Testing
import TestSupport

/// HEIC and AVIF input through libheif (loaded at run time), and the clear error without it.
@Suite struct HEIFDecodeTests {
    private func photo() -> RGBAImage {
        Scene(width: 96, height: 64, background: .gradient([230, 220, 200], [180, 170, 160]),
              shapes: [(.disc(x: 48, y: 32, radius: 20), [200, 40, 40])]).render().image
    }

    /// `image` encoded by libheif's own `heif-enc` (Scripts/bootstrap installs it): HEIC,
    /// or AVIF (AV1 by libaom).
    private func heic(_ image: RGBAImage, avif: Bool = false) throws -> Data {
        try ExternalEncoder.heif(TestFiles.png(image), options: (avif ? ["-A"] : []) + ["-q", "95"])
    }

    @Test func heicDecodesCloseToItsSource() throws {
        let source = photo()
        let decoded = try ImageDecoder.decode(try heic(source))
        #expect(decoded.format == .heif)
        #expect(decoded.image.width == 96 && decoded.image.height == 64)
        let error = TestFiles.meanDifference(decoded.image, source)
        #expect(error < 4, "mean error \(error)")
    }

    @Test func avifDecodesCloseToItsSource() throws {
        let source = photo()
        let avif = try heic(source, avif: true)
        #expect(ImageFormat(sniffing: avif) == .heif)
        let decoded = try ImageDecoder.decode(avif)
        #expect(decoded.image.width == 96 && decoded.image.height == 64)
        let error = TestFiles.meanDifference(decoded.image, source)
        #expect(error < 4, "mean error \(error)")
    }

    @Test func withoutLibheifTheErrorNamesThePackage() throws {
        var options = DecodeOptions()
        options.heifLibrary = "libheif-not-installed.so.1"
        #expect(throws: CodecError.unsupported(reason: "HEIC, HEIF and AVIF need libheif, which is not installed (apt-get install libheif1)")) {
            try ImageDecoder.decode(try heic(photo()), options: options)
        }
    }

    @Test func formatsAreRecognisedByContent() throws {
        #expect(ImageFormat(sniffing: try heic(photo())) == .heif)
        #expect(ImageFormat(sniffing: try WebPEncoder().encode(photo())) == .webp)
        #expect(ImageFormat(sniffing: Data("RIFF\0\0\0\0WAVE".utf8)) == nil)
        #expect(ImageFormat(sniffing: Data([0, 0, 0, 24] + Array("ftypmp42".utf8))) == nil)
    }
}
