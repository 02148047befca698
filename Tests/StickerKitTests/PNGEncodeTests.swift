import Foundation
import StickerKit
import Testing

/// PNG encoding, above all the speed-first writer's run-length deflate: every kind of block
/// it writes must decode to the exact pixels, through libdeflate (RGBA, our reader) and
/// through zlib (grey, libpng).
@Suite struct PNGEncodeTests {
    private func roundTrips(_ image: RGBAImage, _ encoder: PNGEncoder = PNGEncoder()) throws -> Data {
        let png = try encoder.encode(image)
        #expect(try ImageDecoder.decode(png).image == image)
        return png
    }

    private func noise(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func smallImagesRoundTrip() throws {
        let pixels = (0..<(17 * 9 * 4)).map { UInt8(($0 * 13) % 256) }
        for encoder in [PNGEncoder(), PNGEncoder.libpngDefault] {
            _ = try roundTrips(RGBAImage(width: 17, height: 9, pixels: pixels), encoder)
        }
        _ = try roundTrips(RGBAImage(width: 1, height: 1, pixels: [7, 7, 7, 7]))
        _ = try roundTrips(RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 0, 0, 0, 0, 9]))
    }

    /// Noise does not compress: its blocks are stored (several per Huffman block's span of
    /// input, as a stored block holds at most 65535 bytes), and cost barely more than the
    /// raw rows.
    @Test func incompressibleRowsAreStored() throws {
        let image = RGBAImage(width: 301, height: 200, pixels: noise(count: 301 * 200 * 4, seed: 1))
        let png = try roundTrips(image)
        #expect(png.count < (301 * 4 + 1) * 200 + 200)
    }

    /// Long runs (a transparent frame) become matches of every length, including runs
    /// longer than one match and the one- and two-byte leftovers after them.
    @Test func runsOfEveryLengthRoundTrip() throws {
        var pixels = [UInt8](repeating: 0, count: 640 * 300 * 4)
        let speckles = noise(count: pixels.count, seed: 2)
        for i in pixels.indices where (i / 4) % 640 > 200 && (i / 4) % 640 < 200 + (i / 2560) % 400 {
            pixels[i] = speckles[i] < 40 ? speckles[i] : 0   // runs of 1 to several hundred bytes
        }
        let image = RGBAImage(width: 640, height: 300, pixels: pixels)
        let png = try roundTrips(image)
        #expect(png.count < pixels.count / 8)
        let transparent = RGBAImage(width: 1024, height: 768, pixels: [UInt8](repeating: 0, count: 1024 * 768 * 4))
        #expect(try roundTrips(transparent).count < 8000)
    }

    /// Byte values with Fibonacci frequencies make Huffman's tree deeper than deflate's 15
    /// bits, so the code lengths must be limited and still form a valid code.
    @Test func skewedStatisticsGetLengthLimitedCodes() throws {
        var fibonacci = [1, 1]
        while fibonacci.count < 26 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        var bytes = fibonacci.enumerated().flatMap { value, count in [UInt8](repeating: UInt8(value * 9), count: count) }
        let order = noise(count: bytes.count * 4, seed: 3)
        for i in stride(from: bytes.count - 1, to: 0, by: -1) {   // a fixed shuffle, so runs are rare
            let j = (Int(order[4 * i]) << 16 | Int(order[4 * i + 1]) << 8 | Int(order[4 * i + 2])) % (i + 1)
            bytes.swapAt(i, j)
        }
        bytes += [UInt8](repeating: 1, count: (4 - bytes.count % 4) % 4)
        _ = try roundTrips(RGBAImage(width: bytes.count / 4, height: 1, pixels: bytes))
    }

    /// Masks are grey PNGs, which libpng (and zlib) decode.
    @Test func greyMasksRoundTrip() throws {
        let plane: [UInt8] = (0..<(333 * 251)).map { (i: Int) -> UInt8 in
            let x = i % 333
            if x < 100 { return 0 }
            return x < 120 ? UInt8((i * 37) % 256) : 255
        }
        let png = try PNGEncoder().encodeGrey(plane, width: 333, height: 251)
        let decoded = try ImageDecoder.decode(png).image
        #expect(decoded.width == 333 && decoded.height == 251)
        let greys = (0..<plane.count).map { decoded.pixels[$0 * 4] }
        let alphas = (0..<plane.count).map { decoded.pixels[$0 * 4 + 3] }
        #expect(greys == plane)
        #expect(alphas.allSatisfy { $0 == 255 })
    }
}
