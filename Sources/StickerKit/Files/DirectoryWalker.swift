import FoundationEssentials
import Glibc

/// Walks a folder tree lazily, depth first, in sorted (byte) order, yielding image files.
///
/// A file counts as an image by its extension (`ImageFormat.fileExtensions`) or, when it
/// has no known extension, by its first bytes. Only regular files are considered (FIFOs
/// and devices are skipped, never opened); symbolic links to folders are not followed (no
/// loops); hidden entries, stickerize's temporary files and `excluding` (the output folders,
/// when they lie inside the input) are skipped. What the walk cannot see into is not
/// passed over in silence, as `find` reports it too: a folder it cannot list, and a link
/// named like an image that leads nowhere, are yielded as entries, so reading them fails
/// and the batch names them ("cannot open: Permission denied"). Names are read as bytes
/// (`readdir`), so a name that is not UTF-8 is found and opened like any other. Memory
/// holds one folder listing per level.
public struct DirectoryWalker: IteratorProtocol, Sendable {
    /// A file found, with its path relative to the walk's root.
    public struct Entry: Sendable, Equatable {
        public var path: RawPath
        public var relativePath: RawPath
    }

    private var pending: [[(path: RawPath, relative: RawPath)]]
    /// The folders left out, by name (standardized; one made during the walk is known
    /// only so) and, for those that exist when the walk starts, by device and inode, so a
    /// link named as an output folder leaves out the folder it leads to.
    private let excluded: Set<String>
    private let excludedFolders: Set<FolderIdentity>

    public init(root: RawPath, excluding: [String] = []) {
        excluded = Set(excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        excludedFolders = Set(excluding.compactMap { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR ? FolderIdentity(info) : nil
        })
        if let listing = DirectoryWalker.listing(of: root, relative: RawPath(bytes: [])) {
            pending = [listing]
        } else {
            pending = []
            unlistedRoot = Entry(path: root, relativePath: RawPath(bytes: root.lastComponent))
        }
    }

    /// The root, when it cannot be listed: the walk's one entry.
    private var unlistedRoot: Entry?

    public mutating func next() -> Entry? {
        if let root = unlistedRoot {
            unlistedRoot = nil
            return root
        }
        while var level = pending.last {
            guard !level.isEmpty else {
                pending.removeLast()
                continue
            }
            let entry = level.removeFirst()
            pending[pending.count - 1] = level
            let found = Entry(path: entry.path, relativePath: entry.relative)
            var info = stat()
            guard entry.path.withCString({ lstat($0, &info) }) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if !excludedFolders.contains(FolderIdentity(info)),
                   !excluded.contains(URL(fileURLWithPath: entry.path.display).standardizedFileURL.path) {
                    guard let listing = DirectoryWalker.listing(of: entry.path, relative: entry.relative) else { return found }
                    pending.append(listing)
                }
            case S_IFREG:
                if DirectoryWalker.looksLikeImage(entry.path) { return found }
            case S_IFLNK:
                var target = stat()
                guard entry.path.withCString({ stat($0, &target) }) == 0 else {
                    if ImageFormat.fileExtensions.contains(DirectoryWalker.fileExtension(entry.path)) { return found }
                    continue
                }
                if (target.st_mode & S_IFMT) == S_IFREG, DirectoryWalker.looksLikeImage(entry.path) { return found }
            default:
                continue
            }
        }
        return nil
    }

    /// The folder's visible entries, sorted by name bytes; nil when it cannot be read.
    private static func listing(of folder: RawPath, relative: RawPath) -> [(path: RawPath, relative: RawPath)]? {
        guard let names = FolderListing.names(in: folder)?.filter({ $0.first != UInt8(ascii: ".") }) else { return nil }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { name in
            (folder.appending(name), relative.appending(name))
        }
    }

    static func looksLikeImage(_ path: RawPath) -> Bool {
        let ext = fileExtension(path)
        if ImageFormat.fileExtensions.contains(ext) { return true }
        guard ext.isEmpty else { return false }
        let descriptor = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: ImageFormat.signatureLength)
        let count = read(descriptor, &head, head.count)
        return count > 0 && ImageFormat(sniffing: head.prefix(count)) != nil
    }

    /// The file name's extension, lowercased; empty when it has none.
    private static func fileExtension(_ path: RawPath) -> String {
        let name = path.lastComponent
        return name.lastIndex(of: UInt8(ascii: ".")).map { String(decoding: name[($0 + 1)...], as: UTF8.self).lowercased() } ?? ""
    }
}
