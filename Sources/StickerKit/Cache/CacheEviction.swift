import FoundationEssentials
import Glibc

/// Keeps the disk cache under a size limit, as ccache keeps its own: after a run that
/// added to a cache now larger than the limit, the least recently used files are removed,
/// oldest first, until it holds at most `retainedShare` of the limit (so the next runs
/// need not trim again at once).
///
/// "Used" is a file's modification time: set when an entry is stored, and moved to now
/// when a run is served from an entry whose time is over `markInterval` old (`markUsed`:
/// one `stat` per hit, a metadata write at most hourly per entry). Entries are only ever
/// replaced by renaming, never rewritten in place, so the time means nothing else. Sizes
/// are what the files take on disk (`st_blocks`, as `du` counts them). Only the cache's
/// own files are touched: result entries and the files and masks made from them (all
/// `xx/<64 hex>.stk`), the input index's entries
/// (`inputs/xx/<64 hex>`, see `InputHashIndex`), and the temporary files of a write
/// whose process died before its rename, once they are `abandonedAge` old; anything else
/// in the folder is neither counted nor removed. A process still using an entry another
/// one removes keeps its mapping (the kernel frees the file when it is unmapped), or
/// misses and computes the result again.
public enum CacheEviction {
    /// The default limit: 5 GiB, ccache's default (about 5,000 stickers of 12 MP photos).
    public static let defaultLimit: Int64 = 5 << 30
    /// The share of the limit a trimmed cache holds.
    static let retainedShare = 0.8
    /// How old an entry's time must be before a hit moves it to now: an hour, in nanoseconds.
    static let markInterval: Int64 = 3600 * 1_000_000_000
    /// How old a temporary file must be to count as abandoned: a day (no write takes that
    /// long), in nanoseconds.
    static let abandonedAge: Int64 = 86_400 * 1_000_000_000

    /// What a trim found and did.
    public struct Report: Sendable, Equatable {
        /// Bytes on disk of the cache's own files before the trim, and after it.
        public var bytesBefore: Int64 = 0
        public var bytesAfter: Int64 = 0
        /// Files removed: least recently used entries and abandoned temporary files.
        public var removedFiles = 0
        /// The first failure to remove a file, if any (another process may have removed
        /// it first: that is no failure).
        public var problem: String?
    }

    /// One of the cache's own files.
    private struct CacheFile {
        let path: RawPath
        let bytes: Int64
        /// Nanoseconds since the epoch.
        let modified: Int64
    }

    /// Removes abandoned temporary files and, when the entries take more than `limit`
    /// bytes, the least recently used of them down to `retainedShare` of it.
    @discardableResult
    public static func trim(_ directory: URL, limit: Int64) -> Report {
        let now = timespec.wallClockNow.nanoseconds
        var entries: [CacheFile] = [], abandoned: [CacheFile] = []
        let root = RawPath(directory.path), inputs = root.appending(Array("inputs".utf8))
        for shard in subfolders(of: root) {
            collect(in: root.appending(shard), suffix: ".stk", now: now, entries: &entries, abandoned: &abandoned)
        }
        for shard in subfolders(of: inputs) {
            collect(in: inputs.appending(shard), suffix: "", now: now, entries: &entries, abandoned: &abandoned)
        }
        var report = Report()
        report.bytesBefore = (entries + abandoned).reduce(0) { $0 + $1.bytes }
        report.bytesAfter = report.bytesBefore
        var doomed = abandoned
        var total = entries.reduce(0) { $0 + $1.bytes }
        if total > limit {
            let target = Int64(Double(limit) * retainedShare)
            for entry in entries.sorted(by: { $0.modified < $1.modified }) where total > target {
                doomed.append(entry)
                total -= entry.bytes
            }
        }
        for file in doomed {
            if file.path.withCString({ unlink($0) }) == 0 {
                report.removedFiles += 1
                report.bytesAfter -= file.bytes
            } else if errno != ENOENT, report.problem == nil {
                report.problem = FileWriteError.cannotRemove(path: file.path.display,
                                                             reason: String(cString: strerror(errno))).description
            }
        }
        return report
    }

    /// Marks the entry at `path` used now, unless it was marked within `markInterval`.
    /// A cache this process cannot write to stays as it is.
    static func markUsed(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, timespec.wallClockNow.nanoseconds - info.st_mtim.nanoseconds > markInterval else { return }
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    /// The two-hex-digit subfolders of `folder` (where entries are sharded by name).
    private static func subfolders(of folder: RawPath) -> [[UInt8]] {
        (FolderListing.names(in: folder) ?? []).filter { $0.count == 2 && $0.allSatisfy(\.isLowercaseHexDigit) }
    }

    /// The entries (64 hex digits then `suffix`) and abandoned temporary files directly in
    /// `folder`: regular files only, never through a link.
    private static func collect(in folder: RawPath, suffix: String, now: Int64,
                                entries: inout [CacheFile], abandoned: inout [CacheFile]) {
        for name in FolderListing.names(in: folder) ?? [] {
            let isTemporary = name.starts(with: AtomicFile.temporaryPrefix.utf8)
            guard isTemporary || isEntryName(name, suffix: suffix) else { continue }
            let path = folder.appending(name)
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let file = CacheFile(path: path, bytes: Int64(info.st_blocks) * 512, modified: info.st_mtim.nanoseconds)
            if !isTemporary {
                entries.append(file)
            } else if now - file.modified > abandonedAge {
                abandoned.append(file)
            }
        }
    }

    private static func isEntryName(_ name: [UInt8], suffix: String) -> Bool {
        guard name.count == 64 + suffix.utf8.count, name.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) else { return false }
        return name.prefix(64).allSatisfy(\.isLowercaseHexDigit)
    }
}
