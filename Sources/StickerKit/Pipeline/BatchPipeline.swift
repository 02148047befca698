import FoundationEssentials

/// Processes a batch of photos concurrently, at most `jobs` at a time, writing each
/// sticker under the output folder as soon as it is ready.
///
/// A `withTaskGroup` starts `jobs` tasks, then one more each time one finishes, pulling
/// inputs lazily, so memory is bounded by the cap and not by the batch size. Each task
/// reads the file, hashes it, asks the `ResultCache` (which runs `PhotoProcessor` on a
/// miss) and writes the PNG atomically. Events are reported from the calling task, in
/// completion order, as they happen. Cancelling the calling task stops pulling inputs and
/// cancels the running work; `run` returns only when every task has ended, so nothing is
/// left half-written.
///
///     let summary = await pipeline.run(BatchInputs([.path("photos")])) { event in print(event) }
public struct BatchPipeline: Sendable {
    public var processor: any PhotoProcessing
    public var cache: ResultCache
    public var outputDirectory: URL
    /// When set, each sticker's full-frame alpha mask (`FullFrameMask`) is written here too,
    /// as a PNG at the sticker's relative path (`OutputNaming.maskName(of:)`).
    public var maskDirectory: URL?
    /// How each result becomes files (style, format, preset, card); plain PNG by default.
    public var rendition: StickerRendition
    public var jobs: Int

    public init(processor: any PhotoProcessing, cache: ResultCache, outputDirectory: URL, maskDirectory: URL? = nil,
                rendition: StickerRendition = StickerRendition(), jobs: Int = AvailableProcessors.count) {
        self.processor = processor
        self.cache = cache
        self.outputDirectory = outputDirectory
        self.maskDirectory = maskDirectory
        self.rendition = rendition
        self.jobs = max(1, jobs)
    }

    public func run<Inputs: AsyncSequence>(
        _ inputs: Inputs, isolation: isolated (any Actor)? = #isolation, onEvent: (PipelineEvent) -> Void
    ) async -> BatchSummary where Inputs.Element == BatchJob {
        var summary = BatchSummary()
        let outputFolders = outputFolderGuard
        await withTaskGroup(of: ManifestItem?.self) { group in
            var running = 0
            var iterator = inputs.makeAsyncIterator()
            func collect(_ item: ManifestItem?) {
                running -= 1
                guard let item else { return }
                summary.count(item)
                switch item.status {
                case .ok: onEvent(.finished(item))
                case .cached: onEvent(.cached(item))
                case .failed: onEvent(.failed(item))
                }
            }
            while !Task.isCancelled {
                if running >= jobs, let item = await group.next() {
                    collect(item)
                    continue
                }
                guard let job = try? await iterator.next(isolation: isolation), !Task.isCancelled else { break }
                onEvent(.started(job))
                running += 1
                group.addTask { await self.process(job, outputFolders: outputFolders) }
            }
            while let item = await group.next() { collect(item) }
        }
        summary.wasCancelled = Task.isCancelled
        return summary
    }

    /// Says what `run` would do with each input, in input order, without processing or
    /// writing anything: each file is hashed (unless the cache recorded its hash while it
    /// was unchanged) and its key looked up in the cache; an input inside an output folder
    /// fails, as it would in `run`. An error `onItem` throws ends the plan (a reader that
    /// went away wants no more lines) and is rethrown.
    public func plan<Inputs: AsyncSequence, Failure: Error>(
        _ inputs: Inputs, isolation: isolated (any Actor)? = #isolation,
        onItem: (PlannedInput) throws(Failure) -> Void
    ) async throws(Failure) where Inputs.Element == BatchJob {
        let outputFolders = outputFolderGuard
        var iterator = inputs.makeAsyncIterator()
        while !Task.isCancelled, let job = try? await iterator.next(isolation: isolation) {
            var item = PlannedInput(index: job.index, source: job.source, output: job.output, status: .failed)
            do {
                try outputFolders.check(job.path)
                let hash = try await recordedHash(of: job.path).hash ?? ContentHash(of: InputFile.read(job.path))
                item.sha256 = hash.hex
                let cached = await cache.contains(CacheKey(content: hash, fingerprint: processor.fingerprint))
                item.status = cached ? .cached : .new
            } catch {
                item.error = String(describing: error)
                item.failure = FailureKind(error)
            }
            try onItem(item)
        }
    }

    /// The output folders no input may lie in, resolved as they stand when a run starts.
    private var outputFolderGuard: OutputFolderGuard {
        OutputFolderGuard([outputDirectory] + (maskDirectory.map { [$0] } ?? []))
    }

    /// Reads, hashes, processes (or finds in the cache) and writes one input, unless it
    /// lies in an output folder. Returns nil when cancelled before it finished.
    private func process(_ job: BatchJob, outputFolders: OutputFolderGuard) async -> ManifestItem? {
        let clock = ContinuousClock()
        let start = clock.now
        var sha256: String?
        let elapsed = { (clock.now - start).milliseconds }
        var io = StageTimings()
        do {
            try Task.checkCancellation()
            try outputFolders.check(job.path)
            let (hash, key, result, source) = try await resolve(job, io: &io)
            sha256 = hash.hex
            try Task.checkCancellation()
            let renderStart = clock.now
            let files = try await rendered(result, key: key)
            let trayIcon = job.index == 0 ? try rendition.trayIcon(for: result) : nil
            let maskKey = CacheKey(rendering: key, as: FullFrameMask.fingerprint)
            let mask = maskDirectory == nil ? nil : try await cache.mask(maskKey) { try FullFrameMask.png(of: result) }
            io.render = (clock.now - renderStart).milliseconds
            try Task.checkCancellation()
            let writeStart = clock.now
            try writeIfChanged(files.sticker, to: job.output, under: outputDirectory)
            if let card = files.card, let name = job.card { try writeIfChanged(card, to: name, under: outputDirectory) }
            if let trayIcon { try writeIfChanged(trayIcon, to: StickerRendition.trayIconName, under: outputDirectory) }
            if let mask, let maskDirectory {
                try writeIfChanged(mask, to: OutputNaming.maskName(of: job.output), under: maskDirectory)
            }
            io.write = (clock.now - writeStart).milliseconds
            return .succeeded(job, sha256: hash.hex, result: result, status: source == .computed ? .ok : .cached,
                              files: files, io: io, ms: elapsed())
        } catch is CancellationError {
            return nil
        } catch {
            return .failed(job, sha256: sha256, ms: elapsed(), error: error)
        }
    }

    /// The input's content hash, its result's key and the result: straight from the cache
    /// when the cache has recorded this unchanged file's hash and holds its result (no
    /// read, no hash), else read, hashed, and found in or added to the cache.
    private func resolve(_ job: BatchJob, io: inout StageTimings)
        async throws -> (ContentHash, CacheKey, CachedResult, ResultCache.Source) {
        let (identity, recorded) = await recordedHash(of: job.path)
        if let recorded {
            let key = CacheKey(content: recorded, fingerprint: processor.fingerprint)
            if let (result, source) = await cache.cached(key) { return (recorded, key, result, source) }
        }
        let data: Data
        (data, io.read) = try StageTimings.measure { () throws(InputFileError) in try InputFile.read(job.path) }
        let hash: ContentHash
        (hash, io.hash) = StageTimings.measure { ContentHash(of: data) }
        let processor = processor
        let key = CacheKey(content: hash, fingerprint: processor.fingerprint)
        let (result, source) = try await cache.result(for: key) { CachedResult(try await processor.process(data)) }
        if let identity, hash != recorded { await cache.record(hash, for: identity) }
        return (hash, key, result, source)
    }

    /// The files to write for `result` (under `key`): what the cache kept from an earlier
    /// run's rendition, else made by the rendition and kept. A plain sticker is the
    /// result's PNG, nothing to make or keep.
    private func rendered(_ result: CachedResult, key: CacheKey) async throws -> StickerRendition.Files {
        guard let fingerprint = rendition.fingerprint else { return try rendition.render(result) }
        return try await cache.renderedFiles(CacheKey(rendering: key, as: fingerprint)) { try rendition.render(result) }
    }

    /// The input's `stat` identity, and the content hash the cache recorded for it while
    /// the file was unchanged, if any.
    private func recordedHash(of path: RawPath) async -> (identity: InputIdentity?, hash: ContentHash?) {
        guard let identity = InputIdentity(path) else { return (nil, nil) }
        return (identity, await cache.recordedHash(for: identity))
    }

    /// Writes atomically at `relativePath` inside `folder` (never through a link that would
    /// lead outside it), unless a regular file there already holds exactly these bytes (so
    /// a rerun leaves unchanged outputs untouched).
    private func writeIfChanged(_ data: Data, to relativePath: String, under folder: URL) throws(FileWriteError) {
        let url = folder.appendingPathComponent(relativePath)
        try ContainedFolder.createParents(of: url, under: folder)
        try AtomicFile.write(data, to: url, keepingIdentical: true)
    }
}
