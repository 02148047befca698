import Foundation

/// Walks a folder tree lazily, depth first, in sorted order, yielding image files.
///
/// A file counts as an image by its extension (`ImageFormat.fileExtensions`) or, when it
/// has no known extension, by its first bytes. Only regular files are considered (FIFOs
/// and devices are skipped, never opened); symbolic links to folders are not followed (no
/// loops); hidden entries, stickerize's temporary files and `excluding` (the output folders,
/// when they lie inside the input) are skipped. Memory holds one folder listing per level.
public struct DirectoryWalker: IteratorProtocol, Sendable {
    /// A file found, with its path relative to the walk's root.
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var relativePath: String
    }

    private var pending: [[(path: String, relative: String)]]
    private let excluded: Set<String>

    public init(root: String, excluding: [String] = []) {
        excluded = Set(excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        pending = []
        pending.append(DirectoryWalker.listing(of: root, relative: ""))
    }

    public mutating func next() -> Entry? {
        while var level = pending.last {
            guard !level.isEmpty else {
                pending.removeLast()
                continue
            }
            let entry = level.removeFirst()
            pending[pending.count - 1] = level
            var info = stat()
            guard lstat(entry.path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if !excluded.contains(URL(fileURLWithPath: entry.path).standardizedFileURL.path) {
                    pending.append(DirectoryWalker.listing(of: entry.path, relative: entry.relative))
                }
            case S_IFREG:
                if DirectoryWalker.looksLikeImage(entry.path) {
                    return Entry(path: entry.path, relativePath: entry.relative)
                }
            case S_IFLNK:
                var target = stat()
                if stat(entry.path, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG,
                   DirectoryWalker.looksLikeImage(entry.path) {
                    return Entry(path: entry.path, relativePath: entry.relative)
                }
            default:
                continue
            }
        }
        return nil
    }

    private static func listing(of folder: String, relative: String) -> [(path: String, relative: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { name in
            ((folder as NSString).appendingPathComponent(name), relative.isEmpty ? name : relative + "/" + name)
        }
    }

    static func looksLikeImage(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        if ImageFormat.fileExtensions.contains(ext) { return true }
        guard ext.isEmpty else { return false }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 8)
        let count = read(descriptor, &head, 8)
        return count > 0 && ImageFormat(sniffing: head.prefix(count)) != nil
    }
}
