import Foundation
import StickerKit
import Testing
import TestSupport

/// TIFF input through libtiff: the layouts scanners and photo editors write, alpha kept
/// exactly, the Orientation tag applied, and clear errors for what cannot be read.
@Suite struct TIFFDecodeTests {
    /// Every pixel different, alpha included, so a misplaced or altered one shows.
    private func distinct(width: Int = 7, height: Int = 5, alpha: Bool = false) -> RGBAImage {
        var pixels: [UInt8] = []
        for index in 0..<(width * height) {
            let red = UInt8(index * 7 % 256), green = UInt8(255 - index * 3 % 256), blue = UInt8(index * 29 % 256)
            pixels += [red, green, blue, alpha ? UInt8(index * 37 % 256) : 255]
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [false, true])
    func rgbDecodesExactlyInEitherByteOrder(bigEndian: Bool) throws {
        let image = distinct()
        var writer = TestTIFFWriter(image)
        writer.bigEndian = bigEndian
        let data = writer.encode()
        #expect(ImageFormat(sniffing: data) == .tiff)
        let decoded = try ImageDecoder.decode(data)
        #expect(decoded.format == .tiff && !decoded.declaresAlpha)
        #expect(decoded.image == image)
    }

    /// Unassociated alpha (what Pillow, GIMP and ImageMagick write): colour and alpha as
    /// stored, even under nearly transparent pixels, where libtiff's own premultiplied
    /// reading would have rounded the colour away.
    @Test func unassociatedAlphaKeepsEveryColourExactly() throws {
        let image = distinct(alpha: true)
        let decoded = try ImageDecoder.decode(TestTIFFWriter(image, alpha: .unassociatedAlpha).encode())
        #expect(decoded.declaresAlpha)
        #expect(decoded.image == image)
    }

    /// Associated alpha stores colour premultiplied; it comes out divided back.
    @Test func associatedAlphaIsUnpremultiplied() throws {
        let straight: [UInt8] = [200, 100, 50, 128, 90, 180, 240, 255, 0, 0, 0, 0]
        var premultiplied = straight
        for pixel in 0..<3 {
            let alpha = Int(straight[pixel * 4 + 3])
            for c in 0..<3 { premultiplied[pixel * 4 + c] = UInt8((Int(straight[pixel * 4 + c]) * alpha + 127) / 255) }
        }
        let stored = RGBAImage(width: 3, height: 1, pixels: premultiplied)
        let decoded = try ImageDecoder.decode(TestTIFFWriter(stored, alpha: .associatedAlpha).encode()).image
        #expect(decoded.pixels[3] == 128 && decoded.pixels[7] == 255 && decoded.pixels[11] == 0)
        for index in [0, 1, 2, 4, 5, 6] {
            #expect(abs(Int(decoded.pixels[index]) - Int(straight[index])) <= 1, "sample \(index): \(decoded.pixels[index])")
        }
    }

    @Test func greyPaletteAndSixteenBitSamplesDecode() throws {
        let grey = TestTIFFWriter(width: 4, height: 1, photometric: .minIsBlack, samples: [0, 60, 200, 255])
        #expect(try ImageDecoder.decode(grey.encode()).image.pixels
                == [0, 0, 0, 255, 60, 60, 60, 255, 200, 200, 200, 255, 255, 255, 255, 255])

        var palette = TestTIFFWriter(width: 3, height: 1, photometric: .palette, samples: [2, 0, 1])
        let colors: [(UInt16, UInt16, UInt16)] = [(200 * 257, 10 * 257, 30 * 257), (0, 255 * 257, 0), (20 * 257, 40 * 257, 60 * 257)]
        palette.palette = colors + Array(repeating: (0, 0, 0), count: 253)
        #expect(try ImageDecoder.decode(palette.encode()).image.pixels == [20, 40, 60, 255, 200, 10, 30, 255, 0, 255, 0, 255])

        // 16-bit RGB: the nearest 8-bit value of each sample.
        let wide = TestTIFFWriter(width: 2, height: 1, photometric: .rgb, bitsPerSample: 16,
                                  samples: [0, 32_896, 65_535, 257 * 100, 257 * 100 + 120, 1000])
        let decoded = try ImageDecoder.decode(wide.encode())
        #expect(decoded.image.pixels == [0, 128, 255, 255, 100, 100, 4, 255])
    }

    /// Each TIFF Orientation comes back upright, exactly (the tag means what EXIF's does).
    /// 11 x 9: the pixels are moved in blocks of 4 x 4, with rows and columns left over.
    @Test(arguments: 1...8)
    func orientationIsApplied(orientation: Int) throws {
        let upright = distinct(width: 11, height: 9)
        var writer = TestTIFFWriter(ExifOrientation.stored(upright, orientation: orientation))
        writer.orientation = UInt16(orientation)
        let decoded = try ImageDecoder.decode(writer.encode())
        #expect(decoded.image == upright)
        // The source size is the upright one, as for a JPEG: the manifest's crop and scale
        // and `--mask` refer to it.
        #expect(decoded.sourceWidth == upright.width && decoded.sourceHeight == upright.height && decoded.scale == 1)
        let ignored = try ImageDecoder.decode(writer.encode(), options: DecodeOptions(appliesOrientation: false))
        #expect(ignored.image == ExifOrientation.stored(upright, orientation: orientation))
    }

    /// Grey with alpha, 8 and 16 bits: what a transparent scan or mask is saved as. libtiff's
    /// own reading drops the alpha of the 16-bit kind.
    @Test func greyWithAlphaKeepsItsAlpha() throws {
        let eight = TestTIFFWriter(width: 2, height: 1, photometric: .minIsBlack, samples: [100, 50, 200, 255],
                                   extraSample: .unassociatedAlpha)
        let sixteen = TestTIFFWriter(width: 2, height: 1, photometric: .minIsBlack, bitsPerSample: 16,
                                     samples: [257 * 100, 257 * 50, 257 * 200 + 100, 65_535], extraSample: .unassociatedAlpha)
        for writer in [eight, sixteen] {
            let decoded = try ImageDecoder.decode(writer.encode())
            #expect(decoded.declaresAlpha)
            #expect(decoded.image.pixels == [100, 100, 100, 50, 200, 200, 200, 255])
        }
    }

    @Test func floatingPointSamplesAreRefusedWithTheReason() throws {
        var writer = TestTIFFWriter(width: 2, height: 2, photometric: .minIsBlack, bitsPerSample: 32, samples: [0, 64, 128, 255])
        writer.floatingPoint = true
        #expect(throws: CodecError.unsupported(reason: "TIFF: can not handle images with 32-bit samples")) {
            try ImageDecoder.decode(writer.encode())
        }
    }

    @Test func aHeaderOverThePixelBudgetIsRefusedBeforeDecoding() throws {
        // 100,000 x 100,000 pixels declared, a few bytes of data.
        let writer = TestTIFFWriter(width: 100_000, height: 100_000, photometric: .minIsBlack, samples: [1, 2, 3])
        #expect(throws: CodecError.tooManyPixels(width: 100_000, height: 100_000, limit: DecodeOptions.defaultMaxPixels)) {
            try ImageDecoder.decode(writer.encode())
        }
    }

    @Test func truncatedAndDamagedFilesAreCorruptNotACrash() throws {
        let data = TestTIFFWriter(distinct(width: 40, height: 30)).encode()
        for damaged in [data.prefix(6), data.prefix(20), data.prefix(data.count - 30), data.prefix(4) + Data(repeating: 0xFF, count: 200)] {
            #expect {
                try ImageDecoder.decode(Data(damaged))
            } throws: { error in
                guard case .corrupt(let reason) = error as? CodecError else { return false }
                return !reason.isEmpty
            }
        }
    }
}
