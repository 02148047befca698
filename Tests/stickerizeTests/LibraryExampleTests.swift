import Foundation
import StickerKit
import Testing
import TestSupport

/// The README's "Using StickerKit" example is `Examples/UsingStickerKit/UsingStickerKit.swift`, which
/// the package builds as `using-stickerkit` against StickerKit's public API alone; here it
/// runs, and the README's copy is checked to be the same code.
@Suite struct LibraryExampleTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func readmeShowsTheExampleThatBuilds() throws {
        let example = try String(contentsOf: root.appendingPathComponent("Examples/UsingStickerKit/UsingStickerKit.swift"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Using StickerKit"))
        let block = try #require(readme[section.upperBound...].range(of: "```swift\n"))
        let end = try #require(readme[block.upperBound...].range(of: "```"))
        #expect(String(readme[block.upperBound..<end.lowerBound]) == example)
    }

    @Test func theExampleMakesStickers() throws {
        let photos = CommandLineTests.photos(2)
        let out = TestFiles.temporaryFolder("example-out")
        let result = try CommandRunner("using-stickerkit").run([photos.appendingPathComponent("p000.jpg").path, photos.path, out.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("sticker ") && lines[1] == "2 stickers, 0 failed")
        let sticker = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent("p001.png")))
        #expect(sticker.declaresAlpha && max(sticker.image.width, sticker.image.height) <= 512 + 16)
    }
}
