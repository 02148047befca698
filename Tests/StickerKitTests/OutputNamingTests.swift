import Testing
@testable import StickerKit

/// Output names: mirrored, never colliding, and never longer than a file system takes.
@Suite struct OutputNamingTests {
    /// Every name of `names` and, with cards, its card's, as the file system counts them.
    private func longestComponent(_ names: [String], withCards: Bool) -> Int {
        let all = names + (withCards ? names.map(OutputNaming.cardName) : [])
        return all.flatMap { $0.split(separator: "/") }.map(\.utf8.count).max() ?? 0
    }

    @Test func shortNamesKeepTheirStemAndClashesTheirExtension() {
        var naming = OutputNaming(withCards: true)
        let outputs = ["trip/a.jpg", "trip/a.png", "trip/a.png.jpg", "b.webp"].map { naming.claim(relativePath: $0) }
        #expect(outputs == ["trip/a.png", "trip/a.png.png", "trip/a.png.jpg.png", "b.png"])
    }

    @Test(arguments: [false, true])
    func aNameAsLongAsNamesGoIsCutToFitWithItsCard(withCards: Bool) {
        var naming = OutputNaming(fileExtension: "webp", withCards: withCards)
        let long = String(repeating: "a", count: 251)
        let inputs = ["deep/" + long + ".jpg", "deep/" + long + ".png", "deep/" + long + ".png"]
        let outputs = inputs.map { naming.claim(relativePath: $0) }
        #expect(Set(outputs).count == 3)
        #expect(longestComponent(outputs, withCards: withCards) == 255)
        #expect(outputs.allSatisfy { $0.hasPrefix("deep/" + String(repeating: "a", count: 200)) && $0.hasSuffix(".webp") })
    }

    @Test func aLongNameIsCutBetweenCharactersNotInsideOne() {
        var naming = OutputNaming(withCards: true)
        // 84 three-byte characters: 252 bytes, 256 with the extension.
        let name = String(repeating: "写", count: 84)
        let output = naming.claim(relativePath: name + ".jpg")
        #expect(output == String(repeating: "写", count: 82) + ".png")
        #expect(OutputNaming.cardName(of: output).utf8.count <= 255)
    }

    @Test func aFolderNameOutgrowingNamesIsCutAndItsPhotosStayApart() {
        var naming = OutputNaming()
        let escaped = String(repeating: "\\xE9", count: 70)   // 280 characters
        let outputs = [escaped + "/a.jpg", escaped + "/a.png", "short/" + escaped + "x/b.jpg"].map { naming.claim(relativePath: $0) }
        let cut = String(escaped.utf8.prefix(255))!
        #expect(outputs == [cut + "/a.png", cut + "/a.png.png", "short/" + cut + "/b.png"])
    }
}
