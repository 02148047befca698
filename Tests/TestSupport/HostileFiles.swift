import Foundation

/// Hand-made hostile inputs, each a kind of file a batch meets in the wild: animated,
/// over-long, out-of-range or unsupported variants of valid PNGs and JPEGs.
public enum HostileFiles {
    /// A `width` x `height` RGBA PNG whose single IDAT inflates to `inflatedBytes` of
    /// zeros: far more than the header's pixels need when `inflatedBytes` is large.
    public static func pngInflationBomb(width: Int, height: Int, inflatedBytes: Int) -> Data {
        var data = pngSignature
        data.appendChunk("IHDR", header(width: width, height: height, bitDepth: 8, colorType: 6))
        data.appendChunk("IDAT", ZeroDeflate.zlibStream(count: inflatedBytes))
        data.appendChunk("IEND", Data())
        return data
    }

    /// A PNG whose header claims `width` x `height` RGBA pixels, followed by a few bytes of
    /// pixel data: a decompression bomb refused from the header.
    public static func pngHeaderBomb(width: Int = 65535, height: Int = 65535) -> Data {
        var data = pngSignature
        data.appendChunk("IHDR", header(width: width, height: height, bitDepth: 8, colorType: 6))
        data.appendChunk("IDAT", TestPNGWriter.zlibStored([0, 0, 0, 0]))
        data.appendChunk("IEND", Data())
        return data
    }

    /// `png` as an APNG of two frames: an acTL and fcTL before the IDAT (the default image
    /// is frame one) and an fdAT with a second frame's data after it.
    public static func apng(from png: Data) -> Data {
        let chunks = PNGChunks(png).chunks
        guard let ihdr = chunks.first(where: { $0.type == "IHDR" })?.payload,
              let idat = chunks.first(where: { $0.type == "IDAT" })?.payload else { return png }
        var animationControl = Data()
        animationControl.appendBigEndian(2)   // frames
        animationControl.appendBigEndian(0)   // loop forever
        var frameControl = Data()
        frameControl.appendBigEndian(0)       // sequence number
        frameControl.append(ihdr.prefix(8))   // width, height
        frameControl.append(contentsOf: [UInt8](repeating: 0, count: 8) + [0, 1, 0, 10, 0, 0])
        var secondFrameControl = frameControl
        secondFrameControl.replaceSubrange(0..<4, with: [0, 0, 0, 1])
        var frameData = Data([0, 0, 0, 2])
        frameData.append(idat)
        var data = pngSignature
        var seenImageData = false
        for chunk in chunks {
            if chunk.type == "IDAT" && !seenImageData {
                seenImageData = true
                data.appendChunk("acTL", animationControl)
                data.appendChunk("fcTL", frameControl)
            }
            if chunk.type == "IEND" {
                data.appendChunk("fcTL", secondFrameControl)
                data.appendChunk("fdAT", frameData)
            }
            data.appendChunk(chunk.type, chunk.payload)
        }
        return data
    }

    /// An 8 x 4 palette PNG with a 2-entry palette whose pixels use index 7.
    public static func paletteIndexOutOfRange() -> Data {
        TestPNGWriter(width: 8, height: 4, colorType: .palette, bitDepth: 4,
                      samples: (0..<32).map { $0 % 5 == 0 ? 7 : $0 % 2 },
                      palette: [(255, 0, 0), (0, 0, 255)]).encode()
    }

    /// `png` with its IDAT chunks removed.
    public static func pngWithoutImageData(from png: Data) -> Data {
        self.png(png) { chunks in chunks.filter { $0.type != "IDAT" } }
    }

    /// `png` with its chunks (type and payload, in order) passed through `edit` and written
    /// again with fresh CRCs: a chunk slipped between two of the image data's, a payload
    /// cut short or run on.
    public static func png(_ png: Data, editingChunks edit: ([(type: String, payload: Data)]) -> [(type: String, payload: Data)]) -> Data {
        var data = pngSignature
        for chunk in edit(PNGChunks(png).chunks) { data.appendChunk(chunk.type, chunk.payload) }
        return data
    }

    /// `jpeg` with its frame header rewritten to say 12 bits per sample (SOF1, extended
    /// sequential), the way 12-bit medical and raw-converter JPEGs are stored.
    public static func twelveBitJPEG(from jpeg: Data) -> Data {
        var data = jpeg
        guard let frame = markerOffset(0xC0, in: data) else { return data }
        data[frame + 1] = 0xC1
        data[frame + 4] = 12
        return data
    }

    /// `jpeg` cut just before its first scan, then properly ended: a header and no image.
    public static func jpegWithoutScans(from jpeg: Data) -> Data {
        guard let scan = markerOffset(0xDA, in: jpeg) else { return jpeg }
        return jpeg.prefix(scan) + Data([0xFF, 0xD9])
    }

    private static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    private static func header(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8) -> Data {
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [bitDepth, colorType, 0, 0, 0])
        return header
    }

    /// Offset of the first `FF code` marker, walking the JPEG's marker segments.
    private static func markerOffset(_ code: UInt8, in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            if bytes[offset + 1] == code { return offset }
            offset += 2 + Int(bytes[offset + 2]) << 8 + Int(bytes[offset + 3])
        }
        return nil
    }
}

/// A PNG's chunks, in order (type and payload; CRCs dropped).
struct PNGChunks {
    var chunks: [(type: String, payload: Data)] = []

    init(_ png: Data) {
        let bytes = [UInt8](png)
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { break }
            chunks.append((type, Data(bytes[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
    }
}

/// A zlib stream of zeros compressed about 160:1 with fixed Huffman codes (RFC 1951,
/// section 3.2.6): one literal zero, then copies of 258 bytes at distance 1.
enum ZeroDeflate {
    static func zlibStream(count: Int) -> Data {
        var bits = BitWriter()
        bits.write(1, count: 1)              // BFINAL
        bits.write(1, count: 2)              // BTYPE 01: fixed Huffman
        var remaining = count
        var wroteLiteral = false
        while remaining > 0 {
            if !wroteLiteral || remaining < 258 {
                bits.writeCode(0b0011_0000, length: 8)   // literal 0
                remaining -= 1
                wroteLiteral = true
            } else {
                bits.writeCode(0b1100_0101, length: 8)   // length code 285: 258 bytes
                bits.writeCode(0, length: 5)             // distance code 0: distance 1
                remaining -= 258
            }
        }
        bits.writeCode(0, length: 7)                     // end of block (256)
        var data = Data([0x78, 0x01])
        data.append(contentsOf: bits.finish())
        data.appendBigEndian(UInt32(count % 65521) << 16 | 1)   // Adler-32 of zeros
        return data
    }

    /// Packs bits least-significant first, as deflate does.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var used = 0

        mutating func write(_ value: UInt32, count: Int) {
            accumulator |= value << used
            used += count
            while used >= 8 {
                bytes.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                used -= 8
            }
        }

        /// Huffman codes go most-significant bit first.
        mutating func writeCode(_ code: UInt32, length: Int) {
            for shift in stride(from: length - 1, through: 0, by: -1) { write((code >> shift) & 1, count: 1) }
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(accumulator & 0xFF)) }
            return bytes
        }
    }
}
