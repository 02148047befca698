import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// A rerun over unchanged files skips reading and hashing them; any rewrite is noticed.
@Suite struct InputHashIndexTests {
    private func run(_ folder: URL, cache: URL) async -> [ManifestItem] {
        let pipeline = BatchPipeline(processor: PhotoProcessor(), cache: ResultCache(directory: cache),
                                     outputDirectory: TestFiles.temporaryFolder("out"))
        var items: [ManifestItem] = []
        _ = await pipeline.run(BatchInputs([.path(folder.path)])) { event in
            switch event {
            case .finished(let item), .cached(let item), .failed(let item): items.append(item)
            case .started: break
            }
        }
        return items.sorted { $0.index < $1.index }
    }

    private func indexEntries(_ cache: URL) -> [URL] {
        let inputs = cache.appendingPathComponent("inputs")
        return (FileManager.default.enumerator(atPath: inputs.path)?.compactMap { $0 as? String } ?? [])
            .map { inputs.appendingPathComponent($0) }
            .filter { (try? FileManager.default.attributesOfItem(atPath: $0.path)[.type] as? FileAttributeType) == .typeRegular }
    }

    @Test func settledFilesAreServedWithoutReadingAndRewritesAreNoticed() async throws {
        let folder = PipelineTests.photoFolder(count: 2)
        let cache = TestFiles.temporaryFolder("cache")
        // Only files last changed over two seconds ago are recorded (see `isSettled`).
        try await Task.sleep(for: .milliseconds(2100))
        let first = await run(folder, cache: cache)
        #expect(first.allSatisfy { $0.status == .ok && $0.timings!.read > 0 })
        #expect(indexEntries(cache).count == 2)

        let second = await run(folder, cache: cache)
        #expect(second.allSatisfy { $0.status == .cached && $0.timings!.read == 0 && $0.timings!.hash == 0 })
        #expect(second.map(\.sha256) == first.map(\.sha256))

        // Same length, other bytes, and the old modification time put back: the
        // status-change time still tells, so the file is read and fails as what it now is.
        let photo = folder.appendingPathComponent("photo-0.jpg").path
        var before = stat()
        #expect(stat(photo, &before) == 0)
        let descriptor = open(photo, O_WRONLY)
        let garbage = [UInt8](repeating: 0x5A, count: Int(before.st_size))
        #expect(pwrite(descriptor, garbage, garbage.count, 0) == garbage.count)
        close(descriptor)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, photo, &times, 0) == 0)
        var after = stat()
        #expect(stat(photo, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size
                && after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let third = await run(folder, cache: cache)
        #expect(third[0].status == .failed && third[0].sha256 != first[0].sha256)
        #expect(third[1].status == .cached && third[1].timings!.read == 0)
    }

    @Test func aCorruptIndexEntryIsAMiss() async throws {
        let folder = PipelineTests.photoFolder(count: 1)
        let cache = TestFiles.temporaryFolder("cache")
        let photo = RawPath(folder.appendingPathComponent("photo-0.jpg").path)
        let identity = try #require(InputIdentity(photo))
        let hash = ContentHash(of: try InputFile.read(photo))
        try InputHashIndex.record(hash, for: identity, in: cache)
        #expect(InputHashIndex.hash(for: identity, in: cache) == hash)

        let entry = InputHashIndex.entryURL(identity, in: cache)
        var bytes = try Data(contentsOf: entry)
        bytes[10] = bytes[10] == 0x30 ? 0x31 : 0x30   // one digit of the identity key
        try bytes.write(to: entry)
        #expect(InputHashIndex.hash(for: identity, in: cache) == nil)
        try Data("STKI1\n".utf8).write(to: entry)
        #expect(InputHashIndex.hash(for: identity, in: cache) == nil)
    }

    @Test func settledMeansOlderThanTwoSeconds() throws {
        let folder = TestFiles.temporaryFolder("settle")
        let file = folder.appendingPathComponent("a.jpg")
        try Data([1, 2, 3]).write(to: file)
        let identity = try #require(InputIdentity(RawPath(file.path)))
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        #expect(!identity.isSettled(now: now))
        #expect(identity.isSettled(now: now + 3_000_000_000))
        #expect(InputIdentity(RawPath(folder.path)) == nil)   // a folder has no identity
    }
}
