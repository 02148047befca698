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

    /// Samples of a 37x23 image: every third row a gradient (ties in Paeth's predictor),
    /// the others pseudo-random bytes.
    private func varied(_ type: TestPNGWriter.ColorType) -> [Int] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<(37 * 23 * type.channels)).map { index in
            let pixel = index / type.channels
            if (pixel / 37) % 3 == 0 { return (pixel % 37 * 7 + index % type.channels * 40) % 256 }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 56)
        }
    }

    /// 8-bit RGB and RGBA are read by the fast reader (libdeflate and our own unfiltering):
    /// every filter type, alone and mixed row by row, over image data split across chunks.
    @Test(arguments: [TestPNGWriter.ColorType.rgb, .rgba], [[UInt8(0)], [1], [2], [3], [4], [4, 0, 1, 2, 3, 4, 3, 2, 1]])
    func everyRowFilterIsUndone(type: TestPNGWriter.ColorType, filters: [UInt8]) throws {
        let values = varied(type)
        var writer = TestPNGWriter(width: 37, height: 23, colorType: type, bitDepth: 8, samples: values)
        writer.filters = filters
        writer.chunkSize = 97
        let decoded = try ImageDecoder.decode(writer.encode())
        #expect(decoded.image.width == 37 && decoded.image.height == 23)
        let expected = (0..<(37 * 23)).flatMap { pixel -> [UInt8] in
            let samples = values[(pixel * type.channels)..<((pixel + 1) * type.channels)].map { UInt8($0) }
            return type == .rgb ? samples + [255] : samples
        }
        #expect(decoded.image.pixels == expected)
    }

    /// The image data must be one run of IDAT chunks, each with its CRC, inflating to exactly
    /// the rows the header declares, each of a defined filter type, and be followed by IEND.
    @Test func malformedImageDataIsAClearError() throws {
        var writer = TestPNGWriter(width: 37, height: 23, colorType: .rgb, bitDepth: 8, samples: varied(.rgb))
        writer.chunkSize = 700
        let png = writer.encode()
        #expect(try ImageDecoder.decode(png).image.width == 37)
        func message(_ data: Data) -> String? {
            (#expect(throws: CodecError.self) { try ImageDecoder.decode(data) })?.description
        }
        let split = HostileFiles.png(png) { chunks in
            var chunks = chunks
            chunks.insert((type: "tEXt", payload: Data("Comment\u{0}between".utf8)), at: 2)
            return chunks
        }
        #expect(message(split)?.contains("goes on past the 37x23 pixels") == true)
        let trailing = HostileFiles.png(png) { chunks in
            var chunks = chunks
            let last = chunks.lastIndex { $0.type == "IDAT" }!
            chunks[last].payload.append(contentsOf: [1, 2, 3])
            return chunks
        }
        #expect(message(trailing)?.contains("goes on past the 37x23 pixels") == true)
        let cut = HostileFiles.png(png) { chunks in
            var chunks = chunks
            chunks.remove(at: chunks.lastIndex { $0.type == "IDAT" }!)
            return chunks
        }
        #expect(message(cut)?.hasPrefix("corrupt image") == true)
        let critical = HostileFiles.png(png) { chunks in
            var chunks = chunks
            chunks.insert((type: "XYZW", payload: Data([1])), at: chunks.count - 1)
            return chunks
        }
        #expect(message(critical)?.contains("XYZW: critical chunk after the image data") == true)
        let unnamed = HostileFiles.png(png) { chunks in
            var chunks = chunks
            chunks.insert((type: "a\u{0}\nb", payload: Data([1])), at: chunks.count - 1)
            return chunks
        }
        #expect(message(unnamed)?.contains("invalid chunk type") == true)
        let noEnd = HostileFiles.png(png) { chunks in chunks.filter { $0.type != "IEND" } }
        #expect(message(noEnd)?.contains("file is truncated") == true)
        var badFilter = writer
        badFilter.filters = [0, 5]
        #expect(message(badFilter.encode())?.contains("bad adaptive filter value") == true)
        var badCRC = png
        badCRC[8 + 25 + 8 + 100] ^= 0x10   // inside the first IDAT's payload
        #expect(message(badCRC)?.contains("IDAT: CRC error") == true)
    }
}
