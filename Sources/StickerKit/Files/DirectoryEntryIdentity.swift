import Glibc

/// Which directory entry a path names: its folder's device and inode, and its last
/// component. Every spelling of one entry has the same identity (`x/a.jpg`, `./x/a.jpg`,
/// `/abs/x/a.jpg`, `x/../x/a.jpg`, a path through a link to the folder), so a batch can
/// tell an input it has already taken, as when a folder and one inside it are both given.
/// A symbolic or hard link to the file is an entry of its own, with a name of its own.
struct DirectoryEntryIdentity: Hashable, Sendable {
    let folder: FolderIdentity
    let name: [UInt8]

    /// The entry `path` names, or nil when its folder cannot be found (the input then
    /// fails on its own when it is read).
    init?(_ path: RawPath) {
        let name = path.lastComponent
        guard !name.isEmpty, !name.elementsEqual(".".utf8), !name.elementsEqual("..".utf8) else { return nil }
        let folderEnd = path.bytes[..<name.startIndex].lastIndex { $0 != UInt8(ascii: "/") }
        let folder: RawPath
        if let folderEnd {
            folder = RawPath(bytes: path.bytes[...folderEnd])
        } else {
            folder = RawPath(name.startIndex == 0 ? "." : "/")
        }
        var info = stat()
        guard folder.withCString({ stat($0, &info) }) == 0 else { return nil }
        self.folder = FolderIdentity(info)
        self.name = Array(name)
    }
}
