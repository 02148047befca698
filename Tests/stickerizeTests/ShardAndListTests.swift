import Foundation
import StickerKit
import Testing
import TestSupport

/// `--shard I/N` splits a batch across CI jobs exactly and stably; `--list` says what a
/// run would do and writes nothing.
@Suite struct ShardAndListTests {
    let runner = CommandRunner()

    @Test func shardsCoverEveryInputOnceWithTheSameBytes() throws {
        let photos = CommandLineTests.photos(9)
        // Two inputs competing for one output must share a shard to keep their names.
        try FileManager.default.copyItem(at: photos.appendingPathComponent("p003.jpg"),
                                         to: photos.appendingPathComponent("p004.jpeg"))
        let whole = TestFiles.temporaryFolder("shard-whole")
        #expect(try runner.run([photos.path, "--out", whole.path, "--no-cache", "-q"]).status == 0)
        let expected = try TestFiles.stickers(in: whole)
        #expect(expected.keys.contains("p004.jpg.png"))

        let out = TestFiles.temporaryFolder("shard-out"), cache = TestFiles.temporaryFolder("shard-cache")
        var seen: [String: Int] = [:]
        for index in 1...3 {
            let part = TestFiles.temporaryFolder("shard-part")
            let result = try runner.run([photos.path, "--shard", "\(index)/3", "--out", part.path, "--cache", cache.path, "-q"])
            #expect(result.status == 0, "\(result.standardError)")
            for (name, data) in try TestFiles.stickers(in: part) {
                seen[name, default: 0] += 1
                try data.write(to: out.appendingPathComponent(name))
            }
        }
        #expect(seen.values.allSatisfy { $0 == 1 })
        #expect(try TestFiles.stickers(in: out) == expected)
    }

    @Test func aFileStaysInItsShardWhateverTheOrderAndTheOtherFiles() throws {
        let photos = CommandLineTests.photos(8)
        let names = (0..<8).map { String(format: "p%03d.jpg", $0) }
        func shardOf(_ list: [String]) throws -> [String: Int] {
            var shard: [String: Int] = [:]
            for index in 1...4 {
                let paths = list.map { $0 + "\n" }.joined()
                let result = try runner.run(["-", "--shard", "\(index)/4", "--list", "--no-cache", "-q"],
                                            input: Data(paths.utf8), directory: photos)
                for line in result.standardOutput.split(separator: "\n") {
                    shard[String(line.split(separator: " ").last!)] = index
                }
            }
            return shard
        }
        let all = try shardOf(names)
        #expect(all.count == 8)
        #expect(Set(all.values).count > 1, "8 files all in one of 4 shards: \(all)")
        #expect(try shardOf(names.reversed()) == all)
        let some = try shardOf(Array(names.prefix(3)))
        #expect(some == all.filter { some.keys.contains($0.key) })
    }

    @Test func listWritesNothingAndKnowsTheCacheHits() throws {
        let photos = CommandLineTests.photos(3)
        let out = TestFiles.temporaryFolder("list-root").appendingPathComponent("out")
        let cache = TestFiles.temporaryFolder("list-cache")
        let before = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--list"])
        #expect(before.status == 0)
        #expect(before.standardOutput == (0..<3).map {
            String(format: "new    %@/p%03d.jpg -> p%03d.png\n", photos.path, $0, $0)
        }.joined())
        #expect(before.standardError == "3 photos: 3 new, 0 cached, 0 unreadable (dry run: nothing written)\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty)

        try FileManager.default.removeItem(at: photos.appendingPathComponent("p002.jpg"))
        #expect(try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "-q"]).status == 0)
        try FileManager.default.copyItem(at: CommandLineTests.photos(3).appendingPathComponent("p002.jpg"),
                                         to: photos.appendingPathComponent("p002.jpg"))
        let missing = photos.appendingPathComponent("missing.jpg").path
        let after = try runner.run([photos.path, missing, "--out", out.path, "--cache", cache.path, "--list", "--json"])
        #expect(after.status == 1)
        let items = try after.standardOutput.split(separator: "\n").map {
            try JSONDecoder().decode(PlannedInput.self, from: Data($0.utf8))
        }
        #expect(items.map(\.status) == [.cached, .cached, .new, .failed])
        #expect(items.map(\.output) == ["p000.png", "p001.png", "p002.png", "missing.png"])
        #expect(items[3].error == "cannot open: No such file or directory")
    }
}
