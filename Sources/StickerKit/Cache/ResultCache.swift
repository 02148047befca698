import FoundationEssentials
import Glibc

/// Results keyed by content hash and options, in memory for this run and on disk across
/// runs (and processes).
///
/// Identical inputs within a run are processed once: the first request starts a task and
/// later requests for the same key await that same task (the actor is re-entrant, so the
/// table is re-checked only through non-suspending code). The last few completed results
/// stay in memory too (first in, first out), so memory does not grow with the batch;
/// with a disk cache every later repeat is a disk hit. The disk layer is a
/// content-addressed folder of checksummed entries written temp-then-rename, so two
/// processes may share it, and a corrupt entry is a miss. A cache that cannot be written
/// is a warning, never a failure. Beside the results it keeps the files a rendition made
/// from them (`renderedFiles`) and their masks (`mask`), so a rerun with a style, a
/// format, a preset, cards or masks need not make them again; and `InputHashIndex`
/// remembers the content hash of unchanged input files, so a rerun need not read them.
public actor ResultCache {
    /// Where a result came from.
    public enum Source: Sendable, Equatable {
        case computed
        case memory
        case disk
    }

    public nonisolated let directory: URL?
    private var inFlight: [CacheKey: Task<(CachedResult, Source), any Error>] = [:]
    private var recent: [CacheKey: CachedResult] = [:]
    private var recentOrder: [CacheKey] = []
    private let recentCapacity: Int
    /// The first problem met while writing to disk, if any (reported once by callers).
    public private(set) var writeWarning: String?
    /// Whether this run added to the disk cache (a result or an input's hash).
    private var hasGrown = false

    public init(directory: URL?, recentCapacity: Int = 16) {
        self.directory = directory
        self.recentCapacity = recentCapacity
    }

    /// The cached result for `key`, or `compute`'s, which is then stored.
    public func result(for key: CacheKey,
                       compute: @escaping @Sendable () async throws -> CachedResult) async throws -> (CachedResult, Source) {
        if let result = recent[key] { return (result, .memory) }
        if let task = inFlight[key] {
            let (result, _) = try await ResultCache.value(of: task)
            return (result, .memory)
        }
        let directory = directory
        let task = Task { () async throws -> (CachedResult, Source) in
            if let stored = await ResultCache.load(key, from: directory, decode: DiskCacheEntry.decode) {
                return (stored, .disk)
            }
            let result = try await compute()
            await self.noteWrite(ResultCache.store(key, in: directory) { try DiskCacheEntry.encode(result) })
            return (result, .computed)
        }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let outcome = try await ResultCache.value(of: task)
        remember(outcome.0, for: key)
        return outcome
    }

    /// The result for `key` if it is held without computing: in memory, being computed,
    /// or an intact disk entry.
    public func cached(_ key: CacheKey) async -> (CachedResult, Source)? {
        if let result = recent[key] { return (result, .memory) }
        if let task = inFlight[key] {
            guard let (result, _) = try? await ResultCache.value(of: task) else { return nil }
            return (result, .memory)
        }
        guard let stored = await ResultCache.load(key, from: directory, decode: DiskCacheEntry.decode) else { return nil }
        remember(stored, for: key)
        return (stored, .disk)
    }

    /// Whether `result(for: key)` would be served without computing (an intact entry).
    public func contains(_ key: CacheKey) async -> Bool {
        await cached(key) != nil
    }

    /// The files a rendition makes from a result, kept under `key`
    /// (`CacheKey(rendering:as:)`): an intact disk entry's, else `make`'s, then stored.
    public nonisolated func renderedFiles(_ key: CacheKey,
                                          make: () throws -> StickerRendition.Files) async throws -> StickerRendition.Files {
        try await made(key, decode: DiskCacheEntry.decodeFiles, encode: DiskCacheEntry.encode, make: make)
    }

    /// A result's full-frame mask PNG, kept under `key`
    /// (`CacheKey(rendering:as: FullFrameMask.fingerprint)`), as `renderedFiles` keeps files.
    public nonisolated func mask(_ key: CacheKey, make: () throws -> Data) async throws -> Data {
        try await made(key, decode: DiskCacheEntry.decodeMask, encode: DiskCacheEntry.encode(mask:), make: make)
    }

    /// What was made from a result under `key`: from disk, else `make`'s (run by the
    /// caller's task, not on the actor), stored for later runs (disk only: a run makes
    /// each once); a failure to store is the cache's write warning.
    private nonisolated func made<Entry: Sendable>(_ key: CacheKey, decode: @escaping @Sendable (Data) -> Entry?,
                                                   encode: @escaping @Sendable (Entry) throws -> Data,
                                                   make: () throws -> Entry) async throws -> Entry {
        if let stored = await ResultCache.load(key, from: directory, decode: decode) { return stored }
        let entry = try make()
        let problem = await ResultCache.store(key, in: directory) { try encode(entry) }
        await noteWrite(problem)
        return entry
    }

    /// The content hash recorded for the unchanged input file with this identity, if any.
    @concurrent
    nonisolated func recordedHash(for identity: InputIdentity) async -> ContentHash? {
        guard let directory else { return nil }
        return InputHashIndex.hash(for: identity, in: directory)
    }

    /// Records an input file's content hash for later runs, if the file is settled
    /// (`InputIdentity.isSettled`); a failure to write is the cache's write warning.
    func record(_ hash: ContentHash, for identity: InputIdentity) async {
        guard let directory, identity.isSettled(now: timespec.wallClockNow.nanoseconds) else {
            return
        }
        noteWrite(await ResultCache.record(hash, for: identity, in: directory))
    }

    /// Trims the disk cache to `limit` bytes (`CacheEviction`) if this run added to it; a
    /// limit of 0 is none.
    public func evictIfGrown(limit: Int64) async {
        guard hasGrown, limit > 0, let directory else { return }
        if let problem = await ResultCache.evict(in: directory, limit: limit) { noteWarning(problem) }
    }

    /// Notes what a write to the disk cache met: nothing (it grew) or a problem.
    private func noteWrite(_ problem: String?) {
        if let problem { noteWarning(problem) } else if directory != nil { hasGrown = true }
    }

    private func noteWarning(_ problem: String) {
        if writeWarning == nil { writeWarning = problem }
    }

    private func remember(_ result: CachedResult, for key: CacheKey) {
        guard recentCapacity > 0, recent[key] == nil else { return }
        recent[key] = result
        recentOrder.append(key)
        if recentOrder.count > recentCapacity { recent[recentOrder.removeFirst()] = nil }
    }

    /// Awaits a shared task; cancelling the waiter cancels the work.
    private static func value(of task: Task<(CachedResult, Source), any Error>) async throws -> (CachedResult, Source) {
        try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    static func entryURL(_ key: CacheKey, in directory: URL) -> URL {
        directory.appendingPathComponent(String(key.hex.prefix(2))).appendingPathComponent(key.hex + ".stk")
    }

    /// The intact entry for `key`, marked used (`CacheEviction.markUsed`).
    @concurrent
    private static func load<Entry: Sendable>(_ key: CacheKey, from directory: URL?,
                                              decode: @Sendable (Data) -> Entry?) async -> Entry? {
        guard let directory else { return nil }
        let path = entryURL(key, in: directory).path
        guard let data = try? InputFile.mapped(path), let entry = decode(data) else { return nil }
        CacheEviction.markUsed(path)
        return entry
    }

    @concurrent
    private static func evict(in directory: URL, limit: Int64) async -> String? {
        CacheEviction.trim(directory, limit: limit).problem.map { "cache not trimmed (\($0))" }
    }

    @concurrent
    private static func record(_ hash: ContentHash, for identity: InputIdentity, in directory: URL) async -> String? {
        do {
            try InputHashIndex.record(hash, for: identity, in: directory)
            return nil
        } catch {
            return "cache not written (\(error))"
        }
    }

    /// Writes the entry `encode` makes; returns a one-line problem instead of throwing.
    @concurrent
    private static func store(_ key: CacheKey, in directory: URL?, encode: @Sendable () throws -> Data) async -> String? {
        guard let directory else { return nil }
        do {
            let url = entryURL(key, in: directory)
            try ContainedFolder.createParents(of: url, under: directory)
            try AtomicFile.write(try encode(), to: url)
            return nil
        } catch {
            return "cache not written (\(error))"
        }
    }
}
