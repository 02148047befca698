// Prints the subject segmenter's ranking samples for a data set laid out like the dev set
// (cases.json, images/, gt/): one JSON object per candidate, with its case, how it was
// found, its IoU with the truth and its features. Scripts/train-segmentation-ranker reads
// them; nothing else needs this tool.
//
//     stickerize-ranker-samples DATASET > samples.jsonl
import Foundation
import StickerKit

/// The cases of the data set at `root`: (id, input path, truth path).
func cases(in root: URL) throws -> [(id: String, input: URL, truth: URL)] {
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("cases.json")))
    guard let entries = (manifest as? [String: Any])?["cases"] as? [[String: Any]] else {
        throw CocoaError(.fileReadCorruptFile)
    }
    return entries.compactMap { entry in
        guard let id = entry["id"] as? String, let input = entry["input"] as? String, let truth = entry["gt"] as? String
        else { return nil }
        return (id, root.appendingPathComponent(input), root.appendingPathComponent(truth))
    }
}

/// `object` as one line of JSON.
func jsonLine(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: stickerize-ranker-samples DATASET\n".utf8))
    exit(2)
}

let processor = PhotoProcessor()
let decodeOptions = processor.decodeOptions
let workingSize = processor.options.sticker.workingSize
let dataset = URL(fileURLWithPath: CommandLine.arguments[1])
do {
    print(try jsonLine(["features": SegmentationRanker.featureNames]))
    for item in try cases(in: dataset) {
        let photo = try ImageDecoder.decode(Data(contentsOf: item.input), options: decodeOptions)
        guard !photo.declaresAlpha else { continue }
        let truth = try ImageDecoder.decode(Data(contentsOf: item.truth)).image
        let samples = try SubjectSegmenter.rankingSamples(photo.image, workingSize: workingSize, truth: truth)
        for sample in samples {
            print(try jsonLine(["case": item.id, "start": sample.start, "iou": sample.iou,
                                "features": sample.features.map(Double.init)]))
        }
    }
} catch {
    // One line naming the data set, not a crash's backtrace (a missing cases.json, an
    // unreadable image).
    FileHandle.standardError.write(Data("stickerize-ranker-samples: \(dataset.path): \(error.localizedDescription)\n".utf8))
    exit(1)
}
