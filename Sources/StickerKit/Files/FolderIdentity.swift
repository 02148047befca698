import Glibc

/// A folder's place on disk, its device and inode: the same however a path spells it or
/// through which link it is reached.
struct FolderIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
