import CImageCodecs
import Foundation
import StickerKit
import Testing
import TestSupport

/// Photos tagged with an ICC profile other than sRGB (a phone's Display P3) decode to sRGB;
/// sRGB-tagged and untagged ones decode to the bytes as stored.
@Suite struct ColorProfileTests {
    /// Bands of saturated and muted colours, each band flat so JPEG keeps it nearly exact.
    private static let colors: [[UInt8]] = [[200, 100, 50], [40, 160, 90], [60, 80, 220], [250, 20, 30], [128, 128, 128],
                                            [230, 220, 40], [10, 10, 10], [250, 250, 250]]

    private func bands(width: Int = 64, band: Int = 8, alpha: UInt8 = 255) -> RGBAImage {
        var pixels: [UInt8] = []
        for color in Self.colors {
            for _ in 0..<(width * band) { pixels += color + [alpha] }
        }
        return RGBAImage(width: width, height: band * Self.colors.count, pixels: pixels)
    }

    /// The pixel at the centre of each of `count` horizontal bands `band` rows high: its
    /// first `channels` samples.
    private func centres(_ image: RGBAImage, count: Int, band: Int = 8, channels: Int = 3) -> [[Int]] {
        (0..<count).map { index in
            let offset = ((index * band + band / 2) * image.width + image.width / 2) * 4
            return (0..<channels).map { Int(image.pixels[offset + $0]) }
        }
    }

    /// The pixel at the centre of each band of `colors`.
    private func bandCentres(_ image: RGBAImage, band: Int = 8) -> [SIMD3<Double>] {
        centres(image, count: Self.colors.count, band: band).map { SIMD3($0.map(Double.init)) }
    }

    private func png(_ image: RGBAImage, profile: [UInt8]?) -> Data {
        var writer = TestPNGWriter(width: image.width, height: image.height, colorType: .rgba, bitDepth: 8,
                                   samples: image.pixels.map(Int.init))
        writer.iccProfile = profile
        return writer.encode()
    }

    private func largestDifference(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> Double {
        zip(a, b).map { pair in
            let difference = pair.0 - pair.1
            return max(abs(difference.x), abs(difference.y), abs(difference.z))
        }.max() ?? .infinity
    }

    @Test func aDisplayP3PNGDecodesToSRGB() throws {
        let source = bands(alpha: 200)
        let decoded = try ImageDecoder.decode(png(source, profile: ICCProfile.displayP3)).image
        let expected = bandCentres(source).map(ICCProfile.displayP3ToSRGB)
        #expect(largestDifference(bandCentres(decoded), expected) <= 2, "\(bandCentres(decoded)) vs \(expected)")
        // Alpha is untouched, and the colours did move (a P3 orange is redder in sRGB).
        #expect(stride(from: 3, to: decoded.pixels.count, by: 4).allSatisfy { decoded.pixels[$0] == 200 })
        #expect(bandCentres(decoded)[0].x >= 212)
    }

    @Test func aDisplayP3JPEGDecodesToSRGBAtEveryShrink() throws {
        let source = bands()
        let tagged = TestFiles.jpeg(source, quality: 98, iccProfile: ICCProfile.displayP3)
        let untagged = TestFiles.jpeg(source, quality: 98)
        for side in [0, 32] {   // full size, and shrunk on load to half
            let options = DecodeOptions(minimumLongSide: side == 0 ? nil : side)
            let stored = try ImageDecoder.decode(untagged, options: options).image
            let converted = try ImageDecoder.decode(tagged, options: options).image
            let expected = bandCentres(stored, band: stored.height / Self.colors.count).map(ICCProfile.displayP3ToSRGB)
            let found = bandCentres(converted, band: converted.height / Self.colors.count)
            #expect(largestDifference(found, expected) <= 2, "\(found) vs \(expected)")
        }
    }

    @Test func aDisplayP3WebPDecodesToSRGB() throws {
        let source = bands()
        let decoded = try ImageDecoder.decode(TestWebPContainer.tagged(source, iccProfile: ICCProfile.displayP3))
        #expect(decoded.format == .webp)
        let expected = bandCentres(source).map(ICCProfile.displayP3ToSRGB)
        #expect(largestDifference(bandCentres(decoded.image), expected) <= 2, "\(bandCentres(decoded.image)) vs \(expected)")
    }

    /// A print-ready CMYK JPEG (Adobe's inverted inks) with its press profile embedded:
    /// ghostscript's default CMYK profile, a SWOP-like press that Scripts/bootstrap --test
    /// installs. Through it, the process inks come out as the sRGB colours printers
    /// publish for them (cyan #00AEEF, magenta #EC008C, yellow #FFF200) and paper white
    /// stays white; without it they are the naive pure colours.
    @Test func aCMYKJPEGWithItsPressProfileDecodesToTheInksColours() throws {
        let profile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc")))
        // Each RGB here is written as the inks 255 - R, 255 - G, 255 - B, no black.
        let inks: [[UInt8]] = [[0, 255, 255], [255, 0, 255], [255, 255, 0], [255, 255, 255]]
        var pixels: [UInt8] = []
        for ink in inks {
            for _ in 0..<(32 * 8) { pixels += ink + [255] }
        }
        let image = RGBAImage(width: 32, height: 8 * inks.count, pixels: pixels)
        let managed = try ImageDecoder.decode(TestFiles.jpeg(image, quality: 100, color: CIC_JPEG_CMYK_ADOBE, iccProfile: profile))
        let published = [[0, 174, 239], [236, 0, 140], [255, 242, 0], [255, 255, 255]]
        for (found, expected) in zip(centres(managed.image, count: inks.count), published) {
            #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 4 }, "\(found) vs \(expected)")
        }
        let naive = try ImageDecoder.decode(TestFiles.jpeg(image, quality: 100, color: CIC_JPEG_CMYK_ADOBE))
        #expect(centres(naive.image, count: inks.count).elementsEqual(inks.map { $0.map(Int.init) }) { zip($0, $1).allSatisfy { abs($0 - $1) <= 2 } })
    }

    /// A print-ready CMYK TIFF (inks stored as they are, 0 = none) with the same press
    /// profile: the inks through it, as for the JPEG above.
    @Test func aCMYKTIFFWithItsPressProfileDecodesToTheInksColours() throws {
        let inks: [[Int]] = [[255, 0, 0, 0], [0, 255, 0, 0], [0, 0, 255, 0], [0, 0, 0, 0]]
        var writer = TestTIFFWriter(width: 8, height: 8 * inks.count, photometric: .separated,
                                    samples: inks.flatMap { ink in Array([[Int]](repeating: ink, count: 64).joined()) })
        writer.iccProfile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc")))
        let published = [[0, 174, 239, 255], [236, 0, 140, 255], [255, 242, 0, 255], [255, 255, 255, 255]]
        for (found, expected) in zip(centres(try ImageDecoder.decode(writer.encode()).image, count: inks.count, channels: 4),
                                     published) {
            #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 4 }, "\(found) vs \(expected)")
        }
        writer.iccProfile = nil
        let naive = [[0, 255, 255, 255], [255, 0, 255, 255], [255, 255, 0, 255], [255, 255, 255, 255]]
        #expect(centres(try ImageDecoder.decode(writer.encode()).image, count: inks.count, channels: 4) == naive)
    }

    /// Grey levels from black to white, for grey inputs.
    private static let greyLevels = [0, 8, 24, 64, 128, 192, 255]

    /// A grey image of `greyLevels` in bands of 8 rows, 8 pixels wide: its samples.
    private var greySamples: [Int] { Self.greyLevels.flatMap { [Int](repeating: $0, count: 64) } }

    /// The centre of each band of a decoded grey image, all three channels.
    private func greyCentres(_ image: RGBAImage) -> [[Int]] { centres(image, count: Self.greyLevels.count) }

    /// Whether every band centre is grey and within `tolerance` of `levels`.
    private func matches(_ centres: [[Int]], _ levels: [Double], tolerance: Double) -> Bool {
        zip(centres, levels).allSatisfy { centre, level in centre.allSatisfy { abs(Double($0) - level) <= tolerance } }
    }

    /// A grey photo tagged with a grey profile (photo editors embed "Gray Gamma 2.2" or
    /// "Dot Gain 20%" in grey JPEGs, PNGs and TIFFs) decodes through it: with a linear
    /// curve, mid grey is sRGB's 188; with gamma 2.2, the dark levels darken.
    @Test(arguments: [1.0, 2.2]) func aGreyPhotoDecodesThroughItsGreyProfile(gamma: Double) throws {
        let profile = ICCProfile.grey(gamma: gamma)
        let expected = Self.greyLevels.map { ICCProfile.greyToSRGB(Double($0), gamma: gamma) }
        var png = TestPNGWriter(width: 8, height: 8 * Self.greyLevels.count, colorType: .grey, bitDepth: 8, samples: greySamples)
        png.iccProfile = profile
        let fromPNG = greyCentres(try ImageDecoder.decode(png.encode()).image)
        #expect(matches(fromPNG, expected, tolerance: 1), "\(fromPNG) vs \(expected)")
        var tiff = TestTIFFWriter(width: 8, height: 8 * Self.greyLevels.count, photometric: .minIsBlack, samples: greySamples)
        tiff.iccProfile = profile
        let fromTIFF = greyCentres(try ImageDecoder.decode(tiff.encode()).image)
        #expect(matches(fromTIFF, expected, tolerance: 1), "\(fromTIFF) vs \(expected)")
        let image = RGBAImage(width: 8, height: 8 * Self.greyLevels.count,
                              pixels: greySamples.flatMap { [UInt8($0), UInt8($0), UInt8($0), 255] })
        let jpeg = TestFiles.jpeg(image, quality: 100, color: CIC_JPEG_GRAY, iccProfile: profile)
        let fromJPEG = greyCentres(try ImageDecoder.decode(jpeg).image)
        #expect(matches(fromJPEG, expected, tolerance: 2), "\(fromJPEG) vs \(expected)")
        // The same files untagged keep their levels.
        png.iccProfile = nil
        #expect(matches(greyCentres(try ImageDecoder.decode(png.encode()).image), Self.greyLevels.map(Double.init), tolerance: 0))
    }

    /// A grey profile with sRGB's own curve (ghostscript's default grey) changes no byte, and a
    /// profile whose colour space is not the image's (a grey profile on a colour PNG) is
    /// ignored, as libpng and browsers ignore it.
    @Test func anSRGBGreyProfileOrAMismatchedOneKeepsTheBytes() throws {
        var png = TestPNGWriter(width: 8, height: 8 * Self.greyLevels.count, colorType: .grey, bitDepth: 8, samples: greySamples)
        png.iccProfile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_gray.icc")))
        #expect(matches(greyCentres(try ImageDecoder.decode(png.encode()).image), Self.greyLevels.map(Double.init), tolerance: 0))
        let source = bands(alpha: 180)
        #expect(try ImageDecoder.decode(self.png(source, profile: ICCProfile.grey(gamma: 1))).image.pixels == source.pixels)
    }

    /// A PNG with no profile that states its colours by PNG's own chunks: gAMA (the exponent
    /// its samples were encoded with) and cHRM (its primaries), as browsers apply them. A
    /// linear file's mid grey is sRGB's 188; gAMA 1/2.2 is sRGB's curve, so with sRGB's
    /// primaries (or none) nothing changes, and with Display P3's the colours are P3's; an
    /// sRGB chunk says the pixels are sRGB whatever gAMA says.
    @Test func aPNGsGammaAndChromaticitiesAreApplied() throws {
        let height = 8 * Self.greyLevels.count
        func rgb(gamma: UInt32?, chromaticities: [UInt32]? = nil, srgb: Bool = false) throws -> [[Int]] {
            var writer = TestPNGWriter(width: 8, height: height, colorType: .rgb, bitDepth: 8,
                                       samples: greySamples.flatMap { [$0, $0, $0] })
            writer.gamma = gamma
            writer.chromaticities = chromaticities
            writer.srgbIntent = srgb ? 0 : nil
            return greyCentres(try ImageDecoder.decode(writer.encode()).image)
        }
        let levels = Self.greyLevels.map(Double.init)
        for (value, exponent) in [(UInt32(100_000), 1.0), (55_556, 1.8)] {
            let expected = Self.greyLevels.map { ICCProfile.greyToSRGB(Double($0), gamma: exponent) }
            let found = try rgb(gamma: value)
            #expect(matches(found, expected, tolerance: 1), "gAMA \(value): \(found) vs \(expected)")
            var grey = TestPNGWriter(width: 8, height: height, colorType: .grey, bitDepth: 8, samples: greySamples)
            grey.gamma = value
            let fromGrey = greyCentres(try ImageDecoder.decode(grey.encode()).image)
            #expect(matches(fromGrey, expected, tolerance: 1), "grey gAMA \(value): \(fromGrey) vs \(expected)")
        }
        let srgbPrimaries: [UInt32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]
        #expect(matches(try rgb(gamma: 45455), levels, tolerance: 0))
        #expect(matches(try rgb(gamma: 45455, chromaticities: srgbPrimaries), levels, tolerance: 0))
        #expect(matches(try rgb(gamma: 100_000, srgb: true), levels, tolerance: 0))

        var p3 = TestPNGWriter(width: 64, height: 8 * Self.colors.count, colorType: .rgba, bitDepth: 8,
                               samples: bands().pixels.map(Int.init))
        p3.gamma = 45455
        p3.chromaticities = [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000]
        let expected = bandCentres(bands()).map(ICCProfile.displayP3ToSRGB)
        let found = bandCentres(try ImageDecoder.decode(p3.encode()).image)
        #expect(largestDifference(found, expected) <= 2, "\(found) vs \(expected)")
    }

    /// A scanner's or photo editor's TIFF, tagged (ICCProfile, tag 34675) and with
    /// unassociated alpha, whose colours the profile moves and whose alpha it does not.
    @Test func aDisplayP3TIFFDecodesToSRGB() throws {
        let source = bands(alpha: 180)
        var writer = TestTIFFWriter(source, alpha: .unassociatedAlpha)
        writer.iccProfile = ICCProfile.displayP3
        let decoded = try ImageDecoder.decode(writer.encode())
        #expect(decoded.format == .tiff)
        let expected = bandCentres(source).map(ICCProfile.displayP3ToSRGB)
        #expect(largestDifference(bandCentres(decoded.image), expected) <= 2, "\(bandCentres(decoded.image)) vs \(expected)")
        #expect(stride(from: 3, to: decoded.image.pixels.count, by: 4).allSatisfy { decoded.image.pixels[$0] == 180 })
    }

    /// `png` encoded by libheif's own `heif-enc` with `arguments`, its nclx box's primaries
    /// and transfer code points then set to `codePoints` if given (heif-enc 1.15 writes 2,
    /// unspecified, whatever it is asked), decoded.
    private func heifEncoded(_ png: Data, _ arguments: [String], codePoints: (UInt8, UInt8)? = nil) throws -> RGBAImage {
        var file = [UInt8](try ExternalEncoder.heif(png, options: arguments + ["-L"]))
        if let (primaries, transfer) = codePoints {
            // 'colr' 'nclx', then primaries, transfer and matrix as 16-bit code points.
            let box = try #require(Array(0..<(file.count - 12)).first { file[$0..<($0 + 8)].elementsEqual("colrnclx".utf8) })
            file.replaceSubrange((box + 8)..<(box + 12), with: [0, primaries, 0, transfer])
        }
        return try ImageDecoder.decode(Data(file)).image
    }

    @Test func aDisplayP3HEICDecodesToSRGB() throws {
        let source = bands()
        // heif-enc carries the PNG's ICC profile into the file ('prof').
        let decoded = try heifEncoded(png(source, profile: ICCProfile.displayP3), [])
        let expected = bandCentres(source).map(ICCProfile.displayP3ToSRGB)
        #expect(largestDifference(bandCentres(decoded), expected) <= 3, "\(bandCentres(decoded)) vs \(expected)")
    }

    @Test func anAVIFNamingDisplayP3ByCodePointsDecodesToSRGB() throws {
        let source = bands()
        // An nclx box: P3 primaries (H.273 code 12), sRGB's transfer (13).
        let p3 = try heifEncoded(png(source, profile: nil), ["-A"], codePoints: (12, 13))
        let expected = bandCentres(source).map(ICCProfile.displayP3ToSRGB)
        #expect(largestDifference(bandCentres(p3), expected) <= 3, "\(bandCentres(p3)) vs \(expected)")
        // BT.709 primaries with sRGB's transfer are sRGB: the colours stay.
        let srgb = try heifEncoded(png(source, profile: nil), ["-A"], codePoints: (1, 13))
        #expect(largestDifference(bandCentres(srgb), bandCentres(source)) <= 3, "\(bandCentres(srgb))")
    }

    @Test func sRGBTaggedAndUntaggedInputsKeepTheirBytes() throws {
        let source = bands(alpha: 180)
        #expect(try ImageDecoder.decode(png(source, profile: ICCProfile.sRGB)).image.pixels == source.pixels)
        #expect(try ImageDecoder.decode(png(source, profile: nil)).image.pixels == source.pixels)
        let untagged = try ImageDecoder.decode(TestFiles.jpeg(source)).image
        #expect(try ImageDecoder.decode(TestFiles.jpeg(source, iccProfile: ICCProfile.sRGB)).image.pixels == untagged.pixels)
    }

    @Test func aDamagedProfileIsIgnored() throws {
        let source = bands()
        var damaged = ICCProfile.displayP3
        damaged.replaceSubrange(36..<40, with: Array("xxxx".utf8))   // the 'acsp' signature
        let untagged = try ImageDecoder.decode(TestFiles.jpeg(source)).image
        #expect(try ImageDecoder.decode(TestFiles.jpeg(source, iccProfile: damaged)).image.pixels == untagged.pixels)
        #expect(try ImageDecoder.decode(TestFiles.jpeg(source, iccProfile: Array(damaged.prefix(60)))).image.pixels
                == untagged.pixels)
        // A gamma of -1000, as the fuzzer found one: the curve is infinite below 1 and the
        // matrix makes NaN of it. The pixels stay as stored rather than index a table by NaN.
        let infinite = ICCProfile.displayP3(toneCurve: [-1000, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        #expect(try ImageDecoder.decode(png(source, profile: infinite)).image.pixels == source.pixels)
    }
}
