import CImageCodecs
import Foundation
import StickerKit
import Testing
import TestSupport

/// JPEG decoding: colour kinds, progressive, shrink-on-load and EXIF orientation.
@Suite struct JPEGDecodeTests {
    /// Four flat quadrants (red, green, blue, white) so orientation is easy to read back.
    private func quadrants(width: Int = 64, height: Int = 48) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let color: [UInt8] = y < height / 2 ? (x < width / 2 ? [220, 30, 30] : [30, 200, 40])
                    : (x < width / 2 ? [30, 40, 210] : [250, 250, 250])
                for c in 0..<3 { pixels[(y * width + x) * 4 + c] = color[c] }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The colour at the centre of each quadrant: top-left, top-right, bottom-left, bottom-right.
    private func corners(_ image: RGBAImage) -> [[Int]] {
        let points = [(1, 1), (3, 1), (1, 3), (3, 3)].map { (image.width * $0.0 / 4, image.height * $0.1 / 4) }
        return points.map { x, y in (0..<3).map { Int(image.pixels[(y * image.width + x) * 4 + $0]) } }
    }

    private func close(_ a: [[Int]], _ b: [[Int]], tolerance: Int = 12) -> Bool {
        zip(a, b).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) <= tolerance } }
    }

    @Test func baselineAndProgressiveDecodeToTheSamePixels() throws {
        let source = quadrants()
        let baseline = try ImageDecoder.decode(TestFiles.jpeg(source))
        let progressive = try ImageDecoder.decode(TestFiles.jpeg(source, progressive: true))
        #expect(baseline.image.width == 64 && baseline.image.height == 48)
        #expect(close(corners(baseline.image), corners(source)))
        #expect(close(corners(progressive.image), corners(source)))
    }

    @Test func greyscaleBecomesEqualChannels() throws {
        let decoded = try ImageDecoder.decode(TestFiles.jpeg(quadrants(), color: CIC_JPEG_GRAY))
        for pixel in stride(from: 0, to: decoded.image.pixels.count, by: 4) {
            #expect(decoded.image.pixels[pixel] == decoded.image.pixels[pixel + 1])
            #expect(decoded.image.pixels[pixel + 1] == decoded.image.pixels[pixel + 2])
        }
    }

    @Test func adobeCMYKIsConvertedToRGB() throws {
        let source = quadrants()
        let decoded = try ImageDecoder.decode(TestFiles.jpeg(source, color: CIC_JPEG_CMYK_ADOBE))
        #expect(close(corners(decoded.image), corners(source)))
    }

    @Test func shrinkOnLoadKeepsTheLongSideAboveTheMinimum() throws {
        let data = TestFiles.jpeg(quadrants(width: 800, height: 600))
        let quarter = try ImageDecoder.decode(data, options: DecodeOptions(minimumLongSide: 200))
        #expect(quarter.image.width == 200 && quarter.image.height == 150)
        #expect(quarter.sourceWidth == 800 && abs(quarter.scale - 0.25) < 1e-9)
        let half = try ImageDecoder.decode(data, options: DecodeOptions(minimumLongSide: 201))
        #expect(half.image.width == 400)
        let full = try ImageDecoder.decode(data, options: DecodeOptions(minimumLongSide: 5000))
        #expect(full.image.width == 800)
    }

    /// Each EXIF orientation must come back upright: stored pixels are the upright image
    /// with the inverse transform applied, exactly as a camera would store them.
    @Test(arguments: 1...8)
    func orientationIsApplied(orientation: Int) throws {
        let upright = quadrants()
        let stored = ExifOrientation.stored(upright, orientation: orientation)
        let decoded = try ImageDecoder.decode(TestFiles.jpeg(stored, orientation: UInt32(orientation)))
        #expect(decoded.image.width == upright.width && decoded.image.height == upright.height)
        #expect(close(corners(decoded.image), corners(upright)))
        let ignored = try ImageDecoder.decode(TestFiles.jpeg(stored, orientation: UInt32(orientation)),
                                              options: DecodeOptions(appliesOrientation: false))
        #expect(ignored.image.width == stored.width)
        // Exactly: the same decoded pixels, each moved to its upright place (stored rows go
        // through in batches; 37 is not a multiple of the batch).
        let odd = ExifOrientation.stored(quadrants(width: 53, height: 37), orientation: orientation)
        let data = TestFiles.jpeg(odd, orientation: UInt32(orientation))
        let plain = try ImageDecoder.decode(data, options: DecodeOptions(appliesOrientation: false)).image
        #expect(try ImageDecoder.decode(data).image == ExifOrientation.upright(plain, orientation: orientation))
    }
}
