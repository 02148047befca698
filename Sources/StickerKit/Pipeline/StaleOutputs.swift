import FoundationEssentials

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

    /// Removes each of `relativePaths` from `folder` (`ContainedFolder.removeFile`: never
    /// an absolute path, a way out or a link); returns how many files went and the first
    /// failure, if any.
    public static func remove(_ relativePaths: some Sequence<String>, from folder: URL) -> (count: Int, problem: String?) {
        var count = 0
        var problem: String?
        for relativePath in relativePaths.sorted() {
            do {
                if try ContainedFolder.removeFile(relativePath, under: folder) { count += 1 }
            } catch {
                problem = problem ?? error.description
            }
        }
        return (count, problem)
    }
}
