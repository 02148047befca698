import StickerKit

/// The eight EXIF (and TIFF) orientations, for making test inputs a camera would store and
/// checking they come back upright: the tag says where the stored rows and columns go
/// (EXIF 2.3, section 4.6.4, Orientation).
public enum ExifOrientation {
    /// `stored` displayed under `orientation`: each stored pixel at its upright place.
    public static func upright(_ stored: RGBAImage, orientation: Int) -> RGBAImage {
        let sw = stored.width, sh = stored.height
        let w = orientation >= 5 ? sh : sw
        var pixels = [UInt8](repeating: 0, count: sw * sh * 4)
        for y in 0..<sh {
            for x in 0..<sw {
                let (u, v) = uprightPlace(x, y, width: sw, height: sh, orientation: orientation)
                for c in 0..<4 { pixels[(v * w + u) * 4 + c] = stored.pixels[(y * sw + x) * 4 + c] }
            }
        }
        return RGBAImage(width: w, height: sw * sh / w, pixels: pixels)
    }

    /// Where stored pixel (x, y) of a `width` x `height` image lands upright, per the EXIF
    /// definitions.
    public static func uprightPlace(_ x: Int, _ y: Int, width sw: Int, height sh: Int, orientation: Int) -> (Int, Int) {
        switch orientation {
        case 2: (sw - 1 - x, y)
        case 3: (sw - 1 - x, sh - 1 - y)
        case 4: (x, sh - 1 - y)
        case 5: (y, x)
        case 6: (sh - 1 - y, x)
        case 7: (sh - 1 - y, sw - 1 - x)
        case 8: (y, sw - 1 - x)
        default: (x, y)
        }
    }

    /// The stored image whose display under `orientation` is `upright`.
    public static func stored(_ upright: RGBAImage, orientation: Int) -> RGBAImage {
        let w = upright.width, h = upright.height
        let swapped = orientation >= 5
        let sw = swapped ? h : w, sh = swapped ? w : h
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<sh {
            for x in 0..<sw {
                let (u, v) = uprightPlace(x, y, width: sw, height: sh, orientation: orientation)
                for c in 0..<4 { pixels[(y * sw + x) * 4 + c] = upright.pixels[(v * w + u) * 4 + c] }
            }
        }
        return RGBAImage(width: sw, height: sh, pixels: pixels)
    }
}
