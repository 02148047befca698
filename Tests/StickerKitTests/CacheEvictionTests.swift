import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// The disk cache is trimmed to its limit, least recently used entries first, and nothing
/// but the cache's own files is ever removed.
@Suite struct CacheEvictionTests {
    private static let day: TimeInterval = 86_400

    /// Writes `bytes` bytes at `relativePath` under `folder`, last modified `age` seconds ago.
    @discardableResult
    private func file(_ relativePath: String, in folder: URL, bytes: Int = 8192, age: TimeInterval) throws -> URL {
        let url = folder.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 7, count: bytes).write(to: url)
        try setAge(url, age)
        return url
    }

    private func setAge(_ url: URL, _ age: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
    }

    private func age(_ url: URL) throws -> TimeInterval {
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        return -modified.timeIntervalSinceNow
    }

    /// What the file takes on disk, as the trim counts it.
    private func diskBytes(_ url: URL) -> Int64 {
        var info = stat()
        return lstat(url.path, &info) == 0 ? Int64(info.st_blocks) * 512 : 0
    }

    private static func hexName(_ index: Int) -> String {
        String(repeating: String(format: "%02x", index), count: 32)
    }

    @Test func removesTheLeastRecentlyUsedEntriesAndOnlyTheCachesOwnFiles() throws {
        let cache = TestFiles.temporaryFolder("cache")
        // Ten result entries, entry k last used k days ago, and two index entries.
        let results = try (1...10).map { try file("\(Self.hexName($0).prefix(2))/\(Self.hexName($0)).stk", in: cache,
                                                    age: Double($0) * Self.day) }
        let recentIndex = try file("inputs/aa/\(Self.hexName(0xaa))", in: cache, bytes: 200, age: 60)
        let oldIndex = try file("inputs/bb/\(Self.hexName(0xbb))", in: cache, bytes: 200, age: 30 * Self.day)
        // Not the cache's: other names, a link named like an entry, a folder not named like a shard.
        let foreign = try [
            file("notes.txt", in: cache, bytes: 100_000, age: 90 * Self.day),
            file("01/readme", in: cache, age: 90 * Self.day),
            file("01/\(Self.hexName(1)).png", in: cache, age: 90 * Self.day),
            file("xyz/\(Self.hexName(3)).stk", in: cache, age: 90 * Self.day),
        ]
        let linkTarget = try file("target.bin", in: cache, age: 90 * Self.day)
        try FileManager.default.createSymbolicLink(atPath: cache.appendingPathComponent("02/\(Self.hexName(0x22)).stk").path,
                                                   withDestinationPath: linkTarget.path)
        // A write abandoned two days ago, and one in progress.
        let abandoned = try file("03/\(AtomicFile.temporaryPrefix)1-2-\(Self.hexName(3)).stk", in: cache, age: 2 * Self.day)
        let inProgress = try file("inputs/aa/\(AtomicFile.temporaryPrefix)1-3-\(Self.hexName(0xaa))", in: cache, age: 5)

        let entries = results + [recentIndex, oldIndex]
        let before = entries.reduce(0) { $0 + diskBytes($1) } + diskBytes(abandoned)
        let limit = 6 * diskBytes(results[0])
        let report = CacheEviction.trim(cache, limit: limit)

        let exists = { (url: URL) in FileManager.default.fileExists(atPath: url.path) }
        // Oldest first until at most four fifths of the limit is left: the index entry of 30
        // days and result entries 10 down to 6 days old go; the newer ones stay.
        let kept = entries.filter(exists)
        #expect(kept == Array(results[0..<4]) + [recentIndex])
        #expect(kept.reduce(0) { $0 + diskBytes($1) } <= Int64(Double(limit) * 0.8))
        // A write in progress is neither counted nor removed.
        #expect(report.bytesBefore == before && report.bytesAfter == kept.reduce(0) { $0 + diskBytes($1) })
        #expect(report.removedFiles == 8 && report.problem == nil)
        #expect(!exists(abandoned) && exists(inProgress))
        #expect(foreign.allSatisfy(exists) && exists(linkTarget))
    }

    @Test func underTheLimitOnlyAbandonedWritesGo() throws {
        let cache = TestFiles.temporaryFolder("cache")
        let entry = try file("0a/\(Self.hexName(0x0a)).stk", in: cache, age: 400 * Self.day)
        let abandoned = try file("0a/\(AtomicFile.temporaryPrefix)9-9-x.stk", in: cache, age: 3 * Self.day)
        let report = CacheEviction.trim(cache, limit: 1 << 30)
        #expect(FileManager.default.fileExists(atPath: entry.path))
        #expect(!FileManager.default.fileExists(atPath: abandoned.path) && report.removedFiles == 1)
        #expect(CacheEviction.trim(TestFiles.temporaryFolder("empty").appendingPathComponent("none"), limit: 1) == .init())
    }

    /// Runs the pipeline over `folder` with a fresh `ResultCache` on `directory`, and returns it.
    private func run(_ folder: URL, cache directory: URL) async -> ResultCache {
        let cache = ResultCache(directory: directory)
        let pipeline = BatchPipeline(processor: PhotoProcessor(), cache: cache, outputDirectory: TestFiles.temporaryFolder("out"))
        _ = await pipeline.run(BatchInputs([.path(folder.path)])) { _ in }
        return cache
    }

    private func resultEntries(_ cache: URL) -> [URL] {
        (FileManager.default.enumerator(atPath: cache.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".stk") }.sorted().map { cache.appendingPathComponent($0) }
    }

    @Test func aHitMarksAnEntryUsedAtMostHourly() async throws {
        let folder = PipelineTests.photoFolder(count: 2)
        let cache = TestFiles.temporaryFolder("cache")
        _ = await run(folder, cache: cache)
        let entries = resultEntries(cache)
        try #require(entries.count == 2)
        try setAge(entries[0], 3 * Self.day)
        try setAge(entries[1], 1800)
        _ = await run(folder, cache: cache)
        #expect(try age(entries[0]) < 60)
        #expect(try abs(age(entries[1]) - 1800) < 60)
    }

    @Test func onlyARunThatAddedToTheCacheTrimsIt() async throws {
        let folder = PipelineTests.photoFolder(count: 2)
        let cache = TestFiles.temporaryFolder("cache")
        let first = await run(folder, cache: cache)
        await ResultCache(directory: cache).evictIfGrown(limit: 1)
        #expect(resultEntries(cache).count == 2)
        await first.evictIfGrown(limit: 0)
        #expect(resultEntries(cache).count == 2)
        await first.evictIfGrown(limit: 1)
        #expect(resultEntries(cache).isEmpty)
        #expect(await first.writeWarning == nil)
    }
}
