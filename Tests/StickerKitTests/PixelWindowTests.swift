@testable import StickerKit
import Testing

/// A window of a picture: its values cut out and put back, and whether labels reach the
/// sides it shares with the rest of the picture (not the picture's own frame).
@Suite struct PixelWindowTests {
    @Test func cropAndPasteRoundTrip() {
        let window = PixelWindow(PixelRect(x: 2, y: 1, width: 3, height: 2), pictureWidth: 6, pictureHeight: 4)
        let picture = Array(0..<24)
        let inside = window.crop(picture)
        #expect(inside == [8, 9, 10, 14, 15, 16])
        #expect(window.pictureIndex(x: 2, y: 1) == 16)
        let pasted = window.paste(inside, outside: -1)
        #expect(pasted == picture.map { [8, 9, 10, 14, 15, 16].contains($0) ? $0 : -1 })
    }

    @Test func labelsReachOnlyTheSidesInsideThePicture() {
        // The window takes the picture's left and top edges; its right and bottom sides are inner.
        let window = PixelWindow(PixelRect(x: 0, y: 0, width: 4, height: 3), pictureWidth: 6, pictureHeight: 5)
        func labels(_ ones: [(Int, Int)]) -> [UInt8] {
            var labels = [UInt8](repeating: 0, count: 30)
            for (x, y) in ones { labels[y * 6 + x] = 1 }
            return labels
        }
        #expect(!window.reachesItsInnerSides(labels([(0, 0), (0, 1), (1, 0), (2, 1)])))
        #expect(window.reachesItsInnerSides(labels([(3, 1)])))
        #expect(window.reachesItsInnerSides(labels([(1, 2)])))
        // Outside the window does not count.
        #expect(!window.reachesItsInnerSides(labels([(5, 4), (4, 1)])))
    }
}
