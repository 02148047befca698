@testable import StickerKit
import Testing

/// `RGBAImage.hasTransparency` finds one non-opaque pixel wherever it sits: in the
/// eight-pixel blocks, in the tail after them, or nowhere.
@Suite struct RGBAImageTests {
    @Test(arguments: [1, 7, 8, 9, 23, 64, 67])
    func oneTranslucentPixelAnywhereIsFound(pixelCount: Int) {
        let opaque = RGBAImage(width: pixelCount, height: 1,
                               pixels: (0..<pixelCount).flatMap { [UInt8($0 % 256), 0, 255, 255] })
        #expect(!opaque.hasTransparency)
        for pixel in 0..<pixelCount {
            var image = opaque
            image.pixels[pixel * 4 + 3] = 254
            #expect(image.hasTransparency, "pixel \(pixel) of \(pixelCount)")
        }
    }

    @Test func colourBytesOf255DoNotCountAsAlpha() {
        let image = RGBAImage(width: 9, height: 1, pixels: [UInt8](repeating: 255, count: 36))
        #expect(!image.hasTransparency)
        var cleared = image
        for channel in 0..<3 { cleared.pixels[4 * 8 + channel] = 0 }
        #expect(!cleared.hasTransparency)
    }
}
