import Foundation
import StickerKit
import Testing
import TestSupport

/// PNG decoding of every colour type and bit depth against known pixels.
@Suite struct PNGDecodeTests {
    /// A 5x3 image's samples for a colour type and depth, varied enough to catch packing bugs.
    private func samples(_ type: TestPNGWriter.ColorType, depth: Int, width: Int = 5, height: Int = 3) -> [Int] {
        let maximum = (1 << depth) - 1
        return (0..<(width * height * type.channels)).map { ($0 * 7 + 3) % (maximum + 1) }
    }

    private func scaled(_ value: Int, depth: Int) -> UInt8 {
        UInt8((Double(value) * 255 / Double((1 << depth) - 1)).rounded())
    }

    @Test(arguments: [1, 2, 4, 8, 16])
    func greyAtEveryDepth(depth: Int) throws {
        let values = samples(.grey, depth: depth)
        let png = TestPNGWriter(width: 5, height: 3, colorType: .grey, bitDepth: depth, samples: values).encode()
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.image.width == 5 && decoded.image.height == 3)
        #expect(!decoded.declaresAlpha)
        for (i, value) in values.enumerated() {
            let grey = scaled(value, depth: depth)
            #expect(Array(decoded.image.pixels[(i * 4)..<(i * 4 + 4)]) == [grey, grey, grey, 255])
        }
    }

    @Test(arguments: [(TestPNGWriter.ColorType.rgb, 8), (.rgb, 16), (.rgba, 8), (.rgba, 16), (.greyAlpha, 8), (.greyAlpha, 16)])
    func colourAndAlphaTypes(type: TestPNGWriter.ColorType, depth: Int) throws {
        let values = samples(type, depth: depth)
        let png = TestPNGWriter(width: 5, height: 3, colorType: type, bitDepth: depth, samples: values).encode()
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.declaresAlpha == (type == .rgba || type == .greyAlpha))
        for pixel in 0..<15 {
            let s = Array(values[(pixel * type.channels)..<((pixel + 1) * type.channels)]).map { scaled($0, depth: depth) }
            let expected: [UInt8]
            switch type {
            case .rgb: expected = s + [255]
            case .rgba: expected = s
            case .greyAlpha: expected = [s[0], s[0], s[0], s[1]]
            default: expected = []
            }
            #expect(Array(decoded.image.pixels[(pixel * 4)..<(pixel * 4 + 4)]) == expected)
        }
    }

    @Test(arguments: [1, 2, 4, 8])
    func paletteWithTransparency(depth: Int) throws {
        let entries = min(1 << depth, 4)
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30)].prefix(entries).map { $0 }
        let alphas: [UInt8] = [0, 128, 255, 255].prefix(entries).map { $0 }
        let indices = (0..<15).map { $0 % entries }
        let png = TestPNGWriter(width: 5, height: 3, colorType: .palette, bitDepth: depth, samples: indices,
                                palette: palette, transparency: alphas).encode()
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.declaresAlpha)
        for (i, index) in indices.enumerated() {
            let (r, g, b) = palette[index]
            #expect(Array(decoded.image.pixels[(i * 4)..<(i * 4 + 4)]) == [r, g, b, alphas[index]])
        }
    }

    @Test func greyWithTransparentKey() throws {
        let values = [0, 255, 128, 255, 0, 64]
        let png = TestPNGWriter(width: 3, height: 2, colorType: .grey, bitDepth: 8, samples: values,
                                transparency: [0, 255]).encode()
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.declaresAlpha)
        #expect(decoded.image.pixels[3] == 255 && decoded.image.pixels[7] == 0 && decoded.image.pixels[23] == 255)
    }

    @Test func interlacedMatchesNonInterlaced() throws {
        let values = (0..<(13 * 11 * 3)).map { ($0 * 31) % 256 }
        let plain = TestPNGWriter(width: 13, height: 11, colorType: .rgb, bitDepth: 8, samples: values)
        var interlaced = plain
        interlaced.interlaced = true
        #expect(try ImageDecoder.decode(interlaced.encode()).image == ImageDecoder.decode(plain.encode()).image)
    }

    @Test func encodeRoundTripIsExact() throws {
        let pixels = (0..<(17 * 9 * 4)).map { UInt8(($0 * 13) % 256) }
        let image = RGBAImage(width: 17, height: 9, pixels: pixels)
        for encoder in [PNGEncoder(), PNGEncoder.libpngDefault] {
            #expect(try ImageDecoder.decode(encoder.encode(image)).image == image)
        }
    }
}
