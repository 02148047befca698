import Foundation
import StickerKit
import Testing
import TestSupport

/// JPEG XL input through libjxl: lossless files exactly, lossy ones closely, in sRGB,
/// upright, and damage as a clear error. The files are made by libjxl's own `cjxl` from
/// pictures the tests draw.
@Suite struct JXLDecodeTests {
    /// A disc on a gradient, with alpha from 1 to 255 across it (never 0, so every colour
    /// is visible and must survive exactly).
    private func photo(alpha: Bool = false) -> RGBAImage {
        var image = Scene(width: 96, height: 64, background: .gradient([230, 220, 200], [60, 70, 90]),
                          shapes: [(.disc(x: 48, y: 32, radius: 20), [200, 40, 40])]).render().image
        if alpha {
            for index in 0..<(image.width * image.height) {
                image.pixels[index * 4 + 3] = UInt8(1 + (index % image.width) * 254 / (image.width - 1))
            }
        }
        return image
    }

    @Test func losslessDecodesExactlyWithItsAlpha() throws {
        let source = photo(alpha: true)
        let file = try ExternalEncoder.jxl(TestFiles.png(source), options: ["-d", "0"])
        #expect(ImageFormat(sniffing: file) == .jxl)
        let decoded = try ImageDecoder.decode(file)
        #expect(decoded.format == .jxl && decoded.declaresAlpha && decoded.scale == 1)
        #expect(decoded.image.pixels == source.pixels, "\(decoded.image.width)x\(decoded.image.height)")
    }

    @Test func lossyDecodesCloseToItsSourceInEitherContainer() throws {
        let source = photo()
        for options in [["-d", "1"], ["-d", "1", "--container=1"]] {
            let file = try ExternalEncoder.jxl(TestFiles.png(source), options: options)
            #expect(ImageFormat(sniffing: file) == .jxl)
            let decoded = try ImageDecoder.decode(file)
            let error = TestFiles.meanDifference(decoded.image, source)
            #expect(error < 3, "\(options): mean error \(error)")
        }
    }

    @Test func greyDecodesToEqualChannels() throws {
        let writer = TestPNGWriter(width: 16, height: 4, colorType: .grey, bitDepth: 8, samples: (0..<64).map { $0 * 4 })
        let decoded = try ImageDecoder.decode(try ExternalEncoder.jxl(writer.encode(), options: ["-d", "0"])).image
        #expect((0..<64).allSatisfy { index in (0..<3).allSatisfy { decoded.pixels[index * 4 + $0] == UInt8(index * 4) } })
    }

    /// A phone photo tagged Display P3, kept in P3 by a lossless file (its profile then
    /// converts it) or stored in XYB by a lossy one (libjxl is asked for sRGB): either way
    /// the decoded colours are sRGB's.
    @Test(arguments: [["-d", "0"], ["-d", "0.5"]]) func aDisplayP3PhotoDecodesToSRGB(options: [String]) throws {
        let colors: [[UInt8]] = [[200, 100, 50], [40, 160, 90], [60, 80, 220], [128, 128, 128]]
        let band = 16
        var pixels: [UInt8] = []
        for color in colors { for _ in 0..<(band * band) { pixels += color + [255] } }
        var writer = TestPNGWriter(width: band, height: band * colors.count, colorType: .rgba, bitDepth: 8,
                                   samples: pixels.map(Int.init))
        writer.iccProfile = ICCProfile.displayP3
        let decoded = try ImageDecoder.decode(try ExternalEncoder.jxl(writer.encode(), options: options)).image
        for (index, color) in colors.enumerated() {
            let offset = ((index * band + band / 2) * band + band / 2) * 4
            let expected = ICCProfile.displayP3ToSRGB(SIMD3(color.map(Double.init)))
            let found = SIMD3((0..<3).map { Double(decoded.pixels[offset + $0]) })
            let difference = found - expected
            #expect(max(abs(difference.x), abs(difference.y), abs(difference.z)) <= 3, "\(options): \(found) vs \(expected)")
        }
    }

    /// A turned phone JPEG transcoded losslessly keeps its EXIF orientation in the JPEG XL
    /// header: decoded upright (the source size too), or as stored when asked.
    @Test func orientationIsApplied() throws {
        let upright = photo()
        let jpeg = TestFiles.jpeg(ExifOrientation.stored(upright, orientation: 6), quality: 95, orientation: 6)
        let file = try ExternalEncoder.jxl(jpeg, inputExtension: "jpg", options: [])
        let decoded = try ImageDecoder.decode(file)
        let fromJPEG = try ImageDecoder.decode(jpeg).image
        #expect(decoded.image.width == 96 && decoded.image.height == 64)
        #expect(decoded.sourceWidth == 96 && decoded.sourceHeight == 64 && decoded.scale == 1)
        let error = TestFiles.meanDifference(decoded.image, fromJPEG)
        #expect(error < 2, "mean error \(error)")
        let stored = try ImageDecoder.decode(file, options: DecodeOptions(appliesOrientation: false)).image
        #expect(stored.width == 64 && stored.height == 96)
    }

    /// libjxl is loaded when the first JPEG XL file is met; without it, that file's error
    /// names the package.
    @Test func withoutLibjxlTheErrorNamesThePackage() throws {
        var options = DecodeOptions()
        options.jxlLibrary = "libjxl-not-installed.so.0.7"
        let file = try ExternalEncoder.jxl(TestFiles.png(photo()), options: ["-d", "1"])
        #expect(throws: CodecError.unsupported(reason: "JPEG XL needs libjxl, which is not installed (apt-get install libjxl0.7)")) {
            try ImageDecoder.decode(file, options: options)
        }
    }

    @Test func damageIsACorruptImageAndTheBudgetIsCheckedFirst() throws {
        let file = try ExternalEncoder.jxl(TestFiles.png(photo()), options: ["-d", "1"])
        #expect(throws: CodecError.corrupt(reason: "JPEG XL data is corrupt or truncated")) {
            try ImageDecoder.decode(file.prefix(file.count / 2))
        }
        // The signature, then bytes no encoder writes.
        let garbage = Data([0xFF, 0x0A] + [UInt8](repeating: 0xFF, count: 200))
        #expect(throws: CodecError.corrupt(reason: "JPEG XL data is corrupt or truncated")) { try ImageDecoder.decode(garbage) }
        #expect(throws: CodecError.tooManyPixels(width: 96, height: 64, limit: 1000)) {
            try ImageDecoder.decode(file, options: DecodeOptions(maxPixels: 1000))
        }
    }
}
