import Foundation

/// Writes PNG files of any colour type and bit depth, optionally Adam7-interlaced, with any
/// of the five row filters and the image data split over several chunks, so the decoder
/// can be checked against known samples. Uses zlib "stored" (uncompressed) deflate blocks,
/// which need no compression library.
public struct TestPNGWriter {
    public enum ColorType: UInt8, Sendable {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        public var channels: Int {
            switch self {
            case .grey, .palette: return 1
            case .greyAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    public var width: Int
    public var height: Int
    public var colorType: ColorType
    public var bitDepth: Int
    /// Samples per pixel (`colorType.channels` each), row-major, each 0 ..< 2^bitDepth.
    public var samples: [Int]
    public var palette: [(UInt8, UInt8, UInt8)] = []
    /// tRNS payload: palette alphas, or one grey / RGB sample value that is transparent.
    public var transparency: [UInt8]?
    public var interlaced = false
    /// The filter type of each row in turn, repeated (PNG's 0 None, 1 Sub, 2 Up, 3 Average,
    /// 4 Paeth; others are written as given, for a decoder to refuse). Not interlaced only.
    public var filters: [UInt8] = [0]
    /// At most this many bytes of image data per IDAT chunk; nil writes one chunk.
    public var chunkSize: Int?
    /// An ICC profile to embed (iCCP), if any.
    public var iccProfile: [UInt8]?
    /// gAMA: the exponent the samples were encoded with, times 100,000 (45455 is 1/2.2).
    public var gamma: UInt32?
    /// cHRM: white, red, green and blue as x, y pairs, each times 100,000.
    public var chromaticities: [UInt32]?
    /// sRGB: the rendering intent (0-3).
    public var srgbIntent: UInt8?

    public init(width: Int, height: Int, colorType: ColorType, bitDepth: Int, samples: [Int],
                palette: [(UInt8, UInt8, UInt8)] = [], transparency: [UInt8]? = nil, interlaced: Bool = false) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.samples = samples
        self.palette = palette
        self.transparency = transparency
        self.interlaced = interlaced
    }

    public func encode() -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0])
        data.appendChunk("IHDR", header)
        if let iccProfile {
            // Its name, a NUL, compression method 0, then the zlib stream.
            data.appendChunk("iCCP", Data("test profile".utf8) + Data([0, 0]) + TestPNGWriter.zlibStored(iccProfile))
        }
        if let srgbIntent { data.appendChunk("sRGB", Data([srgbIntent])) }
        if let gamma {
            var payload = Data()
            payload.appendBigEndian(gamma)
            data.appendChunk("gAMA", payload)
        }
        if let chromaticities {
            var payload = Data()
            for value in chromaticities { payload.appendBigEndian(value) }
            data.appendChunk("cHRM", payload)
        }
        if !palette.isEmpty {
            data.appendChunk("PLTE", Data(palette.flatMap { [$0.0, $0.1, $0.2] }))
        }
        if let transparency { data.appendChunk("tRNS", Data(transparency)) }
        let compressed = TestPNGWriter.zlibStored(scanlines())
        let size = chunkSize ?? compressed.count
        for start in stride(from: 0, to: compressed.count, by: size) {
            data.appendChunk("IDAT", compressed.subdata(in: start..<min(compressed.count, start + size)))
        }
        data.appendChunk("IEND", Data())
        return data
    }

    /// The scanlines, each after its filter type byte (`filters`), per Adam7 pass when
    /// interlaced (then all of type 0).
    private func scanlines() -> [UInt8] {
        guard !interlaced else { return unfilteredScanlines() }
        let rowBytes = (width * colorType.channels * bitDepth + 7) / 8
        let bytesPerPixel = max(1, colorType.channels * bitDepth / 8)
        let plain = unfilteredScanlines()
        var bytes: [UInt8] = []
        var above = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<height {
            let row = Array(plain[(y * (rowBytes + 1) + 1)..<((y + 1) * (rowBytes + 1))])
            let filter = filters[y % filters.count]
            bytes.append(filter)
            for i in 0..<rowBytes {
                let left = i >= bytesPerPixel ? Int(row[i - bytesPerPixel]) : 0
                let up = Int(above[i]), upperLeft = i >= bytesPerPixel ? Int(above[i - bytesPerPixel]) : 0
                let predicted: Int
                switch filter {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upperLeft
                    let (toLeft, toUp, toUpperLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upperLeft))
                    predicted = toLeft <= toUp && toLeft <= toUpperLeft ? left : toUp <= toUpperLeft ? up : upperLeft
                default: predicted = 0
                }
                bytes.append(UInt8(truncatingIfNeeded: Int(row[i]) - predicted))
            }
            above = row
        }
        return bytes
    }

    /// Filter-type-0 scanlines, per Adam7 pass when interlaced.
    private func unfilteredScanlines() -> [UInt8] {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var bytes: [UInt8] = []
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                bytes.append(0)
                var bits = BitPacker(depth: bitDepth)
                for x in xs {
                    for c in 0..<colorType.channels { bits.append(samples[(y * width + x) * colorType.channels + c]) }
                }
                bytes.append(contentsOf: bits.finish())
            }
        }
        return bytes
    }

    private struct BitPacker {
        let depth: Int
        var bytes: [UInt8] = []
        var accumulator = 0
        var count = 0

        init(depth: Int) { self.depth = depth }

        mutating func append(_ value: Int) {
            if depth == 16 {
                bytes.append(UInt8(value >> 8))
                bytes.append(UInt8(value & 0xFF))
                return
            }
            accumulator = (accumulator << depth) | value
            count += depth
            if count == 8 {
                bytes.append(UInt8(accumulator))
                accumulator = 0
                count = 0
            }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(accumulator << (8 - count))) }
            return bytes
        }
    }

    public static func zlibStored(_ payload: [UInt8]) -> Data {
        var data = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let length = min(65535, payload.count - offset)
            let final: UInt8 = offset + length >= payload.count ? 1 : 0
            data.append(final)
            data.append(UInt8(length & 0xFF))
            data.append(UInt8(length >> 8))
            data.append(UInt8(~length & 0xFF))
            data.append(UInt8((~length >> 8) & 0xFF))
            data.append(contentsOf: payload[offset..<(offset + length)])
            offset += length
        } while offset < payload.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in payload {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        data.appendBigEndian((b << 16) | a)
        return data
    }
}

extension Data {
    public mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    public mutating func appendChunk(_ type: String, _ payload: Data) {
        appendBigEndian(UInt32(payload.count))
        let body = Data(type.utf8) + payload
        append(body)
        appendBigEndian(CRC32.checksum(body))
    }
}

/// CRC-32 (ISO 3309) as PNG chunks use it.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func checksum(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
