import Foundation
import StickerKit
import Testing
import TestSupport

/// Broken, truncated, empty and oversized files are clear errors, never crashes or hangs.
@Suite struct CorruptInputTests {
    private func samplePhoto() -> RGBAImage {
        Scene(width: 96, height: 64, background: .texture([120, 140, 90], amplitude: 30),
              shapes: [(.disc(x: 48, y: 32, radius: 20), [200, 40, 40])]).render().image
    }

    @Test func emptyAndUnknownBytesAreUnrecognized() {
        #expect(throws: CodecError.unrecognizedFormat) { try ImageDecoder.decode(Data()) }
        #expect(throws: CodecError.unrecognizedFormat) { try ImageDecoder.decode(Data("hello, world".utf8)) }
    }

    @Test(arguments: ["png", "jpeg"])
    func truncationAtManyOffsetsIsAnError(kind: String) {
        let data = kind == "png" ? TestFiles.png(samplePhoto()) : TestFiles.jpeg(samplePhoto())
        for length in stride(from: 3, to: data.count - 1, by: max(1, data.count / 40)) {
            #expect(throws: CodecError.self, "truncated at \(length) of \(data.count)") {
                try ImageDecoder.decode(data.prefix(length))
            }
        }
    }

    @Test func badCRCIsCorrupt() throws {
        var data = TestFiles.png(samplePhoto())
        data[data.count - 20] ^= 0xFF   // inside the last IDAT payload or its CRC
        #expect(throws: CodecError.self) { try ImageDecoder.decode(data) }
    }

    @Test func bitFlipsNeverCrash() {
        for kind in ["png", "jpeg"] {
            let original = kind == "png" ? TestFiles.png(samplePhoto()) : TestFiles.jpeg(samplePhoto())
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<200 {
                var data = original
                for _ in 0..<3 { data[Int.random(in: 0..<data.count, using: &generator)] ^= UInt8.random(in: 1...255) }
                _ = try? ImageDecoder.decode(data)
            }
        }
    }

    @Test func pngBombIsRefusedFromTheHeader() throws {
        let data = HostileFiles.pngHeaderBomb()
        #expect(throws: CodecError.tooManyPixels(width: 65535, height: 65535, limit: DecodeOptions.defaultMaxPixels)) {
            try ImageDecoder.decode(data)
        }
    }

    /// The budget is exact in every format the photo can be written in here: one pixel
    /// under the image's size refuses it from the header, its size decodes it.
    @Test(arguments: ["png", "jpeg", "webp", "heic", "jxl"])
    func theBudgetIsExact(kind: String) throws {
        let photo = samplePhoto(), png = TestFiles.png(photo)
        let data = switch kind {
        case "png": png
        case "jpeg": TestFiles.jpeg(photo)
        case "webp": try WebPEncoder().encode(photo)
        case "heic": try ExternalEncoder.heif(png, options: ["-q", "95"])
        default: try ExternalEncoder.jxl(png, options: ["-d", "1"])
        }
        #expect(throws: CodecError.tooManyPixels(width: 96, height: 64, limit: 96 * 64 - 1)) {
            try ImageDecoder.decode(data, options: DecodeOptions(maxPixels: 96 * 64 - 1))
        }
        #expect(try ImageDecoder.decode(data, options: DecodeOptions(maxPixels: 96 * 64)).image.width == 96)
    }

    @Test func errorMessagesNameTheCause() {
        #expect(CodecError.tooManyPixels(width: 10, height: 20, limit: 100).description.contains("--max-pixels"))
        let error = #expect(throws: CodecError.self) { try ImageDecoder.decode(TestFiles.jpeg(samplePhoto()).prefix(200)) }
        #expect(error?.description.hasPrefix("corrupt image:") == true)
    }

    @Test func pngWhoseDataInflatesPastItsHeaderIsRefused() throws {
        let exact = 64 * (1 + 64 * 4)
        #expect(try ImageDecoder.decode(HostileFiles.pngInflationBomb(width: 64, height: 64, inflatedBytes: exact)).image.width == 64)
        let bomb = HostileFiles.pngInflationBomb(width: 64, height: 64, inflatedBytes: 64 << 20)
        let error = #expect(throws: CodecError.self) { try ImageDecoder.decode(bomb) }
        #expect(error?.description.contains("goes on past the 64x64 pixels") == true)
    }

    @Test func animatedPNGDecodesItsFirstFrame() throws {
        let png = TestFiles.png(samplePhoto())
        let animated = HostileFiles.apng(from: png)
        #expect(animated.count > png.count)
        #expect(try ImageDecoder.decode(animated).image == ImageDecoder.decode(png).image)
    }

    @Test func paletteIndexPastThePaletteIsCorrupt() {
        let error = #expect(throws: CodecError.self) { try ImageDecoder.decode(HostileFiles.paletteIndexOutOfRange()) }
        #expect(error == .corrupt(reason: "palette index 7 is out of range (the palette has 2 entries)"))
    }

    @Test func pngWithoutImageDataIsCorrupt() {
        let data = HostileFiles.pngWithoutImageData(from: TestFiles.png(samplePhoto()))
        #expect(throws: CodecError.self) { try ImageDecoder.decode(data) }
    }

    @Test func twelveBitJPEGIsUnsupported() {
        let data = HostileFiles.twelveBitJPEG(from: TestFiles.jpeg(samplePhoto()))
        #expect(throws: CodecError.unsupported(reason: "12-bit JPEG is not supported (only 8-bit)")) {
            try ImageDecoder.decode(data)
        }
    }

    @Test func jpegWithoutScansIsCorrupt() {
        let data = HostileFiles.jpegWithoutScans(from: TestFiles.jpeg(samplePhoto()))
        let error = #expect(throws: CodecError.self) { try ImageDecoder.decode(data) }
        #expect(error?.description.hasPrefix("corrupt image:") == true)
    }
}
