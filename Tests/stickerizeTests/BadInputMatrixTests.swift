import CImageCodecs
import Foundation
import StickerKit
import Testing
import TestSupport

/// Every kind of bad input in one batch, through the CLI: each gets one error line naming
/// it, the batch goes on, the exit code is 1, and every good file's sticker is
/// byte-identical to a run over the good files alone.
@Suite struct BadInputMatrixTests {
    let runner = CommandRunner()

    private static func photo(_ seed: UInt64, size: Int = 160) -> RGBAImage {
        var scene = Scene(width: size, height: size * 3 / 4, background: .gradient([235, 230, 222], [200, 196, 190]),
                          shapes: [(.disc(x: Double(size) / 2, y: Double(size) * 0.37, radius: Double(size) / 5), [40, 90, 170])])
        scene.seed = seed
        return scene.render().image
    }

    /// A 16-bit RGB PNG of `image` (each 8-bit sample repeated in the low byte).
    private static func sixteenBit(_ image: RGBAImage) -> Data {
        var samples: [Int] = []
        for index in 0..<image.width * image.height {
            for channel in 0..<3 { samples.append(Int(image.pixels[index * 4 + channel]) * 257) }
        }
        return TestPNGWriter(width: image.width, height: image.height, colorType: .rgb, bitDepth: 16, samples: samples).encode()
    }

    /// Good inputs by file name (bytes, as some names are not UTF-8).
    private static func goodFiles() throws -> [([UInt8], Data)] {
        [
            (Array("p000.jpg".utf8), TestFiles.jpeg(photo(1))),
            (Array("p001 with space.jpg".utf8), TestFiles.jpeg(photo(2))),
            (Array("写真.jpg".utf8), TestFiles.jpeg(photo(3))),
            (Array("IMG".utf8) + [0xE9] + Array(".jpg".utf8), TestFiles.jpeg(photo(4))),
            (Array("png-named-as.jpg".utf8), TestFiles.png(photo(5))),
            (Array("animated.png".utf8), HostileFiles.apng(from: TestFiles.png(photo(6)))),
            (Array("deep16.png".utf8), sixteenBit(photo(7))),
            (Array("cmyk.jpg".utf8), TestFiles.jpeg(photo(8), color: CIC_JPEG_CMYK_ADOBE)),
            (Array("scan.tiff".utf8), TestTIFFWriter(photo(11)).encode()),
            (Array("moving.gif".utf8), TestGIFWriter(photo(13), frames: 2).encode()),
            (Array("modern.jxl".utf8), try ExternalEncoder.jxl(TestFiles.png(photo(14)), options: ["-d", "1"])),
        ]
    }

    /// Bad inputs by file name, with what their error line must say and their `failure`.
    private static func badFiles() throws -> [(String, Data, String, FailureKind)] {
        let jpeg = TestFiles.jpeg(photo(9)), png = TestFiles.png(photo(10))
        let jxl = try ExternalEncoder.jxl(png, options: ["-d", "1"])
        var flippedHeader = png
        flippedHeader[18] ^= 0x40   // inside IHDR: its CRC no longer matches
        var badCRC = png
        badCRC[badCRC.count - 20] ^= 0xFF
        let frame = TestGIFWriter.Frame(width: 8, height: 8, indices: (0..<64).map { UInt8($0 % 2) })
        let plain = RGBAImage(width: 120, height: 90, pixels: (0..<120 * 90).flatMap { _ in [UInt8]([205, 200, 190, 255]) })
        let clear = RGBAImage(width: 40, height: 30, pixels: [UInt8](repeating: 0, count: 40 * 30 * 4))
        return [
            ("truncated-header.jpg", jpeg.prefix(40), "corrupt image", .corrupt),
            ("truncated-middle.jpg", jpeg.prefix(jpeg.count / 2), "corrupt image", .corrupt),
            ("truncated-end.jpg", jpeg.dropLast(2), "corrupt image", .corrupt),
            ("truncated.png", png.prefix(png.count * 2 / 3), "corrupt image", .corrupt),
            ("flipped-header.png", flippedHeader, "corrupt image", .corrupt),
            ("bad-crc.png", badCRC, "corrupt image", .corrupt),
            ("zero-bytes.jpg", Data(), "empty file", .notAnImage),
            ("not-an-image.png", Data("PK\u{3}\u{4} a zip, not a picture\n".utf8), "not a PNG, JPEG, WebP, TIFF, GIF, JPEG XL, HEIC or AVIF image", .notAnImage),
            ("no-image-data.png", HostileFiles.pngWithoutImageData(from: png), "corrupt image", .corrupt),
            ("bomb-header.png", HostileFiles.pngHeaderBomb(), "over the pixel budget", .tooLarge),
            ("bomb-data.png", HostileFiles.pngInflationBomb(width: 32, height: 32, inflatedBytes: 32 << 20), "goes on past", .corrupt),
            ("palette-range.png", HostileFiles.paletteIndexOutOfRange(), "palette index 7 is out of range", .corrupt),
            ("no-scans.jpg", HostileFiles.jpegWithoutScans(from: jpeg), "corrupt image", .corrupt),
            ("twelve-bit.jpg", HostileFiles.twelveBitJPEG(from: jpeg), "unsupported image: 12-bit JPEG", .unsupported),
            ("all-background.png", TestFiles.png(plain), "no subject found", .noSubject),
            ("fully-transparent.png", TestFiles.png(clear), "no subject found", .noSubject),
            ("one-pixel.png", TestFiles.png(RGBAImage(width: 1, height: 1, pixels: [10, 20, 30, 255])), "no subject found", .noSubject),
            ("one-row.png", TestFiles.png(RGBAImage(width: 50, height: 1, pixels: (0..<50).flatMap { [UInt8($0 * 5), 9, 9, 255] })), "no subject found", .noSubject),
            ("one-column.jpg", TestFiles.jpeg(RGBAImage(width: 1, height: 50, pixels: (0..<50).flatMap { [9, UInt8($0 * 5), 9, 255] })), "no subject found", .noSubject),
            ("truncated.tif", TestTIFFWriter(photo(12)).encode().dropLast(40), "corrupt image", .corrupt),
            ("truncated.jxl", jxl.prefix(jxl.count / 2), "corrupt image: JPEG XL data is corrupt or truncated", .corrupt),
            ("no-colours.gif", TestGIFWriter(screenWidth: 8, screenHeight: 8, palette: [], frames: [frame]).encode(),
             "corrupt image: GIF has no colour table", .corrupt),
        ]
    }

    private func write(_ data: Data, named name: [UInt8], in folder: URL) throws {
        let path = RawPath(folder.path).appending(name)
        let descriptor = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == data.count)
    }

    @Test func badInputsFailAloneAndGoodStickersAreByteIdentical() throws {
        let clean = TestFiles.temporaryFolder("matrix-good"), mixed = TestFiles.temporaryFolder("matrix-mixed")
        for (name, data) in try Self.goodFiles() {
            try write(data, named: name, in: clean)
            try write(data, named: name, in: mixed)
        }
        let bad = try Self.badFiles()
        for (name, data, _, _) in bad { try write(data, named: Array(name.utf8), in: mixed) }
        // Never opened: a link to a device and a FIFO in the walked folder.
        try FileManager.default.createSymbolicLink(atPath: mixed.appendingPathComponent("zero.jpg").path,
                                                   withDestinationPath: "/dev/zero")
        #expect(mkfifo(mixed.appendingPathComponent("pipe.png").path, 0o644) == 0)
        // Named, not skipped: a link named like a photo that leads nowhere.
        try FileManager.default.createSymbolicLink(atPath: mixed.appendingPathComponent("broken.jpg").path,
                                                   withDestinationPath: "nowhere.jpg")
        let missing = mixed.appendingPathComponent("vanished.jpg").path

        let reference = TestFiles.temporaryFolder("matrix-out-good"), out = TestFiles.temporaryFolder("matrix-out")
        let first = try runner.run([clean.path, "--out", reference.path, "--no-cache"])
        #expect(first.status == 0, "\(first.standardError)")
        let result = try runner.run([mixed.path, missing, "/dev/zero", "--out", out.path, "--no-cache", "-q"])
        #expect(result.status == 1)

        let lines = result.standardError.split(separator: "\n").map(String.init)
        for (name, _, message, _) in bad {
            let matching = lines.filter { $0.hasPrefix("stickerize: \(mixed.appendingPathComponent(name).path): ") }
            #expect(matching.count == 1, "\(name): \(lines)")
            #expect(matching.first?.contains(message) == true, "\(name): \(matching)")
        }
        #expect(lines.contains("stickerize: \(missing): cannot open: No such file or directory"))
        #expect(lines.contains("stickerize: /dev/zero: not a regular file"))
        #expect(lines.contains("stickerize: \(mixed.path)/broken.jpg: cannot open: No such file or directory"))
        #expect(lines.count == bad.count + 3, "\(lines)")

        let expected = try TestFiles.stickers(in: reference)
        #expect(expected.count == (try Self.goodFiles()).count)
        let got = try TestFiles.stickers(in: out)
        #expect(got == expected, "\(got.mapValues(\.count)) vs \(expected.mapValues(\.count))")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest.items.filter { $0.status == .failed }.count == bad.count + 3)
        let failures = Dictionary(uniqueKeysWithValues: manifest.items.map { ($0.source, $0.failure) })
        for (name, _, _, kind) in bad {
            #expect(failures[mixed.appendingPathComponent(name).path] == kind, "\(name)")
        }
        #expect(failures[missing] == .unreadable && failures["/dev/zero"] == .unreadable)
        #expect(failures[mixed.appendingPathComponent("broken.jpg").path] == .unreadable)
        #expect(manifest.items.allSatisfy { ($0.status == .failed) == ($0.failure != nil) })
        #expect(manifest.items.filter { $0.status == .ok }.count == expected.count)
    }
}
