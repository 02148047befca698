import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// Outline, shadow, card, presets and WebP: measured on pixels and bytes.
@Suite struct RenditionTests {
    /// A sticker: an opaque red disc of `radius` centred in a transparent square.
    private func discSticker(radius: Double, size: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        let shape = Scene.Shape.disc(x: Double(size) / 2, y: Double(size) / 2, radius: radius)
        for y in 0..<size {
            for x in 0..<size {
                let coverage = shape.coverage(Double(x) + 0.5, Double(y) + 0.5)
                guard coverage > 0 else { continue }
                pixels.replaceSubrange((y * size + x) * 4..<(y * size + x) * 4 + 4, with: [200, 30, 40, UInt8(coverage * 255)])
            }
        }
        return RGBAImage(width: size, height: size, pixels: pixels)
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 4])
    }

    /// Pixels with alpha >= 128.
    private func solidArea(_ image: RGBAImage) -> Int {
        stride(from: 3, to: image.pixels.count, by: 4).filter { image.pixels[$0] >= 128 }.count
    }

    /// Exact everywhere, or exact nearer than a limit and infinite beyond it; also with
    /// features so sparse that whole columns and rows have none.
    @Test(arguments: [(UInt64(13), Float.infinity), (13, 3.5), (97, .infinity), (97, 2)] as [(UInt64, Float)])
    func distanceTransformIsExact(sparseness: UInt64, limit: Float) {
        var generator = SplitMix64(seed: 7)
        let width = 23, height = 17
        let features = (0..<width * height).map { _ in generator.next() % sparseness == 0 }
        let distances = DistanceTransform.distances(width: width, height: height, within: limit) { features[$0] }
        for index in features.indices {
            let (x, y) = (index % width, index / width)
            var best = Float.infinity
            for other in features.indices where features[other] {
                let dx = Float(other % width - x), dy = Float(other / width - y)
                best = min(best, (dx * dx + dy * dy).squareRoot())
            }
            if best < limit {
                #expect(abs(distances[index] - best) < 1e-4, "at \(x),\(y)")
            } else {
                #expect(distances[index] == .infinity, "at \(x),\(y)")
            }
        }
    }

    @Test func outlineIsEvenAndTheCanvasGrows() {
        let sticker = discSticker(radius: 30, size: 80)
        let outlined = StickerStylist.apply(StickerStyle(outline: 10, outlineColor: [255, 255, 255]), to: sticker)
        #expect(outlined.width == 100 && outlined.height == 100)
        // The solid area is the disc grown by 10 px: radius 40, to within half a pixel.
        let radius = (Double(solidArea(outlined)) / Double.pi).squareRoot()
        #expect(abs(radius - 40) < 0.5, "radius \(radius)")
        // Inside: the sticker untouched; 5 px outside the disc: opaque outline colour; 12 px: clear.
        #expect(pixel(outlined, 50, 50) == [200, 30, 40, 255])
        #expect(pixel(outlined, 50 + 35, 50) == [255, 255, 255, 255])
        #expect(pixel(outlined, 50 + 42, 50)[3] == 0)
        for angle in stride(from: 0.0, to: 2 * Double.pi, by: 0.3) {
            let x = 50 + Int((35 * cos(angle)).rounded()), y = 50 + Int((35 * sin(angle)).rounded())
            #expect(pixel(outlined, x, y) == [255, 255, 255, 255], "at angle \(angle)")
        }
    }

    @Test func shadowFallsBelowAndNeverClips() {
        let sticker = discSticker(radius: 30, size: 80)
        let shadowed = StickerStylist.apply(StickerStyle(shadow: true), to: sticker)
        #expect(shadowed.width > 80 && shadowed.height == shadowed.width)
        let centre = shadowed.width / 2
        let below = pixel(shadowed, centre, centre + 32), above = pixel(shadowed, centre, centre - 32)
        #expect(below[3] > above[3] && below[3] > 20, "below \(below), above \(above)")
        #expect(below[0] < 10 && below[1] < 10 && below[2] < 10)
        // Nothing reaches the canvas edge.
        let edges = (0..<shadowed.width).flatMap { [pixel(shadowed, $0, 0)[3], pixel(shadowed, $0, shadowed.height - 1)[3]] }
        #expect(edges.allSatisfy { $0 == 0 })
        #expect(pixel(shadowed, centre, centre) == [200, 30, 40, 255])
    }

    @Test func cardIsTheStickerOnItsGradient() {
        let sticker = discSticker(radius: 30, size: 80)
        let top = PaletteColor(red: 250, green: 240, blue: 200, share: 0.5)
        let bottom = PaletteColor(red: 20, green: 40, blue: 90, share: 0.5)
        let card = CardRenderer.render(sticker, gradient: [top, bottom])
        #expect(card.width == 128 && card.height == 128)
        #expect(!card.hasTransparency)
        #expect(pixel(card, 0, 0) == [250, 240, 200, 255])
        #expect(pixel(card, 127, 127) == [20, 40, 90, 255])
        #expect(pixel(card, 64, 64) == [200, 30, 40, 255])
    }

    @Test(arguments: [
        (StickerPreset.telegram, 512, 256), (.whatsapp, 512, 512), (.signal, 512, 512), (.imessage(size: 618), 618, 618),
        (.discord, 320, 320),
    ])
    func presetsMeetTheirCanvasAndLimit(preset: StickerPreset, width: Int, height: Int) throws {
        let scene = Scene(width: 300, height: 150, background: .texture([120, 140, 90], amplitude: 60),
                          shapes: [(.disc(x: 150, y: 75, radius: 50), [200, 40, 40])])
        let (data, size) = try PresetRenderer.render(scene.render().image, preset: preset)
        #expect(size.width == width && size.height == height)
        #expect(data.count <= preset.byteLimit)
        let decoded = try ImageDecoder.decode(data)
        #expect(decoded.format == preset.format)
        #expect(decoded.image.width == width && decoded.image.height == height)
        if preset == .whatsapp {
            // The 16 px margin is transparent; the photo-like sticker fills the rest.
            #expect((0..<512).allSatisfy { decoded.image.pixels[($0 * 512 + 15) * 4 + 3] == 0 })
            #expect(decoded.image.pixels[(256 * 512 + 16) * 4 + 3] > 200)
        }
    }

    @Test func anOverLimitStickerIsReducedOrFailsClearly() throws {
        // A grainy photo-like square: its fast PNG is well over Signal's 300 KB.
        var scene = Scene(width: 512, height: 512, background: .texture([120, 140, 90], amplitude: 80),
                          shapes: [(.disc(x: 256, y: 256, radius: 150), [200, 40, 40])])
        scene.noise = 6
        let grainy = scene.render().image
        #expect(try PNGEncoder().encode(grainy).count > StickerPreset.signal.byteLimit)
        let (data, _) = try PresetRenderer.render(grainy, preset: .signal)
        #expect(data.count <= StickerPreset.signal.byteLimit)
        let decoded = try ImageDecoder.decode(data).image
        let error = zip(decoded.pixels, grainy.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(error <= 16, "colour depth reduced too far: max error \(error)")
        #expect(throws: PresetError.self) { try PresetRenderer.render(grainy, preset: .whatsapp, byteLimit: 2000) }
    }

    /// WhatsApp's WebP: lossless when that fits, else the highest lossy quality that fits
    /// (the top one, 95, when it does; else found below it).
    @Test func whatsAppTakesLosslessWhenItFitsElseTheHighestLossyQualityThatFits() throws {
        let flat = discSticker(radius: 100, size: 240)
        let (lossless, _) = try PresetRenderer.render(flat, preset: .whatsapp)
        #expect(lossless == (try WebPEncoder().encode(PresetRenderer.place(flat, on: StickerPreset.whatsapp.canvas))))
        var scene = Scene(width: 300, height: 300, background: .texture([120, 140, 90], amplitude: 80),
                          shapes: [(.disc(x: 150, y: 150, radius: 100), [200, 40, 40])])
        scene.noise = 6
        let grainy = scene.render().image
        let placed = PresetRenderer.place(grainy, on: StickerPreset.whatsapp.canvas)
        let top = try WebPEncoder(quality: 95).encode(placed)
        let losslessGrainy = try WebPEncoder().encode(placed)
        #expect(losslessGrainy.count > top.count, "lossless is the larger")
        let (atTop, _) = try PresetRenderer.render(grainy, preset: .whatsapp, byteLimit: top.count)
        #expect(atTop == top)
        let limit = top.count * 2 / 3
        let (below, _) = try PresetRenderer.render(grainy, preset: .whatsapp, byteLimit: limit)
        let quality = try #require(try (5..<95).last { try WebPEncoder(quality: $0).encode(placed) == below })
        let aboveIt = try WebPEncoder(quality: quality + 1).encode(placed)
        #expect(below.count <= limit && aboveIt.count > limit)
    }

    /// Lossless WebP keeps every pixel at any match-search effort, and a sticker's alpha
    /// with its visible colours. The effort reaches libwebp: a picture whose lower half
    /// repeats its upper half 100 rows up is smaller where the search looks that far back.
    @Test func webPRoundTrips() throws {
        var generator = SplitMix64(seed: 11)
        let half = (0..<(160 * 100 * 4)).map { $0 % 4 == 3 ? UInt8(255) : UInt8(truncatingIfNeeded: generator.next()) }
        let picture = RGBAImage(width: 160, height: 200, pixels: half + half)
        let files = try [0, 25, 70, 100].map { try WebPEncoder(method: 0, losslessEffort: $0).encode(picture) }
        #expect(files[2].count < files[1].count * 3 / 4, "\(files.map(\.count))")
        for file in files {
            let decoded = try ImageDecoder.decode(file)
            #expect(decoded.format == .webp && decoded.image.pixels == picture.pixels)
        }
        let sticker = discSticker(radius: 20, size: 48)
        let decoded = try ImageDecoder.decode(try WebPEncoder().encode(sticker))
        #expect(decoded.format == .webp && decoded.declaresAlpha)
        for index in 0..<sticker.pixelCount where sticker.pixels[index * 4 + 3] > 0 {
            #expect(decoded.image.pixels[index * 4..<index * 4 + 4] == sticker.pixels[index * 4..<index * 4 + 4])
        }
    }

    @Test func webPFormatKeepsTheStickersPixels() async throws {
        let scene = Scene(width: 320, height: 240, background: .gradient([230, 226, 220], [190, 186, 180]),
                          shapes: [(.disc(x: 160, y: 120, radius: 70), [200, 40, 40]),
                                   (.disc(x: 150, y: 110, radius: 25), [250, 210, 60])])
        let result = CachedResult(try await PhotoProcessor().process(TestFiles.png(scene.render().image)))
        let png = try ImageDecoder.decode(result.png).image
        let lossless = try StickerRendition(format: .webp(quality: nil)).render(result)
        let lossy = try StickerRendition(format: .webp(quality: 90)).render(result)
        #expect(StickerRendition(format: .webp(quality: 90)).fileExtension == "webp")
        for (files, exact) in [(lossless, true), (lossy, false)] {
            let decoded = try ImageDecoder.decode(files.sticker)
            #expect(decoded.format == .webp && files.width == png.width && files.height == png.height)
            var alphaMismatches = 0, colorError = 0, opaque = 0
            for i in 0..<png.pixelCount {
                if decoded.image.pixels[i * 4 + 3] != png.pixels[i * 4 + 3] { alphaMismatches += 1 }
                guard png.pixels[i * 4 + 3] > (exact ? 0 : 254) else { continue }
                opaque += 1
                for channel in 0..<3 { colorError += abs(Int(decoded.image.pixels[i * 4 + channel]) - Int(png.pixels[i * 4 + channel])) }
            }
            #expect(alphaMismatches == 0)
            #expect(opaque > 10_000)
            if exact {
                #expect(colorError == 0)
            } else {
                #expect(Double(colorError) / Double(3 * opaque) < 2, "mean colour error \(Double(colorError) / Double(3 * opaque))")
            }
        }
        #expect(lossy.sticker.count * 3 < lossless.sticker.count)
    }

    /// WebP holds at most 16383 pixels a side: a longer sticker (`--max-size original`)
    /// fails with that said, not with a bare encoder error.
    @Test func aStickerTooLongForWebPFailsSayingWhy() throws {
        let long = RGBAImage(width: 16384, height: 2, pixels: [UInt8](repeating: 255, count: 16384 * 2 * 4))
        do {
            _ = try StickerFileFormat.webp(quality: 90).encode(long)
            Issue.record("encoded")
        } catch {
            #expect(String(describing: error).contains("cannot encode a 16384x2 image as WebP (at most 16383 pixels a side)"),
                    "\(error)")
        }
    }

    @Test(arguments: [("png", StickerFileFormat.png), ("webp", .webp(quality: nil)), ("webp:1", .webp(quality: 1)),
                      ("webp:100", .webp(quality: 100))])
    func fileFormatsParse(text: String, format: StickerFileFormat) {
        #expect(StickerFileFormat(text) == format && format.description == text)
    }

    @Test(arguments: ["PNG", "webp:", "webp:0", "webp:101", "webp:9x", "jpeg", ""])
    func unknownFileFormatsAreRefused(text: String) {
        #expect(StickerFileFormat(text) == nil)
    }

    /// An animated WebP (an animated sticker, say) gives its first frame, as an APNG or an
    /// animated GIF does.
    @Test func anAnimatedWebPGivesItsFirstFrame() throws {
        let first = discSticker(radius: 20, size: 48), second = discSticker(radius: 12, size: 48)
        let decoded = try ImageDecoder.decode(try TestWebPContainer.animated([first, second]))
        #expect(decoded.format == .webp && decoded.declaresAlpha)
        for index in 0..<first.pixelCount where first.pixels[index * 4 + 3] > 0 {
            #expect(decoded.image.pixels[index * 4..<index * 4 + 4] == first.pixels[index * 4..<index * 4 + 4])
        }
        #expect(decoded.image.pixels != (try ImageDecoder.decode(try WebPEncoder().encode(second))).image.pixels)
    }
}
