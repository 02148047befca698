import Foundation
import StickerKit
import Testing
import TestSupport

/// `--preset`, `--outline`, `--shadow` and `--card` end to end: files, sizes, formats,
/// byte limits and manifest fields.
@Suite struct PresetCommandTests {
    let runner = CommandRunner()

    private func manifest(_ out: URL) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: out.appendingPathComponent("manifest.json")))
    }

    @Test(arguments: [("telegram", "png"), ("whatsapp", "webp"), ("signal", "png"), ("imessage:300", "png"), ("discord", "png")])
    func presetOutputsMeetThePlatform(name: String, fileExtension: String) throws {
        let photos = CommandLineTests.photos(2)
        let out = TestFiles.temporaryFolder("preset-out")
        let result = try runner.run([photos.path, "--out", out.path, "--preset", name, "--no-cache", "-q"])
        #expect(result.status == 0, "\(result.standardError)")
        let preset = try #require(StickerPreset(name))
        let trayURL = out.appendingPathComponent(StickerRendition.trayIconName)
        if let tray = preset.trayIcon {
            let data = try Data(contentsOf: trayURL)
            let icon = try ImageDecoder.decode(data)
            #expect(icon.format == .png && icon.image.width == tray.side && icon.image.height == tray.side)
            #expect(data.count <= tray.byteLimit)
        } else {
            #expect(!FileManager.default.fileExists(atPath: trayURL.path))
        }
        for item in try manifest(out).items {
            #expect(item.output?.hasSuffix("." + fileExtension) == true)
            let data = try Data(contentsOf: out.appendingPathComponent(try #require(item.output)))
            #expect(item.bytes == data.count && data.count <= preset.byteLimit)
            let image = try ImageDecoder.decode(data).image
            #expect(item.width == image.width && item.height == image.height)
            switch preset.canvas {
            case .longSide(let side): #expect(max(image.width, image.height) == side && min(image.width, image.height) <= side)
            case .square(let side, _): #expect(image.width == side && image.height == side)
            }
        }
    }

    /// `--format webp:Q` writes WebP stickers (cards and masks stay PNG) from the same cache
    /// entries; switching back to PNG with `--prune` leaves only the PNGs, and the masks.
    @Test func webPFormatWritesWebPStickersFromTheCache() throws {
        let photos = CommandLineTests.photos(2)
        let out = TestFiles.temporaryFolder("format-out"), cache = TestFiles.temporaryFolder("format-cache")
        let masks = TestFiles.temporaryFolder("format-masks")
        #expect(try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "-q"]).status == 0)
        let pngs = try manifest(out).items
        let result = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--format", "webp:80", "--card",
                                     "--mask", masks.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("\"status\":\"ok\""), "served from the PNG run's cache entries")
        for (item, png) in zip(try manifest(out).items, pngs) {
            #expect(item.output == png.output.map { String($0.dropLast(3)) + "webp" })
            let data = try Data(contentsOf: out.appendingPathComponent(try #require(item.output)))
            let decoded = try ImageDecoder.decode(data)
            #expect(decoded.format == .webp && decoded.declaresAlpha && item.bytes == data.count)
            #expect(decoded.image.width == png.width && decoded.image.height == png.height)
            #expect(data.count < png.bytes ?? 0)
            let card = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent(try #require(item.card))))
            #expect(card.format == .png)
            let mask = try ImageDecoder.decode(Data(contentsOf: masks.appendingPathComponent(try #require(png.output))))
            #expect(mask.format == .png && mask.image.width == 160)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: masks.path).sorted() == ["p000.png", "p001.png"])
        #expect(try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--mask", masks.path, "--prune",
                                "-q"]).status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(left == ["manifest.json", "p000.png", "p001.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: masks.path).sorted() == ["p000.png", "p001.png"],
                "the WebP run's masks are the PNG run's: none is stale")
    }

    @Test func onlyTheFirstShardWritesTheTrayIcon() throws {
        let photos = CommandLineTests.photos(3)
        for (shard, writesTray) in [("1/2", true), ("2/2", false)] {
            let out = TestFiles.temporaryFolder("tray-out")
            let result = try runner.run([photos.path, "--out", out.path, "--preset", "whatsapp", "--shard", shard, "--no-cache", "-q"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("tray.png").path) == writesTray, "\(shard)")
        }
    }

    @Test func outlineShadowAndCardAreWrittenAndTheCacheStillHits() throws {
        let photos = CommandLineTests.photos(1)
        let plain = TestFiles.temporaryFolder("look-plain"), styled = TestFiles.temporaryFolder("look-styled")
        let cache = TestFiles.temporaryFolder("look-cache")
        #expect(try runner.run([photos.path, "--out", plain.path, "--cache", cache.path, "-q"]).status == 0)
        let result = try runner.run([photos.path, "--out", styled.path, "--cache", cache.path, "--outline", "6",
                                     "--outline-color", "#00ff00", "--shadow", "--card", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"status\":\"cached\""))
        let base = try ImageDecoder.decode(Data(contentsOf: plain.appendingPathComponent("p000.png"))).image
        let sticker = try ImageDecoder.decode(Data(contentsOf: styled.appendingPathComponent("p000.png"))).image
        #expect(sticker.width > base.width + 12 && sticker.height > base.height + 12)
        let greenish = stride(from: 0, to: sticker.pixels.count, by: 4).filter {
            sticker.pixels[$0 + 3] == 255 && sticker.pixels[$0 + 1] == 255 && sticker.pixels[$0] == 0
        }
        #expect(greenish.count > 100)
        let item = try #require(try manifest(styled).items.first)
        #expect(item.card == "p000.card.png")
        let card = try ImageDecoder.decode(Data(contentsOf: styled.appendingPathComponent("p000.card.png"))).image
        #expect(!card.hasTransparency && card.width > sticker.width)
    }

    @Test(arguments: [
        (["--preset", "myspace", "x"], "--preset is one of telegram, whatsapp, signal, imessage[:300|408|618], discord, not 'myspace'"),
        (["--preset", "imessage:500", "x"], "--preset is one of telegram, whatsapp, signal, imessage[:300|408|618], discord, not 'imessage:500'"),
        (["--outline-color", "pink", "x"], "--outline-color takes #rrggbb, white or black, not 'pink'"),
    ])
    func badLookOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try runner.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("stickerize: \(message)\n"))
    }
}
