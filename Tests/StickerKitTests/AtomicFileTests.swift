import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// Temporary files beside their destinations: their names fit however long the
/// destination's is, and a destination named as long as names go is written whole.
@Suite struct AtomicFileTests {
    @Test(arguments: ["a.png", String(repeating: "x", count: 251) + ".png", String(repeating: "é", count: 125) + ".png",
                      String(repeating: "🙂", count: 62) + ".png"])
    func temporaryNamesFitWhateverTheDestinationsLength(name: String) {
        let destination = URL(fileURLWithPath: "/tmp/out").appendingPathComponent(name)
        let temporary = AtomicFile.temporaryURL(for: destination).lastPathComponent
        #expect(temporary.utf8.count <= AtomicFile.longestName)
        #expect(temporary.hasPrefix(AtomicFile.temporaryPrefix) && temporary.hasSuffix(".png"))
        // The prefix, the process, a random number, then the destination's name, whole
        // characters cut from its front when needed.
        let tail = temporary.dropFirst(AtomicFile.temporaryPrefix.count).split(separator: "-", maxSplits: 2)[2]
        #expect(name.hasSuffix(tail) && (tail.count == name.count || temporary.utf8.count > AtomicFile.longestName - 4))
        #expect(AtomicFile.temporaryURL(for: destination) != AtomicFile.temporaryURL(for: destination))
    }

    @Test func aDestinationNamedAsLongAsNamesGoIsWrittenWhole() throws {
        let folder = TestFiles.temporaryFolder("atomic")
        let destination = folder.appendingPathComponent(String(repeating: "n", count: AtomicFile.longestName - 4) + ".png")
        let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try AtomicFile.write(bytes, to: destination)
        #expect(try Data(contentsOf: destination) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [destination.lastPathComponent])
    }

    /// `keepingIdentical` leaves a file that already holds the bytes alone (the same inode,
    /// so the same modification time) and replaces one that differs, even by one byte past
    /// the first block of the comparison.
    @Test func keepingIdenticalLeavesTheSameBytesAloneAndReplacesOthers() throws {
        let folder = TestFiles.temporaryFolder("atomic-identical")
        let destination = folder.appendingPathComponent("manifest.json")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 31 + $0 / 7) })
        try AtomicFile.write(bytes, to: destination)
        func inode() -> UInt64 {
            var info = stat()
            return stat(destination.path, &info) == 0 ? UInt64(info.st_ino) : 0
        }
        let first = inode()
        try AtomicFile.write(to: destination, keepingIdentical: true) { file throws(FileWriteError) in try file.write(bytes) }
        #expect(inode() == first)
        var changed = bytes
        changed[150_000] ^= 1
        try AtomicFile.write(to: destination, keepingIdentical: true) { file throws(FileWriteError) in try file.write(changed) }
        #expect(inode() != first)
        #expect(try Data(contentsOf: destination) == changed)
        try AtomicFile.write(to: destination, keepingIdentical: true) { file throws(FileWriteError) in try file.write(changed.prefix(10)) }
        #expect(try Data(contentsOf: destination) == changed.prefix(10))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["manifest.json"])
    }
}
