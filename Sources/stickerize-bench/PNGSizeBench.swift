import Foundation
import StickerKit

/// Compares the bytes of every sticker PNG in a folder with what libpng's defaults (zlib
/// level 6, adaptive filters) write for the same pixels, and times both encoders.
enum PNGSizeBench {
    static func run(_ arguments: [String]) throws {
        guard let folder = arguments.first else { throw CocoaError(.fileNoSuchFile) }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        var ours = 0, reference = 0
        var oursTime = 0.0, referenceTime = 0.0
        let clock = ContinuousClock()
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))
            let image = try ImageDecoder.decode(data).image
            var encoded = Data()
            oursTime += clock.measure { encoded = (try? PNGEncoder().encode(image)) ?? Data() }.milliseconds
            ours += encoded.count
            referenceTime += clock.measure { encoded = (try? PNGEncoder.libpngDefault.encode(image)) ?? Data() }.milliseconds
            reference += encoded.count
        }
        let ratio = Double(ours) / Double(max(reference, 1))
        let n = Double(max(names.count, 1))
        print(String(format: "png-size: %d stickers, %d bytes vs libpng default %d bytes (ratio %.3f); encode %.1f ms vs %.1f ms each",
                     names.count, ours, reference, ratio, oursTime / n, referenceTime / n))
        print(String(format: "png-size-ratio %.4f", ratio))
    }
}
