/// An 8-bit RGBA image in row-major order, non-premultiplied, upright.
///
///     let image = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255,  0, 0, 255, 128])
///     image.hasTransparency  // true
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel, rows top to bottom.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "pixel count does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent black image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    public var pixelCount: Int { width * height }

    /// True when some pixel is not fully opaque. Eight pixels per step, as 32-bit words
    /// whose last byte in memory is alpha.
    public var hasTransparency: Bool {
        pixels.withUnsafeBytes { bytes in
            let alpha = SIMD8<UInt32>(repeating: UInt32(littleEndian: 0xFF00_0000))
            var offset = 0
            while offset + 32 <= bytes.count {
                let block = bytes.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt32>.self)
                if any(block & alpha .!= alpha) { return true }
                offset += 32
            }
            return stride(from: offset + 3, to: bytes.count, by: 4).contains { bytes[$0] != 255 }
        }
    }
}
