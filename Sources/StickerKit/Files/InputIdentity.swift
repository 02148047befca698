import FoundationEssentials
import Glibc

/// What `stat` says about an input file that changes whenever its bytes may have: device,
/// inode, size, and the modification and status-change times to the nanosecond. The
/// status-change time cannot be set by programs (unlike the modification time, which
/// `touch -d` or `cp -p` can put back), so equal identities mean the bytes were not
/// rewritten. This is the test Git's index uses to skip re-hashing unchanged files
/// (Documentation/technical/racy-git.txt), including its guard against "racily clean"
/// files: see `isSettled`.
struct InputIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    /// Nanoseconds since the epoch.
    let modified: Int64
    let changed: Int64

    /// The identity of the regular file at `path` (following links), or nil.
    init?(_ path: RawPath) {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim.nanoseconds
        changed = info.st_ctim.nanoseconds
    }

    /// Whether the file was last changed at least two seconds before `now` (nanoseconds
    /// since the epoch). Only then can a later write be told apart by its times: a write
    /// in the same clock tick as the one recorded could leave them equal, and file systems
    /// with coarse timestamps round to whole seconds (FAT to two).
    func isSettled(now: Int64) -> Bool {
        max(modified, changed) < now - 2_000_000_000
    }

    /// A stable text form, for naming and checksumming index entries.
    var key: String { "\(device):\(inode):\(size):\(modified):\(changed)" }
}
