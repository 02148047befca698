import Foundation
import StickerKit
import Testing
import TestSupport

/// Palette extraction on images with known colour areas.
@Suite struct ColorExtractorTests {
    private func twoColorImage(width: Int = 100, height: Int = 100, split: Int = 70,
                               first: [UInt8] = [220, 40, 40], second: [UInt8] = [30, 60, 200]) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let color = x < split * width / 100 ? first : second
                for c in 0..<3 { pixels[(y * width + x) * 4 + c] = color[c] }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test func twoColoursAreFoundWithTheirShares() {
        let scheme = ColorExtractor(count: 5).extract(from: twoColorImage())
        #expect(scheme.palette.count == 2, "identical clusters merge: \(scheme.palette)")
        #expect(scheme.palette[0].hex == "#dc2828")
        #expect(scheme.palette[1].hex == "#1e3cc8")
        #expect(abs(scheme.palette[0].share - 0.7) < 0.02)
        #expect(abs(scheme.palette[1].share - 0.3) < 0.02)
        #expect(Set(scheme.gradient.map(\.hex)) == ["#dc2828", "#1e3cc8"])
    }

    @Test func transparentPixelsAreIgnored() {
        var image = twoColorImage()
        for y in 0..<100 {
            for x in 0..<70 { image.pixels[(y * 100 + x) * 4 + 3] = 0 }
        }
        let scheme = ColorExtractor().extract(from: image)
        #expect(scheme.palette.map(\.hex) == ["#1e3cc8"])
        #expect(abs(scheme.palette[0].share - 1) < 1e-6)
    }

    @Test func sameInputGivesTheSamePalette() {
        let image = Scene(width: 200, height: 150, background: .texture([120, 160, 90], amplitude: 40),
                          shapes: [(.disc(x: 100, y: 75, radius: 40), [200, 60, 60])]).render().image
        #expect(ColorExtractor().extract(from: image) == ColorExtractor().extract(from: image))
    }

    @Test func labRoundTripsAndCIEDE2000MatchesPublishedPairs() {
        let lab = LabColor(red: 200, green: 120, blue: 40)
        let rgb = lab.rgb
        #expect(rgb.red == 200 && rgb.green == 120 && rgb.blue == 40)
        // Sharma, Wu, Dalal (2005), test data pairs 1 and 17.
        #expect(abs(LabColor(l: 50, a: 2.6772, b: -79.7751).difference(to: LabColor(l: 50, a: 0, b: -82.7485)) - 2.0425) < 1e-3)
        #expect(abs(LabColor(l: 50, a: 2.5, b: 0).difference(to: LabColor(l: 73, a: 25, b: -18)) - 27.1492) < 1e-3)
    }
}
