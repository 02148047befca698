import StickerKit

/// The image at half size by 2x2 averaging, as a smaller copy of the same photo would be
/// (for measuring palette stability under resizing).
public func halfSize(_ image: RGBAImage) -> RGBAImage {
    let width = max(1, image.width / 2), height = max(1, image.height / 2)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            for c in 0..<4 {
                var sum = 0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    sum += Int(image.pixels[((2 * y + dy) * image.width + 2 * x + dx) * 4 + c])
                }
                pixels[(y * width + x) * 4 + c] = UInt8((sum + 2) / 4)
            }
        }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
}
