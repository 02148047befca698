import CImageCodecs
import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// JPEG decoding: colour kinds, progressive, shrink-on-load, EXIF orientation and regions.
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

    /// Smooth colour that changes in every direction, with a fine grid of dots: any pixel
    /// moved, mirrored or taken from the wrong row shows.
    private func texture(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let dot: Int = (x % 7 == 3 && y % 5 == 2) ? 90 : 0
                pixels[(y * width + x) * 4] = UInt8((x * 255 / width + dot) % 256)
                pixels[(y * width + x) * 4 + 1] = UInt8((y * 255 / height) % 256)
                pixels[(y * width + x) * 4 + 2] = UInt8(((x + 2 * y) % 200 + dot / 2) % 256)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    private func crop(_ image: RGBAImage, _ rect: PixelRect) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in rect.y..<(rect.y + rect.height) {
            pixels += image.pixels[((y * image.width + rect.x) * 4)..<((y * image.width + rect.x + rect.width) * 4)]
        }
        return RGBAImage(width: rect.width, height: rect.height, pixels: pixels)
    }

    /// A region, under every orientation and scale, baseline or progressive, in colour, grey
    /// or CMYK, is the same pixels as that rectangle of the whole decode (rows skipped above
    /// it, columns cropped at iMCU boundaries and rows below never read change nothing inside).
    @Test(arguments: 1...8)
    func aRegionIsThatRectangleOfTheWholeDecode(orientation: Int) throws {
        let stored = ExifOrientation.stored(texture(width: 203, height: 157), orientation: orientation)
        let files = [TestFiles.jpeg(stored, orientation: UInt32(orientation)),
                     TestFiles.jpeg(stored, progressive: true, orientation: UInt32(orientation)),
                     TestFiles.jpeg(stored, color: CIC_JPEG_GRAY, orientation: UInt32(orientation)),
                     TestFiles.jpeg(stored, color: CIC_JPEG_CMYK_ADOBE, orientation: UInt32(orientation))]
        for (data, minimumLongSide) in files.flatMap({ data in [nil, 90].map { (data, $0) } }) {
            let options = DecodeOptions(minimumLongSide: minimumLongSide)
            let whole = try ImageDecoder.decode(data, options: options).image
            for rect in [PixelRect(x: 17, y: 23, width: 41, height: 29), PixelRect(x: 0, y: 0, width: 9, height: 70),
                         PixelRect(x: whole.width - 30, y: whole.height - 11, width: 30, height: 11),
                         PixelRect(x: 0, y: 0, width: whole.width, height: whole.height)] {
                var asked: (Int, Int)?
                let region = try ImageDecoder.decodeJPEG(data, options: options) { width, height in
                    asked = (width, height)
                    return rect
                }
                #expect(asked.map { $0 == (whole.width, whole.height) } == true)
                #expect(region.region == rect && region.decodedWidth == whole.width && region.decodedHeight == whole.height)
                let expected = crop(whole, rect)
                #expect(region.image.width == rect.width && region.image.height == rect.height)
                // Chroma upsampled without the rows or columns beyond the region may differ
                // by a few levels along its edge; everything inside is the same.
                var edge = 0, inside = 0
                for y in 0..<rect.height {
                    for x in 0..<rect.width {
                        let i = (y * rect.width + x) * 4
                        let difference = (0..<3).map { abs(Int(region.image.pixels[i + $0]) - Int(expected.pixels[i + $0])) }.max()!
                        if x < 1 || y < 1 || x >= rect.width - 1 || y >= rect.height - 1 {
                            edge = max(edge, difference)
                        } else {
                            inside = max(inside, difference)
                        }
                    }
                }
                #expect(inside == 0 && edge <= 8, "\(rect) at \(whole.width)x\(whole.height): inside \(inside), edge \(edge)")
            }
        }
    }

    @Test func aRegionOutsideTheImageIsAnError() {
        let data = TestFiles.jpeg(texture(width: 40, height: 30))
        for rect in [PixelRect(x: 30, y: 0, width: 11, height: 5), PixelRect(x: 0, y: 0, width: 0, height: 5),
                     PixelRect(x: 0, y: 30, width: 4, height: 1)] {
            #expect(throws: CodecError.self) { try ImageDecoder.decodeJPEG(data, options: DecodeOptions()) { _, _ in rect } }
        }
    }
}
