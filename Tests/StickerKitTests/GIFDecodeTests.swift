import Foundation
import StickerKit
import Testing
import TestSupport

/// GIF input through giflib: the first frame placed on its logical screen, transparency
/// kept, interlacing undone, an animation's first frame.
@Suite struct GIFDecodeTests {
    private static let palette: [(UInt8, UInt8, UInt8)] = [(250, 250, 250), (200, 30, 40), (20, 90, 200), (10, 10, 10), (0, 255, 0)]

    /// A `width` x `height` frame whose indices run through the palette's first four, no
    /// two rows nearby alike.
    private func frame(width: Int = 13, height: Int = 11) -> TestGIFWriter.Frame {
        let indices = (0..<(width * height)).map { index in
            let x = index % width, y = index / width
            return UInt8((x * 3 + y * 5 + y / 7) % 4)
        }
        return TestGIFWriter.Frame(width: width, height: height, indices: indices)
    }

    /// `frame`'s pixels through `palette`, with `transparent` at alpha 0.
    private func expected(_ frame: TestGIFWriter.Frame, palette: [(UInt8, UInt8, UInt8)] = Self.palette,
                          transparent: UInt8? = nil) -> [UInt8] {
        frame.indices.flatMap { index in
            let (r, g, b) = palette[Int(index)]
            return [r, g, b, index == transparent ? 0 : 255]
        }
    }

    @Test func aStillImageDecodesExactly() throws {
        let still = frame()
        let data = TestGIFWriter(screenWidth: 13, screenHeight: 11, palette: Self.palette, frames: [still]).encode()
        #expect(ImageFormat(sniffing: data) == .gif)
        let decoded = try ImageDecoder.decode(data)
        #expect(decoded.format == .gif && !decoded.declaresAlpha)
        #expect(decoded.image.width == 13 && decoded.image.height == 11)
        #expect(decoded.image.pixels == expected(still))
    }

    /// 300 rows: more than one clear code's worth of indices per row run, and every pass
    /// of the interlace.
    @Test func anInterlacedFrameComesOutInDisplayOrder() throws {
        var interlaced = frame(width: 9, height: 300)
        interlaced.interlaced = true
        let data = TestGIFWriter(screenWidth: 9, screenHeight: 300, palette: Self.palette, frames: [interlaced]).encode()
        #expect(try ImageDecoder.decode(data).image.pixels == expected(interlaced))
    }

    @Test func theTransparentIndexIsTransparentAndDeclared() throws {
        var still = frame()
        still.transparentIndex = 0
        let decoded = try ImageDecoder.decode(TestGIFWriter(screenWidth: 13, screenHeight: 11, palette: Self.palette,
                                                            frames: [still]).encode())
        #expect(decoded.declaresAlpha && decoded.image.hasTransparency)
        #expect(decoded.image.pixels == expected(still, transparent: 0))
    }

    /// A frame smaller than the logical screen sits at its offset; the rest is transparent.
    /// Its local colour table wins over the global one.
    @Test func aFrameIsPlacedOnItsScreenWithItsOwnColours() throws {
        let local: [(UInt8, UInt8, UInt8)] = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)]
        var small = frame(width: 4, height: 3)
        small.left = 5
        small.top = 2
        small.localPalette = local
        let decoded = try ImageDecoder.decode(TestGIFWriter(screenWidth: 12, screenHeight: 8, palette: Self.palette,
                                                            frames: [small]).encode())
        #expect(decoded.declaresAlpha && decoded.image.width == 12 && decoded.image.height == 8)
        let inside = expected(small, palette: local)
        for y in 0..<8 {
            for x in 0..<12 {
                let pixel = Array(decoded.image.pixels[((y * 12 + x) * 4)..<((y * 12 + x) * 4 + 4)])
                let covered = (5..<9).contains(x) && (2..<5).contains(y)
                let want = covered ? Array(inside[(((y - 2) * 4 + x - 5) * 4)..<(((y - 2) * 4 + x - 5) * 4 + 4)]) : [0, 0, 0, 0]
                #expect(pixel == want, "(\(x), \(y))")
            }
        }
    }

    /// An animation gives its first frame, whatever follows it (even damage).
    @Test func anAnimationGivesItsFirstFrame() throws {
        let first = frame()
        var second = frame()
        second.indices = second.indices.map { 3 - $0 }
        let data = TestGIFWriter(screenWidth: 13, screenHeight: 11, palette: Self.palette, frames: [first, second]).encode()
        #expect(try ImageDecoder.decode(data).image.pixels == expected(first))
        #expect(try ImageDecoder.decode(data.prefix(data.count - 30)).image.pixels == expected(first))
    }

    @Test func damageIsACorruptImageNotACrash() throws {
        let data = TestGIFWriter(screenWidth: 13, screenHeight: 11, palette: Self.palette, frames: [frame()]).encode()
        let noTable = TestGIFWriter(screenWidth: 13, screenHeight: 11, palette: [], frames: [frame()]).encode()
        for damaged in [data.prefix(8), data.prefix(40), data.prefix(data.count - 20), noTable] {
            #expect {
                try ImageDecoder.decode(Data(damaged))
            } throws: { error in
                guard case .corrupt(let reason) = error as? CodecError else { return false }
                return reason.contains("GIF")
            }
        }
        #expect(throws: CodecError.corrupt(reason: "GIF has no colour table")) { try ImageDecoder.decode(noTable) }
    }

    @Test func aScreenOverThePixelBudgetIsRefusedBeforeDecoding() throws {
        let data = TestGIFWriter(screenWidth: 60_000, screenHeight: 60_000, palette: Self.palette, frames: [frame()]).encode()
        #expect(throws: CodecError.tooManyPixels(width: 60_000, height: 60_000, limit: 1_000_000)) {
            try ImageDecoder.decode(data, options: DecodeOptions(maxPixels: 1_000_000))
        }
    }
}
