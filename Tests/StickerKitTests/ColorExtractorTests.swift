import Foundation
import PaletteBenchmark
import StickerKit
import Testing
import TestSupport

/// Palettes, roles and gradients on images with known colour areas.
@Suite struct ColorExtractorTests {
    /// Vertical bands of flat colours with the given percentages of the width.
    private func bands(_ colors: [([UInt8], Int)], width: Int = 200, height: Int = 100) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for x in 0..<width {
            var edge = 0
            var color = colors[0].0
            for (candidate, percent) in colors {
                edge += percent * width / 100
                color = candidate
                if x < edge { break }
            }
            for y in 0..<height {
                for c in 0..<3 { pixels[(y * width + x) * 4 + c] = color[c] }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test func sharesOfKnownAreasAreRecovered() {
        let palette = ColorExtractor(count: 5).palette(of: bands([([220, 40, 40], 50), ([30, 60, 200], 30), ([240, 230, 60], 20)]))
        #expect(palette.map(\.hex) == ["#dc2828", "#1e3cc8", "#f0e63c"])
        for (color, share) in zip(palette, [0.5, 0.3, 0.2]) { #expect(abs(color.share - share) < 0.02) }
        #expect(palette.first.map { [$0.red, $0.green, $0.blue] } == [220, 40, 40])
    }

    @Test func nearDuplicatesAreMerged() {
        // Two reds about 1.5 CIEDE2000 apart become one colour.
        let palette = ColorExtractor(count: 5).palette(of: bands([([200, 40, 40], 50), ([203, 42, 40], 30), ([20, 20, 20], 20)]))
        #expect(palette.count == 2)
        #expect(abs(palette[0].share - 0.8) < 0.02)
    }

    @Test func transparentPixelsAreIgnored() {
        var image = bands([([220, 40, 40], 70), ([30, 60, 200], 30)])
        for y in 0..<100 {
            for x in 0..<140 { image.pixels[(y * 200 + x) * 4 + 3] = 0 }
        }
        let palette = ColorExtractor().palette(of: image)
        #expect(palette.map(\.hex) == ["#1e3cc8"])
        #expect(abs(palette[0].share - 1) < 1e-6)
    }

    @Test func smoothGradientIsCoveredEvenly() {
        let image = Scene(width: 200, height: 150, background: .gradient([250, 200, 80], [40, 60, 160]), shapes: []).render().image
        let palette = ColorExtractor(count: 5).palette(of: image)
        #expect(palette.count == 5)
        #expect(palette.allSatisfy { $0.share > 0.1 && $0.share < 0.35 })
        let lightness = palette.map { $0.lab.l }
        #expect(lightness.max()! - lightness.min()! > 30, "the palette spans the gradient")
    }

    @Test func rerunsAndResizesAgree() {
        let image = Scene(width: 240, height: 180, background: .texture([120, 160, 90], amplitude: 40),
                          shapes: [(.disc(x: 120, y: 90, radius: 50), [200, 60, 60])]).render().image
        let extractor = ColorExtractor()
        let palette = extractor.palette(of: image)
        #expect(extractor.palette(of: image) == palette)
        let encoder = Manifest.encoder(pretty: false)
        #expect((try? encoder.encode(palette)) == (try? encoder.encode(extractor.palette(of: image))))
        let resized = extractor.palette(of: halfSize(image))
        #expect(PaletteFidelity.matchedDistance(palette.map(\.lab), resized.map(\.lab)) <= 2)
    }

    @Test func fidelityMatchesKMeansAndBeatsMedianCut() {
        var ours = 0.0, kmeans = 0.0, medianCut = 0.0
        for seed in 1...4 {
            var scene = Scene(width: 200, height: 150, background: .gradient([230, 220, 200], [90, 110, 140]),
                              shapes: [(.disc(x: 70, y: 70, radius: 40), [200, 50, 50]),
                                       (.rectangle(x: 120, y: 40, width: 60, height: 80), [40, 150, 70]),
                                       (.bar(x0: 10, y0: 130, x1: 190, y1: 120, thickness: 8), [250, 210, 40])])
            scene.seed = UInt64(seed)
            scene.noise = 6
            let samples = LabSamples(scene.render().image, longSide: 96)
            let palette = ColorExtractor(count: 6).palette(of: samples).map(\.lab)
            ours += PaletteFidelity.meanDistance(samples, palette: palette)
            kmeans += PaletteFidelity.meanDistance(samples, palette: ReferenceKMeans.palette(samples, count: palette.count))
            medianCut += PaletteFidelity.meanDistance(samples, palette: MedianCut.palette(samples, count: palette.count))
        }
        #expect(ours <= kmeans * 1.03)
        #expect(ours <= medianCut * 0.85)
    }

    @Test func rolesFollowAndroidPaletteTargets() {
        let (_, roles) = ColorExtractor().paletteAndRoles(of: bands([([230, 30, 40], 30), ([60, 20, 90], 20),
                                                                     ([150, 140, 130], 30), ([245, 240, 235], 20)]))
        #expect(roles.vibrant?.hex == "#e61e28")
        #expect(roles.vibrant?.text == "#ffffff")
        #expect(roles.darkVibrant?.hex == "#3c145a")
        #expect(roles.muted?.hex == "#968c82")
        #expect(roles.lightMuted?.hex == "#f5f0eb")
        #expect(roles.lightMuted?.text == "#000000")
        #expect(roles.lightVibrant == nil, "nothing light and saturated")
    }

    @Test func whiteProductShotReportsTheProductsColours() async throws {
        let scene = Scene(width: 240, height: 180, background: .plain([250, 250, 250]),
                          shapes: [(.disc(x: 120, y: 90, radius: 40), [30, 90, 200])])
        let photo = try await PhotoProcessor().process(TestFiles.png(scene.render().image))
        #expect(photo.colors.palette[0].lab.l > 95, "the photo is mostly white")
        let product = LabColor(red: 30, green: 90, blue: 200)
        #expect(photo.colors.subject[0].share > 0.6)
        #expect(photo.colors.subject[0].lab.difference(to: product) < 10, "the subject is the blue product")
        #expect(photo.colors.gradient.count == 2)
        for color in photo.colors.gradient {
            #expect(color.lab.difference(to: product) > 15, "the card contrasts with the product")
        }
        #expect(photo.colors.gradient[0].lab.l >= photo.colors.gradient[1].lab.l)
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
