@testable import StickerKit
import Testing

/// A window of a picture: where its pixels lie in the picture, and whether labels reach the
/// sides it shares with the rest of the picture (not the picture's own frame).
@Suite struct PixelWindowTests {
    @Test func pictureIndexCountsFromThePicturesCorner() {
        let window = PixelWindow(PixelRect(x: 2, y: 1, width: 3, height: 2), pictureWidth: 6, pictureHeight: 4)
        #expect(window.count == 6)
        #expect(window.pictureIndex(x: 0, y: 0) == 8)
        #expect(window.pictureIndex(x: 2, y: 1) == 16)
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
