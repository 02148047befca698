import Foundation
import StickerKit

/// Writes GIF89a files: a global colour table and one or more frames, each placed on the
/// logical screen, optionally interlaced, with a transparent index or a local colour
/// table. The image data is LZW with a clear code every 254 indices, so codes stay 9 bits
/// wide and no string table is needed (GIF89a, section 22 and appendix F): larger than a
/// real encoder's, and just as valid.
public struct TestGIFWriter {
    /// One image of the file (GIF89a, sections 20 and 23).
    public struct Frame {
        public var left: Int
        public var top: Int
        public var width: Int
        public var height: Int
        /// Colour indices, row-major in display order (the writer interlaces them).
        public var indices: [UInt8]
        public var interlaced = false
        public var transparentIndex: UInt8?
        public var localPalette: [(UInt8, UInt8, UInt8)]?

        public init(left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8]) {
            self.left = left
            self.top = top
            self.width = width
            self.height = height
            self.indices = indices
        }
    }

    public var screenWidth: Int
    public var screenHeight: Int
    /// The global colour table; none when empty.
    public var palette: [(UInt8, UInt8, UInt8)]
    public var frames: [Frame]

    public init(screenWidth: Int, screenHeight: Int, palette: [(UInt8, UInt8, UInt8)], frames: [Frame]) {
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.palette = palette
        self.frames = frames
    }

    /// `image` in a 3-3-2 palette (8 levels of red and green, 4 of blue), as `frames`
    /// identical frames.
    public init(_ image: RGBAImage, frames count: Int = 1) {
        var indices: [UInt8] = []
        for index in 0..<(image.width * image.height) {
            let red = Int(image.pixels[index * 4]), green = Int(image.pixels[index * 4 + 1]), blue = Int(image.pixels[index * 4 + 2])
            indices.append(UInt8((red >> 5) << 5 | (green >> 5) << 2 | blue >> 6))
        }
        var palette: [(UInt8, UInt8, UInt8)] = []
        for index in 0..<256 {
            palette.append((UInt8((index >> 5) * 255 / 7), UInt8((index >> 2 & 7) * 255 / 7), UInt8((index & 3) * 255 / 3)))
        }
        let frame = Frame(width: image.width, height: image.height, indices: indices)
        self.init(screenWidth: image.width, screenHeight: image.height, palette: palette,
                  frames: Array(repeating: frame, count: count))
    }

    public func encode() -> Data {
        var data = Data("GIF89a".utf8)
        appendShort(&data, screenWidth)
        appendShort(&data, screenHeight)
        data.append(palette.isEmpty ? 0x70 : 0xF0 | Self.sizeBits(palette.count))
        data.append(contentsOf: [0, 0])  // background index, aspect ratio
        Self.appendTable(&data, palette)
        for frame in frames {
            if let transparent = frame.transparentIndex {
                data.append(contentsOf: [0x21, 0xF9, 4, 1, 0, 0, transparent, 0])
            }
            data.append(0x2C)
            appendShort(&data, frame.left)
            appendShort(&data, frame.top)
            appendShort(&data, frame.width)
            appendShort(&data, frame.height)
            var flags: UInt8 = frame.interlaced ? 0x40 : 0
            if let local = frame.localPalette { flags |= 0x80 | Self.sizeBits(local.count) }
            data.append(flags)
            if let local = frame.localPalette { Self.appendTable(&data, local) }
            let rows = frame.interlaced ? Self.interlacedRows(frame.height) : Array(0..<frame.height)
            let ordered = rows.flatMap { frame.indices[($0 * frame.width)..<(($0 + 1) * frame.width)] }
            data.append(8)  // LZW minimum code size
            let compressed = Self.lzw(ordered)
            for start in stride(from: 0, to: compressed.count, by: 255) {
                let block = compressed[start..<min(start + 255, compressed.count)]
                data.append(UInt8(block.count))
                data.append(contentsOf: block)
            }
            data.append(0)
        }
        data.append(0x3B)
        return data
    }

    /// Display rows in the order an interlaced frame stores them: every 8th from 0, every
    /// 8th from 4, every 4th from 2, every 2nd from 1.
    static func interlacedRows(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    /// 9-bit codes, least significant bit first: a clear code, up to 254 literal indices,
    /// again, then the end code.
    static func lzw(_ indices: [UInt8]) -> [UInt8] {
        let clear = 256, end = 257
        var codes: [Int] = []
        for start in stride(from: 0, to: indices.count, by: 254) {
            codes.append(clear)
            codes += indices[start..<min(start + 254, indices.count)].map(Int.init)
        }
        codes.append(end)
        var bytes: [UInt8] = [], buffer = 0, bits = 0
        for code in codes {
            buffer |= code << bits
            bits += 9
            while bits >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bits -= 8
            }
        }
        if bits > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        return bytes
    }

    /// The table-size field: tables hold 2^(field + 1) entries.
    static func sizeBits(_ count: Int) -> UInt8 {
        var bits: UInt8 = 0
        while (2 << Int(bits)) < count { bits += 1 }
        return bits
    }

    /// `table` padded with black to its power-of-two size.
    static func appendTable(_ data: inout Data, _ table: [(UInt8, UInt8, UInt8)]) {
        guard !table.isEmpty else { return }
        let size = 2 << Int(sizeBits(table.count))
        for index in 0..<size {
            let (r, g, b) = index < table.count ? table[index] : (0, 0, 0)
            data.append(contentsOf: [r, g, b])
        }
    }

    private func appendShort(_ data: inout Data, _ value: Int) {
        data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)])
    }
}
