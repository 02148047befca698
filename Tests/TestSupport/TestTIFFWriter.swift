import Foundation
import StickerKit

/// Writes baseline TIFF files (TIFF 6.0: uncompressed, one strip, chunky samples, either
/// byte order) in the layouts the decoder must read: grey, palette, RGB or CMYK (inks 0 =
/// none, section 16), 8 or 16 bits,
/// with alpha associated or not, an Orientation tag, an ICC profile; and 32-bit
/// floating-point samples, which it must refuse. Written by hand, not through libtiff, so
/// the decoder is checked against the format rather than against its own library.
public struct TestTIFFWriter {
    public enum Photometric: UInt16, Sendable {
        case minIsBlack = 1, rgb = 2, palette = 3, separated = 5
    }

    /// What the extra sample, the one after the colour samples, is (tag 338).
    public enum ExtraSample: UInt16, Sendable {
        case unspecified = 0, associatedAlpha = 1, unassociatedAlpha = 2
    }

    public var width: Int
    public var height: Int
    public var photometric: Photometric
    /// 8 or 16; 32 with `floatingPoint`.
    public var bitsPerSample: Int
    /// Samples per pixel, row-major and interleaved, each 0 ..< 2^bitsPerSample (floats
    /// when `floatingPoint`: the value / 255).
    public var samples: [Int]
    public var extraSample: ExtraSample?
    /// Palette entries as 16-bit values (TIFF's ColorMap), 2^bitsPerSample of them.
    public var palette: [(UInt16, UInt16, UInt16)] = []
    public var orientation: UInt16?
    public var iccProfile: [UInt8]?
    public var floatingPoint = false
    public var bigEndian = false

    public init(width: Int, height: Int, photometric: Photometric, bitsPerSample: Int = 8, samples: [Int],
                extraSample: ExtraSample? = nil) {
        self.width = width
        self.height = height
        self.photometric = photometric
        self.bitsPerSample = bitsPerSample
        self.samples = samples
        self.extraSample = extraSample
    }

    /// An 8-bit RGB or RGBA file of `image` (RGBA when `alpha` says what its alpha is).
    public init(_ image: RGBAImage, alpha: ExtraSample? = nil) {
        let channels = alpha == nil ? 3 : 4
        let samples = (0..<(image.width * image.height)).flatMap { index in
            (0..<channels).map { Int(image.pixels[index * 4 + $0]) }
        }
        self.init(width: image.width, height: image.height, photometric: .rgb, samples: samples, extraSample: alpha)
    }

    private var samplesPerPixel: Int {
        let colour = switch photometric {
        case .rgb: 3
        case .separated: 4
        case .minIsBlack, .palette: 1
        }
        return colour + (extraSample == nil ? 0 : 1)
    }

    public func encode() -> Data {
        var pixels = Data()
        for sample in samples {
            if floatingPoint {
                append(&pixels, Float(sample) / 255)
            } else if bitsPerSample == 16 {
                append(&pixels, UInt16(sample))
            } else {
                pixels.append(UInt8(sample))
            }
        }
        var entries: [(tag: UInt16, type: UInt16, count: Int, value: Data)] = []
        func shorts(_ tag: UInt16, _ values: [UInt16]) {
            var value = Data()
            for v in values { append(&value, v) }
            entries.append((tag, 3, values.count, value))
        }
        func long(_ tag: UInt16, _ v: Int) {
            var value = Data()
            append(&value, UInt32(v))
            entries.append((tag, 4, 1, value))
        }
        let headerSize = 8
        long(256, width)
        long(257, height)
        shorts(258, Array(repeating: UInt16(bitsPerSample), count: samplesPerPixel))
        shorts(259, [1])
        shorts(262, [photometric.rawValue])
        long(273, headerSize)
        if let orientation { shorts(274, [orientation]) }
        shorts(277, [UInt16(samplesPerPixel)])
        long(278, height)
        long(279, pixels.count)
        shorts(284, [1])
        if !palette.isEmpty { shorts(320, palette.map(\.0) + palette.map(\.1) + palette.map(\.2)) }
        if let extraSample { shorts(338, [extraSample.rawValue]) }
        if floatingPoint { shorts(339, Array(repeating: 3, count: samplesPerPixel)) }
        if let iccProfile { entries.append((34675, 7, iccProfile.count, Data(iccProfile))) }

        // Header, pixels, the values too long to sit in their entries, then the directory.
        var file = Data(bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0])
        var outOfLine = Data()
        let outOfLineStart = headerSize + pixels.count
        var directory = Data()
        append(&directory, UInt16(entries.count))
        for entry in entries {
            append(&directory, entry.tag)
            append(&directory, entry.type)
            append(&directory, UInt32(entry.count))
            if entry.value.count <= 4 {
                directory.append(entry.value + Data(repeating: 0, count: 4 - entry.value.count))
            } else {
                append(&directory, UInt32(outOfLineStart + outOfLine.count))
                outOfLine.append(entry.value)
                if outOfLine.count % 2 == 1 { outOfLine.append(0) }  // offsets stay even
            }
        }
        append(&directory, UInt32(0))  // no next directory
        var directoryStart = outOfLineStart + outOfLine.count
        if directoryStart % 2 == 1 {
            outOfLine.append(0)
            directoryStart += 1
        }
        append(&file, UInt32(directoryStart))
        return file + pixels + outOfLine + directory
    }

    private func append<T: FixedWidthInteger>(_ data: inout Data, _ value: T) {
        let ordered = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: ordered) { data.append(contentsOf: $0) }
    }

    private func append(_ data: inout Data, _ value: Float) { append(&data, value.bitPattern) }
}
