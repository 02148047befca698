import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// `--preview` renders in a real browser: headless Chromium takes a screenshot of the
/// page, and the screenshot's pixels must show the checkerboard, the sticker, its card,
/// the palette swatches and the failure. (`Scripts/bootstrap --test` installs Chromium.)
@Suite struct PreviewPageTests {
    let runner = CommandRunner()

    /// Pixels of `image` exactly equal to `rgb`.
    private func count(_ rgb: [UInt8], in image: RGBAImage) -> Int {
        stride(from: 0, to: image.pixels.count, by: 4).filter {
            image.pixels[$0] == rgb[0] && image.pixels[$0 + 1] == rgb[1] && image.pixels[$0 + 2] == rgb[2]
        }.count
    }

    private func rgb(_ hex: String) -> [UInt8] {
        let value = UInt32(hex.dropFirst(), radix: 16) ?? 0
        return [UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The page's links are percent-encoded by StickerKit itself (it does not link
    /// Foundation, whose encoding pulls in ICU): byte for byte what Foundation writes.
    @Test(arguments: ["a b/c.png", "../photos/été #1%.png", "x?y=z&w;:@$!'()*+,~_.-", "日本/写真.png", "tab\tline\n"])
    func linksAreEncodedAsFoundationEncodesPaths(_ path: String) {
        #expect(PreviewPage.percentEncoded(path) == path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
    }

    /// A link is escaped for its attribute: `&copy.png` there would read as `©.png`.
    @Test func linksAreEscapedInTheirAttributes() {
        let item = ManifestItem(index: 0, source: "R&copy.jpg", status: .ok, output: "R&copy.png",
                                card: "R&copy.card.png", confidence: 0.9, ms: 1)
        let folder = TestFiles.temporaryFolder("preview-escape")
        let html = PreviewPage.render(Manifest(options: ProcessingOptions(), items: [item]), outputDirectory: folder,
                                      page: folder.appendingPathComponent("preview.html"))
        #expect(html.contains("src=\"R&amp;copy.png\"") && html.contains("src=\"R&amp;copy.card.png\""))
        #expect(!html.contains("&copy."))
    }

    /// Stickers under `doubtfulConfidence` come first, marked; the rest keep their order.
    @Test func doubtfulStickersAreListedFirstAndMarked() {
        let items = [("a.jpg", 0.91), ("b.jpg", 0.32), ("c.jpg", 1.0), ("d.jpg", 0.49)].enumerated().map { index, entry in
            ManifestItem(index: index, source: entry.0, status: .ok, output: entry.0.replacingOccurrences(of: "jpg", with: "png"),
                         confidence: entry.1, ms: 1)
        }
        let folder = TestFiles.temporaryFolder("preview-order")
        let html = PreviewPage.render(Manifest(options: ProcessingOptions(), items: items), outputDirectory: folder,
                                      page: folder.appendingPathComponent("preview.html"))
        let rows = html.components(separatedBy: "<tr").dropFirst(2)   // the head, then the header row
        #expect(rows.map { $0.contains("<code>b.jpg") ? "b" : $0.contains("<code>d.jpg") ? "d" : $0.contains("<code>a.jpg") ? "a" : "c" }
                == ["b", "d", "a", "c"])
        #expect(rows.map { $0.hasPrefix(" class=\"doubtful\"") } == [true, true, false, false])
        #expect(rows.first?.contains("<td>0.32</td>") == true)
        #expect(html.contains("4 stickers (2 with confidence under 0.5, listed first), 0 failed"))
    }

    /// A manifest written before `--no-crop` existed (no `cropsToSubject` among its
    /// options) still reads, as cropping.
    @Test func manifestsWithoutTheCropOptionStillRead() throws {
        let options = #"{"colorCount":5,"maxPixels":100,"sticker":{"margin":8,"maxSize":1024,"refinementSize":480,"workingSize":400}}"#
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(#"{"version":1,"options":\#(options),"items":[]}"#.utf8))
        #expect(manifest.options.sticker.cropsToSubject && manifest.options.sticker.margin == 8)
    }

    @Test func previewShowsStickersCardsSwatchesAndFailuresInABrowser() throws {
        let chromium = "/usr/bin/chromium"
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "Chromium is missing: run Scripts/bootstrap --test")
        let photos = CommandLineTests.photos(2)
        try Data("not an image".utf8).write(to: photos.appendingPathComponent("broken.jpg"))
        let out = TestFiles.temporaryFolder("preview-out"), pages = TestFiles.temporaryFolder("preview-page")
        let page = pages.appendingPathComponent("preview.html")
        let result = try runner.run([photos.path, "--out", out.path, "--preview", page.path, "--card", "--no-cache", "-q"])
        #expect(result.status == 1)
        let html = try String(contentsOf: page, encoding: .utf8)
        // Links are relative to the page and lead to the written files.
        for name in ["p000.png", "p000.card.png", "p001.png", "p001.card.png"] {
            let link = PreviewPage.link(out.appendingPathComponent(name), from: pages)
            #expect(html.contains("src=\"\(link)\""))
            #expect(FileManager.default.fileExists(atPath: pages.appendingPathComponent(link).standardizedFileURL.path))
        }
        #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == 3)

        let screenshot = pages.appendingPathComponent("shot.png")
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: chromium)
        browser.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,1000",
                             "--screenshot=\(screenshot.path)", page.absoluteString]
        browser.standardOutput = FileHandle.nullDevice
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        browser.waitUntilExit()
        #expect(browser.terminationStatus == 0)
        let image = try ImageDecoder.decode(Data(contentsOf: screenshot)).image
        #expect(image.width == 1000 && image.height == 1000)

        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        let first = try #require(manifest.items.first { $0.output == "p000.png" })
        // Swatches: 28 x 28 squares of each palette colour (at least their insides).
        for swatch in first.palette ?? [] {
            #expect(count(swatch.rgb, in: image) >= 26 * 26, "swatch \(swatch.hex) not on screen")
        }
        // The checkerboard's two greys, around the transparent parts of the sticker.
        #expect(count([204, 204, 204], in: image) > 2000 && count([255, 255, 255], in: image) > 2000)
        // The sticker's subject (blue-ish disc) appears at least twice: on the checkerboard and on the card.
        let subject = try #require(first.subject?.first)
        let target = subject.rgb.map(Int.init)
        var near = 0
        for offset in stride(from: 0, to: image.pixels.count, by: 4) {
            var distance = 0
            for channel in 0..<3 { distance += abs(Int(image.pixels[offset + channel]) - target[channel]) }
            if distance < 30 { near += 1 }
        }
        #expect(near > 2 * 800, "subject colour \(subject.hex) covers \(near) pixels")
        // The failure is listed, in the page's red.
        #expect(html.contains("broken.jpg") && count(rgb("#aa0000"), in: image) > 50)
    }
}
