// Using StickerKit from another Swift package: one photo, then a folder.
//
//     swift run using-stickerkit PHOTO FOLDER OUT
import Foundation
import StickerKit

@main
struct UsingStickerKit {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else {
            print("usage: using-stickerkit PHOTO FOLDER OUT")
            exit(2)
        }

        // One photo: decode, lift the subject, extract colours, encode the PNG.
        let photo = try await PhotoProcessor().process(Data(contentsOf: URL(fileURLWithPath: arguments[1])))
        print("sticker \(photo.sticker.image.width)x\(photo.sticker.image.height),",
              "palette", photo.colors.palette.map(\.hex).joined(separator: " "))

        // A folder: concurrent, cached by content, written atomically, with a die-cut outline.
        let pipeline = BatchPipeline(
            processor: PhotoProcessor(options: ProcessingOptions(sticker: StickerOptions(maxSize: 512))),
            cache: ResultCache(directory: nil),
            outputDirectory: URL(fileURLWithPath: arguments[3]),
            rendition: StickerRendition(style: StickerStyle(outline: 8)))
        try FileManager.default.createDirectory(atPath: arguments[3], withIntermediateDirectories: true)
        let summary = await pipeline.run(BatchInputs([.path(arguments[2])])) { event in
            if case .failed(let item) = event { print("failed: \(item.source): \(item.error ?? "")") }
        }
        print("\(summary.finishedCount) stickers, \(summary.failedCount) failed")
    }
}
