/// A rectangle of a row-major picture, with the picture's size: where the segmenter's
/// refinement cuts when the subject leaves most of the picture far from it.
///
///     let window = PixelWindow(PixelRect(x: 10, y: 5, width: 100, height: 80), pictureWidth: 480, pictureHeight: 360)
///     window.pictureIndex(x: 0, y: 1)       // 6 * 480 + 10
struct PixelWindow: Sendable {
    let rect: PixelRect
    let pictureWidth: Int
    let pictureHeight: Int

    init(_ rect: PixelRect, pictureWidth: Int, pictureHeight: Int) {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                     && rect.x + rect.width <= pictureWidth && rect.y + rect.height <= pictureHeight,
                     "a window lies inside its picture")
        self.rect = rect
        self.pictureWidth = pictureWidth
        self.pictureHeight = pictureHeight
    }

    /// The window's pixel count.
    var count: Int { rect.width * rect.height }

    /// The picture index of the pixel at `x`, `y` in the window.
    @inline(__always)
    func pictureIndex(x: Int, y: Int) -> Int { (rect.y + y) * pictureWidth + rect.x + x }

    /// Whether `labels` (one per picture pixel) has a 1 on one of the window's sides that is
    /// not also the picture's frame: beside a picture pixel outside the window.
    func reachesItsInnerSides(_ labels: [UInt8]) -> Bool {
        precondition(labels.count == pictureWidth * pictureHeight, "one label per picture pixel")
        let left = rect.x, right = rect.x + rect.width - 1, top = rect.y, bottom = rect.y + rect.height - 1
        for y in top...bottom {
            if left > 0 && labels[y * pictureWidth + left] == 1 { return true }
            if right < pictureWidth - 1 && labels[y * pictureWidth + right] == 1 { return true }
        }
        for x in left...right {
            if top > 0 && labels[top * pictureWidth + x] == 1 { return true }
            if bottom < pictureHeight - 1 && labels[bottom * pictureWidth + x] == 1 { return true }
        }
        return false
    }
}
