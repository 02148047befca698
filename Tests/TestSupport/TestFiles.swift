import CImageCodecs
import Foundation
import StickerKit

/// Files and folders for tests: temporary folders, JPEG encoding, mask comparisons.
public enum TestFiles {
    /// The folder this test process keeps its temporary files in, removed with everything
    /// in it when the process exits, so that a run of the suite leaves nothing behind in
    /// the system's temporary folder (before, each run left a few hundred folders there).
    public static let processFolder: URL = {
        let url = processFolderURL()
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFiles.processFolderURL()) }
        return url
    }()

    /// Where `processFolder` is: named by the process ID, so concurrent runs do not meet.
    private static func processFolderURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stickerize-tests-\(getpid())")
    }

    /// A fresh, empty temporary folder inside `processFolder`.
    public static func temporaryFolder(_ name: String = "test") -> URL {
        let url = processFolder.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every `.png` directly in `folder` (stickers and cards, not the manifest), by name.
    public static func stickers(in folder: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".png") {
            found[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return found
    }

    /// Blocks until a finished sticker (a `.png` that is not a temporary file) appears in
    /// `folder`, looking every 10 ms at most `polls` times. It only lists names: reading a
    /// file another process is still writing races with its rename.
    public static func waitForFirstSticker(in folder: URL, polls: Int) {
        for _ in 0..<polls {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if names.contains(where: { $0.hasSuffix(".png") && !$0.hasPrefix(AtomicFile.temporaryPrefix) }) { return }
            CommandRunner.pause(milliseconds: 10)
        }
    }

    public static func png(_ image: RGBAImage) -> Data {
        (try? PNGEncoder().encode(image)) ?? Data()
    }

    /// Encodes with the libjpeg shim: colour kind, progressive scans, EXIF orientation, an
    /// embedded ICC profile.
    public static func jpeg(_ image: RGBAImage, quality: Int = 92, color: cic_jpeg_color = CIC_JPEG_YCBCR,
                            progressive: Bool = false, orientation: UInt32 = 0, iccProfile: [UInt8] = []) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = iccProfile.withUnsafeBufferPointer { profile in
            var options = cic_jpeg_options(quality: Int32(quality), color: color, progressive: progressive ? 1 : 0,
                                           exif_orientation: orientation, icc_profile: profile.baseAddress,
                                           icc_profile_length: profile.count)
            return image.pixels.withUnsafeBufferPointer { pixels in
                cic_jpeg_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height), &options,
                                &output, &length, &message, message.count)
            }
        }
        defer { cic_free(output) }
        guard status == CIC_OK, let output else { return Data() }
        return Data(bytes: output, count: length)
    }

    /// Intersection over union of two alpha masks thresholded at 0.5.
    /// The mean absolute difference of two images' samples (alpha included), in levels.
    public static func meanDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        zip(a.pixels, b.pixels).map { abs(Double($0) - Double($1)) }.reduce(0, +) / Double(a.pixels.count)
    }

    public static func iou(_ a: [Float], _ b: [Float]) -> Double {
        var intersection = 0, union = 0
        for i in a.indices {
            let x = a[i] >= 0.5, y = b[i] >= 0.5
            if x && y { intersection += 1 }
            if x || y { union += 1 }
        }
        return union == 0 ? 1 : Double(intersection) / Double(union)
    }

    /// The sticker's alpha placed back into a full frame of the source's size.
    public static func fullFrameAlpha(_ sticker: Sticker, width: Int, height: Int) -> [Float] {
        var alpha = [Float](repeating: 0, count: width * height)
        let crop = sticker.crop
        for y in 0..<crop.height {
            for x in 0..<crop.width {
                let sx = min(sticker.image.width - 1, Int(Double(x) * sticker.scale))
                let sy = min(sticker.image.height - 1, Int(Double(y) * sticker.scale))
                let tx = crop.x + x, ty = crop.y + y
                guard tx < width, ty < height else { continue }
                alpha[ty * width + tx] = Float(sticker.image.pixels[(sy * sticker.image.width + sx) * 4 + 3]) / 255
            }
        }
        return alpha
    }
}
