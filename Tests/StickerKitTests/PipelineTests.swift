import Foundation
import StickerKit
import Testing
import TestSupport

/// Counts calls and the most that ran at once, around the real processor.
actor CallCounter {
    private(set) var calls = 0
    private(set) var running = 0
    private(set) var mostAtOnce = 0

    func begin() {
        calls += 1
        running += 1
        mostAtOnce = max(mostAtOnce, running)
    }

    func end() { running -= 1 }
}

struct CountingProcessor: PhotoProcessing {
    let inner = PhotoProcessor()
    let counter = CallCounter()
    var delay: Duration = .milliseconds(20)

    var fingerprint: String { inner.fingerprint }

    /// Ends its count before returning, so the pipeline never starts the next photo while
    /// this one still counts as running (a deferred `Task { await end() }` could run late
    /// and count a fourth photo at once under `jobs: 3` on a loaded machine).
    func process(_ data: Data) async throws -> ProcessedPhoto {
        await counter.begin()
        do {
            try await Task.sleep(for: delay)
            let photo = try await inner.process(data)
            await counter.end()
            return photo
        } catch {
            await counter.end()
            throw error
        }
    }
}

@Suite struct PipelineTests {
    /// `count` distinct photos in a new folder; returns the folder.
    static func photoFolder(count: Int, size: Int = 120) -> URL {
        let folder = TestFiles.temporaryFolder("photos")
        for index in 0..<count {
            let color = SIMD3<Float>(Float(40 + index * 9 % 180), 60, 160)
            let disc = Scene.Shape.disc(x: Double(size / 2), y: Double(size * 3 / 8), radius: Double(size / 4 + index % 7))
            let scene = Scene(width: size, height: size * 3 / 4, background: .plain([230, 228, 220]), shapes: [(disc, color)])
            try? TestFiles.jpeg(scene.render().image).write(to: folder.appendingPathComponent("photo-\(index).jpg"))
        }
        return folder
    }

    private func run(_ pipeline: BatchPipeline, _ folder: URL) async -> (BatchSummary, [PipelineEvent]) {
        var events: [PipelineEvent] = []
        let summary = await pipeline.run(BatchInputs([.path(folder.path)])) { events.append($0) }
        return (summary, events)
    }

    @Test func neverRunsMoreThanTheCapAndReportsEveryInputOnce() async throws {
        let folder = Self.photoFolder(count: 12)
        let output = TestFiles.temporaryFolder("out")
        let processor = CountingProcessor()
        let pipeline = BatchPipeline(processor: processor, cache: ResultCache(directory: nil), outputDirectory: output, jobs: 3)
        let (summary, events) = await run(pipeline, folder)
        #expect(await processor.counter.mostAtOnce <= 3)
        #expect(await processor.counter.mostAtOnce >= 2, "work overlapped")
        #expect(summary.finishedCount == 12 && summary.failedCount == 0)
        let started = events.compactMap { if case .started(let job) = $0 { job.index } else { nil } }
        let finished = events.compactMap { if case .finished(let item) = $0 { item.index } else { nil } }
        #expect(started.sorted() == Array(0..<12))
        #expect(finished.sorted() == Array(0..<12))
        for index in 0..<12 {
            let data = try Data(contentsOf: output.appendingPathComponent("photo-\(index).png"))
            #expect(try ImageDecoder.decode(data).declaresAlpha)
        }
    }

    @Test func identicalInputsAreProcessedOnce() async throws {
        let folder = Self.photoFolder(count: 1)
        let original = folder.appendingPathComponent("photo-0.jpg")
        for copy in 1...4 {
            try FileManager.default.copyItem(at: original, to: folder.appendingPathComponent("copy-\(copy).jpg"))
        }
        let output = TestFiles.temporaryFolder("out")
        let processor = CountingProcessor()
        let pipeline = BatchPipeline(processor: processor, cache: ResultCache(directory: nil), outputDirectory: output, jobs: 4)
        let (summary, _) = await run(pipeline, folder)
        #expect(await processor.counter.calls == 1)
        #expect(summary.computedCount == 1 && summary.cachedCount == 4)
        let first = try Data(contentsOf: output.appendingPathComponent("photo-0.png"))
        #expect(try Data(contentsOf: output.appendingPathComponent("copy-3.png")) == first)
    }

    @Test func rerunHitsTheDiskCacheWithIdenticalBytes() async throws {
        let folder = Self.photoFolder(count: 3)
        let cacheFolder = TestFiles.temporaryFolder("cache")
        let first = TestFiles.temporaryFolder("out1"), second = TestFiles.temporaryFolder("out2")
        let processor = CountingProcessor()
        _ = await run(BatchPipeline(processor: processor, cache: ResultCache(directory: cacheFolder), outputDirectory: first), folder)
        let (summary, _) = await run(BatchPipeline(processor: processor, cache: ResultCache(directory: cacheFolder),
                                                   outputDirectory: second), folder)
        #expect(await processor.counter.calls == 3)
        #expect(summary.cachedCount == 3)
        for index in 0..<3 {
            let name = "photo-\(index).png"
            #expect(try Data(contentsOf: first.appendingPathComponent(name)) == Data(contentsOf: second.appendingPathComponent(name)))
        }
    }

    @Test func changingAnOptionMissesTheCache() async throws {
        let folder = Self.photoFolder(count: 2)
        let cacheFolder = TestFiles.temporaryFolder("cache")
        let output = TestFiles.temporaryFolder("out")
        _ = await run(BatchPipeline(processor: PhotoProcessor(), cache: ResultCache(directory: cacheFolder), outputDirectory: output), folder)
        let smaller = PhotoProcessor(options: ProcessingOptions(sticker: StickerOptions(maxSize: 64)))
        let (summary, _) = await run(BatchPipeline(processor: smaller, cache: ResultCache(directory: cacheFolder),
                                                   outputDirectory: output), folder)
        #expect(summary.computedCount == 2)
        let data = try Data(contentsOf: output.appendingPathComponent("photo-0.png"))
        #expect(max(try ImageDecoder.decode(data).image.width, try ImageDecoder.decode(data).image.height) <= 64)
    }

    /// `--no-crop` is part of the key; the default names no crop option, so results made
    /// before the option existed are still hits.
    @Test func keepingTheFrameIsPartOfTheFingerprint() {
        let cropped = ProcessingOptions(), framed = ProcessingOptions(sticker: StickerOptions(cropsToSubject: false))
        #expect(!cropped.fingerprint.contains("crop"))
        #expect(framed.fingerprint == cropped.fingerprint + ";crop=none")
    }

    /// Ways a cache entry can be damaged on disk: a flipped byte, cut short, emptied.
    enum EntryDamage: CaseIterable, Sendable {
        case flippedByte, truncated, emptied

        func apply(to bytes: inout Data) {
            switch self {
            case .flippedByte: bytes[bytes.count - 10] ^= 0xFF
            case .truncated: bytes = bytes.prefix(bytes.count / 2)
            case .emptied: bytes = Data()
            }
        }
    }

    @Test(arguments: EntryDamage.allCases)
    func damagedCacheEntryIsAMiss(_ damage: EntryDamage) async throws {
        let folder = Self.photoFolder(count: 1)
        let cacheFolder = TestFiles.temporaryFolder("cache")
        let output = TestFiles.temporaryFolder("out")
        _ = await run(BatchPipeline(processor: PhotoProcessor(), cache: ResultCache(directory: cacheFolder), outputDirectory: output), folder)
        let entries = FileManager.default.enumerator(atPath: cacheFolder.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".stk") }
        #expect(entries.count == 1)
        let entry = cacheFolder.appendingPathComponent(entries[0])
        var bytes = try Data(contentsOf: entry)
        let intact = try Data(contentsOf: output.appendingPathComponent("photo-0.png"))
        damage.apply(to: &bytes)
        try bytes.write(to: entry)
        let (summary, _) = await run(BatchPipeline(processor: PhotoProcessor(), cache: ResultCache(directory: cacheFolder),
                                                   outputDirectory: output), folder)
        #expect(summary.computedCount == 1 && summary.failedCount == 0)
        #expect(try Data(contentsOf: output.appendingPathComponent("photo-0.png")) == intact)
    }

    @Test func aCorruptFileFailsAloneWithItsName() async throws {
        let folder = Self.photoFolder(count: 2)
        try Data("not really a jpeg".utf8).write(to: folder.appendingPathComponent("broken.jpg"))
        let output = TestFiles.temporaryFolder("out")
        let (summary, events) = await run(BatchPipeline(processor: PhotoProcessor(), cache: ResultCache(directory: nil),
                                                        outputDirectory: output), folder)
        #expect(summary.failedCount == 1 && summary.computedCount == 2)
        let failure = events.compactMap { if case .failed(let item) = $0 { item } else { nil } }.first
        #expect(failure?.source.hasSuffix("broken.jpg") == true)
        #expect(failure?.error == "not a PNG, JPEG, WebP, TIFF, GIF, JPEG XL, HEIC or AVIF image")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("broken.png").path))
    }

    @Test func cancellationStopsCleanly() async throws {
        let folder = Self.photoFolder(count: 30)
        let output = TestFiles.temporaryFolder("out")
        let processor = CountingProcessor(delay: .milliseconds(50))
        let pipeline = BatchPipeline(processor: processor, cache: ResultCache(directory: nil), outputDirectory: output, jobs: 2)
        // Cancelled from inside, when the first photo finishes: mid-batch however the
        // suite's other tests load the machine (a timed cancel could come after the end).
        let summary = await Task {
            await pipeline.run(BatchInputs([.path(folder.path)])) { event in
                if case .finished = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }.value
        #expect(summary.wasCancelled)
        #expect(summary.finishedCount < 30)
        let written = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(written.allSatisfy { !$0.hasPrefix(AtomicFile.temporaryPrefix) })
        #expect(written.count == summary.finishedCount)
    }

    @Test func outputNamesStayInsideAndNeverCollide() async throws {
        let folder = Self.photoFolder(count: 1)
        let photo = folder.appendingPathComponent("photo-0.jpg")
        try FileManager.default.copyItem(at: photo, to: folder.appendingPathComponent("photo-0.png"))
        let pipe = Pipe()
        let paths = [photo.path, folder.path + "/../" + folder.lastPathComponent + "/photo-0.png"]
        try pipe.fileHandleForWriting.write(contentsOf: Data(paths.joined(separator: "\n").utf8))
        try pipe.fileHandleForWriting.close()
        let list = PathListReader.paths(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, nulSeparated: false)
        var outputs: [String] = []
        for await job in BatchInputs([.pathList(list)]) { outputs.append(job.output) }
        try pipe.fileHandleForReading.close()   // read to its end by now; kept open until here
        #expect(outputs == ["photo-0.png", "photo-0.png.png"])
    }

    @Test func eachFileIsTakenOnceHoweverOftenTheInputsReachIt() async throws {
        let folder = Self.photoFolder(count: 2)
        let files = FileManager.default
        let inner = folder.appendingPathComponent("inner")
        try files.createDirectory(at: inner, withIntermediateDirectories: false)
        try files.moveItem(at: folder.appendingPathComponent("photo-1.jpg"), to: inner.appendingPathComponent("photo-1.jpg"))
        try files.createSymbolicLink(at: folder.appendingPathComponent("link.jpg"),
                                     withDestinationURL: folder.appendingPathComponent("photo-0.jpg"))
        let aliasOfFolder = TestFiles.temporaryFolder("alias").appendingPathComponent("photos")
        try files.createSymbolicLink(at: aliasOfFolder, withDestinationURL: folder)
        let sources: [BatchInputs.Source] = [
            .path(folder.path + "/./photo-0.jpg"), .path(folder.path), .path(inner.path),
            .path(inner.path + "/../photo-0.jpg"), .path(aliasOfFolder.path + "/photo-0.jpg"), .path(folder.path + "//photo-0.jpg"),
        ]
        var jobs: [BatchJob] = []
        for await job in BatchInputs(sources) { jobs.append(job) }
        // The folder's walk finds photo-0.jpg taken already; the link is a name of its own.
        #expect(jobs.map(\.output) == ["photo-0.png", "inner/photo-1.png", "link.png"])
        #expect(jobs.map(\.index) == [0, 1, 2])
    }

    @Test func pathsThatAreNotUTF8AreShownEscapedAndStillRead() async throws {
        let folder = Self.photoFolder(count: 1)
        let name: [UInt8] = Array("IMG".utf8) + [0xE9] + Array(" 写真.jpg".utf8)
        let path = RawPath(folder.path).appending(name)
        let photo = try Data(contentsOf: folder.appendingPathComponent("photo-0.jpg"))
        try #require(path.withCString { rename(folder.appendingPathComponent("photo-0.jpg").path, $0) } == 0)
        #expect(path.display.hasSuffix("/IMG\\xE9 写真.jpg"))
        var jobs: [BatchJob] = []
        for await job in BatchInputs([.path(folder.path)]) { jobs.append(job) }
        #expect(jobs.map(\.output) == ["IMG\\xE9 写真.png"])
        #expect(jobs.map(\.path) == [path])
        #expect(try InputFile.read(path) == photo)
    }
}
