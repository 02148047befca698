import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// `--prune` removes only what the last manifest listed, inside the folder, never through a link.
@Suite struct StaleOutputsTests {
    private func write(_ relativePath: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url)
    }

    private func exists(_ relativePath: String, in folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(relativePath).path)
    }

    @Test func listsTheManifestsOutputsAndCards() throws {
        let folder = TestFiles.temporaryFolder("out")
        #expect(StaleOutputs.listed(in: folder).isEmpty)
        let manifest = #"{"items":[{"index":0,"source":"a.jpg","status":"ok","output":"a.png","card":"a.card.png","ms":1},"#
            + #"{"index":1,"source":"b.jpg","status":"failed","ms":1,"error":"corrupt"}],"version":1}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        #expect(StaleOutputs.listed(in: folder) == ["a.png", "a.card.png"])
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("manifest.json"))
        #expect(StaleOutputs.listed(in: folder).isEmpty)
    }

    @Test func removesListedFilesAndTheFoldersTheyLeaveEmpty() throws {
        let root = TestFiles.temporaryFolder("prune")
        let folder = root.appendingPathComponent("out")
        for path in ["a.png", "deep/er/b.png", "deep/c.png", "kept.png"] { try write(path, in: folder) }
        try write("outside.png", in: root)
        // A link to a folder outside, and a link named like an output.
        try write("elsewhere/d.png", in: root)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("linked").path,
                                                   withDestinationPath: root.appendingPathComponent("elsewhere").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("e.png").path,
                                                   withDestinationPath: root.appendingPathComponent("outside.png").path)
        let (count, problem) = StaleOutputs.remove(["a.png", "deep/er/b.png", "missing.png", "../outside.png",
                                                    "/etc/hostname", "linked/d.png", "e.png", "deep/./c.png", ""],
                                                   from: folder)
        #expect(count == 2 && problem == nil)
        #expect(!exists("a.png", in: folder) && !exists("deep/er", in: folder))
        #expect(exists("deep/c.png", in: folder) && exists("kept.png", in: folder))
        #expect(exists("outside.png", in: root) && exists("elsewhere/d.png", in: root))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("e.png").path)) != nil)
    }
}
