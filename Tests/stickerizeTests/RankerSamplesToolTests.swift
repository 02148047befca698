import Foundation
import StickerKit
import Testing
import TestSupport

/// `stickerize-ranker-samples`, the tool Scripts/train-segmentation-ranker reads: run over
/// a two-case data set laid out like the dev set, it names the features, then prints
/// every candidate of the opaque photo with its IoU against the truth, and skips the
/// photo that brings its own alpha; a folder that is no data set gets one line of error.
@Suite struct RankerSamplesToolTests {
    @Test func printsEachCandidatesFeaturesAndIoU() throws {
        let root = TestFiles.temporaryFolder("ranker-samples")
        for folder in ["images", "gt"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true)
        }
        let rendered = Scene(width: 400, height: 300, background: .texture([120, 140, 90], amplitude: 25),
                             shapes: [(.disc(x: 200, y: 150, radius: 70), [200, 60, 50])]).render()
        var truth = rendered.image
        var cutOut = rendered.image
        for (index, alpha) in rendered.mask.enumerated() {
            for channel in 0..<3 { truth.pixels[index * 4 + channel] = UInt8((alpha * 255).rounded()) }
            cutOut.pixels[index * 4 + 3] = UInt8((alpha * 255).rounded())
        }
        try TestFiles.jpeg(rendered.image).write(to: root.appendingPathComponent("images/disc.jpg"))
        try TestFiles.png(cutOut).write(to: root.appendingPathComponent("images/cutout.png"))
        for name in ["disc", "cutout"] { try TestFiles.png(truth).write(to: root.appendingPathComponent("gt/\(name).png")) }
        let cases = [["id": "disc", "input": "images/disc.jpg", "gt": "gt/disc.png"],
                     ["id": "cutout", "input": "images/cutout.png", "gt": "gt/cutout.png"]]
        try JSONSerialization.data(withJSONObject: ["cases": cases]).write(to: root.appendingPathComponent("cases.json"))

        let result = try CommandRunner("stickerize-ranker-samples").run([root.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = try result.standardOutput.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let names = try #require(lines.first?["features"] as? [String])
        #expect(names.contains("agreement") && names.contains("frameShare"))
        let samples = lines.dropFirst()
        #expect(samples.count >= 2 && samples.allSatisfy { $0["case"] as? String == "disc" })
        #expect(samples.allSatisfy { ($0["features"] as? [Double])?.count == names.count })
        #expect(samples.map { $0["start"] as? String }.last == "guess")
        let best = samples.compactMap { $0["iou"] as? Double }.max() ?? 0
        #expect(best > 0.95, "best candidate IoU \(best)")

        let usage = try CommandRunner("stickerize-ranker-samples").run([])
        #expect(usage.status == 2 && usage.standardError.hasPrefix("usage:"))
        // A folder that is no data set: one line naming it, not a crash.
        let missing = root.appendingPathComponent("images").path
        let notADataSet = try CommandRunner("stickerize-ranker-samples").run([missing])
        #expect(notADataSet.status == 1, "\(notADataSet.standardError)")
        #expect(notADataSet.standardError.hasPrefix("stickerize-ranker-samples: \(missing): "))
        #expect(notADataSet.standardError.split(separator: "\n").count == 1, "\(notADataSet.standardError)")
    }
}
