import FoundationEssentials
import Glibc

/// `--prune`: what an earlier run wrote into the output folder that this run did not
/// (its photo was removed or renamed, or the options name it otherwise now), so that the
/// folder mirrors this run's inputs, as `rsync --delete` makes a copy mirror its source.
///
/// Only files the earlier run's own `manifest.json` lists (stickers and cards, and masks
/// at the same relative paths in the mask folder) are candidates, and only regular files
/// reached without a link inside the folder are removed; folders left empty by a removal
/// go too. Anything else in the folder is never touched.
public enum StaleOutputs {
    /// The outputs the manifest in `folder` lists; empty when there is none, or when it
    /// cannot be read (nothing is removed then). Only the names are decoded.
    public static func listed(in folder: URL) -> Set<String> {
        struct Listing: Decodable {
            struct Item: Decodable {
                var output: String?
                var card: String?
            }
            var items: [Item]
        }
        let url = folder.appendingPathComponent(Manifest.fileName)
        guard let data = try? InputFile.read(url.path), let listing = try? JSONDecoder().decode(Listing.self, from: data) else {
            return []
        }
        return Set(listing.items.flatMap { [$0.output, $0.card].compactMap { $0 } })
    }

    /// Removes each of `relativePaths` from `folder` (see the type's rules); returns how
    /// many files went and the first failure, if any.
    public static func remove(_ relativePaths: some Sequence<String>, from folder: URL) -> (count: Int, problem: String?) {
        let root = folder.standardizedFileURL.path
        var count = 0
        var problem: String?
        for relativePath in relativePaths.sorted() {
            let components = relativePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            // A manifest names outputs below its folder: never an absolute path or a way out.
            guard !relativePath.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
            else { continue }
            guard let path = containedFile(components, under: root) else { continue }
            if unlink(path) == 0 {
                count += 1
                removeEmptyFolders(components.dropLast(), under: root)
            } else if errno != ENOENT, problem == nil {
                problem = "cannot remove \(path): \(String(cString: strerror(errno)))"
            }
        }
        return (count, problem)
    }

    /// The path of the regular file `components` names below `root`, when every folder on
    /// the way is a real folder (not a link) and the file itself is a regular file.
    private static func containedFile(_ components: [String], under root: String) -> String? {
        var path = root
        var info = stat()
        for (position, component) in components.enumerated() {
            path += "/" + component
            guard lstat(path, &info) == 0 else { return nil }
            let kind = info.st_mode & S_IFMT
            if position + 1 < components.count ? kind != S_IFDIR : kind != S_IFREG { return nil }
        }
        return path
    }

    /// Removes the folders `components` name below `root`, deepest first, while they are
    /// empty (`rmdir` refuses any other).
    private static func removeEmptyFolders(_ components: ArraySlice<String>, under root: String) {
        var components = components
        while !components.isEmpty, rmdir(root + "/" + components.joined(separator: "/")) == 0 {
            components.removeLast()
        }
    }
}
